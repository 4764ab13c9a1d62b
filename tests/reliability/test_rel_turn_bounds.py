"""Issue 24, break 3: one model turn is bounded in fan-out, and a repeated call id is refused.

A turn may propose at most `limits.max_parallel_calls` calls (default 16). A turn of 1,000 calls
once ran them all (or saved a checkpoint per call, 47.8 s, then `budget_exceeded`); now it is one
`blocked` event (`too_many_calls`), none of its calls runs, the model is told, and the run goes
on to its next turn. Two calls with one call id in one turn once failed the run with an
`agent_error` that could not be resumed; now the second is `blocked` (`duplicate_call_id`) and
the first runs. Ctrl-C during a turn of 5,000 calls stops the process promptly.

Scripted runs (`--model scripted:FILE`, ids repeated with `"id": N`) through `briefdesk-cli` in a
real subprocess; the verdict is read from the timeline and the files.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import CliRunner, cli_command, cli_env, interruptible
from tests.support.waiting import wait_until

TOOL_ARGS = {
    "search_corpus": lambda i: {"query": f"checkpoint {i}"},
    "save_brief": lambda i: {"relative_path": f"briefs/b{i}.md", "content": f"brief {i}\n"},
}
QUICK_S = 60  # the SDK import included; a turn that pauses per call takes minutes


def _script(tmp_path: Path, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(turns), encoding="utf-8")
    return f"scripted:{path}"


def _events(cli: CliRunner, run_id: str, kind: str) -> list[dict[str, Any]]:
    events = cli("timeline", run_id, check=True).body["events"]
    return [e for e in events if e["kind"] == kind]


@pytest.mark.parametrize("tool", ["search_corpus", "save_brief"])
def test_a_turn_of_a_thousand_calls_is_refused_as_one_block_and_the_run_goes_on(
    cli: CliRunner, home: Path, tmp_path: Path, tool: str
) -> None:
    model = _script(
        tmp_path,
        [
            {"calls": [{"call": tool, "args": TOOL_ARGS[tool](i)} for i in range(1000)]},
            {"call": "search_corpus", "args": {"query": "after the refused turn"}},
            {"say": "done"},
        ],
    )
    run = cli(
        "run", "--question", "q", "--model", model, "--mode", "acceptEdits",
        "--max-tool-calls", "100000", timeout=QUICK_S,
    ).body  # fmt: skip
    assert run.get("status") == "succeeded", run
    assert run["output"] == "done"
    [blocked] = _events(cli, run["run_id"], "blocked")
    assert blocked["data"]["code"] == "too_many_calls", blocked
    assert blocked["data"]["calls"] == 1000 and blocked["data"]["limit"] == 16
    called = _events(cli, run["run_id"], "tool_called")
    assert [(e["tool"], e["data"]["args"]) for e in called] == [
        ("search_corpus", {"query": "after the refused turn", "limit": 5})
    ]
    assert [e["data"]["turn"] for e in _events(cli, run["run_id"], "model_turn")] == [1, 2, 3]
    assert not list((home / "artifacts").rglob("*.md"))  # not one of the writes happened
    assert len(_events(cli, run["run_id"], "checkpoint_saved")) <= 4  # none per refused call


def test_the_parallel_call_limit_is_a_setting(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    cli("settings", "set", "limits.max_parallel_calls", "2", check=True)
    refused = cli("settings", "set", "limits.max_parallel_calls", "0")
    assert refused.code == 2 and refused.body["error"]["code"] == "invalid_arguments"
    calls = [{"call": "search_corpus", "args": {"query": f"q{i}"}} for i in range(3)]
    model = _script(tmp_path, [{"calls": calls[:2]}, {"calls": calls}, {"say": "done"}])
    run = cli("run", "--question", "q", "--model", model, timeout=QUICK_S).body
    assert run.get("status") == "succeeded", run
    [blocked] = _events(cli, run["run_id"], "blocked")
    assert (blocked["data"]["code"], blocked["data"]["calls"]) == ("too_many_calls", 3)
    assert len(_events(cli, run["run_id"], "tool_called")) == 2  # the first turn's two


@pytest.mark.parametrize("tool", ["search_corpus", "save_brief"])
def test_a_second_call_with_the_same_id_is_blocked_and_the_first_runs(
    cli: CliRunner, home: Path, tmp_path: Path, tool: str
) -> None:
    first, second = TOOL_ARGS[tool](1), TOOL_ARGS[tool](2)
    model = _script(
        tmp_path,
        [
            {"calls": [{"call": tool, "args": args, "id": 0} for args in (first, second)]},
            {"say": "done"},
        ],
    )
    run = cli(
        "run", "--question", "q", "--model", model, "--mode", "acceptEdits", timeout=QUICK_S
    ).body  # fmt: skip
    assert run.get("status") == "succeeded", run
    assert run["output"] == "done"
    [blocked] = _events(cli, run["run_id"], "blocked")
    assert blocked["data"]["code"] == "duplicate_call_id", blocked
    [called] = _events(cli, run["run_id"], "tool_called")
    assert called["data"]["call_id"] == blocked["data"]["call_id"]
    assert {k: called["data"]["args"][k] for k in first} == first  # the first one ran
    executed = [e for e in _events(cli, run["run_id"], "tool_result") if e["data"]["executed"]]
    assert [e["data"]["call_id"] for e in executed] == [called["data"]["call_id"]]
    if tool == "save_brief":
        assert sorted(p.name for p in (home / "artifacts").rglob("*.md")) == ["b1.md"]


def _calls_handled(db: Path) -> bool:
    """The turn's calls are being handled: refused, or (as before) decided one by one."""
    if not db.exists():
        return False
    kinds = "'blocked', 'checkpoint_saved', 'approval_requested'"
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.2) as conn:
            return bool(conn.execute(f"SELECT 1 FROM events WHERE kind IN ({kinds})").fetchone())
    except sqlite3.OperationalError:  # not created yet, or busy for a moment
        return False


def test_ctrl_c_during_a_turn_of_five_thousand_calls_stops_the_process_promptly(
    home: Path, tmp_path: Path
) -> None:
    calls = [{"call": "save_brief", "args": TOOL_ARGS["save_brief"](i)} for i in range(5000)]
    model = _script(tmp_path, [{"calls": calls}, {"say": "done"}])
    proc = subprocess.Popen(
        cli_command("--home", str(home), "--json", "run",
                    "--question", "q", "--model", model, "--max-tool-calls", "100000"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(),
        preexec_fn=interruptible,
    )  # fmt: skip
    try:
        wait_until(
            lambda: _calls_handled(home / "state.db") or proc.poll() is not None,
            timeout=QUICK_S,
            message="the turn's calls were never handled",
        )
        proc.send_signal(signal.SIGINT)
        out, _err = proc.communicate(timeout=15)  # promptly: not the 30 s it once ignored it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, 130), (proc.returncode, out, _err)
    assert json.loads(out)["api"] == 1
