"""A line diff of a proposed write against the file on disk: a pure model and a Qt view.

`build_diff(old, new)` is plain Python (unit-tested without Qt): added/removed counts, line
numbers on both sides, unified rows and side-by-side rows, with long unchanged stretches
folded. `DiffView` renders either layout as HTML with line numbers and Markdown colours.
"""

from __future__ import annotations

import difflib
import html
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.widgets.markdown_highlighter import code_states, markdown_html

EQUAL, ADDED, REMOVED, CHANGED, FOLD = "equal", "added", "removed", "changed", "fold"
MAX_ROWS = 4000  # beyond this the view says how much it left out rather than freezing


@dataclass(frozen=True)
class UnifiedRow:
    kind: str  # equal | added | removed | fold
    old_no: int | None
    new_no: int | None
    text: str


@dataclass(frozen=True)
class SideRow:
    kind: str  # equal | added | removed | changed | fold
    old_no: int | None
    old_text: str | None
    new_no: int | None
    new_text: str | None


@dataclass(frozen=True)
class DiffModel:
    old_lines: list[str]
    new_lines: list[str]
    is_new_file: bool
    opcodes: list[tuple[str, int, int, int, int]] = field(repr=False)

    @property
    def added(self) -> int:
        return sum(
            j2 - j1 for tag, _i1, _i2, j1, j2 in self.opcodes if tag in ("insert", "replace")
        )

    @property
    def removed(self) -> int:
        return sum(
            i2 - i1 for tag, i1, i2, _j1, _j2 in self.opcodes if tag in ("delete", "replace")
        )

    @property
    def unchanged(self) -> bool:
        return self.added == 0 and self.removed == 0

    def unified(self, context: int | None = 3) -> list[UnifiedRow]:
        rows: list[UnifiedRow] = []
        for tag, i1, i2, j1, j2 in self.opcodes:
            if tag == "equal":
                for kept in _fold(i1, i2, j1, context, self._position(i1, i2)):
                    if isinstance(kept, int):
                        rows.append(UnifiedRow(FOLD, None, None, _fold_text(kept)))
                    else:
                        i, j = kept
                        rows.append(UnifiedRow(EQUAL, i + 1, j + 1, self.old_lines[i]))
                continue
            rows += [UnifiedRow(REMOVED, i + 1, None, self.old_lines[i]) for i in range(i1, i2)]
            rows += [UnifiedRow(ADDED, None, j + 1, self.new_lines[j]) for j in range(j1, j2)]
        return rows

    def side_by_side(self, context: int | None = 3) -> list[SideRow]:
        rows: list[SideRow] = []
        for tag, i1, i2, j1, j2 in self.opcodes:
            if tag == "equal":
                for kept in _fold(i1, i2, j1, context, self._position(i1, i2)):
                    if isinstance(kept, int):
                        rows.append(SideRow(FOLD, None, _fold_text(kept), None, _fold_text(kept)))
                    else:
                        i, j = kept
                        rows.append(
                            SideRow(EQUAL, i + 1, self.old_lines[i], j + 1, self.new_lines[j])
                        )
                continue
            for k in range(max(i2 - i1, j2 - j1)):
                i, j = i1 + k, j1 + k
                old = (i + 1, self.old_lines[i]) if i < i2 else (None, None)
                new = (j + 1, self.new_lines[j]) if j < j2 else (None, None)
                kind = CHANGED if old[0] and new[0] else (REMOVED if old[0] else ADDED)
                rows.append(SideRow(kind, old[0], old[1], new[0], new[1]))
        return rows

    def _position(self, i1: int, i2: int) -> tuple[bool, bool]:
        return i1 == 0, i2 == len(self.old_lines)


def _fold(
    i1: int, i2: int, j1: int, context: int | None, edges: tuple[bool, bool]
) -> list[tuple[int, int] | int]:
    """Unchanged lines to show, as (old index, new index), with an int for each folded run."""
    pairs = [(i, j1 + (i - i1)) for i in range(i1, i2)]
    if context is None:
        return list(pairs)
    at_start, at_end = edges
    head = 0 if at_start else context
    tail = 0 if at_end else context
    if len(pairs) <= head + tail + 1:
        return list(pairs)
    hidden = len(pairs) - head - tail
    return [*pairs[:head], hidden, *pairs[len(pairs) - tail :]]


def _fold_text(count: int) -> str:
    return f"⋯ {count} unchanged line{'s' if count != 1 else ''}"


def build_diff(old: str | None, new: str) -> DiffModel:
    """Diff `new` against `old` (None: the file does not exist, every line is added)."""
    old_lines = [] if old is None else old.splitlines()
    new_lines = new.splitlines()
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    opcodes: list[tuple[str, int, int, int, int]] = list(matcher.get_opcodes())
    return DiffModel(old_lines, new_lines, old is None, opcodes)


# -- rendering ------------------------------------------------------------------------------

_BG = {ADDED: "#e6ffec", REMOVED: "#ffebe9", EQUAL: "#ffffff", FOLD: "#f3f4f6"}
_NUM_BG = {ADDED: "#ccffd8", REMOVED: "#ffd7d5", EQUAL: "#f6f8fa", FOLD: "#f3f4f6"}
_MARK = {ADDED: "+", REMOVED: "−", EQUAL: "", FOLD: ""}
_EMPTY_BG = "#f6f8fa"  # the other side of a pure addition or removal
_TABLE = '<table width="100%" cellspacing="0" cellpadding="2" style="color:#1f2328;">'
_TEXT = 'style="white-space:pre-wrap;"'


