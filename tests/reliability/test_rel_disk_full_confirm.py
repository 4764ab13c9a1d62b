"""A write resumed after a full artifacts disk is confirmed by the watcher (issue 24, item 6).

The run ends `failed` with `storage_full` while its approved brief could not be written; space
is freed and `resume` writes it. The watcher of the resumed run must see that write as the
approved one: `artifact_confirmed` once, no `artifact_unexpected`. Real tmpfs mount, real
`briefdesk-cli` subprocesses, a real watchdog observer in each.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.reliability.test_rel_disk_full import QUESTION, fill, tmpfs
from tests.support.cli import CliRunner, db_rows

WATCH_KINDS = ("artifact_confirmed", "artifact_unexpected")


def _watched(home: Path, run_id: str) -> list[tuple[str, dict[str, Any]]]:
    rows = db_rows(
        home,
        "SELECT kind, data_json FROM events WHERE kind IN (?, ?) ORDER BY seq",
        *WATCH_KINDS,
    )
    return [(kind, json.loads(data)) for kind, data in rows]


def test_resumed_write_after_a_full_disk_is_confirmed_once(
    home: Path, tmp_path: Path, cli: CliRunner
) -> None:
    with tmpfs(tmp_path / "artifacts", "64k") as artifacts:
        filler = fill(artifacts)
        run = cli(
            "run", "--question", QUESTION, "--mode", "acceptEdits", "--artifacts", str(artifacts)
        )
        assert run.code == 1 and run.body["error"]["code"] == "storage_full", run.stdout
        run_id = run.body["run_id"]

        filler.unlink()
        resumed = cli("resume", run_id)

        assert resumed.code == 0 and resumed.body["status"] == "succeeded", resumed.stdout
        [(target,)] = db_rows(
            home, "SELECT target FROM approvals WHERE run_id = ? AND tool = 'save_brief'", run_id
        )
        # The filler is a stray file (flagged, rightly); the brief is the approved write.
        brief = [
            (kind, data["path"], data["count"], data.get("duplicate"))
            for kind, data in _watched(home, run_id)
            if data["path"] != str(filler)
        ]
        assert brief == [("artifact_confirmed", target, 1, False)]
        owners = db_rows(home, "SELECT run_id FROM events WHERE kind = 'artifact_confirmed'")
        assert owners == [(run_id,)]
