"""`briefdesk-cli` run in the test's own process (no SDK import per call, no subprocess): for
tests where the process boundary is not the point. Output is checked as a user's script would:
exactly one strict JSON object on stdout (no NaN or Infinity), no traceback on stderr."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent_core.cli.main import main


def strict_json(text: str) -> dict[str, Any]:
    """json.loads that refuses NaN, Infinity and -Infinity, as any other JSON parser does."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"stdout is not JSON: it holds {constant}")

    assert text.count("\n") == 1, f"not exactly one JSON line: {text!r}"
    body = json.loads(text, parse_constant=refuse)
    assert isinstance(body, dict) and body["api"] == 1
    return body


class InProcessCli:
    def __init__(self, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.home, self.capsys = home, capsys

    def __call__(self, *args: str) -> tuple[int, dict[str, Any]]:
        """`--json ARGS`: the exit code and the one JSON object printed."""
        self.capsys.readouterr()
        code = main(["--home", str(self.home), "--json", *args])
        out, err = self.capsys.readouterr()
        assert "Traceback" not in err, err
        return code, strict_json(out)

    json = __call__

    def text(self, *args: str) -> tuple[int, str]:
        """Without --json: the exit code and what a person reads."""
        self.capsys.readouterr()
        code = main(["--home", str(self.home), *args])
        return code, self.capsys.readouterr().out

    def refused(self, code_name: str, *args: str) -> str:
        """The command fails with `code_name` (exit 2); returns the message."""
        code, body = self(*args)
        assert code == 2, body
        assert body["error"]["code"] == code_name, body
        return str(body["error"]["message"])


def db_rows(home: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(home / "state.db") as db:
        return list(db.execute(sql, params))
