"""Issue 30: nothing is clipped at 1024x700 in Chinese.

One real subprocess whose offscreen platform has a single 1024x700 screen (the screen is the
whole Qt process's) builds the window with the zh_CN translators, on a home with a finished run
and a proposal that waits, and opens what a person opens: the main window (each side tab), the
approval dialog, the Inbox, Settings (each tab), Rules and Audit. For every shown button, tab,
group title and one-line label it reports the room its Chinese text needs and the room it has;
the windows' frames must lie on the screen. Long free text (a path, a question) wraps or is cut
with an ellipsis by design and is not a label of one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from agent_core.facade.workspace import Workspace
from tests.desktop.test_app_helpers import REPO_ROOT, app_env

SCREEN = {"width": 1024, "height": 700}
QUESTION = "检查点如何让智能体的运行经得起崩溃？"

PROBE = r"""
import json, re, sys, time
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QAbstractButton, QApplication, QGroupBox, QLabel, QTabBar, QToolButton, QWidget,
)

home, ini = Path(sys.argv[1]), sys.argv[2]
app = QApplication([])
from desktop import i18n, theme
from desktop.app import build_window, start_background
from desktop.i18n import build

theme.apply_theme(app)
build.build()
assert i18n.install_translators(app, "zh_CN") == "zh_CN"
report = {"screen": list(app.primaryScreen().availableGeometry().getRect()), "frames": {},
          "cut": [], "arrows": [], "seen": 0}

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

def plain(text):
    return re.sub(r"\(&[^)]\)", "", text).replace("&", "")

def look(where, root):
    report["frames"][where] = list(root.frameGeometry().getRect())
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible() or w.width() <= 0:
            continue
        text, needed, room = "", 0, w.contentsRect().width()
        fm = w.fontMetrics()
        if isinstance(w, QAbstractButton) and w.text() and not isinstance(w, QToolButton):
            text = plain(w.text())
            icon = w.iconSize().width() + 4 if not w.icon().isNull() else 0
            needed, room = fm.horizontalAdvance(text) + icon, w.width() - 4
        elif isinstance(w, QLabel) and w.text() and not w.wordWrap() and w.pixmap().isNull():
            text, needed, room = w.text(), w.minimumSizeHint().width(), w.width()
        elif isinstance(w, QGroupBox) and w.title():
            text, needed = w.title(), fm.horizontalAdvance(w.title())
        elif isinstance(w, QTabBar):
            if any(b.isVisible() for b in w.findChildren(QToolButton)):
                report["arrows"].append(where)
            for i in [i for i in range(w.count()) if w.isTabVisible(i)]:
                tab = w.tabText(i)
                if fm.horizontalAdvance(plain(tab)) > w.tabRect(i).width():
                    report["cut"].append([where, "tab", tab])
            continue
        else:
            continue
        report["seen"] += 1
        if needed > room + 1:
            report["cut"].append([where, type(w).__name__, text, needed, room])

window = build_window(home, QSettings(ini, QSettings.Format.IniFormat))
window.show(); wait_for(window.isVisible); start_background(window, 200)
wait_for(lambda: window.context.runs_seen and window.timeline.model.rowCount() > 0, 90); pump(0.5)
for i in range(window.side_tabs.count()):
    window.side_tabs.setCurrentIndex(i); pump(0.4)
    look(f"main, side tab {i}", window)
window.side_tabs.setCurrentIndex(0)
run = next(r for r in window.context.runs.values() if r["status"] == "waiting_approval")
window.prompts.open_for(run, force=True)
wait_for(lambda: window.prompts.dialog is not None and window.prompts.dialog.info is not None)
pump(0.5)
dialog = window.prompts.dialog
look("approval dialog", dialog)
dialog.close(); pump(0.2)
window.centre_tabs.show_inbox()
wait_for(lambda: window.inbox_panel.model.rowCount() > 0); pump(0.3)
look("inbox", window)
window.open_settings()
settings = window.settings_dialog
wait_for(settings.isVisible); pump(0.8)
for i in range(settings.tabs.count()):
    settings.tabs.setCurrentIndex(i); pump(0.4)
    look(f"settings, tab {i}", settings)
settings.close()
window.open_rules(); window.open_audit()
rules, audit = window.rules_window, window.audit_window
audit.set_filters(run_id="")  # every run's entries, not the selected run's
wait_for(lambda: rules.model.rowCount() > 0 and audit.model.rowCount() > 0); pump(0.4)
look("rules", window.rules_window)
look("audit", window.audit_window)
window.close()
print("REPORT " + json.dumps(report, ensure_ascii=False), flush=True)
"""


def inside(outer: list[int], inner: list[int]) -> bool:
    ox, oy, ow, oh = outer
    x, y, w, h = inner
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def probe(tmp_path: Path, home: Path) -> dict[str, Any]:
    config = tmp_path / "screen.json"
    config.write_text(
        json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, **SCREEN, "logicalDpi": 96}]})
    )
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(home), str(tmp_path / "BriefDesk.ini")],
        capture_output=True,
        text=True,
        env=app_env(QT_QPA_PLATFORM=f"offscreen:configfile={config}", BRIEFDESK_DESK="desk-1"),
        cwd=REPO_ROOT,
        timeout=240,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("REPORT ")]
    assert result.returncode == 0 and lines, result.stdout[-2000:] + result.stderr[-3000:]
    report: dict[str, Any] = json.loads(lines[-1][len("REPORT ") :])
    return report


def test_nothing_is_clipped_at_1024x700_in_chinese(tmp_path: Path, home: Path) -> None:
    ws = Workspace(home)
    try:
        done = ws.start_run(QUESTION)
        ws.approve(done["approvals"][0]["id"], reviewer="王芳", remember="home")
        assert ws.resume(done["run_id"])["status"] == "succeeded"
        # another artifacts folder: the rule remembered above does not cover it
        waiting = ws.start_run("批准一次写入之前，审阅者要检查什么？", artifacts=home / "产出")
        assert waiting["status"] == "waiting_approval", waiting
    finally:
        ws.close()
    report = probe(tmp_path, home)
    assert report["screen"] == [0, 0, SCREEN["width"], SCREEN["height"]]
    assert report["seen"] > 100, report  # the texts were looked at
    for where, frame in report["frames"].items():
        assert inside(report["screen"], frame), (where, frame)
    assert not report["arrows"], report["arrows"]  # every tab title whole, no scroll arrows
    assert not report["cut"], report["cut"]
    print("texts looked at:", report["seen"])
