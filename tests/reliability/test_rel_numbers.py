"""Issue 18, item 2: every number from a flag, a setting or a stored row is checked.

A number out of range or not finite, typed by a person, answers `invalid_arguments` (exit 2,
one JSON error object) and stores nothing: not even a new home is created. A bad number found
in storage answers `storage_corrupt` for what it touches, never a traceback, and `cancel` still
ends such a run. stdout is always strict JSON: never NaN or Infinity.

Driven through `briefdesk-cli`'s own `main` in this process (the SDK import is paid once), on a
real home; rows are damaged and read back with sqlite3.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import CliRunner as Cli

NUMERIC_SETTINGS = (
    "approval_ttl",
    "openai.read_timeout",
    "network.max_bytes",
    "network.max_calls",
    "memory.ttl_days",
    "corpus.max_document_mb",
    "corpus.parse_seconds",
    "corpus.parse_memory_mb",
)


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


def _db(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / "state.db")


def _waiting_run(cli: Cli) -> dict[str, Any]:
    """A run of the offline model, stopped at its save_brief proposal."""
    code, run = cli("run", "--question", "How do checkpoints work?")
    assert code == 0 and run["status"] == "waiting_approval", run
    assert isinstance(run, dict)
    return run


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--approval-ttl", "nan"),
        ("--approval-ttl", "1e15"),  # now + ttl is no date Python can write
        ("--approval-ttl", "inf"),
        ("--approval-ttl", "0"),
        ("--approval-ttl", "-1"),
        ("--max-seconds", "nan"),  # would switch the time budget off
        ("--max-seconds", "1e400"),
        ("--max-seconds", "0"),
        ("--max-turns", "0"),
        ("--max-turns", "100001"),
        ("--max-turns", "1.5"),
        ("--max-tool-calls", "0"),
        ("--max-tool-calls", "100001"),
        ("--max-tokens", "0"),
        ("--max-tokens", "1e400"),
    ],
)
def test_run_flags_out_of_range_store_nothing(cli: Cli, home: Path, flag: str, value: str) -> None:
    message = cli.refused("invalid_arguments", "run", "--question", "q", flag, f"{value}")
    assert flag in message
    assert not home.exists(), "a refused flag created the home"


def test_run_flags_at_their_bounds_are_taken_and_kept(cli: Cli, home: Path) -> None:
    code, run = cli(
        "run",
        "--question",
        "How do checkpoints work?",
        "--approval-ttl",
        "315360000",  # ten years, the largest TTL
        "--max-turns",
        "100000",
        "--max-tool-calls",
        "100000",
        "--max-seconds",
        "0.5e3",
    )
    assert code == 0 and run["status"] == "waiting_approval", run
    with _db(home) as db:
        stored = json.loads(db.execute("SELECT limits_json FROM runs").fetchone()[0])
    assert stored["approval_ttl"] == 315360000 and stored["max_turns"] == 100000
    assert stored["max_seconds"] == 500
    waited = datetime.fromisoformat(run["approvals"][0]["expires_at"]) - datetime.fromisoformat(
        run["approvals"][0]["created_at"]
    )
    assert abs(waited.total_seconds() - 315360000) < 5  # ten years ahead: still a date


def test_timeline_since_takes_a_sequence_number(cli: Cli) -> None:
    run = _waiting_run(cli)
    for since in ("-1", "1.5", "99999999999999999999999", "nan"):  # the third once overflowed
        cli.refused("invalid_arguments", "timeline", run["run_id"], "--since", since)
    code, body = cli("timeline", run["run_id"], "--since", "0")
    assert code == 0 and body["events"][0]["kind"] == "run_started"


def test_numeric_settings_refuse_and_store_nothing(cli: Cli, home: Path) -> None:
    """`settings set approval_ttl 1e400` was once stored, printed as Infinity, and broke every
    later run; every numeric setting takes a finite number in its range."""
    assert cli("settings", "get").code == 0  # a home that exists (a refusal creates none)
    for key in NUMERIC_SETTINGS:
        for value in ("1e400", "nan", "NaN", "Infinity", "0", "1e300", "true"):
            cli.refused("invalid_arguments", "settings", "set", key, value)
    for key in ("network.max_calls", "network.max_bytes"):
        cli.refused("invalid_arguments", "settings", "set", key, "1.5")
    with _db(home) as db:
        assert db.execute("SELECT key FROM settings").fetchall() == []
    code, body = cli("settings", "set", "network.max_calls", "7")
    assert code == 0 and body["settings"]["network.max_calls"] == 7


def test_a_bad_stored_setting_is_storage_corrupt_and_can_be_replaced(cli: Cli, home: Path) -> None:
    _waiting_run(cli)
    for stored in ("Infinity", "NaN", "1e400", "-5", '"soon"'):
        with _db(home) as db:
            db.execute(
                "INSERT OR REPLACE INTO settings(key, value_json) VALUES ('approval_ttl', ?)",
                (stored,),
            )
        assert "approval_ttl" in cli.refused("storage_corrupt", "settings", "get")
        cli.refused("storage_corrupt", "run", "--question", "another")
        with _db(home) as db:
            assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1  # none created
        code, body = cli("settings", "set", "approval_ttl", "60")
        assert code == 0 and body["settings"]["approval_ttl"] == 60


@pytest.mark.parametrize(
    "limits",
    [
        '{"approval_ttl": Infinity}',
        '{"approval_ttl": NaN}',
        '{"approval_ttl": 1e300}',
        '{"max_turns": 1.5}',
        "not json",
    ],
)
def test_bad_stored_limits_are_storage_corrupt_and_cancel_still_ends_the_run(
    cli: Cli, home: Path, limits: str
) -> None:
    run = _waiting_run(cli)
    run_id = run["run_id"]
    with _db(home) as db:
        db.execute("UPDATE runs SET limits_json = ? WHERE run_id = ?", (limits, run_id))
    code, body = cli("approvals", "approve", run["approvals"][0]["id"], "--reviewer", "dana")
    assert code == 0, body
    with _db(home) as db:
        events_before = db.execute("SELECT count(*) FROM events").fetchone()[0]
    cli.refused("storage_corrupt", "resume", run_id)
    with _db(home) as db:
        assert db.execute("SELECT status FROM runs").fetchone()[0] == "waiting_approval"
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] == events_before
    assert not any((home / "artifacts").iterdir()), "the approved write ran anyway"
    code, listed = cli("runs")
    assert code == 0 and listed["runs"][0]["run_id"] == run_id
    code, cancelled = cli("cancel", run_id)
    assert code == 0 and cancelled["status"] == "cancelled"


@pytest.mark.parametrize(
    ("field", "value"),
    [("active_s", float("nan")), ("turns", -1), ("tool_calls", 2.5)],
)
def test_bad_stored_counters_stop_resume_not_cancel(
    cli: Cli, home: Path, field: str, value: float
) -> None:
    """A nan `active_s` once switched the run's time budget off: `active_s + t > max` is never
    true. Such a run is not driven (`storage_corrupt`), and `cancel` still ends it."""
    run = _waiting_run(cli)
    run_id = run["run_id"]
    with _db(home) as db:
        state = json.loads(db.execute("SELECT state_json FROM runs").fetchone()[0])
        state[field] = value
        db.execute("UPDATE runs SET state_json = ?", (json.dumps(state),))
    cli("approvals", "approve", run["approvals"][0]["id"], "--reviewer", "dana")
    assert field in cli.refused("storage_corrupt", "resume", run_id)
    assert not any((home / "artifacts").iterdir()), "the approved write ran anyway"
    code, cancelled = cli("cancel", run_id)
    assert code == 0 and cancelled["status"] == "cancelled"


def test_a_non_finite_number_in_a_stored_event_is_never_printed(cli: Cli, home: Path) -> None:
    run = _waiting_run(cli)
    with _db(home) as db:
        db.execute(
            "UPDATE events SET data_json = ? WHERE seq = (SELECT min(seq) FROM events)",
            ('{"turn": NaN, "wait_s": Infinity}',),
        )
    cli.refused("storage_corrupt", "timeline", run["run_id"])  # strict JSON, or an error
