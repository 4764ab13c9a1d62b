"""The diff as HTML: line numbers, Markdown colours, the changed words of a changed line marked
on both sides (as code review tools do), in the light or the dark palette's colours.

Every line is shown with its control characters escaped (`visible_block`): what a reviewer reads
is what would be written.
"""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QCoreApplication

from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.diff_model import ADDED, EQUAL, FOLD, MAX_ROWS, REMOVED, DiffModel
from desktop.models.visible_text import visible_block
from desktop.widgets.markdown_highlighter import STYLES, Style, code_states, markdown_spans

# -- changed words -------------------------------------------------------------------------

_TOKEN_RE = re.compile(r"\w+|\s+|[^\w\s]")
WORD_PAIR_MIN_RATIO = 0.4  # two lines less alike than this are rewritten, not edited: no marks

Ranges = tuple[tuple[int, int], ...]

translate = QCoreApplication.translate


@lru_cache(maxsize=2048)
def changed_words(old: str, new: str) -> tuple[Ranges, Ranges]:
    """(start, end) character ranges of the words that differ between a removed line and the
    added line it became, on each side, as code review tools mark them. Nothing is marked when
    the lines have too little in common for the marks to help."""
    a, b = _TOKEN_RE.findall(old), _TOKEN_RE.findall(new)
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    if matcher.ratio() < WORD_PAIR_MIN_RATIO:
        return (), ()
    a_at, b_at = _offsets(a), _offsets(b)
    old_marks: list[tuple[int, int]] = []
    new_marks: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            old_marks.append((a_at[i1], a_at[i2]))
        if j2 > j1:
            new_marks.append((b_at[j1], b_at[j2]))
    return tuple(old_marks), tuple(new_marks)


def _offsets(tokens: list[str]) -> list[int]:
    at = [0]
    for token in tokens:
        at.append(at[-1] + len(token))
    return at


# -- rendering ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffColours:
    """One palette's diff colours: backgrounds per row kind, the marks of changed words, and
    the Markdown colours of the text."""

    text: str
    muted: str
    row: dict[str, str]
    number: dict[str, str]
    empty: str  # the other side of a pure addition or removal
    fold_text: str
    word: dict[str, str]  # ADDED / REMOVED: the background of a changed word
    count: dict[str, str]  # ADDED / REMOVED: the +n / −n counts above the diff
    markdown: dict[str, Style]


LIGHT = DiffColours(
    text="#1f2328",
    muted="#6e7781",
    row={ADDED: "#e6ffec", REMOVED: "#ffebe9", EQUAL: "#ffffff", FOLD: "#f3f4f6"},
    number={ADDED: "#ccffd8", REMOVED: "#ffd7d5", EQUAL: "#f6f8fa", FOLD: "#f3f4f6"},
    empty="#f6f8fa",
    fold_text="#57606a",
    word={ADDED: "#abf2bc", REMOVED: "#ffb8b0"},
    count={ADDED: "#1a7f37", REMOVED: "#cf222e"},
    markdown=STYLES,
)
DARK = DiffColours(
    text="#e6edf3",
    muted="#8b949e",
    row={ADDED: "#15291f", REMOVED: "#2d181b", EQUAL: "#17191d", FOLD: "#22262c"},
    number={ADDED: "#1c3d2a", REMOVED: "#44211f", EQUAL: "#1d2026", FOLD: "#22262c"},
    empty="#1d2026",
    fold_text="#9aa4af",
    word={ADDED: "#2a6b3c", REMOVED: "#8a3129"},
    count={ADDED: "#3fb950", REMOVED: "#f85149"},
    markdown={
        "heading": Style("#79c0ff", bold=True),
        "bullet": Style("#e3b341", bold=True),
        "quote": Style("#9aa4af", italic=True),
        "fence": Style("#d2a8ff"),
        "code": Style("#d2a8ff"),
        "link": Style("#58a6ff"),
        "citation": Style("#56d4bc", bold=True),
        "strong": Style("#f0f3f6", bold=True),
        "emphasis": Style("#f0f3f6", italic=True),
    },
)
_MARK = {ADDED: "+", REMOVED: "−", EQUAL: "", FOLD: ""}
_TEXT = 'style="white-space:pre-wrap;"'


def _table(colours: DiffColours) -> str:
    return f'<table width="100%" cellspacing="0" cellpadding="2" style="color:{colours.text};">'


def line_html(text: str, *, in_code: bool, marks: Ranges, kind: str, colours: DiffColours) -> str:
    """One line as HTML: Markdown colours, changed words on a stronger background. `text` is
    shown as it is (the caller escaped its control characters)."""
    spans = markdown_spans(text, in_code=in_code)
    styles: list[str | None] = [None] * len(text)
    for span in spans:
        styles[span.start : span.start + span.length] = [span.style] * span.length
    marked = [False] * len(text)
    for start, end in marks:
        marked[start:end] = [True] * (end - start)
    out: list[str] = []
    pos = 0
    while pos < len(text):
        end = pos + 1
        while end < len(text) and (styles[end], marked[end]) == (styles[pos], marked[pos]):
            end += 1
        chunk = html.escape(text[pos:end])
        css = ""
        if styles[pos] is not None:
            style = colours.markdown[str(styles[pos])]
            css += f"color:{style.color};" + ("font-weight:bold;" if style.bold else "")
            css += "font-style:italic;" if style.italic else ""
        if marked[pos]:
            css += f"background-color:{colours.word[kind]};"
        out.append(f'<span style="{css}">{chunk}</span>' if css else chunk)
        pos = end
    return "".join(out)


