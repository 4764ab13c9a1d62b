"""`briefdesk-cli db password`: the team database's password goes into the OS keyring, under
the entry that opening the store reads, and a desk then logs in with nothing else (no URL
password, no PGPASSFILE, no PGPASSWORD). A real Secret Service, a real PostgreSQL role."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.support.cli import REPO_ROOT, cli_command
from tests.support.pg import PgServer
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401  (registers the `secret_service_env` fixture)
)


def _cli(env: dict[str, str], home: Path, *args: str, stdin: str | None = None) -> Any:
    proc = subprocess.run(
        cli_command("--home", str(home), "--json", *args),
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=120,
        cwd=REPO_ROOT,
    )
    return proc.returncode, json.loads(proc.stdout), proc.stdout + proc.stderr


def test_db_password_stores_the_login_in_the_keyring_and_the_desk_logs_in_with_it(
    tmp_path: Path, pg_server: PgServer, pg_url: str, secret_service_env: SecretServiceEnv
) -> None:
    database = pg_url.rsplit("/", 1)[1]
    role, password = pg_server.create_login_role()
    with pg_server.admin(database) as conn:
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
    env = child_env(secret_service_env, PYTHONPATH=str(REPO_ROOT))
    env.pop("PGPASSFILE", None)  # only the keyring may log this role in
    env.pop("PGPASSWORD", None)
    home, url = tmp_path / "home", pg_server.url(database, role)

    code, body, _ = _cli(env, home, "settings", "set", "db.url", url)
    assert code == 0, body
    code, body, _ = _cli(env, home, "db", "status")
    assert body["store"]["reachable"] is False, "no password anywhere yet: the login fails"

    code, body, out = _cli(env, home, "db", "password", stdin=password + "\n")
    assert code == 0, out
    stored = body["password"]
    assert stored["stored"] is True
    assert password not in out, "the password is never echoed"
    code, body, out = _cli(env, home, "db", "status")
    assert code == 0 and body["store"]["reachable"] is True, out
    assert body["store"]["kind"] == "postgresql"
    assert password not in out

    lookup = subprocess.run(
        ["secret-tool", "lookup", "service", "BriefDesk", "username", stored["name"]],
        capture_output=True,
        text=True,
        env=child_env(secret_service_env),
        timeout=20,
    )
    assert lookup.stdout.strip() == password, "the password sits in the Secret Service"
    for path in home.rglob("*"):  # never in settings, logs or the home's database
        if path.is_file():
            assert password.encode() not in path.read_bytes(), path


def test_db_password_without_a_team_database_is_refused_and_stores_nothing(
    tmp_path: Path, secret_service_env: SecretServiceEnv
) -> None:
    env = child_env(secret_service_env, PYTHONPATH=str(REPO_ROOT))
    code, body, _ = _cli(env, tmp_path / "home", "db", "password", stdin="secret\n")
    assert code == 2
    assert body["error"]["code"] == "invalid_arguments"
    search = subprocess.run(
        ["secret-tool", "search", "--all", "service", "BriefDesk"],
        capture_output=True,
        text=True,
        env=child_env(secret_service_env),
        timeout=20,
    )
    assert "secret" not in search.stdout
