"""A read through `briefdesk-cli hook` stays small (contract, "Which commands may take time":
`hook` never imports the Agents SDK; a read-only call is answered in well under a second).

Claude Code calls the hook twice per tool call (before and after it), so every read an agent
makes waits for two hook processes, and what a process costs is mostly what it imports. This
guards the shape, not the time: real hook processes (`-X importtime`) answer a read and record
its outcome in a session that already has its run, and none of them imports a module from the
list below, each of which a read once paid for. The reads are still allowed and recorded.
"""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

from agent_core.contract.json_types import JsonObject
from agent_core.facade.workspace import Workspace
from tests.support.cli import cli_command, cli_env

PAYLOADS = Path(__file__).parent / "payloads" / "claude-code"

HEAVY: dict[str, str] = {
    "agents": "the Agents SDK (seconds of import; never in a hook)",
    "openai": "the Agents SDK's client",
    "pydantic": "the tool specs of BriefDesk's own tools",
    "agent_core.facade.workspace": "the whole façade: a hook opens only the home and its store",
    "agent_core.cli.commands": "the other commands' dispatcher",
    "agent_core.tools.registry": "BriefDesk's own tools",
    "agent_core.review": "proposals, expiry and rules: not for a read",
    "agent_core.corpus": "the corpus and its formats",
    "sqlalchemy.dialects.postgresql": "PostgreSQL's dialect, on a home's SQLite file",
    "psutil": "looking at processes: no run is driven by a hook",
    "keyring.backends.macOS": "keyring's scan of every backend it knows",
    "filelock": "the migration lock: only an upgrade takes it",
    "alembic": "migrations: the home is at its head",
}
"""Module (or package) -> why a read must not import it."""


def _imported(stderr: str) -> set[str]:
    """The modules a `python -X importtime` process imported, from its report on stderr."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip())
    names.discard("package")  # the report's header line
    return names


def _heavy_in(imported: set[str]) -> dict[str, str]:
    return {
        name: why
        for name, why in HEAVY.items()
        if any(module == name or module.startswith(name + ".") for module in imported)
    }


def _hook(home: Path, payload: JsonObject, env: dict[str, str]) -> tuple[JsonObject, set[str]]:
    python, *rest = cli_command("--home", str(home), "hook", "claude-code")
    done = subprocess.run(
        [python, "-X", "importtime", *rest],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    answer: JsonObject = json.loads(done.stdout)
    return answer, _imported(done.stderr)


def _decision(answer: JsonObject) -> object:
    specific = answer.get("hookSpecificOutput")
    assert isinstance(specific, dict), answer
    return specific.get("permissionDecision")


def test_a_read_and_its_outcome_import_nothing_heavy_and_are_still_recorded(
    ws: Workspace, home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("alpha\n", encoding="utf-8")
    session_id = str(uuid.uuid4())

    def payload(name: str, call_id: str) -> JsonObject:
        text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
        text = text.replace("{cwd}", str(project)).replace("{home}", str(home))
        loaded: JsonObject = json.loads(text.replace("{project}", "p"))
        loaded["session_id"] = session_id
        loaded["tool_use_id"] = call_id
        return loaded

    # No keyring is configured or reachable: the hook chooses the backend keyring would, as
    # on any Linux desk, and no developer's own keyring is asked.
    env = {
        key: value
        for key, value in cli_env(XDG_CONFIG_HOME=str(tmp_path / "config")).items()
        if not key.startswith(("PYTHON_KEYRING_", "KEYRING_"))
    }
    env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={tmp_path / 'no-bus'}"

    first, _ = _hook(home, payload("pre_tool_read", "toolu_first"), env)  # the session's run
    assert _decision(first) == "allow"

    before, imported_before = _hook(home, payload("pre_tool_read", "toolu_second"), env)
    after, imported_after = _hook(home, payload("post_tool_read", "toolu_second"), env)

    assert _decision(before) == "allow"
    assert "agent_core.external_agents.hook" in imported_before  # the report is read right
    heavy_before, heavy_after = _heavy_in(imported_before), _heavy_in(imported_after)
    assert not heavy_before, heavy_before
    assert not heavy_after, heavy_after
    (run,) = ws.list_runs()
    second = [
        (e["kind"], e["data"].get("outcome"), e["data"].get("executed"))
        for e in ws.timeline(run["run_id"])
        if e["tool"] == "Read" and e["data"].get("call_id") == "toolu_second"
    ]
    assert second == [  # allowed at once (not run by BriefDesk), then the agent ran it
        ("tool_called", None, None),
        ("tool_result", "allowed", False),
        ("tool_result", "done", True),
    ]
    assert after == {}  # an outcome is recorded, never decided
