"""Issue 18, item 11: a database that passes `integrity_check` but holds bad rows.

A real state.db is damaged with sqlite3 the way a bad tool or a half-restored backup would: an
unknown run status, malformed JSON in a run, a proposal or an event, no Alembic version row.
What touches a bad row answers `storage_corrupt` (a JSON error, exit 2, never a traceback), and
the rest of the home stays usable: `runs` lists the good runs and reports the bad one apart.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent_core.cli import main as cli
from tests.drills.drill_support import DEMO_QUESTION

pytestmark = pytest.mark.slow


def call(home: Path, *args: str) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["--home", str(home), "--json", *args])
    return code, json.loads(out.getvalue())


def sql(home: Path, statement: str, *params: object) -> None:
    with contextlib.closing(sqlite3.connect(home / "state.db")) as conn:
        conn.execute(statement, params)
        conn.commit()
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    from agent_core.facade.workspace import Workspace

    home = tmp_path_factory.mktemp("bad-rows") / "home"
    ws = Workspace(home)
    try:
        bad = ws.start_run(DEMO_QUESTION)["run_id"]
        good = ws.start_run("How do idempotency keys prevent duplicate writes?")["run_id"]
    finally:
        ws.close()
    return home, str(bad), str(good)


@pytest.fixture
def homes(two_runs: tuple[Path, str, str], tmp_path: Path) -> tuple[Path, str, str]:
    template, bad, good = two_runs
    home = tmp_path / "home"
    shutil.copytree(template, home)
    return home, bad, good


DAMAGE = {
    "unknown status": "UPDATE runs SET status = 'zombie' WHERE run_id = ?",
    "malformed error": "UPDATE runs SET error_json = '{not json' WHERE run_id = ?",
    "malformed owner": "UPDATE runs SET owner_pid = 'x', owner_host = 'h' WHERE run_id = ?",
    "malformed proposal": "UPDATE approvals SET args_json = '{oops' WHERE run_id = ?",
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_runs_lists_the_good_runs_and_reports_the_bad_one(
    homes: tuple[Path, str, str], damage: str
) -> None:
    home, bad, good = homes
    sql(home, DAMAGE[damage], bad)
    code, listed = call(home, "runs")
    assert code == 0, listed
    assert [r["run_id"] for r in listed["runs"]] == [good]
    [damaged] = listed["damaged"]
    assert damaged["run_id"] == bad and damaged["error"]["code"] == "storage_corrupt"
    # The good run stays usable: its timeline, its proposal, its resume.
    assert call(home, "timeline", good)[0] == 0
    code, resumed = call(home, "resume", good)
    assert (code, resumed["status"]) == (0, "waiting_approval"), resumed
    code, approved = call(
        home, "approvals", "approve", resumed["approvals"][0]["id"], "--reviewer", "ada"
    )
    assert code == 0, approved


@pytest.mark.parametrize("damage", ["unknown status", "malformed error"])
def test_commands_on_a_bad_run_answer_storage_corrupt(
    homes: tuple[Path, str, str], damage: str
) -> None:
    home, bad, _good = homes
    sql(home, DAMAGE[damage], bad)
    for command in (
        ["timeline", bad],
        ["resume", bad],
        ["cancel", bad],
        ["answer", bad, "--text", "x"],
        ["runs", "delete", bad],
    ):
        code, body = call(home, *command)
        assert (code, body["error"]["code"]) == (2, "storage_corrupt"), (command, body)
        assert bad in body["error"]["message"]


def test_a_malformed_event_answers_storage_corrupt_for_its_timeline_only(
    homes: tuple[Path, str, str],
) -> None:
    home, bad, good = homes
    sql(home, "UPDATE events SET data_json = '[' WHERE run_id = ? AND kind = 'run_started'", bad)
    code, body = call(home, "timeline", bad)
    assert (code, body["error"]["code"]) == (2, "storage_corrupt")
    assert call(home, "timeline", good)[0] == 0
    assert {r["run_id"] for r in call(home, "runs")[1]["runs"]} == {bad, good}


def test_a_missing_schema_version_row_is_storage_corrupt_and_changes_nothing(
    homes: tuple[Path, str, str],
) -> None:
    home, _bad, _good = homes
    sql(home, "DELETE FROM alembic_version")
    for command in (["runs"], ["approvals", "list"], ["settings", "get"]):
        code, body = call(home, *command)
        assert (code, body["error"]["code"]) == (2, "storage_corrupt"), body
        assert "schema version" in body["error"]["message"]
    assert list(home.glob("state.db.bak-*")) == []  # no upgrade was attempted
    with contextlib.closing(sqlite3.connect(home / "state.db")) as conn:
        assert conn.execute("SELECT count(*) FROM runs").fetchone() == (2,)
