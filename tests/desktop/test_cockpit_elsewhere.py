"""Issue 12 item 2: a run this window started goes on as soon as its decision or answer lands,
wherever it was made (briefdesk-cli in another process here); any run that can continue can be
resumed from the window. Proven from the outside: the run's row, the brief on disk."""

from __future__ import annotations

import json
from pathlib import Path

import shiboken6
from pytestqt.qtbot import QtBot

from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
    wait_for_run,
)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow
from tests.support.typed import present


def _brief_files(home: Path) -> list[Path]:
    return sorted(p for p in (home / "artifacts").rglob("*.md") if p.is_file())


def test_a_decision_from_the_cli_continues_the_run_this_window_started(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    window = make_window(home, poll_ms=150)
    window.run_form.question.setPlainText(DEMO_QUESTION)
    window.run_question()
    run = wait_for_run(qtbot, window, "waiting_approval")
    qtbot.waitUntil(lambda: window.prompts.dialog is not None and window.prompts.dialog.isVisible())
    dialog = window.prompts.dialog
    assert window.banners.banner("person") is not None
    assert _brief_files(home) == []

    # Another reviewer approves in another process; nobody touches this window.
    cli("approvals", "approve", run["approvals"][0]["id"], "--reviewer", "bob", check=True)

    done = wait_for_run(qtbot, window, "succeeded")
    assert done["run_id"] == run["run_id"]
    briefs = _brief_files(home)
    assert len(briefs) == 1, briefs
    # The run went on in this window (its process drove it), and nothing is left asking.
    listed = json.loads(cli("runs").stdout)["runs"]
    assert [r["status"] for r in listed if r["run_id"] == run["run_id"]] == ["succeeded"]
    assert window.banners.banner("person") is None
    assert window.prompts.dialog is None
    assert not shiboken6.isValid(dialog) or not dialog.isVisible(), "its dialog closed"


def test_a_run_decided_elsewhere_that_nobody_drives_can_be_resumed_from_the_window(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    # Started by the CLI (which exited at the proposal) and approved by the CLI: this window
    # did not start it, so it does not go on by itself, but Resume is offered and works.
    started = cli("run", "--question", DEMO_QUESTION, check=True).body
    window = make_window(home, poll_ms=150)
    window.select_run(started["run_id"])
    qtbot.waitUntil(
        lambda: (window.selected_run() or {"status": None})["status"] == "waiting_approval"
    )
    assert not window.resume_action.isEnabled(), "nothing decided yet: Resume has nothing to do"

    cli("approvals", "approve", started["approvals"][0]["id"], "--reviewer", "bob", check=True)
    qtbot.waitUntil(lambda: window.resume_action.isEnabled(), timeout=10_000)
    assert present(window.selected_run())["status"] == "waiting_approval"  # not continued by itself
    assert _brief_files(home) == []

    window.resume_action.trigger()
    wait_for_run(qtbot, window, "succeeded")
    assert len(_brief_files(home)) == 1


def test_an_answer_from_the_cli_continues_the_run_this_window_started(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner, tmp_path: Path
) -> None:
    script = tmp_path / "ask.json"
    script.write_text(
        json.dumps(
            [
                {"call": "ask_question", "args": {"question": "Who reads the brief?"}},
                {"say": "Noted."},
            ]
        )
    )
    window = make_window(home, poll_ms=150)
    window.context.start_run("Ask me first", model=f"scripted:{script}")
    run = wait_for_run(qtbot, window, "waiting_input")
    cli("answer", run["run_id"], "--text", "the security team", check=True)
    done = wait_for_run(qtbot, window, "succeeded")
    assert done["output"] == "Noted."
    assert window.banners.banner("person") is None
