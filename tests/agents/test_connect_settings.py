"""`agents connect|disconnect|status` on a person's own settings files (issue 42, item 1).

Each agent's file starts with what a person has there (their own hooks, comments in TOML, an
unusual key order, a tab indentation, non-ASCII text). Connect adds BriefDesk's hooks with their
timeout and keeps everything else (JSON: the same structure; TOML: every line of the person's
text, in order) and a byte-for-byte copy beside the file; connecting again changes nothing;
disconnect gives back exactly the person's file (JSON: the same structure; TOML: the same
text), even when they put a handler of their own into BriefDesk's group meanwhile. A file that
is not JSON/TOML is refused and left untouched, and no BriefDesk home is ever created.
The CLI runs in this process (no interpreter start per call) with HOME on a temp folder.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from pathlib import Path
from typing import cast

import pytest

from agent_core.contract.agent_views import AgentChangeView, AgentStatusView
from agent_core.contract.json_types import JsonObject, JsonValue
from tests.support.cli import CliRunner
from tests.support.typed import present

CLI_HOOK = "briefdesk-cli"


@pytest.fixture
def person(tmp_path: Path) -> Path:
    """The person's home folder (HOME), with no agent settings yet."""
    folder = tmp_path / "person"
    folder.mkdir()
    return folder


@pytest.fixture
def agents_cli(home: Path, person: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


ENV_PATH = "/usr/bin:/bin"  # no agent CLI on it: every version null


def change(cli: CliRunner, person: Path, *args: str) -> AgentChangeView:
    """`agents connect|disconnect ...` with HOME on `person`."""
    result = cli("agents", *args, env={"HOME": str(person), "PATH": ENV_PATH})
    assert result.code == 0, result.body
    return cast(AgentChangeView, result.body)


def statuses(cli: CliRunner, person: Path, *args: str) -> list[AgentStatusView]:
    result = cli("agents", "status", *args, env={"HOME": str(person), "PATH": ENV_PATH})
    assert result.code == 0, result.body
    return cast(list[AgentStatusView], result.body["agents"])


def refused(cli: CliRunner, person: Path, *args: str) -> str:
    result = cli("agents", *args, env={"HOME": str(person), "PATH": ENV_PATH})
    assert result.code == 2, result.body
    assert result.body["error"]["code"] == "invalid_arguments", result.body
    return str(result.body["error"]["message"])


def obj(value: object) -> JsonObject:
    assert isinstance(value, dict), value
    return value


def arr(value: object) -> list[JsonValue]:
    assert isinstance(value, list), value
    return value


def load(path: Path) -> JsonObject:
    return obj(json.loads(path.read_text(encoding="utf-8")))


def ours(command: object, agent: str) -> bool:
    return isinstance(command, str) and CLI_HOOK in command and f"hook {agent}" in command


def without_ours(settings: JsonObject, agent: str) -> JsonObject:
    """The settings with BriefDesk's handlers (and what only they filled) taken out."""
    copy = obj(json.loads(json.dumps(settings)))
    hooks = obj(copy.get("hooks", {}))
    for event in [e for e in hooks if e != "state"]:
        groups: list[JsonValue] = []
        for group in map(obj, arr(hooks[event])):
            group["hooks"] = [h for h in arr(group["hooks"]) if not ours(obj(h)["command"], agent)]
            if group["hooks"]:
                groups.append(group)
        if groups:
            hooks[event] = groups
        else:
            del hooks[event]
    return copy


def our_handlers(settings: JsonObject, agent: str) -> dict[str, list[JsonObject]]:
    """Event -> BriefDesk's handlers under it, each with its group's matcher."""
    found: dict[str, list[JsonObject]] = {}
    for event, groups in obj(settings.get("hooks", {})).items():
        if event == "state":
            continue
        for group in map(obj, arr(groups)):
            for handler in map(obj, arr(group["hooks"])):
                if ours(handler.get("command"), agent):
                    found.setdefault(event, []).append({**handler, "matcher": group.get("matcher")})
    return found


def status_of(cli: CliRunner, person: Path, name: str) -> AgentStatusView:
    agents = statuses(cli, person)
    assert [a["name"] for a in agents] == ["claude-code", "codex", "gemini"]
    return next(a for a in agents if a["name"] == name)


CLAUDE_SETTINGS = (
    "{\n"
    '\t"permissions": {"allow": ["Bash(npm test)"], "deny": []},\n'
    '\t"model": "opus",\n'
    '\t"hooks": {\n'
    '\t\t"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
    '"command": "~/bin/guard.sh — vérifie", "timeout": 30}]}],\n'
    '\t\t"Notification": [{"hooks": [{"type": "command", "command": "notify-send 完成"}]}]\n'
    "\t},\n"
    '\t"env": {"ZETA": "1", "ALPHA": "2"}\n'
    "}\n"
)


def test_claude_code_connect_keeps_the_persons_settings_and_disconnect_gives_them_back(
    agents_cli: CliRunner, person: Path, home: Path
) -> None:
    settings = person / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS, encoding="utf-8")
    original = json.loads(CLAUDE_SETTINGS)

    preview = change(agents_cli, person, "connect", "claude-code", "--dry-run")
    assert preview["written"] is False and preview["changed"] is True
    assert '"timeout": 600' in preview["diff"]
    removed = [line for line in preview["diff"].splitlines()[2:] if line.startswith("-")]
    assert all("hooks" in line or "guard.sh" in line or "完成" in line for line in removed)
    assert settings.read_text(encoding="utf-8") == CLAUDE_SETTINGS  # a preview writes nothing

    done = change(agents_cli, person, "connect", "claude-code")
    assert done["written"] is True and done["diff"] == preview["diff"]
    backup = Path(present(done["backup_path"]))
    assert backup == settings.with_name("settings.json.briefdesk-backup")
    assert backup.read_text(encoding="utf-8") == CLAUDE_SETTINGS
    connected_text = settings.read_text(encoding="utf-8")
    connected = json.loads(connected_text)
    assert without_ours(connected, "claude-code") == original
    assert list(connected) == list(original)  # key order kept
    assert '\n\t"model"' in connected_text and "vérifie" in connected_text  # tabs, UTF-8
    handlers = our_handlers(connected, "claude-code")
    assert sorted(handlers) == ["PostToolUse", "PreToolUse", "SessionEnd"]
    for event, found in handlers.items():
        assert len(found) == 1 and found[0]["timeout"] == 600 and found[0]["type"] == "command"
        assert found[0]["matcher"] == (None if event == "SessionEnd" else "*")
        assert found[0]["command"].endswith(f"--home {home} hook claude-code || exit 2")
    status = status_of(agents_cli, person, "claude-code")
    assert status == {
        "name": "claude-code",
        "connected": True,
        "settings_path": str(settings),
        "version": None,
    }

    again = change(agents_cli, person, "connect", "claude-code")
    assert again["changed"] is False and again["diff"] == "" and again["backup_path"] is None
    assert settings.read_text(encoding="utf-8") == connected_text  # connect twice adds once

    # The person edits around BriefDesk's hook: a handler of their own in its group.
    connected["hooks"]["PostToolUse"][0]["hooks"].append({"type": "command", "command": "log.sh"})
    settings.write_text(json.dumps(connected, indent="\t"), encoding="utf-8")
    change(agents_cli, person, "disconnect", "claude-code")
    expected = json.loads(CLAUDE_SETTINGS)
    expected["hooks"]["PostToolUse"] = [
        {"matcher": "*", "hooks": [{"type": "command", "command": "log.sh"}]}
    ]
    assert json.loads(settings.read_text(encoding="utf-8")) == expected
    assert status_of(agents_cli, person, "claude-code")["connected"] is False
    assert not home.exists()  # no call made a BriefDesk home


