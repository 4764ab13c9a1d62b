"""An MCP server's environment, its faults and its lifetime (tools/mcp/client.py).

Real processes only: our own fault servers (tests/support/mcp_servers) and mcp-server-time,
started through the launcher as a run will start them. Each fault must come back as its
stable code (`mcp_server_unavailable`, `tool_timeout`), and no server may outlive its block.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import psutil
import pytest

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from agent_core.tools.mcp.client import ServerSession, connect
from agent_core.tools.mcp.specs import list_specs, result_text
from agent_core.tools.mcp.tool_spec import mcp_tool_spec
from tests.support.cli import CliRunner, cli_env
from tests.support.mcp_servers.processes import server_process
from tests.support.mcp_servers.real import CALL_TOOL, FAULT_SERVER, RAW_SERVER, python_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow
T = TypeVar("T")


def add_fault_server(ws: Workspace, name: str = "faults", *env: str) -> Any:
    ws.mcp_add(name, sys.executable, [str(FAULT_SERVER)], env=list(env), trust_hints=True)
    return ws.mcp_server(name)


def with_server(row: Any, body: Callable[[ServerSession], Awaitable[T]]) -> T:
    async def main() -> T:
        async with connect(row) as server:
            return await body(server)

    return asyncio.run(main())


def refused_with(code: str, row: Any, body: Callable[[ServerSession], Awaitable[object]]) -> str:
    with pytest.raises(BriefDeskError) as caught:
        with_server(row, body)
    assert caught.value.code == code, caught.value
    return caught.value.message


def gone(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


async def server_pid(server: ServerSession) -> int:
    """The server's pid as the host sees it (in its sandbox it has a PID namespace of its own)."""
    await server.call("pid", {}, timeout=30)  # it is up and serving
    return server_process(psutil.Process(), str(FAULT_SERVER))


