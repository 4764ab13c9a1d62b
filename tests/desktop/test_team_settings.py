"""The window in team mode, on real widgets offscreen and a real PostgreSQL server: the Settings
dialog's Team database section (URL checked like the `db.url` setting, password into a real
Secret Service keyring, Test connection off the GUI thread), `briefdesk --db URL`, the status
bar naming the store and this desk, and another desk's run and proposal saying whose they are.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import keyring
import pytest
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from agent_core.storage.location import parse_db_url
from desktop.models import store_text
from desktop.models.runs_model import DESK_ROLE
from desktop.widgets.main_window import MainWindow
from tests.desktop.test_app_helpers import REPO_ROOT, app_env
from tests.support.cli import CliRunner
from tests.support.desktop import OpenWindow
from tests.support.pg import PgServer
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401  (registers the `secret_service_env` fixture)
)

SHOTS = os.environ.get("BRIEFDESK_TEST_SHOTS")  # a folder: save what the tests look at


@dataclass(frozen=True)
class TeamDb:
    """A team database on which desk-b has proposed a write (its run waits for a reviewer)."""

    url: str
    name: str
    port: int
    run_id: str
    approval_id: str


@pytest.fixture(scope="module")
def team_db(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> TeamDb:
    """One database for the module: desk-b's run, proposed with `briefdesk-cli --db URL` as
    another desk's person does it (a real process: the SDK import is paid once, here)."""
    url = pg_server.create_database()
    desk_b = CliRunner(tmp_path_factory.mktemp("desk-b") / "home")
    run = desk_b(
        "--db",
        url,
        "run",
        "--question",
        "How do checkpoints make agent runs durable?",
        env={"BRIEFDESK_DESK": "desk-b"},
        check=True,
    ).body
    assert run["status"] == "waiting_approval", run
    assert run.get("desk") == "desk-b", "RUN carries its desk (issue 14)"
    (approval,) = run["approvals"]
    return TeamDb(url, url.rsplit("/", 1)[1], pg_server.port, run["run_id"], approval["id"])


@pytest.fixture
def desk_a(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("BRIEFDESK_DESK", "desk-a")
    monkeypatch.delenv("BRIEFDESK_DB", raising=False)
    return "desk-a"


def settings_dialog(qtbot: QtBot, window: MainWindow) -> Any:
    window.settings_action.trigger()
    dialog = window.settings_dialog
    dialog.show_team()
    qtbot.waitUntil(lambda: dialog.team_box.store is not None, timeout=10_000)
    return dialog


def shot(widget: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(SHOTS) / f"{name}.png"))