def test_claude_code_project_settings_are_made_where_none_were(
    agents_cli: CliRunner, person: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    done = change(agents_cli, person, "connect", "claude-code", "--project", str(project))
    settings = project / ".claude" / "settings.json"
    assert done["agent"]["settings_path"] == str(settings) and done["backup_path"] is None
    assert done["diff"].startswith("--- /dev/null\n")
    assert sorted(our_handlers(json.loads(settings.read_text()), "claude-code")) == [
        "PostToolUse",
        "PreToolUse",
        "SessionEnd",
    ]
    assert not (person / ".claude").exists()  # the user's own settings untouched
    assert statuses(agents_cli, person, "--project", str(project))[0]["connected"]

    change(agents_cli, person, "disconnect", "claude-code", "--project", str(project))
    assert json.loads(settings.read_text()) == {}
    assert "--project" in refused(agents_cli, person, "connect", "codex", "--project", str(project))
    assert "not a folder" in refused(
        agents_cli, person, "connect", "claude-code", "--project", str(tmp_path / "typo")
    )
    assert not (tmp_path / "typo").exists()


CODEX_CONFIG = """\
# My Codex settings — keep these comments  ✓
model = "gpt-5-codex"   # the one I like
approval_policy = "on-request"

[features]
web_search = false

[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "~/bin/audit.sh"   # my own audit

[hooks.state."/somewhere/else/config.toml:pre_tool_use:0:0"]
trusted_hash = "sha256:0000"

[projects."/home/me/café"]
trust_level = "trusted"
"""


def test_codex_connect_trusts_its_hooks_and_disconnect_gives_back_the_same_text(
    agents_cli: CliRunner, person: Path
) -> None:
    config = person / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG, encoding="utf-8")
    config.chmod(0o640)

    done = change(agents_cli, person, "connect", "codex")
    text = config.read_text(encoding="utf-8")
    assert Path(present(done["backup_path"])).read_text(encoding="utf-8") == CODEX_CONFIG
    assert config.stat().st_mode & 0o777 == 0o640  # the file's mode kept
    # Every line of the person's text is still there, in order: the change only adds lines.
    changes = difflib.ndiff(CODEX_CONFIG.splitlines(), text.splitlines())
    assert not [line for line in changes if line.startswith("- ")]
    parsed = tomllib.loads(text)
    handlers = our_handlers(parsed, "codex")
    assert sorted(handlers) == ["PermissionRequest", "PostToolUse", "PreToolUse", "SessionEnd"]
    for event, found in handlers.items():
        # Codex clamps a SessionEnd hook to 3 s (and warns of a longer one at every start).
        assert [h["timeout"] for h in found] == [3 if event == "SessionEnd" else 600]
    states = parsed["hooks"]["state"]
    real = config.resolve()
    for key in (
        f"{real}:pre_tool_use:1:0",  # after the person's own group
        f"{real}:permission_request:0:0",
        f"{real}:post_tool_use:0:0",
        f"{real}:session_end:0:0",
    ):
        assert states[key]["trusted_hash"].startswith("sha256:")
    status = status_of(agents_cli, person, "codex")
    assert status["connected"] is True and status["trust"].startswith("Trusted")

    again = change(agents_cli, person, "connect", "codex")
    assert again["changed"] is False and config.read_text(encoding="utf-8") == text

    change(agents_cli, person, "disconnect", "codex")
    assert config.read_text(encoding="utf-8") == CODEX_CONFIG
    status = status_of(agents_cli, person, "codex")
    assert status["connected"] is False and "not run" in status["trust"]


