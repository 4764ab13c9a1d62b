"""A hook that cannot even load its own code still blocks the call (issue 42: never fail
open): Codex and Gemini CLI run a tool whose hook exits 1 or prints nothing, so the last
resort is exit 2, which all three agents read as "block", with the reason on stderr."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from agent_core.cli.main import main


def test_a_hook_whose_code_will_not_load_exits_2_and_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # None in sys.modules makes the import fail, as a broken or half-upgraded install does.
    monkeypatch.setitem(sys.modules, "agent_core.external_agents.hook_process", None)
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"hook_event_name": "PreToolUse"}'))
    code = main(["--home", str(tmp_path / "home"), "hook", "codex"])
    said = capsys.readouterr()
    assert code == 2
    assert "BriefDesk could not decide (ModuleNotFoundError)" in said.err
    assert "Traceback" not in said.err
    assert not (tmp_path / "home").exists()
