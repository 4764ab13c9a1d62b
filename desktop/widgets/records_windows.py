"""The reviewer's records: remembered decisions (Rules) and the audit log (Audit).

Both are windows of their own beside the main window, read and changed through the bridge.
Rules shows each rule's scope whole (tool, folder, which runs) and revokes one only after the
person confirms. Audit lists every decision (by a person, a rule or policy) and every blocked
action, filtered by run and by principal, and exports what it shows as JSON or CSV.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop import i18n
from desktop.i18n import QT_TRANSLATE_NOOP, core_words
from desktop.i18n.dates import local_time
from desktop.models.plain_errors import plain_error, plain_exception
from desktop.models.records_model import Column, RecordsModel
from desktop.models.visible_text import visible_line
from desktop.widgets.confirm import ask_first

if TYPE_CHECKING:
    from agent_core.contract.views import AuditEntryView, RuleView
    from desktop.bridge import Bridge

translate = QCoreApplication.translate
ALL = ""  # the filter value that keeps every row


def _text(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    return "" if value is None else visible_line(str(value))


def _when(record: Mapping[str, object], key: str) -> str:
    return local_time(_text(record, key)) if record.get(key) else ""


def entry_word(entry: Mapping[str, object]) -> str:
    kind = _text(entry, "entry")
    if kind == "block":
        return translate("Records", "blocked")
    if kind == "decision":
        return translate("Records", "decision")
    return kind


def detail_words(entry: Mapping[str, object]) -> str:
    """A block's detail is the core's English sentence for its code: in another language the
    code's plain sentence; a decision's is a person's note or one of the core's reasons."""
    detail = _text(entry, "detail")
    if entry.get("entry") == "block" and i18n.active() != "en":
        return plain_error(_text(entry, "code"), detail)
    return core_words.reason(detail)


def who(principal: str) -> str:
    """`person:alice` -> `alice (person)`; `policy:default` -> `policy (default mode)`."""
    kind, _, name = principal.partition(":")
    if kind == "person":
        return translate("Records", "{name} (person)").format(name=visible_line(name))
    if kind == "rule":
        return translate("Records", "rule {name}").format(name=visible_line(name))
    if principal == "model":
        return translate("Records", "the model")
    if kind == "policy":
        return translate("Records", "policy ({mode} mode)").format(
            mode=core_words.mode(visible_line(name))
        )
    return visible_line(principal)


def records_table(model: RecordsModel, *stretch: int) -> QTableView:
    """A read-only table of records: rows selected whole, the `stretch` columns wrapped."""
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setWordWrap(True)
    view.setTextElideMode(Qt.TextElideMode.ElideNone)  # a scope is shown whole, never cut
    view.verticalHeader().setVisible(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    for column in stretch:  # the long ones share the width and wrap
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    model.modelReset.connect(view.resizeRowsToContents)
    return view


class RulesWindow(QDialog):
    """Remembered decisions, each with its whole scope; Revoke asks first."""

    revoked = Signal(str)  # rule id
    suggest_requested = Signal()  # "Suggest a rule…": the window that offers rules opens

    COLUMNS: tuple[Column, ...] = (
        (
            QT_TRANSLATE_NOOP("Records", "Status"),
            lambda r: (
                translate("Records", "Active")
                if r.get("active")
                else translate("Records", "Revoked")
            ),
        ),
        (QT_TRANSLATE_NOOP("Records", "Tool"), lambda r: _text(r, "tool")),
        (
            QT_TRANSLATE_NOOP("Records", "Folder (and everything under it)"),
            lambda r: _text(r, "folder"),
        ),
        (QT_TRANSLATE_NOOP("Records", "Applies to"), lambda r: _applies_to(r)),
        (QT_TRANSLATE_NOOP("Records", "Remembered by"), lambda r: _text(r, "created_by")),
        (QT_TRANSLATE_NOOP("Records", "Since"), lambda r: _when(r, "created_at")),
    )

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle(self.tr("Remembered decisions"))
        self.resize(860, 380)
        intro = QLabel(
            self.tr(
                "Each rule lets a tool act on files under a folder without asking a person "
                "again. Revoke a rule to be asked again."
            )
        )
        intro.setWordWrap(True)
        self.model = RecordsModel(self.COLUMNS, self)
        self.table = records_table(self.model, 2)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.scope_label = QLabel("")
        self.scope_label.setWordWrap(True)
        self.scope_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = QLabel(self.tr("Loading…"))
        self.revoke_button = QPushButton(self.tr("&Revoke…"))
        self.revoke_button.setEnabled(False)
        self.revoke_button.clicked.connect(self.ask_revoke)
        close = QPushButton(self.tr("&Close"))
        close.clicked.connect(self.close)
        self.suggest_button = QPushButton(self.tr("&Suggest a rule…"))
        self.suggest_button.clicked.connect(self.suggest_requested.emit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.suggest_button)
        buttons.addWidget(self.revoke_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.scope_label)
        layout.addLayout(buttons)
        self.confirm: QMessageBox | None = None
        self.reload()

    def reload(self) -> None:
        self.bridge.submit(lambda ws: ws.list_rules(), self._loaded, self._failed)

    def _loaded(self, rules: list[RuleView]) -> None:
        self.model.set_records(rules)
        active = sum(1 for r in rules if r.get("active"))
        self.status_label.setText(
            self.tr("No remembered decisions yet.")
            if not rules
            else self.tr("{active} active of {total}").format(active=active, total=len(rules))
        )
        self._selection_changed()

    def _failed(self, exc: Exception) -> None:
        self.status_label.setText(plain_exception(exc))

    def selected_rule(self) -> Mapping[str, object] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.record(rows[0].row()) if rows else None

    def _selection_changed(self, *_args: object) -> None:
        rule = self.selected_rule()
        self.scope_label.setText(
            self.tr("Scope: {rule}.").format(rule=_describes(rule)) if rule is not None else ""
        )
        self.revoke_button.setEnabled(bool(rule and rule.get("active")))

    def ask_revoke(self) -> None:
        rule = self.selected_rule()
        if rule is None or not rule.get("active"):
            return
        rule_id = str(rule["id"])
        self.confirm = ask_first(
            self,
            title=self.tr("Revoke this rule?"),
            text=self.tr("From now on a person is asked again before: {rule}.").format(
                rule=_describes(rule)
            ),
            action=self.tr("Revoke"),
            on_confirm=lambda: self._confirmed(rule_id),
            role=QMessageBox.ButtonRole.DestructiveRole,
        )

    def _confirmed(self, rule_id: str) -> None:
        def done(_rule: object) -> None:
            self.revoked.emit(rule_id)
            self.reload()

        self.bridge.submit(lambda ws: ws.revoke_rule(rule_id), done, self._failed)


def _choose(combo: QComboBox, value: str) -> None:
    """Select `value`, adding it when no entry has it yet (a run with nothing recorded)."""
    index = combo.findData(value)
    if index < 0 and value:
        combo.addItem(visible_line(value), value)
        index = combo.count() - 1
    combo.setCurrentIndex(max(index, 0))


def _applies_to(rule: Mapping[str, object]) -> str:
    if rule.get("scope") == "run":
        return translate("Records", "run {run} only").format(run=_text(rule, "run_id"))
    return translate("Records", "every run in this home")


def _describes(rule: Mapping[str, object]) -> str:
    """The rule as `Rule.describe` words it (the view's `describes`), in the window's language."""
    return visible_line(core_words.described_rule(str(rule.get("describes") or "")))


class AuditWindow(QDialog):
    """Decisions and blocked actions, filtered by run and principal; exported as shown."""

    COLUMNS: tuple[Column, ...] = (
        (QT_TRANSLATE_NOOP("Records", "When"), lambda e: _when(e, "at")),
        (QT_TRANSLATE_NOOP("Records", "Run"), lambda e: _text(e, "run_id")),
        (QT_TRANSLATE_NOOP("Records", "What"), lambda e: entry_word(e)),
        (QT_TRANSLATE_NOOP("Records", "Who"), lambda e: who(str(e.get("principal") or ""))),
        (QT_TRANSLATE_NOOP("Records", "Tool"), lambda e: _text(e, "tool")),
        (
            QT_TRANSLATE_NOOP("Records", "Outcome"),
            lambda e: core_words.approval_status(_text(e, "decision")) or _text(e, "code"),
        ),
        (QT_TRANSLATE_NOOP("Records", "Resource"), lambda e: _text(e, "resource")),
        (QT_TRANSLATE_NOOP("Records", "Detail"), lambda e: detail_words(e)),
    )

    exported = Signal(str, int)  # path, entries written

    def __init__(
        self, bridge: Bridge, parent: QWidget | None = None, *, run_id: str | None = None
    ) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle(self.tr("Audit log"))
        self.resize(980, 460)
        self._all: list[AuditEntryView] = []
        self.run_filter = QComboBox()
        self.principal_filter = QComboBox()
        for combo in (self.run_filter, self.principal_filter):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(self._apply_filters)
        self._wanted_run = run_id or ALL
        run_label, who_label = QLabel(self.tr("&Run:")), QLabel(self.tr("&Who:"))
        run_label.setBuddy(self.run_filter)
        who_label.setBuddy(self.principal_filter)
        filters = QHBoxLayout()
        for widget in (run_label, self.run_filter, who_label, self.principal_filter):
            filters.addWidget(widget)
        filters.addStretch(1)
        self.model = RecordsModel(self.COLUMNS, self)
        self.table = records_table(self.model, 6, 7)
        # One line a row: a long path is cut in its middle; the tooltip and the pane below
        # show it whole.
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.details = QLabel(self.tr("Select an entry to see it whole."))
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAccessibleName(self.tr("Selected entry"))
        self.table.selectionModel().selectionChanged.connect(self._show_details)
        self.status_label = QLabel(self.tr("Loading…"))
        self.export_button = QPushButton(self.tr("&Export…"))
        self.export_button.clicked.connect(self.choose_export)
        close = QPushButton(self.tr("&Close"))
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.export_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addLayout(buttons)
        self.reload()

    def _show_details(self, *_args: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        record = self.model.record(rows[0].row()) if rows else None
        if record is None:
            self.details.setText(self.tr("Select an entry to see it whole."))
            return
        texts = [(translate("Records", title), text_of(record)) for title, text_of in self.COLUMNS]
        short = " · ".join(text for _title, text in texts[:6] if text)
        long = [f"{title}: {text}" for title, text in texts[6:] if text]
        self.details.setText("\n".join([short, *long]))

    # -- data ---------------------------------------------------------------------------------

    def reload(self) -> None:
        self.bridge.submit(lambda ws: ws.audit_entries(), self._loaded, self._failed)

    def _loaded(self, entries: list[AuditEntryView]) -> None:
        self._all = list(entries)
        runs = sorted({str(e["run_id"]) for e in entries if e.get("run_id")})
        principals = sorted({str(e["principal"]) for e in entries if e.get("principal")})
        self._fill(
            self.run_filter,
            self.tr("All runs"),
            [(visible_line(r), r) for r in runs],
            self._wanted_run,
        )
        self._fill(
            self.principal_filter,
            self.tr("Everyone"),
            [(who(p), p) for p in principals],
            self.principal(),
        )
        self._apply_filters()

    @staticmethod
    def _fill(combo: QComboBox, everything: str, items: list[tuple[str, str]], keep: str) -> None:
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(everything, ALL)
        for label, value in items:
            combo.addItem(label, value)
        _choose(combo, keep)
        combo.blockSignals(False)

    def _failed(self, exc: Exception) -> None:
        self.status_label.setText(plain_exception(exc))

    # -- filters ------------------------------------------------------------------------------

    def run_id(self) -> str:
        return str(self.run_filter.currentData() or ALL)

    def principal(self) -> str:
        return str(self.principal_filter.currentData() or ALL)

    def set_filters(self, *, run_id: str | None = None, principal: str | None = None) -> None:
        if run_id is not None:
            self._wanted_run = run_id
            _choose(self.run_filter, run_id)
        if principal is not None:
            _choose(self.principal_filter, principal)

    def _apply_filters(self, *_args: object) -> None:
        run_id, principal = self.run_id(), self.principal()
        shown = [
            e
            for e in self._all
            if (not run_id or e.get("run_id") == run_id)
            and (not principal or e.get("principal") == principal)
        ]
        self.model.set_records(shown)
        decisions = sum(1 for e in shown if e.get("entry") == "decision")
        blocks = sum(1 for e in shown if e.get("entry") == "block")
        decided = (self.tr("{n} decision") if decisions == 1 else self.tr("{n} decisions")).format(
            n=decisions
        )
        blocked = (
            self.tr("{n} blocked action") if blocks == 1 else self.tr("{n} blocked actions")
        ).format(n=blocks)
        self.status_label.setText(
            self.tr("{decisions}, {blocks}").format(decisions=decided, blocks=blocked)
            if shown
            else (
                self.tr("No entries match these filters.")
                if self._all
                else self.tr("Nothing recorded yet.")
            )
        )

    # -- export -------------------------------------------------------------------------------

    def choose_export(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(
            self,
            self.tr("Export the audit log"),
            str(Path.home() / "briefdesk-audit.csv"),
            "CSV (*.csv);;JSON (*.json)",
        )
        if path:
            self.export_to(
                path, "json" if chosen.startswith("JSON") or path.endswith(".json") else "csv"
            )

    def export_to(self, path: str, fmt: str) -> None:
        """Write the entries the filters show to `path` (off the GUI thread)."""
        run_id, principal = self.run_id() or None, self.principal() or None

        def done(count: int) -> None:
            self.status_label.setText(
                self.tr("Exported {n} entries to {path}.").format(n=count, path=visible_line(path))
            )
            self.exported.emit(path, count)

        self.bridge.submit(
            lambda ws: ws.export_audit(path, fmt, run_id=run_id, principal=principal),
            done,
            self._failed,
        )