def free_port() -> int:
    """A port nothing listens on (bound, then released, here on 127.0.0.1)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stored_db_url(home: Path) -> str | None:
    ws = Workspace(home)
    try:
        return ws.settings().db_url
    finally:
        ws.close()


# -- the URL ------------------------------------------------------------------------------------


def test_the_dialog_refuses_a_database_url_with_a_password(
    qtbot: QtBot, home: Path, open_window: OpenWindow, desk_a: str
) -> None:
    window = open_window(home)
    dialog = settings_dialog(qtbot, window)
    team = dialog.team_box
    team.url_field.setText("postgresql://desk:hunter2-Secret@db.example.org/team")
    assert team.url_error.isVisible()
    assert "must not carry a password" in team.url_error.text()
    assert "hunter2-Secret" not in team.url_error.text()
    assert not team.test_button.isEnabled() and not team.store_password_button.isEnabled()
    shot(dialog, "url-with-password")
    dialog.save()
    assert dialog.isVisible(), "refused: the dialog stays open"
    assert dialog.error_label.isVisible()
    assert "must not carry a password" in dialog.error_label.text()
    window.close()
    assert stored_db_url(home) is None
    for path in home.rglob("*"):
        if path.is_file():
            assert b"hunter2-Secret" not in path.read_bytes(), path


# -- Test connection ------------------------------------------------------------------------------


def test_test_connection_reports_reachable_with_the_schema_revision(
    qtbot: QtBot, home: Path, open_window: OpenWindow, desk_a: str, pg_url: str
) -> None:
    window = open_window(home)
    dialog = settings_dialog(qtbot, window)
    team = dialog.team_box
    team.url_field.setText(pg_url)
    assert not team.url_error.isVisible()
    team.test_button.click()
    qtbot.waitUntil(lambda: team.test_result.text().startswith("Reachable"), timeout=20_000)
    assert "Schema revision" in team.test_result.text()
    assert "Up to date" in team.test_result.text()
    assert window.store_status.view["kind"] == "sqlite", "testing changed nothing"
    shot(dialog, "settings-team-reachable")
    dialog.reject()


def test_test_connection_on_a_wrong_port_says_the_server_cannot_be_reached(
    qtbot: QtBot, home: Path, open_window: OpenWindow, desk_a: str, pg_url: str
) -> None:
    port = free_port()
    wrong = pg_url.replace(pg_url.split("@", 1)[1].split("/", 1)[0], f"127.0.0.1:{port}")
    window = open_window(home)
    dialog = settings_dialog(qtbot, window)
    team = dialog.team_box
    team.url_field.setText(wrong)
    team.test_button.click()
    qtbot.waitUntil(lambda: team.test_result.text().startswith("Not reachable"), timeout=20_000)
    said = team.test_result.text()
    assert "cannot be used" in said and f"127.0.0.1:{port}" in said  # where, and what to check
    assert "Traceback" not in said and "OperationalError" not in said
    shot(dialog, "settings-team-unreachable")
    dialog.reject()


def test_saving_an_unreachable_database_stores_nothing_and_keeps_the_window(
    qtbot: QtBot, home: Path, open_window: OpenWindow, desk_a: str, pg_url: str
) -> None:
    wrong = pg_url.replace(pg_url.split("@", 1)[1].split("/", 1)[0], f"127.0.0.1:{free_port()}")
    window = open_window(home)
    dialog = settings_dialog(qtbot, window)
    dialog.team_box.url_field.setText(wrong)
    dialog.save()
    qtbot.waitUntil(dialog.error_label.isVisible, timeout=20_000)
    assert "cannot be used" in dialog.error_label.text()
    assert dialog.isVisible() and window.successor is None
    dialog.reject()
    window.close()
    assert stored_db_url(home) is None


# -- the password -------------------------------------------------------------------------------


@pytest.fixture
def keyring_backend() -> Iterator[None]:
    previous = keyring.get_keyring()
    yield
    keyring.set_keyring(previous)


def test_the_database_password_goes_to_the_keyring_and_opens_the_database(
    qtbot: QtBot,
    home: Path,
    open_window: OpenWindow,
    desk_a: str,
    pg_server: PgServer,
    pg_url: str,
    secret_service_env: SecretServiceEnv,
    keyring_backend: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = pg_url.rsplit("/", 1)[1]
    role, password = pg_server.create_login_role()
    with pg_server.admin(database) as conn:
        conn.execute(f"GRANT SELECT ON alembic_version TO {role}")
    for name, value in secret_service_env.items():
        monkeypatch.setenv(name, value)
    # Only the keyring may log this role in: no passfile, no PGPASSWORD, no ~/.pgpass.
    monkeypatch.delenv("PGPASSFILE", raising=False)
    monkeypatch.delenv("PGPASSWORD", raising=False)
    from keyring.backends import SecretService

    keyring.set_keyring(SecretService.Keyring())
    url = pg_server.url(database, role)
    window = open_window(home)
    dialog = settings_dialog(qtbot, window)
    team = dialog.team_box
    team.url_field.setText(url)
    team.url_field.editingFinished.emit()
    qtbot.waitUntil(lambda: "No password stored" in team.password_status.text(), timeout=15_000)
    team.test_button.click()
    qtbot.waitUntil(lambda: team.test_result.text().startswith("Not reachable"), timeout=20_000)
    assert "refused the login" in team.test_result.text()

    team.password_field.setText(password)
    team.store_password_button.click()
    qtbot.waitUntil(lambda: "is stored in" in team.password_status.text(), timeout=15_000)
    assert "Secret Service keyring" in team.password_status.text()
    assert team.password_field.text() == "", "stored: the field forgets the password"
    lookup = subprocess.run(
        [
            "secret-tool",
            "lookup",
            "service",
            "BriefDesk",
            "username",
            str(parse_db_url(url).key_name),  # db.ROLE.127_0_0_1.PORT.DATABASE
        ],
        capture_output=True,
        text=True,
        env=child_env(secret_service_env),
        timeout=20,
    )
    assert lookup.stdout.strip() == password, "the password is in the Secret Service"
    team.test_button.click()  # no password typed now: the keyring's logs the role in
    qtbot.waitUntil(lambda: team.test_result.text().startswith("Reachable"), timeout=20_000)
    shot(dialog, "settings-team-password")
    dialog.reject()
    window.close()
    for path in home.rglob("*"):  # never in settings, logs or the home's database
        if path.is_file():
            assert password.encode() not in path.read_bytes(), path


# -- where the store is shown ---------------------------------------------------------------------


def test_window_started_with_db_shows_the_team_store_and_another_desks_run(
    qtbot: QtBot, home: Path, open_window: OpenWindow, desk_a: str, team_db: TeamDb
) -> None:
    window = open_window(home, db=team_db.url)
    assert window.store_status.text() == (
        f"Team database 127.0.0.1:{team_db.port}/{team_db.name} · desk desk-a"
    )
    qtbot.waitUntil(lambda: window.context.run(team_db.run_id) is not None, timeout=10_000)
    model = window.runs_panel.model
    index = model.index(model.row_of(team_db.run_id))
    assert index.data(DESK_ROLE) == "desk-b"
    assert "on desk desk-b" in index.data(0x03)  # Qt.ToolTipRole
    window.runs_panel.select_run(team_db.run_id)
    window.resize(1440, 880)
    shot(window, "window-team")
    window.review_selected()
    qtbot.waitUntil(lambda: window.prompts.dialog is not None, timeout=10_000)
    dialog = window.prompts.dialog
    qtbot.waitUntil(lambda: "proposed on" in dialog.title_label.text(), timeout=15_000)
    assert "proposed on <b>desk-b</b>" in dialog.title_label.text()
    shot(dialog, "approval-other-desk")
    settings = settings_dialog(qtbot, window)
    assert "given by --db on the command line" in settings.team_box.note.text()
    settings.reject()


def test_briefdesk_with_db_anywhere_on_the_line_opens_the_team_store(
    tmp_path: Path, team_db: TeamDb
) -> None:
    """`briefdesk --smoke ... --db URL` (a real process): a new home, yet desk-b's run is there."""
    env = app_env(QT_QPA_PLATFORM="offscreen", BRIEFDESK_QSETTINGS_DIR=str(tmp_path / "qs"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop.app",
            "--smoke",
            "--home",
            str(tmp_path / "h"),
            "--db",
            team_db.url,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("SMOKE ")]
    assert '"runs": 1' in line, "the team database's run, not the new home's none"


def test_saving_a_team_database_reopens_the_window_on_it(
    qtbot: QtBot, home: Path, open_window: OpenWindow, desk_a: str, team_db: TeamDb
) -> None:
    window = open_window(home)
    assert window.store_status.text() == "This computer · desk desk-a"
    dialog = settings_dialog(qtbot, window)
    dialog.team_box.url_field.setText(team_db.url)
    assert "the window reconnects" in dialog.team_box.note.text()
    shot(dialog, "settings-team")
    dialog.save()
    qtbot.waitUntil(lambda: window.successor is not None, timeout=30_000)
    new = window.successor
    assert new is not None and not window.isVisible()
    qtbot.waitUntil(lambda: new.store_status.view is not None, timeout=30_000)
    assert new.store_status.text().startswith(f"Team database 127.0.0.1:{team_db.port}/")
    assert new.statusBar().currentMessage().startswith("Reconnected: runs now live in Team")
    qtbot.waitUntil(lambda: new.context.run(team_db.run_id) is not None, timeout=10_000)
    assert stored_db_url(home) == team_db.url


# -- the words ----------------------------------------------------------------------------------


def test_store_words_name_the_store_and_hide_the_default_port() -> None:
    team = {"kind": "postgresql", "host": "db.example.org:5432", "database": "team", "desk": "a"}
    assert store_text.store_label(team) == "Team database db.example.org/team · desk a"
    other = {**team, "host": "db.example.org:6543"}
    assert store_text.store_name(other) == "Team database db.example.org:6543/team"
    assert store_text.store_name({"kind": "sqlite"}) == "This computer"
    assert store_text.other_desk("desk-b", "desk-a") == "desk-b"
    assert store_text.other_desk("desk-a", "desk-a") is None
    assert store_text.other_desk(None, "desk-a") is None
