"""A line diff of a proposed write against the file on disk, as plain data (no Qt).

`build_diff(old, new)`: added/removed counts, line numbers on both sides, unified rows and
side-by-side rows, with long unchanged stretches folded, and which removed line became which
added one (`pairs`, for marking the changed words). Lines are split on newlines only: a carriage
return or a form feed stays inside its line, where the view shows it escaped.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication

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

    def pairs(self) -> dict[int, int]:
        """Old line index -> new line index for lines that were changed rather than removed
        and added: the k-th removed line of a replaced block pairs with its k-th added one."""
        paired: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in self.opcodes:
            if tag == "replace":
                paired.update((i1 + k, j1 + k) for k in range(min(i2 - i1, j2 - j1)))
        return paired

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
    one, many = (
        QCoreApplication.translate("DiffView", "⋯ {n} unchanged line"),
        QCoreApplication.translate("DiffView", "⋯ {n} unchanged lines"),
    )
    return (one if count == 1 else many).format(n=count)


def _lines(text: str) -> list[str]:
    """Lines split on newlines only: a carriage return or a form feed stays inside its line
    (and is shown escaped), as a terminal-wise reviewer would want to see it."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def build_diff(old: str | None, new: str) -> DiffModel:
    """Diff `new` against `old` (None: the file does not exist, every line is added)."""
    old_lines = [] if old is None else _lines(old)
    new_lines = _lines(new)
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    opcodes: list[tuple[str, int, int, int, int]] = list(matcher.get_opcodes())
    return DiffModel(old_lines, new_lines, old is None, opcodes)