def test_a_server_sees_only_the_minimal_environment_and_its_own_values(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", "sk-parent-secret-must-not-leak-0000")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "parent-secret")
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("LC_TIME", "C.UTF-8")
    row = add_fault_server(ws, "faults", "FAULT=none", "GREETING=hello world")

    async def env(server: ServerSession) -> dict[str, str]:
        result = await server.call("show_env", {}, timeout=30)
        return dict(json.loads(result_text(result)))

    seen = with_server(row, env)
    assert seen["GREETING"] == "hello world"
    assert seen["PATH"] == os.environ["PATH"] and seen["HOME"] == os.environ["HOME"]
    assert (seen["LANG"], seen["LC_TIME"]) == ("C.UTF-8", "C.UTF-8")
    allowed = {"PATH", "HOME", "LANG", "TMPDIR", "FAULT", "GREETING"}
    assert {k for k in seen if not k.startswith("LC_")} <= allowed, sorted(seen)
    for leaked in ("BRIEFDESK_OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "USER", "SHELL"):
        assert leaked not in seen


def test_a_call_past_its_timeout_is_tool_timeout_and_the_server_is_stopped(ws: Workspace) -> None:
    row = add_fault_server(ws)
    pids: list[int] = []

    async def hang(server: ServerSession) -> object:
        pids.append(await server_pid(server))
        return await server.call("slow", {"seconds": 120}, timeout=0.5)

    message = refused_with("tool_timeout", row, hang)
    assert "'slow'" in message and "0.5 s" in message
    wait_until(lambda: gone(pids[0]), timeout=15, message="the busy server was left running")


def test_a_server_that_exits_mid_call_is_unavailable(ws: Workspace) -> None:
    row = add_fault_server(ws)

    async def die(server: ServerSession) -> object:
        return await server.call("die", {}, timeout=30)

    assert "exited" in refused_with("mcp_server_unavailable", row, die)


def test_a_server_that_breaks_the_protocol_is_unavailable_at_once(ws: Workspace) -> None:
    ws.mcp_add("raw", sys.executable, [str(RAW_SERVER)])
    row = ws.mcp_server("raw")

    async def garble(server: ServerSession) -> object:
        assert [t.name for t in await server.list_tools()] == ["garble"]
        # Never answered: without the break detected, this would end as tool_timeout.
        return await server.call("garble", {}, timeout=20)

    message = refused_with("mcp_server_unavailable", row, garble)
    assert "not MCP" in message


def test_a_tool_failure_is_a_result_and_the_session_goes_on(ws: Workspace) -> None:
    row = add_fault_server(ws)

    async def calls(server: ServerSession) -> tuple[bool, str]:
        failed = await server.call("slow", {"seconds": "not a number"}, timeout=30)
        echoed = await server.call("echo", {"text": "still here"}, timeout=30)
        return failed.is_error, result_text(echoed)

    assert with_server(row, calls) == (True, "still here")


def test_no_server_process_outlives_its_block(ws: Workspace) -> None:
    mine = psutil.Process()
    # Children from before this test (another test's worker pool, in the same pytest worker)
    # are not this test's servers.
    before = {c.pid for c in mine.children(recursive=True)}
    ws.mcp_add("time", python_server("mcp-server-time"), [])
    row = add_fault_server(ws)
    pid = with_server(row, server_pid)
    wait_until(lambda: gone(pid), timeout=15, message="the fault server was left running")
    specs = asyncio.run(list_specs(ws.mcp_server("time")))
    assert {s.model_name for s in specs} == {
        "mcp__time__get_current_time",
        "mcp__time__convert_time",
    }
    wait_until(
        lambda: (
            not [
                c for c in mine.children(recursive=True) if c.pid not in before and not gone(c.pid)
            ]
        ),
        timeout=15,
        message="a server process of this test is still running",
    )


def test_arguments_are_checked_against_the_closed_schema(ws: Workspace) -> None:
    ws.mcp_add("time", python_server("mcp-server-time"), [], trust_hints=True)
    listed = next(
        s for s in asyncio.run(list_specs(ws.mcp_server("time"))) if s.tool == "get_current_time"
    )
    spec = mcp_tool_spec(listed.recorded(trust_hints=True))  # as a run offers it
    assert spec.validate({"timezone": "UTC"}).to_json() == {"timezone": "UTC"}
    for bad, problem in (
        ({"timezone": "UTC", "evil": 1}, "evil"),
        ({"timezone": 3}, "not of type 'string'"),
        ({}, "'timezone' is a required property"),
    ):
        with pytest.raises(BriefDeskError) as caught:
            spec.validate(bad)
        assert caught.value.code == "invalid_arguments"
        assert problem in caught.value.message, caught.value.message


def test_a_killed_briefdesk_leaves_no_server_behind(
    ws: Workspace, home: Path, tmp_path: Path
) -> None:
    """SIGKILL mid-call: nothing of ours runs to stop the server (busy, it would not notice its
    stdin closing); PR_SET_PDEATHSIG, armed by the launcher, kills it."""
    marker = tmp_path / "busy.pid"
    ws.mcp_add(
        "faults",
        sys.executable,
        [str(FAULT_SERVER)],
        env=[f"MARKER={marker}"],
        roots=[str(tmp_path)],
    )
    caller = subprocess.Popen(
        [sys.executable, str(CALL_TOOL), str(home), "faults", "slow", '{"seconds": 300}'],
        env=cli_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pid = 0
    try:
        wait_until(lambda: marker.exists() and marker.read_text(), timeout=30, message="no call")
        pid = server_process(psutil.Process(caller.pid), str(FAULT_SERVER))
        caller.kill()
        caller.wait(timeout=30)
        wait_until(lambda: gone(pid), timeout=15, message="the server outlived BriefDesk")
    finally:
        caller.kill()
        caller.wait(timeout=30)
        if pid and not gone(pid):
            psutil.Process(pid).kill()  # the failed check must not leave it running either


def test_a_keyring_value_is_read_at_start_and_a_missing_one_is_named(
    ws: Workspace, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The headless override of `keys` (`BRIEFDESK_<NAME>_API_KEY`) serves a `keyring:` value
    too; the override variable itself is not passed on. With no keyring at all, the server is
    unavailable, naming the secret, never a value."""
    monkeypatch.setenv("BRIEFDESK_SRV_TOKEN_API_KEY", "from-the-override-1234")
    row = add_fault_server(ws, "faults", "TOKEN=keyring:srv-token")

    async def env(server: ServerSession) -> dict[str, str]:
        return dict(json.loads(result_text(await server.call("show_env", {}, timeout=30))))

    seen = with_server(row, env)
    assert seen["TOKEN"] == "from-the-override-1234"
    assert "BRIEFDESK_SRV_TOKEN_API_KEY" not in seen

    no_keyring = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    result = CliRunner(home)("mcp", "tools", "faults", env=no_keyring)
    assert result.body["error"]["code"] == "mcp_server_unavailable", result.body
    assert "'srv-token'" in result.body["error"]["message"]
