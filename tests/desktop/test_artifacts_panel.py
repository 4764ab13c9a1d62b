"""The artifacts panel, offscreen, over a real home watched by a real watchdog observer."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from agent_core.artifacts.watcher import watching
from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.artifacts_panel import ArtifactsPanel
from tests.support.desktop import open_workspace, started_bridge
from tests.support.typed import present

QUESTION = "How do checkpoints make agent runs durable?"


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    with open_workspace(home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, ws: Workspace, home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, home) as started:
        yield started


class UrlCatcher(QObject):
    """Stands in for the desktop's file opener (Qt's own hook), so nothing is launched."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened() -> Iterator[UrlCatcher]:
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    yield catcher
    QDesktopServices.unsetUrlHandler("file")


def rows(panel: ArtifactsPanel) -> dict[str, str]:
    return {s["relative"]: s["state"] for s in panel.states}


def test_the_panel_lists_each_file_with_its_state_and_opens_it(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, opened: UrlCatcher
) -> None:
    run = ws.start_run(QUESTION)
    ws.approve(run["approvals"][0]["id"], reviewer="alice")
    root = Path(run["artifacts"])
    target = Path(present(run["approvals"][0]["target"]))
    with watching(ws.store, root):
        run = ws.resume(run["run_id"])
        (root / "dropped.txt").write_text("nobody approved this")
        qtbot.waitUntil(
            lambda: len([e for e in ws.timeline() if e["kind"].startswith("artifact_")]) == 2,
            timeout=5000,
        )
    (root / "later.txt").write_text("written while nothing watched")
    panel = ArtifactsPanel(bridge)
    qtbot.addWidget(panel)
    panel.show()
    panel.scope_combo.setCurrentIndex(panel.scope_combo.findData("folder"))  # every file
    panel.set_run(run)
    qtbot.waitUntil(lambda: len(panel.states) == 3, timeout=5000)
    assert rows(panel) == {
        target.relative_to(root).as_posix(): "confirmed",
        "dropped.txt": "unexpected",
        "later.txt": "unseen",
    }
    shown = {
        panel.tree.topLevelItem(i).text(0): panel.tree.topLevelItem(i).text(1) for i in range(3)
    }
    assert (
        shown["dropped.txt"].endswith("unexpected")
        and "confirmed once" in shown[target.relative_to(root).as_posix()]
    )
    item = next(
        panel.tree.topLevelItem(i)
        for i in range(3)
        if panel.tree.topLevelItem(i).text(0) == "dropped.txt"
    )
    panel.tree.setCurrentItem(present(item))
    qtbot.mouseClick(panel.open_button, Qt.MouseButton.LeftButton)
    assert [u.toLocalFile() for u in opened.urls] == [str(root / "dropped.txt")]


def test_the_panel_refreshes_live_when_the_watcher_flags_a_write(
    qtbot: QtBot, bridge: Bridge, ws: Workspace
) -> None:
    run = ws.get_run(ws.create_run(QUESTION))
    root = Path(run["artifacts"])
    bridge.start_following(150)
    panel = ArtifactsPanel(bridge)
    qtbot.addWidget(panel)
    panel.scope_combo.setCurrentIndex(panel.scope_combo.findData("folder"))  # a stray file too
    panel.set_run(run)
    qtbot.waitUntil(lambda: "Whole folder" in panel.folder_label.text(), timeout=3000)
    with watching(ws.store, root):
        fd = os.open(root / "surprise.md", os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, b"# surprise\n")
        os.close(fd)
        qtbot.waitUntil(lambda: rows(panel) == {"surprise.md": "unexpected"}, timeout=5000)


def test_a_new_version_of_the_shown_run_does_not_list_its_folder_again(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window hands the panel the selected run each time the runs list moves (every poll
    of a busy run): listing the folder and reading the run's timeline again each time cost a
    flood of events most of its stalls. Its files change with events, which it follows."""
    run = ws.get_run(ws.create_run(QUESTION))
    other = ws.get_run(ws.create_run(QUESTION))
    panel = ArtifactsPanel(bridge)
    qtbot.addWidget(panel)
    panel.set_run(run)
    qtbot.waitUntil(lambda: "0 files" in panel.folder_label.text(), timeout=3000)
    jobs: list[object] = []
    submit = bridge.submit
    monkeypatch.setattr(bridge, "submit", lambda *a, **k: (jobs.append(a[0]), submit(*a, **k))[1])
    for status in ("running", "waiting_approval", "running"):
        panel.set_run({**run, "status": status, "updated_at": f"later, {status}"})
    assert jobs == []
    assert "0 files" in panel.folder_label.text()
    panel.set_run(other)  # another run is another folder: listed
    assert len(jobs) == 1
    qtbot.waitUntil(lambda: other["run_id"] in panel.folder_label.text(), timeout=3000)
