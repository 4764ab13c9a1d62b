"""A `keyring:` value of an MCP server reaches only that server's environment.

A canary secret is stored in a real, throwaway Secret Service (tests/support/secret_service.py)
with `keys set`, and a server registered with `--env TOKEN=keyring:NAME`. The server (our fault
server, which echoes its environment back and, careless, prints TOKEN to its stderr) must see
the value; the home (state.db and its WAL, logs), every CLI output and the server's command
line must not. Under CI=true the fixture fails instead of skipping when the daemons are
missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.fixtures.attacks.layout import files_containing
from tests.security.test_canary_key import KeyringCli
from tests.support.mcp_servers.real import CALL_TOOL, FAULT_SERVER
from tests.support.secret_service import (
    SecretServiceEnv,
    fixture_secret_service_env,  # noqa: F401
)

pytestmark = [pytest.mark.keyring, pytest.mark.slow]


def test_a_keyring_value_reaches_the_server_and_nothing_else(
    secret_service_env: SecretServiceEnv, home: Path
) -> None:
    canary = "mcp-canary-" + uuid.uuid4().hex
    cli = KeyringCli(home, secret_service_env)
    code, stored = cli("keys", "set", "mcp-canary", stdin=canary + "\n")
    assert (code, stored["stored"]) == (0, True), stored
    code, added = cli(
        "mcp",
        "add",
        "echo",
        "--env",
        "TOKEN=keyring:mcp-canary",
        "--env",
        "FAULT=env_to_stderr",
        "--",
        sys.executable,
        str(FAULT_SERVER),
    )
    assert code == 0 and added["server"]["env_keys"] == ["FAULT", "TOKEN"], added
    assert cli("mcp", "list")[0] == 0
    assert cli("mcp", "tools", "echo")[0] == 0  # starts it: the value is read from the keyring

    def call(tool: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, str(CALL_TOOL), str(home), "echo", tool, "{}"],
            capture_output=True,
            text=True,
            env=cli.env,
            timeout=120,
            check=True,
        )
        result: dict[str, object] = json.loads(done.stdout)
        return result

    seen = json.loads(str(call("show_env")["text"]))
    assert seen["TOKEN"] == canary  # it reached the server's environment
    argv = str(call("cmdline")["text"])
    assert str(FAULT_SERVER) in argv and canary not in argv  # values never travel on argv

    assert files_containing(home, [canary]) == {}, "the canary reached the home's files"
    assert not [out for out in cli.outputs if canary in out], "the canary reached CLI output"
    log = home / "logs" / "mcp-echo.log"
    assert "TOKEN=[REDACTED]" in log.read_text()  # its stderr was kept, masked


def test_a_keyring_value_a_server_hands_back_in_a_run_is_masked_everywhere(
    secret_service_env: SecretServiceEnv, home: Path
) -> None:
    """In a run, the server's answer (its whole environment, the canary in it) is masked at
    BriefDesk's door: not in the timeline, the ledger, the session, the output or a log."""
    canary = "mcp-run-canary-" + uuid.uuid4().hex
    cli = KeyringCli(home, secret_service_env)
    assert cli("keys", "set", "mcp-canary", stdin=canary + "\n")[0] == 0
    code, added = cli(
        "mcp", "add", "echo", "--trust-hints", "--env", "TOKEN=keyring:mcp-canary", "--",
        sys.executable, str(FAULT_SERVER),
    )  # fmt: skip
    assert code == 0, added
    script = home.parent / "show-env.json"
    script.write_text(json.dumps([{"call": "mcp__echo__show_env", "args": {}}, {"say": "ok"}]))
    code, run = cli("run", "--question", "what is your environment?", "--model",
                    f"scripted:{script}")  # fmt: skip
    assert code == 0 and run["status"] == "succeeded", run
    code, timeline = cli("timeline", run["run_id"])
    results = [e for e in timeline["events"] if e["kind"] == "tool_result"]
    assert results and results[0]["data"]["executed"] is True  # the server did answer
    assert files_containing(home, [canary]) == {}, "the canary reached the home's files"
    assert not [out for out in cli.outputs if canary in out], "the canary reached CLI output"
