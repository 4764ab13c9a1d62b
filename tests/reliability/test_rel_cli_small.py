"""Issue 18 item 12 and two CLI points of issue 12: the small breaks of the command line.

Ctrl-C under --json, `--help --json`, an edit to `briefs/`, `--run` of an unknown run, a
`state.db` that is a folder, an argument that is not UTF-8, and `runs | head`. In-process
through `main` where the process boundary is not the point; a real subprocess for Ctrl-C (a
real SIGINT) and for a closed pipe.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import REPO_ROOT, cli_command, cli_env, interruptible
from tests.support.cli import CliRunner as Cli
from tests.support.cli import db_rows as _rows


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def _scripted(tmp_path: Path, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(turns), encoding="utf-8")
    return f"scripted:{path}"


# -- Ctrl-C ---------------------------------------------------------------------------------


@pytest.fixture
def silent_endpoint() -> Iterator[tuple[str, threading.Event]]:
    """A model endpoint on 127.0.0.1 that accepts the connection and never answers."""
    server = socket.create_server(("127.0.0.1", 0))
    connected = threading.Event()
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            connected.set()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}/v1", connected
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_ctrl_c_under_json_prints_the_interrupted_run(
    cli: Cli, home: Path, silent_endpoint: tuple[str, threading.Event]
) -> None:
    base_url, connected = silent_endpoint
    assert cli("settings", "set", "openai.base_url", base_url).code == 0
    command = ["run", "--question", "How do checkpoints work?", "--model", "openai"]
    proc = subprocess.Popen(
        cli_command("--home", str(home), "--json", *command),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(BRIEFDESK_OPENAI_API_KEY="sk-test-not-a-real-key"),
        cwd=REPO_ROOT,
        preexec_fn=interruptible,
    )
    try:
        assert connected.wait(120), "the run never called its model"
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends, while the run waits on its model
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err, err
    body = json.loads(out)
    # The run as its lifecycle left it: given back (RELEASE), so `resume` continues it.
    assert body["api"] == 1 and body["status"] == "interrupted", body
    assert _rows(home, "SELECT status FROM runs WHERE run_id = ?", body["run_id"]) == [
        ("interrupted",)
    ]


class _CtrlCOnRead:
    """stdin of a person who presses Ctrl-C instead of typing (the read raises, as it would)."""

    def read(self, *_: object) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_without_a_run_prints_an_error_object(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", _CtrlCOnRead())
    code, body = cli("keys", "set", "openai")  # reads the secret from stdin
    assert code == 130
    assert body["api"] == 1 and body["error"]["code"] == "interrupted", body


def test_an_argument_that_is_not_utf8_is_refused(cli: Cli, home: Path) -> None:
    # Python hands argv bytes that are not UTF-8 (`--question $'caf\xe9'` in a Latin-1
    # terminal) over as lone surrogates, which SQLite cannot store.
    code, body = cli("run", "--question", "caf\udce9 notes")
    assert (code, body["error"]["code"]) == (2, "invalid_arguments"), body
    assert "caf\\udce9 notes" in body["error"]["message"]
    assert not (home / "state.db").exists()


# -- --help --json --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "usage"),
    [(["--help"], "usage: briefdesk-cli "), (["runs", "--help"], "usage: briefdesk-cli runs ")],
)
def test_help_with_json_is_one_json_object(
    cli: Cli, home: Path, args: list[str], usage: str
) -> None:
    code, body = cli(*args)
    assert code == 0
    assert set(body) == {"api", "help"} and body["help"].startswith(usage), body
    assert not home.exists()  # asking for help opens no home


# -- an edit to a folder --------------------------------------------------------------------


def test_an_edit_to_a_folder_path_is_refused(cli: Cli, home: Path, tmp_path: Path) -> None:
    model = _scripted(
        tmp_path,
        [{"call": "save_brief", "args": {"relative_path": "notes.md", "content": "# Notes\n"}}],
    )
    code, run = cli("run", "--question", "Notes please", "--model", model)
    assert (code, run["status"]) == (0, "waiting_approval"), run
    [approval] = run["approvals"]
    for folder in ("briefs/", "briefs/."):
        edited = json.dumps({"relative_path": folder, "content": "# Notes\n"})
        code, body = cli("approvals", "edit", approval["id"], "--reviewer", "ann", "--args", edited)
        assert (code, body["error"]["code"]) == (2, "invalid_arguments"), body
    # Nothing changed: the proposal still waits, no new version, nothing written.
    assert _rows(home, "SELECT id, status FROM approvals") == [(approval["id"], "pending")]
    assert _files(home / "artifacts") == []


def test_a_model_proposing_a_folder_path_is_refused(cli: Cli, home: Path, tmp_path: Path) -> None:
    model = _scripted(
        tmp_path,
        [
            {"call": "save_brief", "args": {"relative_path": "briefs/", "content": "# B\n"}},
            {"say": "done"},
        ],
    )
    code, run = cli("run", "--question", "A brief", "--model", model, "--mode", "acceptEdits")
    assert (code, run["status"]) == (0, "succeeded"), run
    code, timeline = cli("timeline", run["run_id"])
    blocked = [e["data"] for e in timeline["events"] if e["kind"] == "blocked"]
    assert [b["code"] for b in blocked] == ["invalid_arguments"], blocked
    assert _rows(home, "SELECT COUNT(*) FROM approvals") == [(0,)]
    assert _files(home / "artifacts") == []


# -- --run of an unknown run ----------------------------------------------------------------


@pytest.mark.parametrize("command", [["audit"], ["approvals", "list"]])
def test_an_unknown_run_is_not_found(cli: Cli, command: list[str]) -> None:
    code, body = cli(*command, "--run", "run-000000000000")
    assert (code, body["error"]["code"]) == (2, "not_found"), body


def test_a_deleted_runs_audit_record_stays_readable(cli: Cli, tmp_path: Path) -> None:
    model = _scripted(
        tmp_path, [{"call": "save_brief", "args": {"relative_path": "a.md", "content": "# A\n"}}]
    )
    run = cli("run", "--question", "A", "--model", model).body
    assert cli("cancel", run["run_id"], "--reviewer", "ann").body["status"] == "cancelled"
    assert cli("runs", "delete", run["run_id"]).code == 0
    code, body = cli("audit", "--run", run["run_id"])
    assert code == 0 and [e["decision"] for e in body["entries"]] == ["cancelled"], body


# -- a state.db that is a folder ------------------------------------------------------------


def test_a_state_db_folder_is_named_as_such(cli: Cli, home: Path) -> None:
    (home / "state.db").mkdir(parents=True)
    code, body = cli("runs")
    assert code == 2
    assert body["error"]["code"] == "storage_corrupt", body
    assert "is a folder, not a database" in body["error"]["message"]
    assert (home / "state.db").is_dir() and not any((home / "state.db").iterdir())


# -- a reader that leaves early -------------------------------------------------------------


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_runs_into_a_closed_pipe_exits_quietly(home: Path, json_flag: list[str]) -> None:
    """`briefdesk-cli runs | head -1` once head has gone: the pipe has no reader left."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader left before anything was written
    try:
        proc = subprocess.run(
            cli_command("--home", str(home), *json_flag, "runs"),
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
            cwd=REPO_ROOT,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert proc.stderr == ""
    assert proc.returncode in (0, 141)
