"""Help: the keyboard shortcuts, the documentation, and About.

The shortcuts are read from the live window (its QActions and QShortcuts) and from the approval
dialog's own keys (approval_buttons.dialog_keys), never typed out here, so the list cannot drift
from what the keys do. The documentation is the README beside the code (and docs/ next to it),
opened by the desktop's own viewer through QDesktopServices; its path is shown either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.i18n import QT_TRANSLATE_NOOP, without_mnemonic
from desktop.widgets.about import show_about
from desktop.widgets.approval_buttons import dialog_keys

SOURCE_ROOT = Path(__file__).resolve().parent.parent.parent  # the checkout: README.md, docs/
README = SOURCE_ROOT / "README.md"
DOCS = SOURCE_ROOT / "docs"
MAIN_WINDOW = QT_TRANSLATE_NOOP("HelpMenu", "Main window")  # group titles, shown translated
APPROVAL_DIALOG = QT_TRANSLATE_NOOP("HelpMenu", "Approval dialog")
NATIVE = QKeySequence.SequenceFormat.NativeText


def plain(text: str) -> str:
    """A menu text as read: no mnemonic ampersand, no trailing ellipsis."""
    return without_mnemonic(text).rstrip("…").strip()


def _words(name: str) -> str:
    """`TimelinePanel` -> `timeline panel`."""
    return re.sub(r"(?<!^)([A-Z])", r" \1", name).lower()


def window_keys(window: QWidget) -> list[tuple[str, str]]:
    """Every shortcut of `window`: its actions' (all of their keys) and its QShortcuts'."""
    rows: list[tuple[str, str]] = []
    for action in window.actions():
        keys = [k.toString(NATIVE) for k in action.shortcuts() if not k.isEmpty()]
        if keys:
            rows.append((plain(action.text()), ", ".join(keys)))
    for shortcut in window.findChildren(QShortcut):
        owner = shortcut.parent()
        if not isinstance(owner, QWidget) or owner.window() is not window or not shortcut.key():
            continue
        what = (
            shortcut.whatsThis()
            or owner.accessibleName()
            or QCoreApplication.translate("HelpMenu", "In the {part}").format(
                part=_words(type(owner).__name__)
            )
        )
        rows.append((what, shortcut.key().toString(NATIVE)))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setWindowTitle(self.tr("Keyboard shortcuts — BriefDesk"))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("What"), self.tr("Keys")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName(self.tr("Keyboard shortcuts"))
        for title, rows in ((MAIN_WINDOW, window_keys(window)), (APPROVAL_DIALOG, dialog_keys())):
            group = QTreeWidgetItem(self.tree, [QCoreApplication.translate("HelpMenu", title)])
            group.setFirstColumnSpanned(True)
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            for what, keys in rows:
                QTreeWidgetItem(group, [what, keys])
        self.tree.expandAll()
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        self.resize(620, 520)

    def rows(self, title: str) -> list[tuple[str, str]]:
        """The (what, keys) rows listed under `title`."""
        for index in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(index)
            shown = QCoreApplication.translate("HelpMenu", title)
            if group is not None and group.text(0) == shown:
                children = (group.child(i) for i in range(group.childCount()))
                return [(item.text(0), item.text(1)) for item in children if item is not None]
        return []


def show_shortcuts(window: QMainWindow) -> ShortcutsDialog:
    dialog = ShortcutsDialog(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def open_documentation(window: QMainWindow) -> bool:
    """Open the README with the desktop's viewer; the path (and docs/) is shown either way."""
    where = QCoreApplication.translate("HelpMenu", "{readme} (more in {docs})").format(
        readme=README, docs=DOCS
    )
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(README))):
        window.statusBar().showMessage(
            QCoreApplication.translate("HelpMenu", "Documentation: {where}").format(where=where),
            15_000,
        )
        return True
    QMessageBox.information(
        window,
        QCoreApplication.translate("HelpMenu", "Documentation"),
        QCoreApplication.translate(
            "HelpMenu", "No viewer could open the documentation. It is at {where}."
        ).format(where=where),
    )
    return False


def add_help_menu(window: QMainWindow, menu: QMenu) -> tuple[QAction, QAction]:
    """Fill Help; returns its Keyboard shortcuts and Documentation actions."""

    def act(text: str, slot: Callable[[], object]) -> QAction:
        action = QAction(text, window)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    shortcuts = act(
        QCoreApplication.translate("HelpMenu", "&Keyboard shortcuts…"),
        lambda: show_shortcuts(window),
    )
    docs = act(
        QCoreApplication.translate("HelpMenu", "&Documentation"), lambda: open_documentation(window)
    )
    menu.addSeparator()
    act(QCoreApplication.translate("HelpMenu", "&About BriefDesk"), lambda: show_about(window))
    return shortcuts, docs