def _num(number: int | None, kind: str) -> str:
    bg = _NUM_BG.get(kind, _EMPTY_BG) if number else _EMPTY_BG
    shown = "" if number is None else str(number)
    return f'<td align="right" bgcolor="{bg}" style="color:#6e7781; white-space:pre;">{shown}</td>'


def _text(
    text: str | None, number: int | None, kind: str, code: list[bool], width: str = "50%"
) -> str:
    bg = _BG.get(kind, _EMPTY_BG) if number else _EMPTY_BG
    body = "" if text is None or number is None else markdown_html(text, in_code=code[number - 1])
    mark = f"<b>{_MARK.get(kind, '')}</b>" if number else ""
    return f'<td bgcolor="{bg}">{mark}</td><td width="{width}" bgcolor="{bg}" {_TEXT}>{body}</td>'


def _fold_row(text: str, span: int) -> str:
    return f'<td colspan="{span}" bgcolor="{_BG[FOLD]}" style="color:#57606a;">{text}</td>'


def render_unified(model: DiffModel, context: int | None) -> str:
    old_code, new_code = code_states(model.old_lines), code_states(model.new_lines)
    rows = model.unified(context)
    out = [_TABLE]
    for row in rows[:MAX_ROWS]:
        if row.kind == FOLD:
            out.append(f"<tr>{_fold_row(row.text, 4)}</tr>")
            continue
        removed = row.kind == REMOVED
        number, code = (row.old_no, old_code) if removed else (row.new_no, new_code)
        cells = _num(row.old_no, row.kind) + _num(row.new_no, row.kind)
        out.append(f"<tr>{cells}{_text(row.text, number, row.kind, code, '100%')}</tr>")
    return "".join(out) + "</table>" + _overflow(len(rows))


def render_side_by_side(model: DiffModel, context: int | None) -> str:
    old_code, new_code = code_states(model.old_lines), code_states(model.new_lines)
    rows = model.side_by_side(context)
    out = [_TABLE]
    for row in rows[:MAX_ROWS]:
        if row.kind == FOLD:
            out.append(
                f"<tr>{_fold_row(str(row.old_text), 3)}{_fold_row(str(row.new_text), 3)}</tr>"
            )
            continue
        old_kind, new_kind = (EQUAL, EQUAL) if row.kind == EQUAL else (REMOVED, ADDED)
        old = _num(row.old_no, old_kind) + _text(row.old_text, row.old_no, old_kind, old_code)
        new = _num(row.new_no, new_kind) + _text(row.new_text, row.new_no, new_kind, new_code)
        out.append(f"<tr>{old}{new}</tr>")
    return "".join(out) + "</table>" + _overflow(len(rows))


def _overflow(total: int) -> str:
    return f"<p><i>{total - MAX_ROWS} more rows not shown.</i></p>" if total > MAX_ROWS else ""


class DiffView(QWidget):
    """Side-by-side or unified diff with line numbers, counts and a fold toggle.

    A new file opens in the unified layout (there is nothing to show on the left) until the
    person picks a layout; from then on their choice holds.
    """

    SIDE_BY_SIDE, UNIFIED = "side_by_side", "unified"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = build_diff("", "")
        self._labels = ("current file", "proposed")
        self._mode_chosen = False
        self.counts_label = QLabel()
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        self.side_button = QRadioButton("Side by side")
        self.unified_button = QRadioButton("Unified")
        self.side_button.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.side_button)
        group.addButton(self.unified_button)
        self.all_lines = QCheckBox("Show all unchanged lines")
        self.columns_label = QLabel()
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        bar = QHBoxLayout()
        for widget in (
            self.counts_label,
            None,
            self.side_button,
            self.unified_button,
            self.all_lines,
        ):
            bar.addWidget(widget) if widget is not None else bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.columns_label)
        layout.addWidget(self.browser, 1)
        self.side_button.clicked.connect(self._on_mode_clicked)
        self.unified_button.clicked.connect(self._on_mode_clicked)
        self.side_button.toggled.connect(self._render)
        self.all_lines.toggled.connect(self._render)

    @property
    def model(self) -> DiffModel:
        return self._model

    @property
    def mode(self) -> str:
        return self.SIDE_BY_SIDE if self.side_button.isChecked() else self.UNIFIED

    def _on_mode_clicked(self) -> None:
        self._mode_chosen = True

    def set_texts(self, old: str | None, new: str, *, old_label: str, new_label: str) -> None:
        self._model = build_diff(old, new)
        self._labels = (old_label, new_label)
        if not self._mode_chosen:
            button = self.unified_button if self._model.is_new_file else self.side_button
            button.blockSignals(True)
            button.setChecked(True)
            button.blockSignals(False)
        self._render()

    def _render(self) -> None:
        model = self._model
        note = (
            "new file: every line is added"
            if model.is_new_file
            else "no change"
            if model.unchanged
            else ""
        )
        self.counts_label.setText(
            f'<b style="color:#1a7f37;">+{model.added}</b> added &nbsp;'
            f'<b style="color:#cf222e;">−{model.removed}</b> removed &nbsp;<i>{note}</i>'
        )
        old_label, new_label = (html.escape(label) for label in self._labels)
        context = None if self.all_lines.isChecked() else 3
        if self.mode == self.SIDE_BY_SIDE:
            self.columns_label.setText(
                f"<b>Left:</b> {old_label} &nbsp;&nbsp; <b>Right:</b> {new_label}"
            )
            body = render_side_by_side(model, context)
        else:
            self.columns_label.setText(f"<b>−</b> {old_label} &nbsp;&nbsp; <b>+</b> {new_label}")
            body = render_unified(model, context)
        scroll = self.browser.verticalScrollBar().value()
        self.browser.setHtml(body)
        self.browser.verticalScrollBar().setValue(scroll)
