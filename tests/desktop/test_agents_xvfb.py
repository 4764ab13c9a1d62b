"""A Claude Code write decided in the real window, as a person does it (issue 42): a real X
server (Xvfb, openbox), real keys (xdotool), the app in its own process, the proposal made by
the real hook process (`briefdesk-cli hook claude-code`, fed the CLI's captured payload), which
waits until the person decides.

Ctrl+I, Enter opens the inbox's top proposal, the agent's write, in the approval dialog;
Ctrl+Shift+A after the read guard approves it; the hook then answers `allow` (what Claude Code
reads). Screenshots go to test-artifacts/agents/.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from tests.desktop.test_app_helpers import REPO_ROOT
from tests.desktop.test_inbox_xvfb import _shown
from tests.desktop.test_real_input_xvfb import app, query, wait_for
from tests.support.cli import cli_command, cli_env
from tests.support.waiting import within
from tests.support.xscreen import x_screen

pytestmark = pytest.mark.xvfb

SHOTS = REPO_ROOT / "test-artifacts" / "agents"
PAYLOAD = Path(__file__).parents[1] / "agents" / "payloads" / "claude-code" / "pre_tool_write.json"


def test_a_claude_code_write_is_opened_from_the_inbox_and_approved_with_real_keys(
    tmp_path: Path, home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.md").write_text("# Notes\n\nalpha\n", encoding="utf-8")
    text = PAYLOAD.read_text(encoding="utf-8").replace("{cwd}", str(project))
    payload = json.loads(text.replace("{home}", str(tmp_path)).replace("{project}", "p"))
    payload.update(
        session_id=str(uuid.uuid4()),
        tool_input={"file_path": str(project / "notes.md"), "content": "# Notes\n\nalpha\nbeta\n"},
    )
    with x_screen(tmp_path, (1024, 700)) as screen, app(home, screen, tmp_path):
        main = screen.wait_window("^BriefDesk$")
        wait_for("the window's home", lambda: query(home, "select count(*) from runs"))
        called = time.monotonic()
        hook = subprocess.Popen(
            cli_command("--home", str(home), "hook", "claude-code"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
        )
        assert hook.stdin is not None
        hook.stdin.write(json.dumps(payload))
        hook.stdin.close()
        hook.stdin = None

        def dialog_opened() -> list[str]:
            screen.xdotool("windowactivate", "--sync", main)
            screen.xdotool("key", "ctrl+i", "Return")
            return within(lambda: _shown(screen, "Approve a write"), timeout=1.0) or []

        dialog = within(dialog_opened, timeout=60, interval=0.1)
        assert dialog, "the agent's write never opened from the inbox"
        shown_after = time.monotonic() - called
        screen.screenshot(SHOTS / "01-claude-code-write.png")
        assert hook.poll() is None, "the hook answered before anyone decided"
        ((status,),) = query(home, "select status from approvals")
        assert status == "pending", "opening decides nothing"

        def approved() -> bool:  # pressed until the read guard lets it decide (it closes)
            if not _shown(screen, "Approve a write"):
                return True
            screen.screenshot(SHOTS / "02-before-approving.png")  # the last: what was approved
            with contextlib.suppress(AssertionError):  # it closed meanwhile: decided
                screen.xdotool("windowactivate", "--sync", dialog[-1])
                screen.xdotool("key", "ctrl+shift+a")
            return bool(within(lambda: not _shown(screen, "Approve a write"), timeout=0.5))

        assert within(approved, timeout=60, interval=0.1), "Ctrl+Shift+A never approved it"
        stdout, stderr = hook.communicate(timeout=60)
        assert "Traceback" not in stderr, stderr
        said = json.loads(stdout)["hookSpecificOutput"]
        assert said["permissionDecision"] == "allow", said
        ((status, reviewer),) = query(home, "select status, reviewer from approvals")
        assert status in ("approved", "consumed") and reviewer
        screen.screenshot(SHOTS / "03-after-approval.png")
        print(f"hook call -> dialog open from the inbox: {shown_after:.1f} s")
