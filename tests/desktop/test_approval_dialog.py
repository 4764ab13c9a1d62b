"""The approval dialog, offscreen, against a real home through the real bridge thread.

Runs are made by the offline model (the demo question), each in its own artifacts folder so
their targets never collide; decisions are proven from the database and the file system.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from agent_core.contract.views import RuleView, RunView
from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets import approval_guard
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.diff_view import ADDED, CHANGED, EQUAL, FOLD, REMOVED, build_diff
from desktop.widgets.markdown_highlighter import content_summary, markdown_spans
from tests.support.cli import CliRunner
from tests.support.desktop import open_workspace, started_bridge
from tests.support.typed import present
from tests.support.waiting import bridge_caught_up

QUESTION = "How do checkpoints make agent runs durable?"
REVIEWER = "alice"
SCREENSHOTS_ENV = "BRIEFDESK_SCREENSHOTS_DIR"  # set it to also save the grabs there (docs)


class SkippingClock:
    """The read guard's clock: real time, plus whatever the test skips (the guard is tested in
    test_cockpit_guard; here the dialog is read, then acted on)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped

    def pass_the_guard(self) -> None:
        self.skipped += approval_guard.GUARD_MS / 1000


CLOCK = SkippingClock()


@pytest.fixture(autouse=True)
def guard_clock(monkeypatch: pytest.MonkeyPatch) -> SkippingClock:
    monkeypatch.setattr(approval_guard, "clock", CLOCK)
    return CLOCK


def read_it(qtbot: QtBot, dialog: ApprovalDialog) -> None:
    """What the dialog shows has been read: the guard passes (Close enables with it)."""
    CLOCK.pass_the_guard()
    qtbot.waitUntil(dialog.close_button.isEnabled, timeout=5000)


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("approvals") / "home"


@pytest.fixture
def ws(shared_home: Path) -> Iterator[Workspace]:
    with open_workspace(shared_home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, shared_home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, shared_home) as started:
        yield started


def waiting_run(ws: Workspace, name: str, **options: Any) -> RunView:
    """A run of the demo question stopped at its save_brief proposal, in its own folder."""
    folder = ws.home.root / f"artifacts-{name}"
    run = ws.start_run(QUESTION, artifacts=folder, **options)
    assert run["status"] == "waiting_approval", run
    return run


def open_dialog(qtbot: QtBot, bridge: Bridge, approval_id: str) -> ApprovalDialog:
    dialog = ApprovalDialog(bridge, approval_id, REVIEWER)
    qtbot.addWidget(dialog)
    dialog.resize(1180, 860)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    read_it(qtbot, dialog)
    return dialog


# -- the diff model and the content summary (pure) --------------------------------------------


def test_diff_of_a_new_file_adds_every_line_with_new_numbers() -> None:
    model = build_diff(None, "# Title\n\n- point [a.md]\n")
    assert (model.added, model.removed, model.is_new_file) == (3, 0, True)
    assert [(r.kind, r.old_no, r.new_no) for r in model.unified()] == [
        (ADDED, None, 1),
        (ADDED, None, 2),
        (ADDED, None, 3),
    ]


def test_diff_of_a_changed_file_counts_and_numbers_lines_on_both_sides() -> None:
    model = build_diff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n")
    assert (model.added, model.removed) == (2, 1)
    assert [(r.kind, r.old_no, r.new_no, r.text) for r in model.unified(context=None)] == [
        (EQUAL, 1, 1, "a"),
        (REMOVED, 2, None, "b"),
        (ADDED, None, 2, "B"),
        (EQUAL, 3, 3, "c"),
        (EQUAL, 4, 4, "d"),
        (ADDED, None, 5, "e"),
    ]
    side = model.side_by_side(context=None)
    assert (side[1].kind, side[1].old_no, side[1].old_text, side[1].new_no, side[1].new_text) == (
        CHANGED,
        2,
        "b",
        2,
        "B",
    )
    assert (side[-1].kind, side[-1].old_no, side[-1].new_no) == (ADDED, None, 5)


