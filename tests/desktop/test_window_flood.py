"""Issue 43 item 4: the whole window under a flood of events from another process.

Every event reaches the timeline once and in order, handed to the views in slices with the
window's own timers running between them; and once the app is warm, what lives is exempt from
later full collections while new garbage is still freed on the GUI thread.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from agent_core.contract.views import EventView
from desktop.gui_thread_gc import GuiThreadGarbageCollector
from tests.desktop.test_app_helpers import REPO_ROOT
from tests.support.desktop import MakeWindow

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace

FLOOD = 3000
# Another process appends the events 50 to a transaction, as a run (or briefdesk-cli) commits.
WRITER = """
import sys
from agent_core.facade.workspace import Workspace
from agent_core.storage.tables.timeline import append_event
ws = Workspace(sys.argv[1])
for start in range(0, int(sys.argv[3]), 50):
    with ws.store.write() as conn:
        for i in range(50):
            append_event(conn, sys.argv[2], "model_turn", data={"turn": start + i + 1})
ws.close()
"""


def test_a_flood_from_another_process_reaches_the_timeline_whole_in_order_and_in_slices(
    qtbot: QtBot, home: Path, ws: Workspace, make_window: MakeWindow
) -> None:
    run_id = ws.create_run("How do checkpoints make agent runs durable?")
    window = make_window(home)
    model = window.timeline.model
    qtbot.waitUntil(lambda: model.run_id == run_id, timeout=20_000)
    shown_before = model.rowCount()
    happened: list[str] = []  # "s": a slice reached the views, "t": the window's timer ticked
    sizes: list[int] = []

    def on_slice(events: list[EventView]) -> None:
        happened.append("s")
        sizes.append(len(events))

    window.bridge.events_arrived.connect(on_slice)
    ticker = QTimer(window)
    ticker.setTimerType(Qt.TimerType.PreciseTimer)
    ticker.timeout.connect(lambda: happened.append("t"))
    ticker.start(1)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home), run_id, str(FLOOD)], cwd=REPO_ROOT
    )
    qtbot.waitUntil(lambda: writer.poll() is not None, timeout=120_000)
    assert writer.returncode == 0
    qtbot.waitUntil(lambda: model.rowCount() >= shown_before + FLOOD, timeout=60_000)
    ticker.stop()

    rows = [model.event_at(row) for row in range(model.rowCount())]
    turns = [e["data"]["turn"] for e in rows if e is not None and e["kind"] == "model_turn"]
    assert turns == list(range(1, FLOOD + 1)), "every event once, in the order it was written"
    seqs = [e["seq"] for e in rows if e is not None]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert sum(sizes) >= FLOOD and len(sizes) > 1, "handed to the views in slices, not at once"
    assert "ss" not in "".join(happened), "the window's own timers ran between any two slices"


class Holder:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cycle collector frees it
        self.qobject = QObject()


def test_freezing_what_lives_still_frees_later_cycles_on_the_gui_thread(qapp: QApplication) -> None:
    collector = GuiThreadGarbageCollector(qapp, interval_ms=60_000)
    try:
        collector.freeze_survivors()
        assert gc.get_freeze_count() > 0, "what lived at the warm-up is out of collections"
        holder = Holder()
        alive = weakref.ref(holder)
        collector.freeze_survivors()  # once only: a second warm-up freezes nothing more
        del holder
        gc.collect()  # a full collection, as the collector's timer makes one in time
        assert alive() is None, "garbage made after the freeze is still freed"
    finally:
        gc.unfreeze()  # the suite's later tests collect everything again
        gc.disable()
        collector.deleteLater()
