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

from PySide6.QtCore import Qt, Signal
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

from desktop.models.plain_errors import plain_exception
from desktop.models.records_model import Column, RecordsModel
from desktop.models.visible_text import visible_line
from desktop.widgets.confirm import ask_first

if TYPE_CHECKING:
    from agent_core.contract.views import AuditEntryView, RuleView
    from desktop.bridge import Bridge

ALL = ""  # the filter value that keeps every row


def _text(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    return "" if value is None else visible_line(str(value))


def _when(record: Mapping[str, object], key: str) -> str:
    return _text(record, key).replace("T", " ")[:19]


def who(principal: str) -> str:
    """`person:alice` -> `alice (person)`; `policy:default` -> `policy (default mode)`."""
    kind, _, name = principal.partition(":")
    if kind == "person":
        return f"{visible_line(name)} (person)"
    if kind == "rule":
        return f"rule {visible_line(name)}"
    if kind == "policy":
        return f"policy ({visible_line(name)} mode)"
    return visible_line(principal)


def _table(model: RecordsModel, *stretch: int) -> QTableView:
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

    COLUMNS: tuple[Column, ...] = (
        ("Status", lambda r: "Active" if r.get("active") else "Revoked"),
        ("Tool", lambda r: _text(r, "tool")),
        ("Folder (and everything under it)", lambda r: _text(r, "folder")),
        ("Applies to", lambda r: _applies_to(r)),
        ("Remembered by", lambda r: _text(r, "created_by")),
        ("Since", lambda r: _when(r, "created_at")),
    )

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle("Remembered decisions")
        self.resize(860, 380)
        intro = QLabel(
            "Each rule lets a tool act on files under a folder without asking a person again. "
            "Revoke a rule to be asked again."
        )
        intro.setWordWrap(True)
        self.model = RecordsModel(self.COLUMNS, self)
        self.table = _table(self.model, 2)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.scope_label = QLabel("")
        self.scope_label.setWordWrap(True)
        self.scope_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = QLabel("Loading…")
        self.revoke_button = QPushButton("&Revoke…")
        self.revoke_button.setEnabled(False)
        self.revoke_button.clicked.connect(self.ask_revoke)
        close = QPushButton("&Close")
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
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
            "No remembered decisions yet." if not rules else f"{active} active of {len(rules)}"
        )
        self._selection_changed()

    def _failed(self, exc: Exception) -> None:
        self.status_label.setText(plain_exception(exc))

    def selected_rule(self) -> Mapping[str, object] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.record(rows[0].row()) if rows else None

    def _selection_changed(self, *_args: object) -> None:
        rule = self.selected_rule()
        self.scope_label.setText(f"Scope: {_text(rule, 'describes')}." if rule is not None else "")
        self.revoke_button.setEnabled(bool(rule and rule.get("active")))

    def ask_revoke(self) -> None:
        rule = self.selected_rule()
        if rule is None or not rule.get("active"):
            return
        rule_id = str(rule["id"])
        self.confirm = ask_first(
            self,
            title="Revoke this rule?",
            text=f"From now on a person is asked again before: {_text(rule, 'describes')}.",
            action="Revoke",
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
        return f"run {_text(rule, 'run_id')} only"
    return "every run in this home"


class AuditWindow(QDialog):
    """Decisions and blocked actions, filtered by run and principal; exported as shown."""

    COLUMNS: tuple[Column, ...] = (
        ("When", lambda e: _when(e, "at")),
        ("Run", lambda e: _text(e, "run_id")),
        ("What", lambda e: "blocked" if e.get("entry") == "block" else _text(e, "entry")),
        ("Who", lambda e: who(str(e.get("principal") or ""))),
        ("Tool", lambda e: _text(e, "tool")),
        ("Outcome", lambda e: _text(e, "decision") or _text(e, "code")),
        ("Resource", lambda e: _text(e, "resource")),
        ("Detail", lambda e: _text(e, "detail")),
    )

    exported = Signal(str, int)  # path, entries written

    def __init__(
        self, bridge: Bridge, parent: QWidget | None = None, *, run_id: str | None = None
    ) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle("Audit log")
        self.resize(980, 460)
        self._all: list[AuditEntryView] = []
        self.run_filter = QComboBox()
        self.principal_filter = QComboBox()
        for combo in (self.run_filter, self.principal_filter):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(self._apply_filters)
        self._wanted_run = run_id or ALL
        run_label, who_label = QLabel("&Run:"), QLabel("&Who:")
        run_label.setBuddy(self.run_filter)
        who_label.setBuddy(self.principal_filter)
        filters = QHBoxLayout()
        for widget in (run_label, self.run_filter, who_label, self.principal_filter):
            filters.addWidget(widget)
        filters.addStretch(1)
        self.model = RecordsModel(self.COLUMNS, self)
        self.table = _table(self.model, 6, 7)
        # One line a row: a long path is cut in its middle; the tooltip and the pane below
        # show it whole.
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.details = QLabel("Select an entry to see it whole.")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAccessibleName("Selected entry")
        self.table.selectionModel().selectionChanged.connect(self._show_details)
        self.status_label = QLabel("Loading…")
        self.export_button = QPushButton("&Export…")
        self.export_button.clicked.connect(self.choose_export)
        close = QPushButton("&Close")
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
            self.details.setText("Select an entry to see it whole.")
            return
        texts = [(title, text_of(record)) for title, text_of in self.COLUMNS]
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
            self.run_filter, "All runs", [(visible_line(r), r) for r in runs], self._wanted_run
        )
        self._fill(
            self.principal_filter, "Everyone", [(who(p), p) for p in principals], self.principal()
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
        self.status_label.setText(
            f"{decisions} decision{'s' if decisions != 1 else ''}, "
            f"{blocks} blocked action{'s' if blocks != 1 else ''}"
            if shown
            else ("No entries match these filters." if self._all else "Nothing recorded yet.")
        )

    # -- export -------------------------------------------------------------------------------

    def choose_export(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(
            self,
            "Export the audit log",
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
            self.status_label.setText(f"Exported {count} entries to {visible_line(path)}.")
            self.exported.emit(path, count)

        self.bridge.submit(
            lambda ws: ws.export_audit(path, fmt, run_id=run_id, principal=principal),
            done,
            self._failed,
        )
