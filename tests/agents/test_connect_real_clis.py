"""The real agent CLIs (npm, tests/support/agent_clis.py) take the settings `agents connect`
writes into a person's own settings file (issue 42, item 1), each in one short session.

- Codex: its app server's `hooks/list` (no model call) lists BriefDesk's four hooks as
  trusted, without a warning, beside the person's own hook (still untrusted, as before): the
  trust connect recorded is the trust Codex computes.
- Claude Code and Gemini CLI have no offline command that lists hooks: each runs one headless
  session against its fake endpoint on 127.0.0.1 (the model only says "done"), and its own debug
  output shows it loaded the hooks and ran BriefDesk's command at the session's end.

`agents status` finds each CLI on PATH and reports its pinned version.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest

from agent_core.contract.agent_views import AgentChangeView, AgentStatusView
from agent_core.contract.json_types import JsonObject, JsonValue
from tests.support.agent_clis import (
    CLAUDE_CODE_PACKAGE,
    CODEX_PACKAGE,
    GEMINI_PACKAGE,
    claude_bin,
    codex_bin,
    gemini_bin,
)
from tests.support.cli import CliRunner
from tests.support.codex_session import RunningAgent, start_process
from tests.support.fake_anthropic import FakeAnthropic
from tests.support.fake_anthropic import Say as SayAnthropic
from tests.support.fake_gemini import FakeGemini
from tests.support.fake_responses import CallTool, Say

APP_SERVER_TIMEOUT_S = 30.0
CLOSED_PROXY = "http://127.0.0.1:9"
BROKEN_PYTHON = "/usr/bin/python3"  # the system's: BriefDesk is not installed there


def pinned(package: str) -> str:
    return package.rsplit("@", 1)[1]


@dataclass(frozen=True)
class Connected:
    change: AgentChangeView
    status: AgentStatusView


def obj(value: object) -> JsonObject:
    assert isinstance(value, dict), value
    return value


def arr(value: object) -> list[JsonValue]:
    assert isinstance(value, list), value
    return value


def connect(cli: CliRunner, person: Path, agent: str, program: Path) -> Connected:
    """`agents connect AGENT` with HOME on `person` and the agent's CLI on PATH."""
    env = {"HOME": str(person), "PATH": f"{program.parent}{os.pathsep}/usr/bin:/bin"}
    result = cli("agents", "connect", agent, env=env)
    assert result.code == 0, result.body
    agents = cast(list[AgentStatusView], cli("agents", "status", env=env).body["agents"])
    status = next(a for a in agents if a["name"] == agent)
    return Connected(cast(AgentChangeView, result.body), status)


def our_command(settings: JsonObject, event: str) -> str:
    commands = [
        str(handler["command"])
        for group in arr(obj(settings["hooks"])[event])
        for handler in map(obj, arr(obj(group)["hooks"]))
        if "briefdesk-cli" in str(handler["command"])
    ]
    assert len(commands) == 1, commands
    return commands[0]


