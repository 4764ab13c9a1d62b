"""An MCP server runs in a sandbox (contract: "MCP servers in a sandbox"; issue 39 items 2, 6, 8).

A hostile server of our own (tests/support/mcp_servers/hostile_server.py) is started the way a
run starts one (`connect` of the desk's registered row) and tries every route it has: BriefDesk's
environment through /proc, the session bus and the keyring (a real gnome-keyring holding a key,
on a throwaway bus), a file in the person's home, the host's /tmp, writes outside and inside its
granted folder, an HTTP server of the test on 127.0.0.1. Each attempt's result comes back as the
tool's result; side effects are checked from outside (files, processes).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TypeVar, cast

import psutil
import pytest

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from agent_core.tools.mcp import client
from agent_core.tools.mcp.client import ServerSession, connect
from agent_core.tools.mcp.specs import result_text
from tests.support.cli import CliRunner, cli_command, cli_env
from tests.support.mcp_servers.processes import descendants_running
from tests.support.mcp_servers.real import HERE
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401
)
from tests.support.waiting import wait_until

HOSTILE = HERE / "hostile_server.py"
T = TypeVar("T")
pytestmark = [pytest.mark.slow]


def with_server(ws: Workspace, name: str, body: Callable[[ServerSession], Awaitable[T]]) -> T:
    async def main() -> T:
        async with connect(ws.mcp_server(name), log_dir=ws.home.logs) as server:
            return await body(server)

    return asyncio.run(main())


async def attempt(server: ServerSession, tool: str, **args: object) -> dict[str, object]:
    result = await server.call(tool, args, timeout=60)
    assert not result.is_error, result_text(result)
    answer: dict[str, object] = json.loads(result_text(result))
    return answer


@pytest.fixture
def here(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


@pytest.fixture
def web() -> Iterator[str]:
    """An HTTP server of the test on 127.0.0.1 (the host's loopback)."""

    class Hello(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"hello from the host")

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.keyring
def test_a_hostile_server_reaches_no_secret_no_home_and_no_network(
    secret_service_env: SecretServiceEnv,
    ws: Workspace,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    web: str,
) -> None:
    key = "sk-sandbox-canary-" + uuid.uuid4().hex
    pg_password = "pg-canary-" + uuid.uuid4().hex
    stored = subprocess.run(
        ["secret-tool", "store", "--label=BriefDesk", "service", "BriefDesk", "username", "openai"],
        input=key,
        text=True,
        env=child_env(secret_service_env),
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert stored.returncode == 0, stored.stderr
    bus = secret_service_env["DBUS_SESSION_BUS_ADDRESS"]
    granted = tmp_path / "granted"
    granted.mkdir()
    # A second bus socket, in the very folder the server is granted: hidden there too.
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(granted / "bus"))
    listener.listen(1)
    # What BriefDesk's own process holds: the key, a database password, the bus, a home.
    home = Path(secret_service_env["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY " + key)
    (tmp_path / "host-temp-file").write_text("host temp")
    for name, value in {**secret_service_env, "BRIEFDESK_OPENAI_API_KEY": key}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"{bus};unix:path={granted / 'bus'}")
    monkeypatch.setenv("PGPASSWORD", pg_password)
    # The route works from outside the sandbox: the keyring does hold the key.
    outside = subprocess.run(
        ["secret-tool", "lookup", "service", "BriefDesk", "username", "openai"],
        env=child_env(secret_service_env),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert outside.stdout == key

    ws.mcp_add("hostile", sys.executable, [str(HOSTILE)], roots=[str(granted)])
    ws.mcp_add("hostile-net", sys.executable, [str(HOSTILE)], network=True)
    uid_bus = f"/run/user/{os.getuid()}/bus"
    system_file = Path(f"/etc/briefdesk-escaped-{uuid.uuid4().hex}")  # root could write it
    socket_path = bus.split("path=", 1)[1].split(",", 1)[0]

    async def routes(server: ServerSession) -> dict[str, dict[str, object]]:
        return {
            "parent": await attempt(server, "parent_environ"),
            "scan": await attempt(server, "scan_environs"),
            "bus": await attempt(
                server, "bus_connect", paths=[socket_path, uid_bus, str(granted / "bus")]
            ),
            "keyring": await attempt(server, "keyring_lookup", address=bus),
            "keyring_uid": await attempt(server, "keyring_lookup", address=f"unix:path={uid_bus}"),
            "ssh": await attempt(server, "read_file", path=str(home / ".ssh" / "id_rsa")),
            "home": await attempt(server, "list_dir", path=str(home)),
            "tmp": await attempt(server, "list_dir", path=str(tmp_path)),
            "host_tmp": await attempt(server, "list_dir", path="/tmp"),
            "outside": await attempt(
                server, "write_file", path=str(tmp_path / "escaped"), text="x"
            ),
            "etc": await attempt(server, "write_file", path=str(system_file), text="x"),
            "inside": await attempt(server, "write_file", path=str(granted / "made"), text="ok"),
            "http": await attempt(server, "http_get", url=web),
            "mounts": await attempt(server, "read_file", path="/proc/self/mountinfo"),
        }

    seen = with_server(ws, "hostile", routes)
    everything = json.dumps(seen)
    assert key not in everything and pg_password not in everything, "a secret reached the server"
    assert "BRIEFDESK_OPENAI_API_KEY" not in everything and "PGPASSWORD" not in everything
    # /proc shows only the sandbox: none of BriefDesk's processes (this pytest) is there.
    scan = cast(dict[str, dict[str, dict[str, object]]], seen["scan"])
    commands = [str(p["cmdline"].get("value")) for p in scan.values()]
    assert all("bwrap" in c or str(HOSTILE) in c for c in commands), commands
    # No bus: neither the one BriefDesk talks to (wherever it lies) nor the user's.
    bus_results = cast(dict[str, dict[str, object]], seen["bus"])
    assert not [p for p, r in bus_results.items() if r["ok"]], bus_results
    for lookup in (seen["keyring"], seen["keyring_uid"]):
        found = lookup.get("value")
        assert not lookup["ok"] or (isinstance(found, dict) and found["code"] != 0), lookup
    # Nothing of the home, nothing of the host's /tmp.
    assert not seen["ssh"]["ok"], seen["ssh"]
    # Above its granted folder only the way to it exists: no host file beside it.
    assert seen["tmp"] == {"ok": True, "value": ["granted"]}, seen["tmp"]
    assert seen["home"] == {"ok": True, "value": []} or not seen["home"]["ok"]
    assert "host-temp-file" not in json.dumps(seen["host_tmp"])
    mounts = str(seen["mounts"]["value"])
    assert f" {os.path.realpath(home)} " in mounts or not seen["home"]["ok"]  # a tmpfs over it
    # Writes: only in the granted folder.
    assert not seen["etc"]["ok"] and not system_file.exists()
    assert not (tmp_path / "escaped").exists()  # it wrote into its own temp folder, if at all
    assert seen["inside"]["ok"] and (granted / "made").read_text() == "ok"
    # No network: its loopback is its own.
    assert not seen["http"]["ok"], seen["http"]
    listener.close()

    async def fetch(server: ServerSession) -> dict[str, object]:
        return await attempt(server, "http_get", url=web)

    assert with_server(ws, "hostile-net", fetch) == {"ok": True, "value": "hello from the host"}


def test_what_a_server_starts_dies_with_it(ws: Workspace) -> None:
    """A child ignoring SIGTERM in the server's group and a setsid grandchild: the server
    exits, and both are gone (its PID namespace ends with it)."""
    token = "survivor-" + uuid.uuid4().hex
    ws.mcp_add("hostile", sys.executable, [str(HOSTILE)])
    me = psutil.Process()

    async def spawn_then_exit(server: ServerSession) -> object:
        await attempt(server, "spawn_survivors", token=token)
        wait_until(
            lambda: len(descendants_running(me, token)) == 2, timeout=30, message="no survivors"
        )
        return await server.call("exit_now", {}, timeout=30)

    with pytest.raises(BriefDeskError) as caught:
        with_server(ws, "hostile", spawn_then_exit)
    assert caught.value.code == "mcp_server_unavailable"
    survivors = [
        p for p in psutil.process_iter(["cmdline"]) if token in " ".join(p.info["cmdline"] or [])
    ]
    try:
        wait_until(
            lambda: all(
                not p.is_running() or p.status() == psutil.STATUS_ZOMBIE for p in survivors
            ),
            timeout=15,
            message="a process the server started outlived it",
        )
    finally:
        for p in survivors:  # a failed check must not leave them running
            if p.is_running():
                p.kill()


def test_a_stderr_flood_keeps_only_its_last_64_kib(ws: Workspace) -> None:
    ws.mcp_add("hostile", sys.executable, [str(HOSTILE)])
    me = os.getpid()

    def open_file_sizes() -> dict[tuple[int, int], int]:
        """Regular files this process holds open, by (device, inode)."""
        sizes: dict[tuple[int, int], int] = {}
        for fd in os.listdir(f"/proc/{me}/fd"):
            try:
                info = os.stat(f"/proc/{me}/fd/{fd}")
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                sizes[(info.st_dev, info.st_ino)] = info.st_size
        return sizes

    def largest_growth(before: dict[tuple[int, int], int]) -> int:
        """How far the flood grew any open file: the worker's own files (its databases, the
        capture files) may be large already; a file holding the flood grows by ~200 MB."""
        after = open_file_sizes()
        return max([0, *(size - before.get(key, 0) for key, size in after.items())])

    async def flood(server: ServerSession) -> tuple[str, int]:
        before = open_file_sizes()
        assert (
            result_text(await server.call("flood_stderr", {"megabytes": 200}, timeout=120))
            == "flooded"
        )
        echoed = result_text(await server.call("echo", {"text": "still here"}, timeout=30))
        return echoed, largest_growth(before)

    echoed, largest = with_server(ws, "hostile", flood)
    assert echoed == "still here"
    assert largest < 1024 * 1024, f"a file grew by {largest} bytes holding the server's stderr"
    log = ws.home.logs / "mcp-hostile.log"
    assert log.stat().st_size <= client.MAX_LOG_TAIL
    with_server(ws, "hostile", flood)  # a second session appends: still bounded
    assert log.stat().st_size <= client.MAX_LOG_TAIL
    assert log.read_text().rstrip().endswith("flood done")


def test_a_server_without_a_sandbox_where_none_can_be_made_is_refused(
    ws: Workspace, here: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No bwrap on PATH: `sandbox_unavailable` saying so, also to a run's call of its tool;
    with --no-sandbox it runs as before."""
    ws.mcp_add("boxed", sys.executable, [str(HOSTILE)])
    ws.mcp_add("loose", sys.executable, [str(HOSTILE)], sandbox=False)
    bare = tmp_path / "bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))  # the server's own command is absolute

    async def echo(server: ServerSession) -> str:
        return result_text(await server.call("echo", {"text": "unconfined"}, timeout=30))

    with pytest.raises(BriefDeskError) as caught:
        with_server(ws, "boxed", echo)
    assert caught.value.code == "sandbox_unavailable"
    assert "bwrap (bubblewrap) is not on PATH" in caught.value.message
    assert with_server(ws, "loose", echo) == "unconfined"

    script = tmp_path / "script.json"
    calls = [{"call": f"mcp__{name}__echo", "args": {"text": "hi"}} for name in ("boxed", "loose")]
    script.write_text(json.dumps([*calls, {"say": "done"}]), encoding="utf-8")
    code, run = here("run", "--question", "echo", "--model", f"scripted:{script}")
    assert code == 0, run
    code, timeline = here("timeline", run["run_id"])
    refused = [e["data"]["code"] for e in timeline["events"] if e["kind"] == "blocked"]
    assert refused == ["sandbox_unavailable"], refused  # the boxed one; the loose one ran


def test_mcp_add_takes_roots_network_and_no_sandbox(here: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    code, added = here(
        "mcp",
        "add",
        "fs",
        "--root",
        str(tmp_path / "a" / ".." / "a"),
        "--network",
        "--no-sandbox",
        "--",
        "server",
        str(tmp_path),
    )
    assert code == 0, added
    server = added["server"]
    assert (server["roots"], server["network"], server["sandbox"]) == (
        [str(tmp_path), str(tmp_path / "a")],
        True,
        False,
    )
    assert here("mcp", "list").body["servers"] == [server]
    code, refused = here("mcp", "add", "gone", "--root", str(tmp_path / "nowhere"), "--", "x")
    assert code == 2 and refused["error"]["code"] == "invalid_arguments", refused
    assert [s["name"] for s in here("mcp", "list").body["servers"]] == ["fs"]


def test_a_child_of_the_cli_cannot_read_its_environment(tmp_path: Path) -> None:
    """BriefDesk is undumpable: even an unsandboxed server (--no-sandbox) cannot read
    /proc/PPID/environ of the CLI that started it. As root, the CLI runs without capabilities,
    as an ordinary user's would (CAP_SYS_PTRACE passes any dumpable check)."""
    canary = "sk-undumpable-" + uuid.uuid4().hex
    report = tmp_path / "report.json"
    home = tmp_path / "home"
    cli = CliRunner(home)
    code, added = cli(
        "mcp",
        "add",
        "loose",
        "--no-sandbox",
        "--env",
        f"HOSTILE_REPORT={report}",
        "--",
        sys.executable,
        str(HOSTILE),
    )
    assert code == 0, added
    command = cli_command("--home", str(home), "--json", "mcp", "tools", "loose")
    if os.geteuid() == 0:
        command = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--", *command]
    done = subprocess.run(
        command,
        env={**cli_env(), "BRIEFDESK_OPENAI_API_KEY": canary},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    read = json.loads(report.read_text())
    assert not read["ok"] and "Permission" in str(read["error"]), read
    assert canary not in report.read_text()


def test_briefdesks_home_is_hidden_wherever_it_lies() -> None:
    """A home outside the person's home and the temp folders (here: beside the checkout) is
    hidden too: its state.db holds every run, and a server has no business reading it."""
    outside_temp = Path(__file__).resolve().parents[2] / "test-artifacts" / uuid.uuid4().hex
    home = outside_temp / "home"
    workspace = Workspace(home)
    try:
        workspace.mcp_add("hostile", sys.executable, [str(HOSTILE)])
        assert (home / "state.db").is_file()

        async def look(server: ServerSession) -> dict[str, dict[str, object]]:
            return {
                "beside": await attempt(server, "list_dir", path=str(outside_temp)),
                "home": await attempt(server, "list_dir", path=str(home)),
                "db": await attempt(server, "read_file", path=str(home / "state.db")),
            }

        seen = with_server(workspace, "hostile", look)
    finally:
        workspace.close()
        shutil.rmtree(outside_temp, ignore_errors=True)
    assert seen["beside"] == {"ok": True, "value": ["home"]}, seen["beside"]  # it is there
    assert seen["home"] == {"ok": True, "value": []}, seen["home"]  # as an empty folder
    assert not seen["db"]["ok"], seen["db"]
