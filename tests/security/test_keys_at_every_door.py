"""Issue 24, break 2: a known key is masked at every door where text enters storage or a prompt.

The configured key (`BRIEFDESK_OPENAI_API_KEY`, the headless override) is not key-shaped, so
only knowing it can mask it. A person pastes it into a request for changes, edited arguments,
an approve reason and a reject reason; a model endpoint echoes it in its tool-call arguments and
its final answer. Real `briefdesk-cli` subprocesses drive a run of `--model openai` against the
OpenAI-protocol server on 127.0.0.1, and the proof is read from outside: the bodies the endpoint
received, every byte under the home (state.db with its WAL, logs, the artifacts), every CLI
output, and the team database that `db copy` fills from the home.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core.contract.json_types import JsonValue
from agent_core.models.planned import History, PlannedCall, TurnPlan
from tests.fixtures.attacks.layout import files_containing
from tests.support.cli import CliResult, CliRunner
from tests.support.fake_openai import FakeOpenAI, RecordedRequest
from tests.support.pg import PgServer

pytestmark = pytest.mark.slow

QUESTION = "How do checkpoints make agent runs durable?"
MASK = "[REDACTED]"


class KeyedCli:
    """briefdesk-cli with the key configured; keeps every output for the leak check."""

    def __init__(self, home: Path, key: str) -> None:
        self.runner = CliRunner(home)
        self.env = {"BRIEFDESK_OPENAI_API_KEY": key}
        self.outputs: list[str] = []

    def __call__(self, *args: str, code: int = 0) -> dict[str, Any]:
        result: CliResult = self.runner(*args, env=self.env)
        self.outputs += [result.stdout, result.stderr]
        assert "Traceback" not in result.stderr, result.stderr
        assert result.code == code, result.stdout + result.stderr
        return result.body


def _canary() -> str:
    return "canary" + uuid.uuid4().hex + uuid.uuid4().hex[:8]


def _assert_only_on_the_wire(requests: list[RecordedRequest], canary: str) -> None:
    assert requests
    for request in requests:
        assert request.header("Authorization") == f"Bearer {canary}"  # the key was used...
        assert canary.encode() not in request.body  # ...and never sent as text


def _bodies(requests: list[RecordedRequest]) -> str:
    return "\n".join(r.body.decode("utf-8") for r in requests)


def _rows(home: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(home / "state.db") as db:
        return list(db.execute(sql))


def test_a_key_pasted_into_a_note_a_reason_or_edited_args_reaches_neither_model_nor_home(
    home: Path,
) -> None:
    canary = _canary()
    cli = KeyedCli(home, canary)
    with FakeOpenAI(api_key=canary) as server:
        cli("settings", "set", "openai.base_url", server.base_url)
        run = cli("run", "--question", QUESTION, "--model", "openai")
        assert run["status"] == "waiting_approval", run
        run_id, [first] = run["run_id"], run["approvals"]

        # A request for changes: the note goes to the model when the run resumes.
        note = f"call it short.md, shorter; my key is {canary}"
        sent = cli(
            "approvals", "reject", first["id"], "--reviewer", "ada", "--reason", note, "--revise"
        )["approval"]
        assert sent["decision_reason"] == f"call it short.md, shorter; my key is {MASK}"
        resumed = cli("resume", run_id)
        assert resumed["status"] == "waiting_approval", resumed
        [second] = resumed["approvals"]

        # Edited arguments, then an approve reason.
        content = second["args"]["content"] + f"\nDeploy key: {canary}\n"
        edit = json.dumps({"relative_path": "briefs/short.md", "content": content})
        edited = cli("approvals", "edit", second["id"], "--reviewer", "ada", "--args", edit)
        edited_args = edited["approval"]["args"]
        assert edited_args["content"].endswith(f"\nDeploy key: {MASK}\n"), edited_args
        approved = cli(
            "approvals", "approve", edited["approval"]["id"], "--reviewer", "ada",
            "--reason", f"fine once the key {canary} is out",
        )["approval"]  # fmt: skip
        assert approved["decision_reason"] == f"fine once the key {MASK} is out"
        done = cli("resume", run_id)
        assert done["status"] == "succeeded", done

        # A reject reason, on a second run: the model reads it too.
        other = cli("run", "--question", QUESTION, "--model", "openai")
        [proposal] = other["approvals"]
        cli(
            "approvals", "reject", proposal["id"], "--reviewer", "ada",
            "--reason", f"not with {canary} in it",
        )  # fmt: skip
        ended = cli("resume", other["run_id"])
        assert ended["status"] == "cancelled", ended
        requests = server.requests
        cli("timeline", run_id)
        cli("audit")

    brief = Path(edited["approval"]["target"])
    assert brief.read_text(encoding="utf-8") == edited_args["content"]
    _assert_only_on_the_wire(requests, canary)
    said = _bodies(requests)
    assert f"my key is {MASK}" in said  # the note reached the model, masked
    assert f"not with {MASK} in it" in said  # and so did the reject reason
    audit = [detail for (detail,) in _rows(home, "SELECT detail FROM audit") if detail]
    assert f"fine once the key {MASK} is out" in audit
    assert (home / "state.db").is_file()
    assert files_containing(home, [canary]) == {}
    assert [out for out in cli.outputs if canary in out] == []


def _echoes(canary: str) -> Any:
    """An endpoint that echoes the key: in a search, in the brief it proposes, in its answer."""

    def plan(history: History) -> TurnPlan:
        tools = [c.tool for c in history.calls]
        if not tools:
            query: dict[str, JsonValue] = {"query": f"durable checkpoints {canary}", "limit": 3}
            return TurnPlan([PlannedCall("search_corpus", query)])
        if "save_brief" not in tools:
            content = f"# Durable runs\n\nCheckpoints make runs durable. The key: {canary}\n"
            args: dict[str, JsonValue] = {"relative_path": "briefs/echo.md", "content": content}
            return TurnPlan([PlannedCall("save_brief", args)])
        return TurnPlan(say=f"Saved briefs/echo.md; the key was {canary}.")

    return plan


def test_a_key_echoed_by_the_model_is_masked_in_output_session_items_blobs_and_events(
    home: Path, pg_server: PgServer
) -> None:
    canary = _canary()
    cli = KeyedCli(home, canary)
    with FakeOpenAI(api_key=canary, planner=_echoes(canary)) as server:
        cli("settings", "set", "openai.base_url", server.base_url)
        run = cli("run", "--question", QUESTION, "--model", "openai")
        assert run["status"] == "waiting_approval", run
        run_id, [proposal] = run["run_id"], run["approvals"]
        assert proposal["args"]["content"].endswith(f"The key: {MASK}\n")
        # The pause's RunState blob is masked and still valid JSON: resume loads it below.
        [(state,)] = _rows(
            home,
            "SELECT b.data FROM blobs b JOIN runs r ON r.state_digest = b.digest "
            f"WHERE r.run_id = '{run_id}'",
        )
        text = bytes(state).decode("utf-8")
        assert json.loads(text) and MASK in text
        raw = [json.loads(a) for (a,) in _rows(home, "SELECT raw_args FROM tool_calls")]
        assert f"durable checkpoints {MASK}" in [a.get("query") for a in raw]
        cli("approvals", "approve", proposal["id"], "--reviewer", "ada")
        done = cli("resume", run_id)
        requests = server.requests
        events = cli("timeline", run_id)["events"]
    assert done["status"] == "succeeded", done
    assert done["output"] == f"Saved briefs/echo.md; the key was {MASK}."
    assert Path(proposal["target"]).read_text(encoding="utf-8") == proposal["args"]["content"]
    items = [json.loads(i) for (i,) in _rows(home, "SELECT item_json FROM session_items")]
    assert items and MASK in json.dumps(items)
    assert any(e["kind"] == "model_turn" for e in events)
    # The model's own echoes were masked before they joined the conversation it is sent back.
    _assert_only_on_the_wire(requests, canary)
    assert files_containing(home, [canary]) == {}

    # `db copy` carries what the home stores: the team database holds no key either.
    url = pg_server.create_database(empty=True)
    copied = cli("db", "copy", "--to", url)
    assert copied["verified"] is True, copied
    from agent_core.storage.location import parse_db_url
    from agent_core.storage.migrate.home import open_store
    from agent_core.storage.schema import metadata

    team = open_store(parse_db_url(url))
    try:
        with team.read() as conn:
            stored = {t.name: repr(conn.execute(select(t)).all()) for t in metadata.sorted_tables}
    finally:
        team.dispose()
    assert MASK in stored["session_items"]
    assert [name for name, rows in stored.items() if canary in rows] == []
    assert [out for out in cli.outputs if canary in out] == []
