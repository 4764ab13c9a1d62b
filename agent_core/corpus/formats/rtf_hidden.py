"""RTF text a reader does not see, taken out of the source before its text is read.

Character formatting is followed group by group as Word reads it (`{` saves it, `}` restores
it, `\\plain` resets it): hidden text (`\\v`), under 2 pt (`\\fs` under 4 half-points), or a
colour (`\\cfN`, from the colour table) that cannot be told from what is behind it: its
highlight (`\\highlightN`), else its character shading (`\\chcbpatN`, `\\cbN`), else its
paragraph's shading (`\\cbpatN`), else its table cell's (`\\clcbpatN`), else white. Colour 0
(or an empty table entry) is "auto": shown. Destinations (font and colour tables, stylesheet,
`{\\*...}` groups, pictures) are kept as they are: they are not body text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agent_core.corpus.formats.visibility import WHITE, Rgb, unseen_colour

_TOKEN = re.compile(
    rb"\\bin(-?\d+) ?"  # binary data follows: its length
    rb"|\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # control word
    rb"|\\'[0-9a-fA-F]{2}"  # a character by its code
    rb"|\\[^a-zA-Z]"  # control symbol
    rb"|[{}]"
    rb"|[^\\{}]+",
    re.S,
)
_COLOUR_TABLE = re.compile(rb"\{\\colortbl\s*(.*?)\}", re.S)
_COLOUR_PART = re.compile(rb"\\(red|green|blue)(\d{1,3})")
_DESTINATIONS = {
    b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"object", b"header",
    b"headerl", b"headerr", b"headerf", b"footer", b"footerl", b"footerr", b"footerf",
    b"listtable", b"listoverridetable", b"revtbl", b"rsidtbl", b"generator", b"xmlnstbl",
    b"fldinst", b"themedata", b"colorschememapping", b"datastore", b"latentstyles",
    b"pgdsctbl", b"filetbl", b"userprops", b"background",
}  # fmt: skip
_TEXT_SYMBOLS = {b"\\~", b"\\-", b"\\_", b"\\\\", b"\\{", b"\\}"}
_DEFAULT_HALF_POINTS = 24


@dataclass(frozen=True)
class _State:
    """Character formatting (restored at `}`) and whether the group is a destination."""

    hidden: bool = False
    ink: int = 0
    highlight: int = 0
    shading: int = 0
    half_points: int = _DEFAULT_HALF_POINTS
    paragraph_shading: int = 0
    in_table: bool = False
    destination: bool = False


def remove_hidden(data: bytes) -> tuple[bytes, int]:
    """The RTF without its unseen text, and how many runs of text were taken out."""
    colours = _colour_table(data)
    out: list[bytes] = []
    stack: list[_State] = []
    state = _State()
    group_start = False
    removed = 0
    in_run = False  # the last text met was unseen
    cells: list[int] = []
    pending_cell = 0
    cell = 0
    position = 0
    while position < len(data):
        match = _TOKEN.match(data, position)
        if match is None:  # a lone backslash at the end
            out.append(data[position:])
            break
        token = match.group(0)
        position = match.end()
        if match.group(1) is not None:  # \binN: N raw bytes, kept
            size = max(int(match.group(1)), 0)
            out.append(token + data[position : position + size])
            position += size
            continue
        word = match.group(2)
        if token == b"{":
            stack.append(state)
            group_start = True
            out.append(token)
            continue
        if token == b"}":
            state = stack.pop() if stack else _State()
            group_start = False
            out.append(token)
            continue
        if group_start and (token == b"\\*" or word in _DESTINATIONS):
            state = replace(state, destination=True)
        group_start = False
        if word is not None and word != b"u":  # \uN is a character: text below
            name = word.decode("ascii")
            number = match.group(3)
            value = int(number) if number is not None else None
            state = _apply(state, name, value)
            if name == "trowd":
                cells, pending_cell, cell = [], 0, 0
            elif name == "clcbpat":
                pending_cell = value or 0
            elif name == "cellx":
                cells.append(pending_cell)
                pending_cell = 0
            elif name == "cell":
                cell += 1
            elif name == "row":
                cell = 0
            elif name in ("par", "sect", "page"):
                in_run = False
            out.append(token)
            continue
        is_text = (
            word is not None  # \uN
            or token.startswith(b"\\'")
            or token in _TEXT_SYMBOLS
            or not token.startswith(b"\\")
        )
        if not is_text or state.destination:
            out.append(token)
            continue
        cell_fill = cells[cell] if state.in_table and cell < len(cells) else 0
        if _unseen(state, colours, cell_fill):
            if token.strip() and not in_run:
                removed += 1
            in_run = in_run or bool(token.strip())
            continue
        if token.strip():
            in_run = False
        out.append(token)
    return b"".join(out), removed


def _apply(state: _State, name: str, value: int | None) -> _State:
    if name == "plain":
        return replace(
            state, hidden=False, ink=0, highlight=0, shading=0, half_points=_DEFAULT_HALF_POINTS
        )
    if name == "pard":
        return replace(state, paragraph_shading=0, in_table=False)
    if name == "v":
        return replace(state, hidden=value != 0)
    if name == "fs":
        return replace(state, half_points=_DEFAULT_HALF_POINTS if value is None else value)
    if name == "intbl":
        return replace(state, in_table=True)
    if name == "cf":
        return replace(state, ink=value or 0)
    if name == "highlight":
        return replace(state, highlight=value or 0)
    if name in ("chcbpat", "cb"):
        return replace(state, shading=value or 0)
    if name == "cbpat":
        return replace(state, paragraph_shading=value or 0)
    return state


def _unseen(state: _State, colours: list[Rgb | None], cell_fill: int) -> bool:
    if state.hidden or state.half_points < 4:
        return True
    ink = _colour(colours, state.ink)
    if ink is None:
        return False  # auto: shown
    behind = WHITE
    for index in (state.highlight, state.shading, state.paragraph_shading, cell_fill):
        found = _colour(colours, index)
        if found is not None:
            behind = found
            break
    return unseen_colour(ink, behind)


def _colour(colours: list[Rgb | None], index: int) -> Rgb | None:
    return colours[index] if 0 < index < len(colours) else None


def _colour_table(data: bytes) -> list[Rgb | None]:
    """The colour table's entries by index (None: an empty entry, "auto")."""
    found = _COLOUR_TABLE.search(data)
    if found is None:
        return []
    entries: list[Rgb | None] = []
    for entry in found.group(1).split(b";")[:-1] or [b""]:
        parts = {name: int(number) for name, number in _COLOUR_PART.findall(entry)}
        if not parts:
            entries.append(None)
            continue
        entries.append(Rgb(*(min(parts.get(c, 0), 255) / 255 for c in (b"red", b"green", b"blue"))))
    return entries
