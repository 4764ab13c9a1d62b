"""Issue 12 item 5: BriefDesk is usable on a 1024x700 laptop screen.

The screen size is a property of the whole Qt process, so the windows are built in one real
subprocess whose offscreen platform has a single 1024x700 screen (`offscreen:configfile=`):
the main window's first start, its minimum size, the approval dialog on a real proposal (its
buttons whole, its diff scrolling) and a geometry saved on a larger screen. The child reports
geometries as JSON; screenshots land in the test's folder (and in $BRIEFDESK_SCREENSHOTS_DIR
when set, for the docs).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from agent_core.facade.workspace import Workspace
from tests.desktop.test_app_helpers import REPO_ROOT, app_env

SCREEN = {"width": 1024, "height": 700}
QUESTION = "How do checkpoints make agent runs durable?"

PROBE = r"""
import json, sys, time
from pathlib import Path
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QApplication

home, out, approval_id = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
app = QApplication([])
from desktop import theme
from desktop.app import build_window
from desktop.bridge import Bridge
from desktop.widgets.approval_dialog import ApprovalDialog

theme.apply_theme(app)
ini = str(out / "BriefDesk.ini")
report = {"screen": list(app.primaryScreen().availableGeometry().getRect())}

def rect(r): return list(r.getRect())
# Wait with time.sleep, which lets go of the GIL: the bridge thread imports the whole core
# while the GUI thread waits, and a wait that kept the GIL starved it (a flaky 20 s timeout).
def pump(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents(); time.sleep(0.01)
def settle(): pump(0.2)
def wait_for(check, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check(): return
        pump(0.02)
    raise SystemExit("timed out")

window = build_window(home, QSettings(ini, QSettings.Format.IniFormat))
window.show(); wait_for(window.isVisible); settle()
report["first_frame"] = rect(window.frameGeometry())
report["first_inner"] = rect(window.geometry())
report["minimum"] = [window.minimumSizeHint().width(), window.minimumSizeHint().height()]
window.grab().save(str(out / "main-1024x700.png"))

bridge, ready = Bridge(home), []
bridge.ready.connect(lambda: ready.append(True))
bridge.start(); wait_for(lambda: bool(ready))
dialog = ApprovalDialog(bridge, approval_id, "alice", window)
dialog.show(); wait_for(lambda: dialog.info is not None); settle()
report["dialog_frame"] = rect(dialog.frameGeometry())
buttons = {}
for name in ("approve_button", "reject_button", "edit_button", "close_button"):
    button = getattr(dialog, name)
    top_left = button.mapToGlobal(button.rect().topLeft())
    buttons[name] = {
        "global": [top_left.x(), top_left.y(), button.width(), button.height()],
        "visible": button.isVisible(),
        "whole": button.visibleRegion().boundingRect() == button.rect(),
    }
report["buttons"] = buttons
bar = dialog.diff.browser.verticalScrollBar()
report["diff_scrolls"] = bar.maximum() > 0
dialog.grab().save(str(out / "approval-1024x700.png"))
dialog.close(); bridge.stop()

# A geometry saved on a larger screen (or one since unplugged): too big, partly off this one.
window.setGeometry(QRect(400, 300, 1400, 900)); settle()
window.close()
again = build_window(home, QSettings(ini, QSettings.Format.IniFormat))
again.show(); wait_for(again.isVisible); settle()
report["restored_frame"] = rect(again.frameGeometry())
again.close()
print("REPORT " + json.dumps(report), flush=True)
"""


def inside(outer: list[int], inner: list[int]) -> bool:
    ox, oy, ow, oh = outer
    x, y, w, h = inner
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def probe(tmp_path: Path, approval_id: str, home: Path) -> dict[str, Any]:
    config = tmp_path / "screen.json"
    config.write_text(
        json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, **SCREEN, "logicalDpi": 96}]})
    )
    out = Path(os.environ.get("BRIEFDESK_SCREENSHOTS_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(home), str(out), approval_id],
        capture_output=True,
        text=True,
        env=app_env(QT_QPA_PLATFORM=f"offscreen:configfile={config}"),
        cwd=REPO_ROOT,
        timeout=120,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("REPORT ")]
    assert result.returncode == 0 and lines, result.stdout[-2000:] + result.stderr[-3000:]
    report: dict[str, Any] = json.loads(lines[-1][len("REPORT ") :])
    return report


def test_windows_fit_a_1024x700_screen(tmp_path: Path, home: Path) -> None:
    ws = Workspace(home)
    try:
        run = ws.start_run(QUESTION)
    finally:
        ws.close()
    assert run["status"] == "waiting_approval"
    report = probe(tmp_path, run["approvals"][0]["id"], home)
    screen = report["screen"]
    assert screen == [0, 0, SCREEN["width"], SCREEN["height"]]

    # First start, no saved geometry: the whole window is on the screen.
    assert inside(screen, report["first_frame"]), report
    # Its minimum size, with its frame, fits too (so no saved size can push it off).
    frame_w = report["first_frame"][2] - report["first_inner"][2]
    frame_h = report["first_frame"][3] - report["first_inner"][3]
    width, height = report["minimum"]
    assert width + frame_w <= SCREEN["width"] and height + frame_h <= SCREEN["height"], report

    # The approval dialog fits, its decision buttons whole and on the screen; the diff scrolls.
    assert inside(screen, report["dialog_frame"]), report
    for name, button in report["buttons"].items():
        assert button["visible"] and button["whole"], (name, button)
        assert inside(report["dialog_frame"], button["global"]), (name, button)
    assert report["diff_scrolls"]

    # A geometry saved on a larger screen opens clamped to this one.
    assert inside(screen, report["restored_frame"]), report