def test_diff_folds_long_unchanged_stretches_but_keeps_context() -> None:
    old = "".join(f"line {i}\n" for i in range(1, 21))
    model = build_diff(old, old.replace("line 20\n", "line twenty\n"))
    rows = model.unified(context=3)
    assert rows[0].kind == FOLD and "16 unchanged lines" in rows[0].text
    assert [(r.old_no, r.new_no) for r in rows[1:4]] == [(17, 17), (18, 18), (19, 19)]
    assert [(r.kind, r.old_no, r.new_no) for r in rows[4:]] == [
        (REMOVED, 20, None),
        (ADDED, None, 20),
    ]


def test_content_summary_counts_distinct_cited_sources_not_links() -> None:
    text = "# B\n- x [a.md]\n- y [a.md] [notes/b.txt]\n- see [docs](https://x.example/c.md)\n"
    assert content_summary(text) == {"bytes": len(text.encode()), "lines": 4, "sources": 2}
    assert [s.style for s in markdown_spans("- y [a.md]")] == ["bullet", "citation"]


# -- the dialog -------------------------------------------------------------------------------


def test_dialog_shows_what_will_be_written_where(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    run = waiting_run(ws, "details")
    ap = run["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    assert dialog.target_label.text() == ap["target"] and Path(ap["target"]).is_absolute()
    assert "create a new file" in dialog.title_label.text()
    assert dialog.details["risk"].text() == "write"
    assert dialog.details["arg_hash"].text() == ap["arg_hash"][:12]
    assert dialog.details["state_version"].text().startswith(str(ap["state_version"]))
    qtbot.waitUntil(lambda: ":" in dialog.details["expires"].text(), timeout=3000)
    content = ap["args"]["content"]
    assert dialog.diff.model.added == len(content.splitlines()) and dialog.diff.model.removed == 0
    # The demo brief cites documents of the corpus by name: as many as it names, not its links.
    cited = {name for name in re.findall(r"\[([^\]\[]+?\.(?:md|txt))(?: p\. \d+)?\]", content)}
    assert len(cited) >= 2
    assert f"{len(cited)} sources cited" in dialog.summary_label.text()
    assert dialog.approve_button.isEnabled() and not dialog.banner.isVisible()


def test_approve_with_its_own_shortcut_records_the_decision(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    ap = waiting_run(ws, "approve")["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as signal:
        qtbot.keyClick(
            dialog,
            Qt.Key.Key_A,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
    assert signal.args == [ap["id"], "approved"]
    stored = ws.get_approval(ap["id"])
    assert (stored["status"], stored["reviewer"]) == ("approved", REVIEWER)
    assert not Path(ap["target"]).exists()  # deciding never writes; resuming does


def test_reject_asks_for_a_reason(qtbot: QtBot, bridge: Bridge, ws: Workspace) -> None:
    ap = waiting_run(ws, "reject")["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    qtbot.mouseClick(dialog.reject_button, Qt.MouseButton.LeftButton)
    assert dialog.action_stack.currentIndex() == 1 and not dialog.confirm_reject_button.isEnabled()
    qtbot.keyClicks(dialog.reason_edit, "cites too few sources")
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as signal:
        qtbot.mouseClick(dialog.confirm_reject_button, Qt.MouseButton.LeftButton)
    assert signal.args == [ap["id"], "rejected"]
    stored = ws.get_approval(ap["id"])
    assert (stored["status"], stored["reviewer"], stored["decision_reason"]) == (
        "rejected",
        REVIEWER,
        "cites too few sources",
    )


def _start_edit(qtbot: QtBot, dialog: ApprovalDialog, path: str, extra: str = "") -> None:
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    assert dialog.edit_panel.isVisible() and dialog.action_stack.currentIndex() == 3
    dialog.path_edit.clear()
    qtbot.keyClicks(dialog.path_edit, path)
    if extra:
        dialog.content_edit.moveCursor(dialog.content_edit.textCursor().MoveOperation.End)
        qtbot.keyClicks(dialog.content_edit, extra)
        qtbot.keyClick(dialog.content_edit, Qt.Key.Key_Return)


def test_edit_to_a_valid_path_approves_a_new_version_that_resume_writes(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    run = waiting_run(ws, "edit-ok")
    ap = run["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    _start_edit(qtbot, dialog, "briefs/edited.md", "Reviewed by alice.")
    root = Path(run["artifacts"])
    qtbot.waitUntil(
        lambda: str(root / "briefs" / "edited.md") in dialog.validation_label.text(), timeout=5000
    )
    read_it(qtbot, dialog)
    qtbot.waitUntil(dialog.approve_edited_button.isEnabled, timeout=3000)
    assert dialog.diff.model.added == len(ap["args"]["content"].splitlines()) + 1
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as signal:
        qtbot.mouseClick(dialog.approve_edited_button, Qt.MouseButton.LeftButton)
    new_id, status = signal.args
    assert status == "approved" and new_id != ap["id"]
    assert ws.get_approval(ap["id"])["status"] == "superseded"
    new = ws.get_approval(new_id)
    assert (new["version"], new["args"]["relative_path"]) == (2, "briefs/edited.md")
    assert ws.resume(run["run_id"])["status"] == "succeeded"
    assert (root / "briefs" / "edited.md").read_text() == ap["args"][
        "content"
    ] + "Reviewed by alice.\n"
    assert not Path(ap["target"]).exists()


def test_edit_outside_the_artifacts_folder_is_refused_inline_and_writes_nothing(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    run = waiting_run(ws, "edit-bad")
    ap = run["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    _start_edit(qtbot, dialog, "../secret.txt")
    qtbot.waitUntil(lambda: "path_outside_scope" in dialog.validation_label.text(), timeout=5000)
    assert not dialog.approve_edited_button.isEnabled()
    read_it(qtbot, dialog)
    qtbot.keyClick(
        dialog.content_edit,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    bridge_caught_up(qtbot, bridge)  # a decision the key set off would be in the database now
    assert [a["id"] for a in ws.list_approvals(run_id=run["run_id"])] == [ap["id"]]
    assert ws.get_approval(ap["id"])["status"] == "pending"
    root = Path(run["artifacts"])
    assert not (root.parent / "secret.txt").exists() and not list(root.rglob("*"))


@pytest.mark.parametrize(
    ("scope", "words"), [("run", "for this run"), ("home", "for every run in this home")]
)
def test_always_allow_shows_the_exact_scope_before_creating_the_rule(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, scope: str, words: str
) -> None:
    run = waiting_run(ws, f"remember-{scope}")
    ap = run["approvals"][0]
    folder = str(Path(ap["target"]).parent)
    dialog = open_dialog(qtbot, bridge, ap["id"])
    dialog.remember_check.setChecked(True)
    dialog.scope_combo.setCurrentIndex(dialog.scope_combo.findData(scope))
    assert folder in dialog.scope_label.text() and words in dialog.scope_label.text()
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert dialog.action_stack.currentIndex() == 2
    assert f"save_brief of files under {folder}/ {words}" in dialog.remember_confirm_label.text()
    assert ws.get_approval(ap["id"])["status"] == "pending" and not _rules_for(ws, folder)
    assert not dialog.confirm_remember_button.isEnabled()  # shown where Approve was: guarded
    CLOCK.pass_the_guard()
    qtbot.waitUntil(dialog.confirm_remember_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.decided, timeout=10_000):
        qtbot.mouseClick(dialog.confirm_remember_button, Qt.MouseButton.LeftButton)
    assert ws.get_approval(ap["id"])["status"] == "approved"
    [rule] = _rules_for(ws, folder)
    assert (rule["tool"], rule["scope"], rule["created_by"]) == ("save_brief", scope, REVIEWER)
    assert rule["run_id"] == (run["run_id"] if scope == "run" else None)


def test_a_double_click_on_approve_with_always_allow_decides_nothing(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    """Approve's click shows "Approve and remember" where Approve was: the second click of a
    double click lands on it, under a restarted guard, and neither approves nor remembers."""
    run = waiting_run(ws, "remember-double")
    ap = run["approvals"][0]
    folder = str(Path(ap["target"]).parent)
    dialog = open_dialog(qtbot, bridge, ap["id"])
    dialog.remember_check.setChecked(True)
    width = dialog.confirm_remember_button.width()
    at = dialog.approve_button.mapTo(dialog, dialog.approve_button.rect().center())
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    under = dialog.childAt(at)
    assert under is dialog.confirm_remember_button  # what the second click lands on
    assert not under.isEnabled() and "(in " in under.text()
    assert under.width() == width  # the countdown stays inside the fixed width
    qtbot.mouseClick(under, Qt.MouseButton.LeftButton, pos=under.mapFrom(dialog, at))
    qtbot.mouseDClick(under, Qt.MouseButton.LeftButton, pos=under.mapFrom(dialog, at))
    bridge_caught_up(qtbot, bridge)  # a decision the clicks set off would be recorded now
    assert ws.get_approval(ap["id"])["status"] == "pending" and not _rules_for(ws, folder)
    assert dialog.isVisible() and dialog.action_stack.currentIndex() == 2


def test_discard_edits_shown_where_edit_was_is_guarded(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    ap = waiting_run(ws, "edit-double")["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    assert dialog.action_stack.currentIndex() == 3
    qtbot.mouseClick(dialog.cancel_edit_button, Qt.MouseButton.LeftButton)
    assert dialog.action_stack.currentIndex() == 3 and dialog.edit_panel.isVisible()
    read_it(qtbot, dialog)
    qtbot.waitUntil(dialog.cancel_edit_button.isEnabled, timeout=5000)


def _rules_for(ws: Workspace, folder: str) -> list[RuleView]:
    return [r for r in ws.list_rules() if r["folder"] == folder]


def test_expiry_counts_down_and_disables_the_decision(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    ap = waiting_run(ws, "expire", approval_ttl=3)["approvals"][0]
    bridge.start_following(200)  # as the app does: its timer tick expires, never a read
    dialog = open_dialog(qtbot, bridge, ap["id"])
    assert dialog.approve_button.isEnabled()
    qtbot.waitUntil(
        lambda: dialog.banner.isVisible() and "Expired" in dialog.banner.text(), timeout=8000
    )
    assert not dialog.approve_button.isEnabled() and not dialog.reject_button.isEnabled()
    assert dialog.details["expires"].text() in ("expired", "—")
    qtbot.waitUntil(lambda: ws.get_approval(ap["id"])["status"] == "expired", timeout=3000)


def test_a_target_changed_on_disk_shows_the_new_diff_and_approving_answers_target_changed(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    ap = waiting_run(ws, "changed")["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    assert not dialog.banner.isVisible()
    target = Path(present(ap["target"]))
    target.parent.mkdir(parents=True, exist_ok=True)
    first_line = ap["args"]["content"].splitlines()[0]
    target.write_text(
        f"{first_line}\n\nNotes a person wrote meanwhile.\n"
    )  # while the dialog is open
    qtbot.waitUntil(
        lambda: "changed on disk" in dialog.banner.text() and dialog.banner.isVisible(),
        timeout=5000,
    )
    model = dialog.diff.model
    assert model.old_lines == [first_line, "", "Notes a person wrote meanwhile."]
    assert model.removed == 1 and model.added == len(ap["args"]["content"].splitlines()) - 2
    read_it(qtbot, dialog)  # the new diff was shown: read it before deciding
    with qtbot.waitSignal(dialog.decided, timeout=1500, raising=False) as signal:
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert not signal.signal_triggered
    qtbot.waitUntil(lambda: "changed since" in dialog.error_label.text(), timeout=5000)
    assert ws.get_approval(ap["id"])["status"] == "pending"
    assert target.read_text().endswith("Notes a person wrote meanwhile.\n")


def test_a_decision_made_by_the_cli_updates_the_open_dialog(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, shared_home: Path
) -> None:
    ap = waiting_run(ws, "elsewhere")["approvals"][0]
    bridge.start_following(200)
    dialog = open_dialog(qtbot, bridge, ap["id"])
    emitted: list[Any] = []
    dialog.decided.connect(lambda *args: emitted.append(args))
    result = CliRunner(shared_home)("approvals", "approve", ap["id"], "--reviewer", "bob")
    assert result.code == 0, result.stdout + result.stderr
    qtbot.waitUntil(
        lambda: "approved" in dialog.banner.text() and "bob" in dialog.banner.text(), timeout=5000
    )
    assert not dialog.approve_button.isEnabled() and not dialog.edit_button.isEnabled()
    assert emitted == []  # only this dialog's own decisions are announced


def test_a_superseded_proposal_says_so_and_offers_the_newest_version(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    ap = waiting_run(ws, "superseded")["approvals"][0]
    dialog = open_dialog(qtbot, bridge, ap["id"])
    edited = {**ap["args"], "relative_path": "briefs/by-bob.md"}
    newest = ws.edit(ap["id"], reviewer="bob", args=edited)  # as the CLI's `approvals edit` does
    qtbot.waitUntil(lambda: "Superseded" in dialog.banner.text(), timeout=5000)
    assert not dialog.approve_button.isEnabled() and dialog.newest_button.isVisible()
    qtbot.mouseClick(dialog.newest_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.target_label.text() == newest["target"], timeout=5000)
    assert dialog.approval_id == newest["id"] and "version 2" in dialog.title_label.text()
    assert not dialog.banner.isVisible()
    read_it(qtbot, dialog)  # a new proposal shown: guarded again, then decidable
    assert dialog.approve_button.isEnabled()


# -- screenshots for the docs -----------------------------------------------------------------


def settled_picture(qtbot: QtBot, dialog: ApprovalDialog) -> QPixmap:
    """The dialog's picture once layout has settled: two grabs in a row are the same."""
    last: list[QImage] = []

    def same_as_before() -> bool:
        image = dialog.grab().toImage()
        settled = bool(last) and image == last[-1]
        last[:] = [image]
        return settled

    qtbot.waitUntil(same_as_before, timeout=3000)
    return QPixmap.fromImage(last[-1])


def test_screenshots_of_a_new_file_and_a_changed_file(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, tmp_path: Path
) -> None:
    out = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    new_ap = waiting_run(ws, "shot-new")["approvals"][0]
    dialog = open_dialog(qtbot, bridge, new_ap["id"])
    qtbot.waitUntil(lambda: ":" in dialog.details["expires"].text(), timeout=3000)
    assert settled_picture(qtbot, dialog).save(str(out / "approval-new-file.png"))
    dialog.close()

    # A brief written by an earlier run, a newer proposal to rewrite it, and a person's
    # edit in between: the dialog warns and diffs against what is on disk now.
    first = waiting_run(ws, "shot-changed")
    ws.approve(first["approvals"][0]["id"], reviewer=REVIEWER)
    assert ws.resume(first["run_id"])["status"] == "succeeded"
    second = ws.start_run(QUESTION, artifacts=first["artifacts"])
    ap = second["approvals"][0]
    target = Path(present(ap["target"]))
    assert ap["base_hash"] is not None and target.exists()
    lines = target.read_text().splitlines()
    lines[4] = lines[4].replace("survives", "must survive")
    target.write_text(
        "\n".join([*lines[:9], "- Legal reviewed this section on Monday.", *lines[9:]]) + "\n"
    )
    dialog = open_dialog(qtbot, bridge, ap["id"])
    qtbot.waitUntil(lambda: dialog.banner.isVisible() and dialog.banner.height() > 20, timeout=3000)
    assert dialog.diff.model.removed >= 1 and dialog.diff.model.added >= 1
    # The wrapped banner and the action row take a few layout passes to settle.
    assert settled_picture(qtbot, dialog).save(str(out / "approval-changed-file.png"))
    assert (out / "approval-new-file.png").stat().st_size > 10_000