def hooks_list(codex: Path, person: Path, cwd: Path) -> JsonObject:
    """`hooks/list` of a real `codex app-server` (JSON-RPC lines on stdio) for `cwd`."""
    env = {"HOME": str(person), "PATH": "/usr/bin:/bin", "TMPDIR": str(person)}
    server = subprocess.Popen(
        [str(codex), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=cwd,
    )
    stopper = threading.Timer(APP_SERVER_TIMEOUT_S, server.kill)  # a hung server fails here
    stopper.start()
    assert server.stdin is not None and server.stdout is not None

    def ask(request: JsonObject) -> JsonObject:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        for line in server.stdout:
            message = json.loads(line)
            if message.get("id") == request["id"]:
                assert "result" in message, message
                return obj(message["result"])
        raise AssertionError("codex app-server ended before answering")

    try:
        ask(
            {
                "id": 1,
                "method": "initialize",
                "params": {"clientInfo": {"name": "t", "version": "1"}},
            }
        )
        server.stdin.write(json.dumps({"method": "initialized"}) + "\n")
        listed = ask({"id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}})
    finally:
        stopper.cancel()
        server.kill()
        server.communicate()
    (entry,) = arr(listed["data"])
    return obj(entry)


def test_codex_lists_the_connected_hooks_as_trusted(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    codex = codex_bin()
    person, work = tmp_path / "person", tmp_path / "work"
    work.mkdir()
    (person / ".codex").mkdir(parents=True)
    (person / ".codex" / "config.toml").write_text(
        '# mine\ncheck_for_update_on_startup = false\n\n[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n'
        '[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "audit.sh"\n',
        encoding="utf-8",
    )
    done = connect(CliRunner(home, capsys), person, "codex", codex)
    assert done.status["version"] == pinned(CODEX_PACKAGE)
    assert done.status["connected"] and done.status["trust"].startswith("Trusted")

    listed = hooks_list(codex, person, work)
    assert listed["warnings"] == [] and listed["errors"] == []
    trust = {
        (str(hook["eventName"]), str(hook["command"])): (hook["trustStatus"], hook["timeoutSec"])
        for hook in map(obj, arr(listed["hooks"]))
    }
    ours = {event for event, command in trust if "briefdesk-cli" in command}
    assert ours == {"preToolUse", "permissionRequest", "postToolUse", "sessionEnd"}
    for (event, command), (status, timeout) in trust.items():
        if "briefdesk-cli" in command:
            assert status == "trusted" and command.endswith(" hook codex || exit 2"), command
            assert timeout == (3 if event == "sessionEnd" else 600)
    assert trust[("preToolUse", "audit.sh")][0] == "untrusted"  # the person's: as it was


def agent_env(person: Path, **extra: str) -> dict[str, str]:
    """Only what the CLI needs; anything it might try beyond 127.0.0.1 fails at once."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(person),
        "TMPDIR": str(person),
        "LANG": "C.UTF-8",
        "HTTPS_PROXY": CLOSED_PROXY,
        "HTTP_PROXY": CLOSED_PROXY,
        "NO_PROXY": "127.0.0.1,localhost",
        **extra,
    }


def test_claude_code_runs_the_connected_hook_from_the_persons_settings(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claude = claude_bin()
    person, work = tmp_path / "person", tmp_path / "work"
    work.mkdir()
    (person / ".claude").mkdir(parents=True)
    settings = person / ".claude" / "settings.json"
    settings.write_text('{"cleanupPeriodDays": 30}\n', encoding="utf-8")
    done = connect(CliRunner(home, capsys), person, "claude-code", claude)
    assert done.status["version"] == pinned(CLAUDE_CODE_PACKAGE)
    command = our_command(obj(json.loads(settings.read_text(encoding="utf-8"))), "SessionEnd")

    fake = FakeAnthropic([SayAnthropic("done")]).__enter__()
    env = agent_env(
        person,
        ANTHROPIC_BASE_URL=fake.base_url,
        ANTHROPIC_API_KEY="sk-ant-test-dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_TELEMETRY="1",
        DISABLE_AUTOUPDATER="1",
    )
    argv = [str(claude), "-p", "Say done.", "--debug", "hooks"]
    with RunningAgent("claude", start_process(argv, work, env), fake) as session:
        ended = session.wait()
    assert ended.exit_code == 0, ended.stderr[-2000:]
    log = (person / ".claude" / "debug" / "latest").read_text(encoding="utf-8")
    assert f"SessionEnd:other [{command}]" in log  # Claude Code ran BriefDesk's hook


GEMINI_OWN_SETTINGS: JsonObject = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False},
}
"""A person's own Gemini settings: API-key auth, nothing sent home, no auto-update."""


def gemini_env(person: Path, base_url: str) -> dict[str, str]:
    return agent_env(
        person,
        GEMINI_API_KEY="test-dummy-key",
        GOOGLE_GEMINI_BASE_URL=base_url,
        GEMINI_CLI_TRUST_WORKSPACE="true",
        NO_COLOR="1",
    )


def test_gemini_loads_and_runs_the_connected_hooks_from_the_persons_settings(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gemini = gemini_bin()
    person, work = tmp_path / "person", tmp_path / "work"
    work.mkdir()
    (person / ".gemini").mkdir(parents=True)
    settings = person / ".gemini" / "settings.json"
    settings.write_text(json.dumps(GEMINI_OWN_SETTINGS, indent=2), encoding="utf-8")
    done = connect(CliRunner(home, capsys), person, "gemini", gemini)
    assert done.status["version"] == pinned(GEMINI_PACKAGE)
    command = our_command(obj(json.loads(settings.read_text(encoding="utf-8"))), "SessionEnd")

    fake = FakeGemini([Say("done")]).__enter__()
    env = gemini_env(person, fake.base_url)
    argv = [str(gemini), "-p", "Say done.", "--debug"]
    with RunningAgent("gemini", start_process(argv, work, env), fake) as session:
        ended = session.wait()
    assert ended.exit_code == 0, ended.stderr[-2000:]
    assert "Hook registry initialized with 3 hook entries" in ended.stderr
    assert f"Expanding hook command: {command}" in ended.stderr  # at the session's end


def test_gemini_is_blocked_when_the_connected_briefdesk_cli_cannot_start(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broken install after connect (its Python no longer has BriefDesk: a traceback, exit 1),
    which Gemini CLI, like Codex, takes as a warning and runs the tool: the connected command
    turns it into a block."""
    gemini = gemini_bin()
    person, work, install = tmp_path / "person", tmp_path / "work", tmp_path / "install"
    for folder in (work, person / ".gemini", install):
        folder.mkdir(parents=True)
    settings = person / ".gemini" / "settings.json"
    settings.write_text(json.dumps(GEMINI_OWN_SETTINGS), encoding="utf-8")
    installed = install / "briefdesk-cli"
    shutil.copy2(Path(sys.executable).with_name("briefdesk-cli"), installed)
    monkeypatch.setattr(sys, "argv", [str(installed)])  # connect names the briefdesk-cli it runs
    connect(CliRunner(home, capsys), person, "gemini", gemini)
    script = installed.read_text(encoding="utf-8").split("\n", 1)[1]
    installed.write_text(f"#!{BROKEN_PYTHON}\n{script}", encoding="utf-8")

    unseen = work / "unseen.txt"
    fake = FakeGemini(
        [CallTool("write_file", {"file_path": str(unseen), "content": "x\n"}), Say("done")]
    ).__enter__()
    env = gemini_env(person, fake.base_url)
    argv = [str(gemini), "-p", "Write the file.", "--approval-mode", "yolo"]
    with RunningAgent("gemini", start_process(argv, work, env), fake) as session:
        session.wait()
    assert not unseen.exists()
    (output,) = [r for r in fake.tool_outputs() if r.get("name") == "write_file"]
    assert "Tool execution blocked" in json.dumps(output["response"]), output
