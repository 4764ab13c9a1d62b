"""Issue 30's "done when" for the windows a screen reader test does not open: in Chinese, every
text of the main window, Settings (each tab), Rules, Audit and the Inbox, as shown (labels,
buttons, titles, tabs, headers, cells, combo items, placeholders, tooltips, accessible names),
has no English word. Real widgets offscreen on a real home: a pending proposal, a remembered
rule, a block and decisions. What may stay in Latin letters: tests/support/english_words.py."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot

from desktop import i18n
from desktop.i18n import build
from tests.support.desktop import MakeWindow, open_workspace
from tests.support.english_words import english_words
from tests.support.typed import present

QUESTION = "检查点如何让智能体的运行经得起崩溃？"
REVIEWER = "王芳"
_TAG = re.compile(r"<[^>]+>")


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    build.build()
    assert i18n.install_translators(qapp, "zh_CN") == "zh_CN"
    yield
    i18n.install_translators(qapp, "en")


def plain(text: str) -> str:
    return html.unescape(_TAG.sub(" ", text))


def texts_of(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every text `root` and its shown children give a person."""
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisible():
            continue
        where = type(widget).__name__
        yield where, widget.windowTitle() if widget.isWindow() else ""
        yield where, plain(widget.toolTip())
        yield where, widget.accessibleName()
        yield where, widget.accessibleDescription()
        if isinstance(widget, QLabel):
            yield where, plain(widget.text())
        if isinstance(widget, QAbstractButton):
            yield where, widget.text()
        if isinstance(widget, QGroupBox):
            yield where, widget.title()
        if isinstance(widget, QLineEdit | QPlainTextEdit):
            yield where, widget.placeholderText()
        if isinstance(widget, QComboBox):
            yield from ((where, widget.itemText(i)) for i in range(widget.count()))
        if isinstance(widget, QTabWidget):
            for i in range(widget.count()):
                yield where, widget.tabText(i)
                yield where, widget.tabToolTip(i)
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model, top = widget.model(), QModelIndex()
            try:
                columns = model.columnCount(top)
            except TypeError:  # a list model: one column (its columnCount is private)
                columns = 1
            for column in range(columns):
                yield where, str(model.headerData(column, Qt.Orientation.Horizontal) or "")
                for row in range(model.rowCount(top)):
                    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                        yield where, str(model.index(row, column).data(role) or "")


def english_in(root: QWidget) -> list[tuple[str, str, set[str]]]:
    return [
        (where, text, found) for where, text in texts_of(root) if (found := english_words(text))
    ]


def make_home(home: Path, tmp: Path) -> None:
    """A rule remembered by a person, a block and a decision, and a proposal that waits."""
    script = tmp / "reads-outside.json"
    script.write_text(
        json.dumps(
            [
                {"call": "read_document", "args": {"path": "../../../etc/passwd"}},
                {
                    "call": "save_brief",
                    "args": {"relative_path": "团队/笔记.md", "content": "# 笔记\n"},
                },
                {"say": "已保存。"},
            ]
        )
    )
    with open_workspace(home) as ws:
        ws.set_setting("reviewer", REVIEWER)
        first = ws.start_run("供应商笔记", model=f"scripted:{script}")
        ws.approve(first["approvals"][0]["id"], reviewer=REVIEWER, remember="home")
        ws.drive(first["run_id"])
        waiting = ws.start_run(QUESTION)
        assert waiting["status"] == "waiting_approval", waiting


def test_settings_rules_audit_and_inbox_have_no_english_word_in_chinese(
    qtbot: QtBot, home: Path, tmp_path: Path, chinese: None, make_window: MakeWindow
) -> None:
    make_home(home, tmp_path)
    window = make_window(home)
    qtbot.waitUntil(lambda: window.timeline.model.rowCount() > 0, timeout=15_000)
    assert not english_in(window), english_in(window)

    window.centre_tabs.show_inbox()
    inbox = window.inbox_panel
    qtbot.waitUntil(lambda: inbox.isVisible() and inbox.model.rowCount() > 0, timeout=15_000)
    assert "审批" in {text for _w, text in texts_of(inbox)}
    assert not english_in(window), english_in(window)

    window.open_rules()
    rules = present(window.rules_window)
    qtbot.waitUntil(lambda: rules.model.rowCount() == 1, timeout=15_000)
    assert not english_in(rules), english_in(rules)

    window.open_audit()
    audit = present(window.audit_window)
    audit.set_filters(run_id="")
    qtbot.waitUntil(lambda: audit.model.rowCount() >= 2, timeout=15_000)
    assert "已阻止" in {text for _w, text in texts_of(audit)}
    assert not english_in(audit), english_in(audit)
    rules.close()
    audit.close()

    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(lambda: dialog.isVisible(), timeout=15_000)
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        qtbot.waitUntil(lambda: dialog.tabs.currentWidget().isVisible(), timeout=5_000)
        assert not english_in(dialog), (dialog.tabs.tabText(index), english_in(dialog))
    dialog.reject()
