"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, a temp folder,
127.0.0.1 on a free port, run as its own system user (`postgres`) when we are root.

Standard library only, so `.ci/run` can start it with the system Python before the venv
exists:

    python3 tests/support/pg_cluster.py start DIR   # prints KEY=VALUE lines to export
    python3 tests/support/pg_cluster.py stop DIR

The test session starts one itself (tests/conftest.py) when `BRIEFDESK_TEST_PG_URL` is not
set. The superuser's password is random and kept in a passfile inside DIR; the tests hand it
to the harness's own admin connections only.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ADMIN = "bdadmin"
URL_ENV = "BRIEFDESK_TEST_PG_URL"  # postgresql://bdadmin@127.0.0.1:PORT/postgres
PASSFILE_ENV = "BRIEFDESK_TEST_PG_PASSFILE"  # the admin's libpq passfile


@dataclass(frozen=True)
class Cluster:
    root: Path
    port: int
    password: str

    @property
    def url(self) -> str:
        return f"postgresql://{ADMIN}@127.0.0.1:{self.port}/postgres"

    @property
    def passfile(self) -> Path:
        return self.root / "admin.pgpass"

    def env(self) -> dict[str, str]:
        return {URL_ENV: self.url, PASSFILE_ENV: str(self.passfile)}


def server_bindir() -> Path | None:
    """The newest installed server's bin folder (Debian keeps them per major version)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    """As `postgres` when we are root (the server refuses to run as root)."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


def _give_to_server_user(path: Path) -> None:
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(path, entry.pw_uid, entry.pw_gid)


def start(root: Path) -> Cluster:
    bindir = server_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL's server is not installed (apt-get install postgresql)")
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)
    password = secrets.token_hex(16)
    pwfile = root / "pw"
    pwfile.write_text(password + "\n")
    data, sock = root / "data", root / "sock"
    sock.mkdir(exist_ok=True)
    _give_to_server_user(root)
    _give_to_server_user(pwfile)
    _give_to_server_user(sock)
    subprocess.run(
        _as_server_user(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                ADMIN,
                f"--pwfile={pwfile}",
                "--auth-host=scram-sha-256",
                "--auth-local=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    pwfile.unlink()
    port = _free_port()
    settings = (
        "listen_addresses = '127.0.0.1'\n"
        f"port = {port}\n"
        f"unix_socket_directories = '{sock}'\n"
        "max_connections = 300\n"
        "fsync = off\n"  # a throwaway cluster: durability is the server's, tested elsewhere
        "synchronous_commit = off\n"
        "full_page_writes = off\n"
        "shared_buffers = 64MB\n"
    )
    with open(data / "postgresql.conf", "a", encoding="utf-8") as conf:
        conf.write(settings)
    subprocess.run(
        _as_server_user(
            [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w", "start"]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    cluster = Cluster(root, port, password)
    cluster.passfile.write_text(f"127.0.0.1:{port}:*:{ADMIN}:{password}\n")
    cluster.passfile.chmod(0o600)
    (root / "port").write_text(str(port))
    return cluster


def pg_ctl(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """pg_ctl on the cluster at `root` (stop, start, restart), as its system user."""
    bindir = server_bindir()
    assert bindir is not None
    data, log = str(root / "data"), str(root / "server.log")
    return subprocess.run(
        _as_server_user([str(bindir / "pg_ctl"), "-D", data, "-l", log, *args]),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def stop(root: Path) -> None:
    if (root / "data" / "postmaster.pid").exists():
        pg_ctl(root, "-m", "immediate", "-w", "stop")
    shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(argv[2])
    if argv[1] == "stop":
        stop(root)
        return 0
    started = time.monotonic()
    cluster = start(root)
    for key, value in cluster.env().items():
        print(f"{key}={value}")
    print(f"started in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
