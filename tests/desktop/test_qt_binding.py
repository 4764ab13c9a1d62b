"""The Qt binding keeps Python's reference counts: PySide6 6.12.0 dropped one reference to
`True` on every signal emit, and on Python 3.11 (where `True` is not immortal) the app then
died with "Fatal Python error: bool_dealloc" after enough emits (pyproject excludes 6.12.0)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    ping = Signal()
    carry = Signal(object)


def test_emitting_signals_keeps_the_references_of_true_and_false() -> None:
    emitter = _Emitter()
    emitter.carry.connect(lambda value: None)
    before = sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(200):
        emitter.ping.emit()
        emitter.carry.emit(1)
    after = sys.getrefcount(True), sys.getrefcount(False)
    # Other threads may hold a few references for a moment; a leak loses hundreds.
    assert after[0] >= before[0] - 20
    assert after[1] >= before[1] - 20
