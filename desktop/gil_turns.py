"""How long the GUI thread may wait for the interpreter lock while another thread computes.

Painting the timeline calls into Python for every cell, and each call takes the GIL again. When
the bridge thread is computing (reading a few thousand events, say), a thread that asks for the
GIL gets it once the holder has run for the switch interval: Python's default, 5 ms, was paid
again and again inside one repaint under a flood of events, the bulk of its longest stalls after
its own work. At 1 ms the bridge thread's jobs still run in long turns, and the window waits a
fifth as long.
"""

from __future__ import annotations

import sys

GUI_SWITCH_INTERVAL_S = 0.001


def favour_the_gui_thread() -> None:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
