"""Issue 39, break 1: every secret BriefDesk holds is masked by its value, whatever its shape and
whatever the run's model.

Two keys of no known shape live in a real, throwaway Secret Service (tests/support/
secret_service.py), stored by `briefdesk-cli keys set` in processes of their own: the model key
`openai` (`vllm-...`, no `sk-`), and an MCP server's `keyring:` secret holding characters JSON
escapes (`"`, `\\`, `é`). In team mode the team database's password (read by libpq from
PGPASSFILE) is the third. One fresh process then drives the desk through the facade, the doors
the CLI uses too: an offline run with the keys in its question, a request for changes, edited
arguments, an approve reason and a reject reason; a corpus document holding them, indexed; a
scripted run that calls an MCP server whose result hands back its secret. Nothing of them may
stay: not in the raw bytes of `state.db` (and its WAL), `logs/` or the artifacts, not in the
terms of the corpus's full-text index, not in any column of the team database. Each key ends in
32 random lowercase hex digits, its unique part: any copy, however escaped or case-folded,
still holds them.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.fixtures.attacks.layout import files_containing
from tests.security.test_canary_key import KeyringCli
from tests.support.mcp_servers.real import FAULT_SERVER
from tests.support.secret_service import (
    SecretServiceEnv,
    fixture_secret_service_env,  # noqa: F401
)
from tests.support.store_backends import StoreBackend

pytestmark = [pytest.mark.keyring, pytest.mark.slow]

MASK = "[REDACTED]"
MCP_SECRET = "srv-token"


def _tail() -> str:
    return uuid.uuid4().hex


def test_secrets_of_any_shape_are_masked_at_every_door_of_offline_and_scripted_runs(
    secret_service_env: SecretServiceEnv,
    tmp_path: Path,
    store_backend: StoreBackend,
) -> None:
    model_tail, mcp_tail = _tail(), _tail()
    model_key = "vllm-Zq8-" + model_tail  # 41 characters, no known shape
    mcp_key = 'mcp"quoted\\slashed-é-' + mcp_tail  # escaped in every JSON text
    home = store_backend.prepare(tmp_path / "home")
    cli = KeyringCli(home, secret_service_env, **store_backend.app_env())
    for name, key in (("openai", model_key), (MCP_SECRET, mcp_key)):
        code, stored = cli("keys", "set", name, stdin=key + "\n")
        assert (code, stored["stored"]) == (0, True), stored
    tails = {"model key": model_tail, "MCP secret": mcp_tail}
    secrets = {"model key": model_key, "MCP secret": mcp_key}
    if store_backend.server is not None:
        password = _passfile_password(store_backend.server.passfile)
        secrets["team password"] = tails["team password"] = password

    driven = subprocess.run(
        [sys.executable, "-c", _DRIVE, str(home), json.dumps(secrets), str(FAULT_SERVER)],
        capture_output=True,
        text=True,
        env=cli.env,
        timeout=300,
    )
    assert driven.returncode == 0, driven.stdout + driven.stderr
    said = json.loads(driven.stdout)
    assert said["statuses"] == ["succeeded", "cancelled", "succeeded"], said
    assert said["mcp_executed"] is True, said

    document = str(home / "corpus" / "deploy-notes.md")  # the person's own file, as written
    leaks = {
        tail: stored
        for tail, files in files_containing(home, list(tails.values())).items()
        if (stored := [f for f in files if f != document])
    }
    assert leaks == {}, f"in the home's files: {leaks} ({tails})"
    assert _fts_terms_with(home / "state.db", tails) == []
    stored = "".join(
        (home / name).read_bytes().decode("utf-8", "replace")
        for name in ("state.db", "state.db-wal")
        if (home / name).exists()
    )
    if store_backend.server is not None:
        team = _team_rows(home)
        leaked = [f"{t}: {what}" for t, rows in team.items() for what in _holding(rows, tails)]
        assert leaked == []
        stored = "".join(team.values())
    # The server did hand its secret back (its environment), and it was stored masked.
    assert re.search(r"TOKEN\W{1,12}\[REDACTED\]", stored)
    outputs = [*cli.outputs, driven.stdout, driven.stderr]
    assert not [out for out in outputs for secret in secrets.values() if secret in out]
    assert said["reasons_masked"] is True and said["edited_masked"] is True, said


def _holding(text: str, tails: dict[str, str]) -> list[str]:
    return [what for what, tail in tails.items() if tail in text]


def _passfile_password(passfile: Path) -> str:
    return passfile.read_text(encoding="utf-8").strip().splitlines()[0].rsplit(":", 1)[1]


def _fts_terms_with(db: Path, tails: dict[str, str]) -> list[str]:
    """Terms of the corpus's full-text index holding a secret's unique part (FTS5 stores its
    terms prefix-compressed: a grep of the file's bytes cannot see them)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        conn.execute("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, corpus_fts, 'row')")
        terms = [str(term) for (term,) in conn.execute("SELECT term FROM temp.terms")]
    assert terms  # the documents are indexed
    return [t for t in terms for tail in tails.values() if tail.lower() in t]


def _team_rows(home: Path) -> dict[str, str]:
    """Every row of every table of the team database, as text."""
    from agent_core.facade.workspace import Workspace

    ws = Workspace(home)
    try:
        url = ws.store.write_engine.url.set(drivername="postgresql")
    finally:
        ws.close()
    with psycopg.connect(url.render_as_string(hide_password=False)) as conn:
        tables = [
            str(name)
            for (name,) in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
            )
        ]
        rows = {t: repr(conn.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables}
    assert "[REDACTED]" in rows["runs"]  # the question, masked
    return rows


# The desk's process: everything a person, a model, a document and a server hand BriefDesk.
_DRIVE = """
import json, sys
from pathlib import Path
from tests.security.test_secrets_by_value import drive
print(json.dumps(drive(Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3])))
"""


def drive(home: Path, secrets: dict[str, str], fault_server: str) -> dict[str, Any]:
    """The desk's secrets are loaded at its first mask (the first question, without the MCP
    secret: no server takes it yet), and again once `mcp add` names the MCP secret."""
    from agent_core.facade.workspace import Workspace

    said = " and ".join(secrets.values())
    ws = Workspace(home)
    try:
        before = " and ".join(v for k, v in secrets.items() if k != "MCP secret")
        first = ws.start_run(f"Write a brief on checkpoints; my keys: {before}")
        [proposal] = first["approvals"]
        ws.mcp_add("echo", sys.executable, [fault_server],
                   env=[f"TOKEN=keyring:{MCP_SECRET}"], trust_hints=True)  # fmt: skip
        notes = Path(ws.corpus_root()) / "deploy-notes.md"
        notes.write_text(f"# Deploy notes\n\nThe endpoint keys are {said}.\n", encoding="utf-8")
        indexed = ws.reindex_corpus()["indexed"]

        revise = ws.reject(proposal["id"], reviewer="ada", reason=f"shorter; keys {said}",
                           revise=True)  # fmt: skip
        again = ws.resume(first["run_id"])
        [second] = again["approvals"]
        content = f"{second['args']['content']}\nDeploy keys: {said}\n"
        args = {"relative_path": second["args"]["relative_path"], "content": content}
        edited = ws.edit(second["id"], reviewer="ada", args=json.dumps(args))
        approved = ws.approve(edited["id"], reviewer="ada", reason=f"fine without {said}")
        done = ws.resume(first["run_id"])

        other = ws.start_run("A brief on durable runs, please.")
        [third] = other["approvals"]
        rejected = ws.reject(third["id"], reviewer="ada", reason=f"not with {said} in it")
        cancelled = ws.resume(other["run_id"])

        script = home.parent / "show-env.json"
        script.write_text(json.dumps([{"call": "mcp__echo__show_env", "args": {}}, {"say": said}]))
        scripted = ws.start_run(f"What is your environment? {said}", model=f"scripted:{script}")
        results = [e["data"] for e in ws.timeline(scripted["run_id"])
                   if e["kind"] == "tool_result"]  # fmt: skip
        reasons = [revise, approved, rejected]
        return {
            "statuses": [done["status"], cancelled["status"], scripted["status"]],
            "indexed": indexed,
            "reasons_masked": all(MASK in str(r["decision_reason"]) for r in reasons),
            "edited_masked": MASK in edited["args"]["content"],
            "mcp_executed": any(r.get("executed") for r in results),
        }
    finally:
        ws.close()