class _Renderer:
    """Renders one model's rows: escapes each line once, pairs changed lines for word marks."""

    def __init__(self, model: DiffModel, colours: DiffColours) -> None:
        self.model, self.colours = model, colours
        self.old = [visible_block(line) for line in model.old_lines]
        self.new = [visible_block(line) for line in model.new_lines]
        self.old_code, self.new_code = code_states(self.old), code_states(self.new)
        self.pair_of_old = model.pairs()
        self.pair_of_new = {j: i for i, j in self.pair_of_old.items()}

    def marks(self, kind: str, number: int) -> Ranges:
        if kind == REMOVED and number - 1 in self.pair_of_old:
            return changed_words(self.old[number - 1], self.new[self.pair_of_old[number - 1]])[0]
        if kind == ADDED and number - 1 in self.pair_of_new:
            return changed_words(self.old[self.pair_of_new[number - 1]], self.new[number - 1])[1]
        return ()

    def num(self, number: int | None, kind: str) -> str:
        c = self.colours
        bg = c.number.get(kind, c.empty) if number else c.empty
        shown = "" if number is None else str(number)
        style = f"color:{c.muted}; white-space:pre;"
        return f'<td align="right" bgcolor="{bg}" style="{style}">{shown}</td>'

    def text(self, side: str, number: int | None, kind: str, width: str = "50%") -> str:
        """A row's marker and text cells; `side` ("old" or "new") says whose line `number` is."""
        c = self.colours
        bg = c.row.get(kind, c.empty) if number else c.empty
        body = ""
        if number is not None:
            lines, code = (self.old, self.old_code) if side == "old" else (self.new, self.new_code)
            body = line_html(
                lines[number - 1],
                in_code=code[number - 1],
                marks=self.marks(kind, number),
                kind=kind,
                colours=c,
            )
        mark = f"<b>{_MARK.get(kind, '')}</b>" if number else ""
        return (
            f'<td bgcolor="{bg}">{mark}</td><td width="{width}" bgcolor="{bg}" {_TEXT}>{body}</td>'
        )

    def fold(self, text: str, span: int) -> str:
        c = self.colours
        return (
            f'<td colspan="{span}" bgcolor="{c.row[FOLD]}" style="color:{c.fold_text};">{text}</td>'
        )


def render_unified(model: DiffModel, context: int | None, colours: DiffColours = LIGHT) -> str:
    r = _Renderer(model, colours)
    rows = model.unified(context)
    out = [_table(colours)]
    for row in rows[:MAX_ROWS]:
        if row.kind == FOLD:
            out.append(f"<tr>{r.fold(row.text, 4)}</tr>")
            continue
        side, number = ("old", row.old_no) if row.kind == REMOVED else ("new", row.new_no)
        cells = r.num(row.old_no, row.kind) + r.num(row.new_no, row.kind)
        out.append(f"<tr>{cells}{r.text(side, number, row.kind, '100%')}</tr>")
    return "".join(out) + "</table>" + _overflow(len(rows))


def render_side_by_side(model: DiffModel, context: int | None, colours: DiffColours = LIGHT) -> str:
    r = _Renderer(model, colours)
    rows = model.side_by_side(context)
    out = [_table(colours)]
    for row in rows[:MAX_ROWS]:
        if row.kind == FOLD:
            out.append(f"<tr>{r.fold(str(row.old_text), 3)}{r.fold(str(row.new_text), 3)}</tr>")
            continue
        old_kind, new_kind = (EQUAL, EQUAL) if row.kind == EQUAL else (REMOVED, ADDED)
        old = r.num(row.old_no, old_kind) + r.text("old", row.old_no, old_kind)
        new = r.num(row.new_no, new_kind) + r.text("new", row.new_no, new_kind)
        out.append(f"<tr>{old}{new}</tr>")
    return "".join(out) + "</table>" + _overflow(len(rows))


def _overflow(total: int) -> str:
    if total <= MAX_ROWS:
        return ""
    more = translate("DiffView", "{n} more rows not shown.").format(n=total - MAX_ROWS)
    return f"<p><i>{more}</i></p>"


IDENTICAL_TEXT = QT_TRANSLATE_NOOP("DiffView", "Identical: approving changes nothing")


def identical_html(model: DiffModel, colours: DiffColours) -> str:
    lines = len(model.new_lines)
    holds = (
        translate(
            "DiffView", "The proposed content is exactly what the file on disk holds ({n} line)."
        )
        if lines == 1
        else translate(
            "DiffView", "The proposed content is exactly what the file on disk holds ({n} lines)."
        )
    ).format(n=f"{lines:,}")
    same = translate("DiffView", IDENTICAL_TEXT)
    return f'<p style="color:{colours.text};"><b>{same}.</b> {holds}</p>'