GEMINI_SETTINGS = {
    "ui": {"theme": "GitHub"},
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "say 終わり"}]}]},
    "general": {"vimMode": True},
}


def test_gemini_connect_counts_in_milliseconds_and_disconnect_gives_back_the_structure(
    agents_cli: CliRunner, person: Path
) -> None:
    settings = person / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(GEMINI_SETTINGS, indent=4, ensure_ascii=False), "utf-8")
    before = settings.read_bytes()

    change(agents_cli, person, "connect", "gemini")
    connected = json.loads(settings.read_text(encoding="utf-8"))
    assert without_ours(connected, "gemini") == GEMINI_SETTINGS
    assert settings.read_text(encoding="utf-8").startswith('{\n    "ui"')  # its indentation
    handlers = our_handlers(connected, "gemini")
    assert sorted(handlers) == ["AfterTool", "BeforeTool", "SessionEnd"]
    assert {h["timeout"] for found in handlers.values() for h in found} == {600_000}
    assert settings.with_name("settings.json.briefdesk-backup").read_bytes() == before
    status = status_of(agents_cli, person, "gemini")
    assert status["connected"] is True and "trust" in status["trust"]

    change(agents_cli, person, "disconnect", "gemini")
    assert json.loads(settings.read_text(encoding="utf-8")) == GEMINI_SETTINGS


@pytest.mark.parametrize(
    ("agent", "relative", "broken"),
    [
        ("claude-code", ".claude/settings.json", '{"hooks": {"PreToolUse": [}\n'),
        ("codex", ".codex/config.toml", 'model = "gpt-5"\n[features\n'),
        ("gemini", ".gemini/settings.json", '{\n  // a comment\n  "ui": {}\n}\n'),
        ("claude-code", ".claude/settings.json", '["not", "an", "object"]\n'),
    ],
)
def test_a_file_that_is_not_its_format_is_refused_and_left_untouched(
    agents_cli: CliRunner, person: Path, home: Path, agent: str, relative: str, broken: str
) -> None:
    settings = person / relative
    settings.parent.mkdir()
    settings.write_text(broken, encoding="utf-8")
    stamp = settings.stat().st_mtime_ns
    for action in ("connect", "disconnect"):
        assert str(settings) in refused(agents_cli, person, action, agent)
    assert settings.read_text(encoding="utf-8") == broken and settings.stat().st_mtime_ns == stamp
    assert sorted(p.name for p in settings.parent.iterdir()) == [settings.name]  # no backup
    assert status_of(agents_cli, person, agent)["connected"] is False
    assert not home.exists()
