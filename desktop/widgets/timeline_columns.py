"""The timeline's column widths: each short column as wide as its words in the window's language
(never wider), and on a narrow table Duration, then Time, give their room to the Summary.

At 1024 px the short columns at fixed English widths left the Summary about 117 px ("rel…",
issue 44 item 2); each event's detail still holds its time and duration, and the Summary's
whole text is its tooltip.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetrics

from desktop.i18n import core_words
from desktop.models import event_text
from desktop.models.timeline_model import COLUMNS, DURATION, KIND, OUTCOME, TIME, TOOL

SUMMARY_ROOM = 220  # px the Summary keeps before Duration, then Time, hide (about 30 letters)
TEXT_PAD = 14  # the cell's text margins and the header's sort-free padding
ICON_PAD = 16 + 10  # the kind's badge and its spacing
TOOL_CAP = 130  # a longer tool name (an MCP server's) is elided; its detail names it whole
OUTCOME_CAP = 100  # "changes requested" (a call sent back) is elided; the Kind says "Decision"
BUILTIN_TOOLS = ("search_corpus", "read_document", "save_brief", "ask_question", "fetch_url")
HIDE_ORDER = (DURATION, TIME)  # what a narrow table gives up first


def _widest(metrics: QFontMetrics, texts: Iterable[str]) -> int:
    return max(metrics.horizontalAdvance(text) for text in texts)


def fitted_widths(metrics: QFontMetrics) -> dict[int, int]:
    """The short columns' widths that hold their header and every word they show, translated."""
    header = {
        column: QCoreApplication.translate("TimelineModel", COLUMNS[column])
        for column in range(len(COLUMNS))
    }
    kinds = [QCoreApplication.translate("EventText", s) for s in event_text.KIND_LABELS.values()]
    kinds += [
        QCoreApplication.translate("EventText", "Checkpoint {boundary}").format(boundary="A"),
        QCoreApplication.translate("EventText", event_text.CHANGES_REQUESTED_LABEL),
    ]
    outcomes = [
        QCoreApplication.translate("EventText", s) for s in event_text.OUTCOME_WORDS.values()
    ]
    outcomes += [core_words.approval_status(code) for code in core_words.APPROVAL_STATUSES]
    outcomes += [core_words.run_status(code) for code in ("succeeded", "failed", "cancelled")]
    durations = QCoreApplication.translate("EventText", "{m} min {s} s").format(m=59, s=59)
    return {
        TIME: _widest(metrics, [header[TIME], "00:00:00.000"]) + TEXT_PAD,
        KIND: max(_widest(metrics, kinds) + ICON_PAD, _widest(metrics, [header[KIND]]) + TEXT_PAD),
        TOOL: min(_widest(metrics, [header[TOOL], *BUILTIN_TOOLS]) + TEXT_PAD, TOOL_CAP),
        DURATION: _widest(metrics, [header[DURATION], durations]) + TEXT_PAD,
        OUTCOME: min(_widest(metrics, [header[OUTCOME], *outcomes]) + TEXT_PAD, OUTCOME_CAP),
    }


def hidden_when(table_width: int, widths: dict[int, int]) -> set[int]:
    """The columns to hide so that the Summary keeps SUMMARY_ROOM in `table_width` px."""
    shown = dict(widths)
    hidden: set[int] = set()
    for column in HIDE_ORDER:
        if table_width - sum(shown.values()) >= SUMMARY_ROOM:
            break
        shown.pop(column, None)
        hidden.add(column)
    return hidden
