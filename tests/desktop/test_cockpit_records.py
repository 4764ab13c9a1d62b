"""Issue 12 item 4: the Rules and Audit views. Rules shows each remembered decision's scope in
full and revokes one only after a confirmation; Audit lists decisions and blocks, filters by run
and principal, and exports what it shows as JSON or CSV. Proven on the database and the files."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from agent_core.review.audit_export import audit_text
from tests.desktop.test_app_helpers import fixture_make_window  # noqa: F401  (make_window)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow

LONG = "a-folder-name-long-enough-that-a-table-cell-would-cut-it-somewhere"


@pytest.fixture
def decided_home(home: Path, cli: CliRunner, tmp_path: Path) -> dict[str, Any]:
    """A home with one blocked read, one remembered approval (a rule for a long folder) and a
    second run with nothing in the audit."""
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            [
                {"call": "read_document", "args": {"path": "../../../etc/passwd"}},
                {"call": "save_brief", "args": {"relative_path": f"{LONG}/b.md", "content": "x"}},
                {"say": "done"},
            ]
        )
    )
    run = cli("run", "--question", "q", "--model", f"scripted:{script}", check=True).body
    approval = run["approvals"][0]
    cli(
        "approvals",
        "approve",
        approval["id"],
        "--reviewer",
        "alice",
        "--remember",
        "home",
        check=True,
    )
    return {"run_id": run["run_id"], "folder": str(Path(approval["target"]).parent)}


def _rules_rows(home: Path) -> list[tuple[str, str | None]]:
    with sqlite3.connect(home / "state.db") as db:
        return list(db.execute("select folder, revoked_at from rules"))


def test_rules_view_shows_the_whole_scope_and_revokes_only_after_confirmation(
    qtbot: QtBot, home: Path, make_window: MakeWindow, decided_home: dict[str, Any]
) -> None:
    window = make_window(home)
    window.rules_action.trigger()
    rules = window.rules_window
    qtbot.waitUntil(lambda: rules.model.rowCount() == 1, timeout=30_000)
    folder = decided_home["folder"]
    assert LONG in folder
    shown = [rules.model.index(0, c).data() for c in range(rules.model.columnCount())]
    assert folder in shown, "the folder is shown whole"
    assert "every run in this home" in shown
    rules.table.selectRow(0)
    assert folder in rules.scope_label.text()

    # Revoke asks first; Cancel changes nothing.
    qtbot.mouseClick(rules.revoke_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: rules.confirm is not None and rules.confirm.isVisible())
    assert folder in rules.confirm.text()
    rules.confirm.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: not rules.confirm.isVisible())
    assert _rules_rows(home) == [(folder, None)]

    qtbot.mouseClick(rules.revoke_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: rules.confirm is not None and rules.confirm.isVisible())
    with qtbot.waitSignal(rules.revoked, timeout=10_000):
        next(b for b in rules.confirm.buttons() if b.text() == "Revoke").click()
    [(stored_folder, revoked_at)] = _rules_rows(home)
    assert stored_folder == folder and revoked_at is not None
    qtbot.waitUntil(lambda: rules.model.index(0, 0).data() == "Revoked")
    assert not rules.revoke_button.isEnabled()


def test_audit_view_filters_by_run_and_principal_and_exports_what_it_shows(
    qtbot: QtBot, home: Path, make_window: MakeWindow, decided_home: dict[str, Any], tmp_path: Path
) -> None:
    window = make_window(home)
    window.audit_action.trigger()
    audit = window.audit_window
    qtbot.waitUntil(lambda: audit.model.rowCount() >= 2, timeout=30_000)

    def column(title: str) -> list[str]:
        c = [
            audit.model.headerData(i, Qt.Orientation.Horizontal)
            for i in range(audit.model.columnCount())
        ].index(title)
        return [audit.model.index(r, c).data() for r in range(audit.model.rowCount())]

    assert "blocked" in column("What") and "decision" in column("What")
    assert "alice (person)" in column("Who")

    audit.set_filters(principal="person:alice")
    assert set(column("Who")) == {"alice (person)"}
    assert set(column("What")) == {"decision"}
    shown = audit.model.rowCount()

    target = tmp_path / "audit.csv"
    with qtbot.waitSignal(audit.exported, timeout=10_000):
        audit.export_to(str(target), "csv")
    with target.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == shown and {r["principal"] for r in rows} == {"person:alice"}

    audit.set_filters(principal="", run_id="no-such-run")
    assert audit.model.rowCount() == 0
    assert audit.status_label.text() == "No entries match these filters."
    audit.set_filters(run_id=decided_home["run_id"])
    assert audit.model.rowCount() >= 2
    as_json = tmp_path / "audit.json"
    with qtbot.waitSignal(audit.exported, timeout=10_000):
        audit.export_to(str(as_json), "json")
    exported = json.loads(as_json.read_text())["entries"]
    assert {e["run_id"] for e in exported} == {decided_home["run_id"]}
    assert len(exported) == audit.model.rowCount()


def test_the_audit_csv_does_not_let_a_spreadsheet_run_a_resource_as_a_formula() -> None:
    entry: Any = {
        "id": 1,
        "at": "t",
        "entry": "block",
        "principal": "model",
        "resource": '=HYPERLINK("http://x")',
        "detail": "+1",
    }
    rows = list(csv.DictReader(audit_text([entry], "csv").splitlines()))
    assert rows[0]["resource"] == '\'=HYPERLINK("http://x")' and rows[0]["detail"] == "'+1"


def test_rules_list_in_the_terminal_shows_the_whole_scope(
    home: Path, decided_home: dict[str, Any], capsys: Any
) -> None:
    from agent_core.cli.main import main

    assert main(["--home", str(home), "rules", "list"]) == 0
    text = capsys.readouterr().out
    assert decided_home["folder"] + "/ for every run in this home" in text
    assert main(["--home", str(home), "audit", "--principal", "person:alice"]) == 0
    text = capsys.readouterr().out
    assert (
        decided_home["folder"] + "/b.md" in text and "blocked" not in text and "block " not in text
    )
