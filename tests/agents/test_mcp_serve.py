"""`briefdesk-cli mcp serve`: any MCP client gets the desk's MCP servers' tools, and every call
is decided as a run's MCP call (issue 42 item 5; contract "BriefDesk as an MCP server").

A real MCP client (the `mcp` SDK's stdio client, in this process) talks to a real
`briefdesk-cli mcp serve` subprocess; the desk has the real npm filesystem server or the
suite's fault server registered; people decide from other processes (the CLI). Effects are
read from outside: the files, the approvals, the ledger's rows, the runs list.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, Implementation, TextContent

from tests.core.test_mcp_runs import add_fault_server
from tests.support.agent_clis import claude_bin
from tests.support.cli import CliRunner, cli_command, cli_env, db_rows
from tests.support.mcp_servers.real import filesystem_server_bin
from tests.support.waiting import wait_until

CLIENT = "test-client"


@asynccontextmanager
async def served(home: Path, cwd: Path) -> AsyncIterator[ClientSession]:
    """An MCP session with `briefdesk-cli --home HOME mcp serve`, started in `cwd`."""
    command, *args = cli_command("--home", str(home), "mcp", "serve")
    params = StdioServerParameters(command=command, args=args, env=cli_env(), cwd=str(cwd))
    async with stdio_client(params) as (read, write):
        info = Implementation(name=CLIENT, version="1.0")
        async with ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            yield session


def text_of(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


async def proposal(cli: CliRunner, tool: str) -> str:
    """The id of the pending proposal of `tool`, once it exists (the client's request is still
    open)."""

    def listed() -> str | None:
        body = cli("approvals", "list", "--status", "pending", check=True).body
        return next((str(a["id"]) for a in body["approvals"] if a["tool"] == tool), None)

    found = await asyncio.to_thread(lambda: wait_until(listed, timeout=30))
    assert found is not None  # wait_until returns only what is truthy
    return found


def test_a_client_gets_the_tools_reads_at_once_and_each_write_waits_for_a_person(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    note = shared / "note.txt"
    note.write_text("old line\n", encoding="utf-8")
    fs = filesystem_server_bin()
    cli("mcp", "add", "fs", "--trust-hints", "--", fs, str(shared), check=True)

    async def session() -> None:
        async with served(home, tmp_path) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"fs__read_text_file", "fs__write_file"} <= names, names

            read = await client.call_tool("fs__read_text_file", {"path": str(note)})
            assert not read.is_error and "old line" in text_of(read), read
            assert cli("approvals", "list", check=True).body["approvals"] == []  # never asked

            write = asyncio.create_task(
                client.call_tool("fs__write_file", {"path": str(note), "content": "new line\n"})
            )
            asked = await proposal(cli, "mcp__fs__write_file")
            shown = await asyncio.to_thread(cli, "approvals", "show", asked, check=True)
            assert "-old line" in shown.body["diff"] and "+new line" in shown.body["diff"]
            assert not write.done() and note.read_text(encoding="utf-8") == "old line\n"
            await asyncio.to_thread(
                cli, "approvals", "approve", asked, "--reviewer", "ana", check=True
            )
            written = await write
            assert not written.is_error, written
            assert note.read_text(encoding="utf-8") == "new line\n"

            rejected = asyncio.create_task(
                client.call_tool("fs__write_file", {"path": str(note), "content": "other\n"})
            )
            asked = await proposal(cli, "mcp__fs__write_file")
            await asyncio.to_thread(
                cli, "approvals", "reject", asked, "--reviewer", "ana",
                "--reason", "keep the new line", check=True,
            )  # fmt: skip
            refused = await rejected
            assert refused.is_error
            assert text_of(refused) == "not_approved: rejected by ana: keep the new line"

    asyncio.run(session())
    assert note.read_text(encoding="utf-8") == "new line\n"  # written once, never "other"
    writes = db_rows(
        home, "SELECT status FROM ledger WHERE tool = ?", "mcp__fs__write_file"
    )  # the approved write confirmed once; the rejected one never started
    assert writes == [("confirmed",)], writes
    [run] = cli("runs", check=True).body["runs"]
    assert (run["agent"], run["cwd"], run["status"]) == (CLIENT, str(tmp_path), "succeeded")
    assert run["session_id"]


def test_a_call_nobody_decides_is_not_approved_at_the_decision_timeout_and_never_runs(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    add_fault_server(cli)  # hints not trusted: `append_line` is a write
    cli("settings", "set", "agents.decision_timeout", "2", check=True)
    target = tmp_path / "lines.txt"

    async def session() -> CallToolResult:
        async with served(home, tmp_path) as client:
            return await client.call_tool("faults__append_line", {"path": str(target), "line": "x"})

    answer = asyncio.run(session())
    assert answer.is_error and text_of(answer) == "not_approved: no decision in time"
    assert not target.exists()  # never ran
    [asked] = cli("approvals", "list", check=True).body["approvals"]
    assert asked["status"] == "expired"  # no later approval can run it
    assert db_rows(home, "SELECT * FROM ledger") == []


def test_claude_code_added_as_its_readme_says_finds_briefdesk_connected(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    """The real Claude Code (no model needed): `claude mcp add` as the README shows it, then
    `claude mcp list` starts `mcp serve` and checks its health; a health check makes no run."""
    add_fault_server(cli)
    serve = [str(Path(sys.executable).with_name("briefdesk-cli")), "--home", str(home)]
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),  # Claude Code's settings go to a throwaway home
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }

    def claude(*args: str) -> str:
        done = subprocess.run(
            [str(claude_bin()), "mcp", *args], env=env, cwd=tmp_path,
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        return done.stdout

    claude("add", "briefdesk", "--", *serve, "mcp", "serve")
    listed = claude("list")
    [line] = [line for line in listed.splitlines() if line.startswith("briefdesk:")]
    assert "Connected" in line, listed
    assert cli("runs", check=True).body["runs"] == []


def test_a_call_whose_outcome_is_unknown_is_put_to_a_person_again_while_the_client_waits(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    add_fault_server(cli)  # `die` exits mid-call: the server may have done it

    async def session() -> CallToolResult:
        async with served(home, tmp_path) as client:
            call = asyncio.create_task(client.call_tool("faults__die", {}))
            first = await proposal(cli, "mcp__faults__die")
            await asyncio.to_thread(
                cli, "approvals", "approve", first, "--reviewer", "ana", check=True
            )
            again = await proposal(cli, "mcp__faults__die")  # never run again on its own
            shown = await asyncio.to_thread(cli, "approvals", "show", again, check=True)
            assert again != first and shown.body["approval"]["reason"].startswith("outcome unknown")
            assert not call.done()
            await asyncio.to_thread(
                cli, "approvals", "reject", again, "--reviewer", "ana",
                "--reason", "it did not happen", check=True,
            )  # fmt: skip
            return await call

    answer = asyncio.run(session())
    assert answer.is_error and text_of(answer) == "not_approved: rejected by ana: it did not happen"
    assert db_rows(home, "SELECT status FROM ledger") == [("failed",)]  # recorded as not done
