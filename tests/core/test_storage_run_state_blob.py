"""A run's latest SDK RunState is one blob row, rewritten in place at each boundary, and never
at the cost of a blob that another run holds. Checked on a real SQLite file, from outside."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from agent_core.facade.workspace import Workspace
from agent_core.storage.tables.checkpoints import save_state_string


def _blobs(db: Path) -> dict[str, tuple[bytes, str | None]]:
    conn = sqlite3.connect(db)
    try:
        return {d: (bytes(data), owner) for d, data, owner in conn.execute(
            "SELECT digest, data, run_id FROM blobs")}  # fmt: skip
    finally:
        conn.close()


def _state_digest(db: Path, run_id: str) -> str | None:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute("SELECT state_digest FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return None if row[0] is None else str(row[0])
    finally:
        conn.close()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _save(ws: Workspace, run_id: str, state: str) -> str:
    with ws.store.write() as conn:
        return save_state_string(conn, run_id, state)


def test_each_new_run_state_replaces_the_runs_one_blob_in_place(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "home")
    try:
        run_id = ws.create_run("in place")
        db = ws.store.db_path
        before = _blobs(db)
        for turn in range(5):
            state = f'{{"turn": {turn}, "items": ["{"x" * 5000}"]}}'
            assert _save(ws, run_id, state) == _sha(state)
            mine = {d: v for d, v in _blobs(db).items() if d not in before}
            assert list(mine) == [_sha(state)]  # one row: the latest, the others replaced
            assert mine[_sha(state)] == (state.encode(), run_id)
            assert _state_digest(db, run_id) == _sha(state)
        assert _save(ws, run_id, state) == _sha(state)  # the same state again: nothing moves
        assert {d: v for d, v in _blobs(db).items() if d not in before} == mine
    finally:
        ws.close()


def test_a_run_state_another_run_holds_is_shared_not_overwritten(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "home")
    try:
        first, second = ws.create_run("first"), ws.create_run("second")
        db = ws.store.db_path
        shared = '{"turn": 1, "items": ["the same history"]}'
        _save(ws, first, shared)
        _save(ws, second, '{"turn": 0}')
        old_second = _sha('{"turn": 0}')

        # The second run reaches the very state the first one holds.
        assert _save(ws, second, shared) == _sha(shared)

        stored = _blobs(db)
        assert stored[_sha(shared)] == (shared.encode(), first)  # untouched, still the first's
        assert old_second not in stored  # the second's previous state is gone
        assert _state_digest(db, first) == _state_digest(db, second) == _sha(shared)
    finally:
        ws.close()
