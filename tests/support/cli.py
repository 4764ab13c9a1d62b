"""The one way tests run `briefdesk-cli`: `CliRunner`, in a real subprocess or in the test's own
process, behind one API and one result type (`CliResult`).

- `CliRunner(home)`: a real subprocess, the way reviewers and scripts run it (the process
  boundary, exit codes from signals, a crash drill's environment are then what is tested).
- `CliRunner(home, capsys)`: in the test's own process (no interpreter start, no SDK import
  per call) for tests where the process boundary is not the point. Output is checked as a
  user's script would: exactly one strict JSON object on stdout (no NaN or Infinity), no
  traceback on stderr.

Both: `cli(*args)` runs `--json ARGS` (a `CliResult`, which also unpacks as `code, body`),
`cli.text(*args)` runs without `--json` (what a person reads, in `stdout`), and
`cli.refused(code_name, *args)` expects the command to fail with that error code.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a CLI subprocess: this one without BRIEFDESK_* settings, the
    checkout on PYTHONPATH, and `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def interruptible() -> None:
    """`preexec_fn` of a CLI process a test sends SIGINT, as Ctrl-C at a terminal would: a
    suite started in the background by a shell without job control (`.ci/run &`) ignores
    SIGINT, and an ignored signal stays ignored across exec, so the CLI never saw it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli_command(*args: str) -> list[str]:
    """The argv that starts the CLI as a process (for a test that must hold the process
    itself: signal it, freeze it, race it)."""
    return [sys.executable, "-m", "agent_core.cli", *args]


@dataclass(frozen=True)
class CliResult:
    """One CLI invocation: exit code, the JSON object printed (`{}` without one), the raw
    output. Unpacks as `code, body`, what most checks need."""

    code: int
    body: dict[str, Any] = field(default_factory=dict)
    stdout: str = ""
    stderr: str = ""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.code, self.body))


def strict_json(text: str) -> dict[str, Any]:
    """json.loads that refuses NaN, Infinity and -Infinity, as any other JSON parser does."""

    def refuse(constant: str) -> object:
        raise AssertionError(f"stdout is not JSON: it holds {constant}")

    assert text.count("\n") == 1, f"not exactly one JSON line: {text!r}"
    body = json.loads(text, parse_constant=refuse)
    assert isinstance(body, dict) and body["api"] == 1
    return body


def _lenient_json(text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return body if isinstance(body, dict) else {}


@contextmanager
def _environment(values: dict[str, str] | None) -> Iterator[None]:
    """`values` set in this process's environment for the block (the in-process mode)."""
    before = {k: os.environ.get(k) for k in values or {}}
    os.environ.update(values or {})
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@dataclass
class CliRunner:
    """`briefdesk-cli --home HOME ...`; in-process when given pytest's `capsys`."""

    home: Path
    capsys: pytest.CaptureFixture[str] | None = None

    @property
    def in_process(self) -> bool:
        return self.capsys is not None

    def __call__(
        self,
        *args: str,
        env: dict[str, str] | None = None,
        stdin: str | None = None,
        timeout: float = 120,
        check: bool = False,
    ) -> CliResult:
        """`--json ARGS`: the exit code and the one JSON object printed."""
        result = self._run(["--json", *args], env=env, stdin=stdin, timeout=timeout)
        body = strict_json(result.stdout) if self.in_process else _lenient_json(result.stdout)
        if check and result.code != 0:
            raise AssertionError(
                f"briefdesk-cli {args} failed ({result.code}): {result.stdout}\n{result.stderr}"
            )
        return CliResult(result.code, body, result.stdout, result.stderr)

    json = __call__

    def text(self, *args: str, env: dict[str, str] | None = None) -> CliResult:
        """Without --json: what a person reads, in `stdout`."""
        return self._run(list(args), env=env, stdin=None, timeout=120)

    def refused(self, code_name: str, *args: str) -> str:
        """The command fails with `code_name` (exit 2); returns the message."""
        result = self(*args)
        assert result.code == 2, result.body
        assert result.body["error"]["code"] == code_name, result.body
        return str(result.body["error"]["message"])

    def _run(
        self, args: list[str], *, env: dict[str, str] | None, stdin: str | None, timeout: float
    ) -> CliResult:
        argv = ["--home", str(self.home), *args]
        if self.capsys is None:
            proc = subprocess.run(
                cli_command(*argv),
                capture_output=True,
                text=True,
                env=cli_env(**(env or {})),
                input=stdin,
                timeout=timeout,
            )
            return CliResult(proc.returncode, {}, proc.stdout, proc.stderr)
        assert stdin is None, "the in-process mode reads no stdin; use the subprocess mode"
        from agent_core.cli.main import main

        self.capsys.readouterr()
        with _environment(env):
            code = main(argv)
        out, err = self.capsys.readouterr()
        assert "Traceback" not in err, err
        return CliResult(code, {}, out, err)


def db_rows(home: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Rows of the home's SQLite database, read as an outside reader would."""
    with sqlite3.connect(home / "state.db") as db:
        return list(db.execute(sql, params))
