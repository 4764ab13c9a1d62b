"""When the database is away (issue 14, item 7): an unreachable server, a refused login or a
dropped connection answers `storage_unavailable` with the host and what to check (exit 2, one
JSON object, no traceback); a desk that loses the database mid-run stops at its next boundary,
loses nothing, and its run resumes once the server is back.

The server is stopped and started under a running `briefdesk-cli run`: a cluster of the test's
own (tests/support/own_cluster.py), never the session's, which other tests use meanwhile. The
stand-in model endpoint stops it while the run waits for its third answer (like the disk-full
drill in tests/reliability/test_rel_disk_full.py), so the stop falls between two of its writes.
"""

from __future__ import annotations

import json
import socket
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest

from agent_core.facade.workspace import Workspace
from tests.support.cli import CliRunner
from tests.support.fake_openai import FakeOpenAI
from tests.support.own_cluster import StoppingPlanner, own_cluster
from tests.support.pg import PgServer

QUESTION = "How do checkpoints make agent runs durable?"
KEY = "sk-test-outage-0123456789"


def cli_json(home: Path, db: str, *args: str, **env: str) -> tuple[int, dict[str, Any], str]:
    """`briefdesk-cli --db DB --json ARGS` in a real process: exit code, its JSON, stderr."""
    proc = CliRunner(home)("--db", db, *args, env=env, timeout=180)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.code, json.loads(proc.stdout), proc.stderr


def refused(home: Path, db: str, **env: str) -> dict[str, Any]:
    code, body, _ = cli_json(home, db, "runs", **env)
    assert code == 2, body
    assert body["error"]["code"] == "storage_unavailable", body
    return dict(body["error"])


# -- the server cannot be used -----------------------------------------------------------------


def test_a_refused_login_names_the_login_and_where_its_password_comes_from(
    tmp_path: Path, pg_server: PgServer, pg_url: str
) -> None:
    role, password = pg_server.create_login_role("r")
    url = pg_server.url(pg_url.rsplit("/", 1)[1], user=role)
    error = refused(tmp_path / "desk", url, PGPASSWORD="wrong-one", PGPASSFILE="")
    host = f"127.0.0.1:{pg_server.port}"
    assert error["host"] == host and error["retryable"] is True
    message = error["message"]
    assert f"refused the login of {role!r}" in message and host in message
    assert "keyring entry db." in message and "PGPASSWORD" in message
    assert "wrong-one" not in message and password not in message


def test_a_role_that_does_not_exist_is_a_refused_login(
    home: Path,
    pg_server: PgServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PGPASSWORD", "anything")  # in this process: the CLI's own main
    role = "nobody_" + uuid.uuid4().hex[:8]
    code, body = CliRunner(home, capsys)("--db", pg_server.url("postgres", user=role), "runs")
    assert code == 2 and body["error"]["code"] == "storage_unavailable", body
    assert body["error"]["host"] == f"127.0.0.1:{pg_server.port}"
    assert f"refused the login of {role!r}" in body["error"]["message"]


def test_an_unreachable_server_says_which_host_and_port_to_check(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PGPASSWORD", "unused")  # the password source: no keyring is asked
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])  # nothing listens there once closed
    url = f"postgresql://bdadmin@127.0.0.1:{port}/team"
    code, body = CliRunner(home, capsys)("--db", url, "runs")
    assert code == 2 and body["error"]["code"] == "storage_unavailable", body
    error = body["error"]
    assert error["host"] == f"127.0.0.1:{port}"
    assert "cannot be reached" in error["message"]
    assert f"the host and port 127.0.0.1:{port}" in error["message"]


# -- the server goes away under a running desk -------------------------------------------------


def test_a_desk_that_loses_the_server_mid_run_stops_and_resumes_once_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home, artifacts = tmp_path / "desk", tmp_path / "briefs-out"
    with own_cluster(monkeypatch) as cluster:
        db = cluster.url()
        planner = StoppingPlanner(cluster, "postgres")
        with FakeOpenAI(planner=planner) as server:
            setup = Workspace(home)  # the endpoint is this desk's setting, in its home
            setup.set_setting("openai.base_url", server.base_url)
            setup.close()

            code, body, _ = cli_json(
                home, db, "run", "--question", QUESTION, "--model", "openai",
                "--mode", "acceptEdits", "--artifacts", str(artifacts),
                BRIEFDESK_OPENAI_API_KEY=KEY,
            )  # fmt: skip

            assert planner.before, "the server was stopped under the run"
            assert code == 2, body
            error = body["error"]
            assert error["code"] == "storage_unavailable" and error["retryable"] is True
            assert error["host"] == cluster.host and cluster.host in error["message"]
            assert not list(artifacts.rglob("*.md"))  # it stopped before the brief

            cluster.start()
            monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
            cli = CliRunner(home, capsys)
            code, listed = cli("--db", db, "runs")
            assert code == 0
            [run] = listed["runs"]  # its process is gone: interrupted, ready to go on
            assert run["status"] == "interrupted" and run["ready_to_continue"] is True

            code, resumed = cli("--db", db, "resume", run["run_id"])

        assert code == 0 and resumed["status"] == "succeeded", resumed
        with psycopg.connect(db) as conn:
            after = [
                (int(seq), str(kind))
                for seq, kind in conn.execute("SELECT seq, kind FROM events ORDER BY seq")
            ]
            saved = conn.execute(
                "SELECT count(*) FROM ledger WHERE tool = 'save_brief' AND status = 'confirmed'"
            ).fetchone()[0]  # type: ignore[index]
    # Nothing lost: what was committed before the server went away is all still there, first.
    assert after[: len(planner.before)] == planner.before
    assert "run_resumed" in {k for _, k in after[len(planner.before) :]}
    [brief] = list(artifacts.rglob("*.md"))
    assert brief.read_text(encoding="utf-8").strip()
    assert saved == 1  # the brief was written once, by the resumed run
