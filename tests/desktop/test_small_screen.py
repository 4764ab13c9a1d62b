"""Issue 26 item 7: at 1024x700 every part of the window reads whole.

One real subprocess per screen (the screen size is the whole Qt process's: offscreen with
`configfile=`) reports what a person would see as JSON: the Settings dialog on the screen with
room for its title bar, every side tab's title without scroll arrows, the artifact state whole,
a run's question on more than its first words, the audit log's rows one line high, and a window
size saved on a larger screen opened large again (capped to this screen), not tiny.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace
from desktop.widgets.window_fit import FRAME_ALLOWANCE
from tests.desktop.test_app_helpers import REPO_ROOT, app_env

SMALL = {"width": 1024, "height": 700}
LARGE = {"width": 2560, "height": 1440}
LONG_QUESTION = "What does the approval guard protect against when a reviewer clicks quickly?"

PROBE = r"""
import json, sys, time
from pathlib import Path
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QApplication, QToolButton

home, ini, phase = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
app = QApplication([])
from desktop import theme
from desktop.app import build_window, start_background
from desktop.models.runs_model import RUN_ROLE
from PySide6.QtWidgets import QStyleOptionViewItem

theme.apply_theme(app)
report = {"screen": list(app.primaryScreen().availableGeometry().getRect())}
def rect(r): return list(r.getRect())
def pump(seconds):  # time.sleep lets go of the GIL: the bridge thread needs it
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents(); time.sleep(0.01)
def wait_for(check, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check(): return
        pump(0.02)
    raise SystemExit("timed out")

window = build_window(home, QSettings(ini, QSettings.Format.IniFormat))
if phase == "save":  # a large screen: a large window, saved when it closes
    window.show(); wait_for(window.isVisible)
    window.setGeometry(QRect(300, 200, 2000, 1200)); pump(0.2)
    window.close()
    print("REPORT " + json.dumps(report), flush=True); raise SystemExit(0)
window.show(); wait_for(window.isVisible); start_background(window, 200)
wait_for(lambda: window.context.runs_seen); pump(0.2)
report["window_frame"] = rect(window.frameGeometry())

bar = window.side_tabs.tabBar()
report["tabs"] = [
    {"title": bar.tabText(i), "rect": rect(bar.tabRect(i))} for i in range(bar.count())
]
report["tab_bar"] = rect(bar.rect())
report["scroll_arrows"] = any(b.isVisible() for b in bar.findChildren(QToolButton))

model, view = window.runs_panel.model, window.runs_panel.view
delegate = view.itemDelegate()
for row in range(model.rowCount()):
    index = model.index(row, 0)
    run = index.data(RUN_ROLE)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    if run["question"] == sys.argv[4]:
        lines = getattr(delegate, "title_lines", None)  # the lines the delegate paints
        if lines is None:  # before: one bold line, cut at a word
            from PySide6.QtGui import QFont, QFontMetrics
            from desktop.widgets.runs_panel import elide_words
            bold = QFont(option.font); bold.setBold(True)
            width = option.rect.width() - 22
            lines = lambda o, i: [elide_words(QFontMetrics(bold), str(i.data()), width)]
        report["title_lines"] = lines(option, index)
    if run["status"] == "succeeded":
        window.select_run(run["run_id"])
panel = window.artifacts_panel
wait_for(lambda: bool(panel.states)); pump(0.2)
tree = panel.tree
item = tree.topLevelItem(0)
header = tree.header()
report["state"] = {
    "text": item.text(1),
    "needed": tree.fontMetrics().horizontalAdvance(item.text(1)),
    "left": header.sectionViewportPosition(1),
    "width": header.sectionSize(1),
    "viewport": tree.viewport().width(),
}

window.open_settings()
dialog = window.settings_dialog
wait_for(dialog.isVisible); pump(0.5)
wait_for(lambda: "Checking" not in dialog.key_status.text()); pump(0.3)
report["settings_frame"] = rect(dialog.frameGeometry())
report["settings_inner"] = rect(dialog.geometry())
dialog.close()

window.open_audit()
audit = window.audit_window
wait_for(lambda: audit.isVisible() and audit.model.rowCount() > 0); pump(0.3)
table = audit.table
report["audit_rows"] = [table.rowHeight(r) for r in range(audit.model.rowCount())]
report["audit_line"] = table.fontMetrics().lineSpacing()
resource = audit.model.index(0, 6)
report["audit_tooltip"] = resource.data(3)
table.selectRow(0); pump(0.1)
details = getattr(audit, "details", None)
report["audit_details"] = details.text() if details is not None else ""
audit.close()
window.close()
print("REPORT " + json.dumps(report), flush=True)
"""


def inside(outer: list[int], inner: list[int]) -> bool:
    ox, oy, ow, oh = outer
    x, y, w, h = inner
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def probe(tmp_path: Path, home: Path, screen: dict[str, int], phase: str) -> dict[str, Any]:
    config = tmp_path / f"screen-{phase}.json"
    config.write_text(
        json.dumps({"screens": [{"name": phase, "x": 0, "y": 0, **screen, "logicalDpi": 96}]})
    )
    ini = tmp_path / "BriefDesk.ini"
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(home), str(ini), phase, LONG_QUESTION],
        capture_output=True,
        text=True,
        env=app_env(
            QT_QPA_PLATFORM=f"offscreen:configfile={config}",
            **(
                {"BRIEFDESK_THEME": os.environ["BRIEFDESK_THEME"]}
                if "BRIEFDESK_THEME" in os.environ
                else {}
            ),
        ),
        cwd=REPO_ROOT,
        timeout=180,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("REPORT ")]
    assert result.returncode == 0 and lines, result.stdout[-2000:] + result.stderr[-3000:]
    report: dict[str, Any] = json.loads(lines[-1][len("REPORT ") :])
    return report


def make_home(home: Path) -> None:
    ws = Workspace(home)
    try:
        done = ws.start_run("How do checkpoints make agent runs durable?")
        ws.approve(done["approvals"][0]["id"], reviewer="alice")
        assert ws.resume(done["run_id"])["status"] == "succeeded"
        assert ws.start_run(LONG_QUESTION)["status"] == "waiting_approval"
    finally:
        ws.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the 1024x700 screen shows, once for the module (two subprocesses)."""
    tmp_path = tmp_path_factory.mktemp("small-screen")
    home = tmp_path / "home"
    make_home(home)
    probe(tmp_path, home, LARGE, "save")  # the window was last closed on a large screen
    shown = probe(tmp_path, home, SMALL, "small")
    assert shown["screen"] == [0, 0, SMALL["width"], SMALL["height"]]
    return shown


def test_a_size_saved_on_a_larger_screen_opens_large_and_whole(report: dict[str, Any]) -> None:
    frame = report["window_frame"]
    assert inside(report["screen"], frame), report
    assert frame[2] >= SMALL["width"] * 0.9 and frame[3] >= SMALL["height"] * 0.9, frame


def test_settings_opens_whole_with_room_for_its_title_bar(report: dict[str, Any]) -> None:
    screen = report["screen"]
    assert inside(screen, report["settings_frame"]), report
    x, y, _width, height = report["settings_inner"]
    assert x >= screen[0] and y >= screen[1]
    assert height + FRAME_ALLOWANCE.height() <= screen[3], report


def test_every_side_tab_title_shows_without_scroll_arrows(report: dict[str, Any]) -> None:
    assert [tab["title"] for tab in report["tabs"]] == ["Files", "Details", "Corpus"]
    for tab in report["tabs"]:
        assert inside(report["tab_bar"], tab["rect"]), report
    assert not report["scroll_arrows"]


def test_the_artifact_state_reads_whole(report: dict[str, Any]) -> None:
    state = report["state"]
    assert state["text"].startswith("✓ confirmed")
    assert state["width"] >= state["needed"], state
    assert state["left"] + state["width"] <= state["viewport"], state


def test_a_run_title_shows_more_than_its_first_words(report: dict[str, Any]) -> None:
    lines = report["title_lines"]
    assert 1 <= len(lines) <= 2 and len(" ".join(lines).split()) >= 5, lines


def test_audit_rows_stay_one_line_with_the_path_whole_elsewhere(report: dict[str, Any]) -> None:
    for row_height in report["audit_rows"]:
        assert row_height <= 2 * report["audit_line"] + 8, report
    path = report["audit_tooltip"]
    assert path.endswith(".md") and path in report["audit_details"]
