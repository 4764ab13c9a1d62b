"""The real Gemini CLI, headless (`gemini -p`), against the fake Gemini endpoint.

`GeminiSession(root, hook=[...])` makes a throwaway HOME with `~/.gemini/settings.json`, a
working folder and a temporary folder under `root`. The settings turn off usage statistics,
telemetry and the auto-update, pick API-key auth, and run `hook` for `BeforeTool`, `AfterTool`
and `SessionEnd` (timeout 600000 ms; matcher `*`: the CLI compares a session event's matcher
by equality, so `.*` would never match there). `session.start(steps)` starts `gemini -p PROMPT
--approval-mode yolo` (the CLI runs every tool the hook lets through: only BriefDesk decides;
in its default headless mode write tools are not even offered) with `GOOGLE_GEMINI_BASE_URL` on
the fake and the workspace trusted.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Sequence
from pathlib import Path

from agent_core.contract.json_types import JsonObject
from tests.support.agent_clis import gemini_bin
from tests.support.codex_session import RunningAgent, start_process
from tests.support.fake_gemini import FakeGemini
from tests.support.fake_responses import Step

HOOK_TIMEOUT_MS = 600_000
GEMINI_HOOK_EVENTS = ("BeforeTool", "AfterTool", "SessionEnd")


def gemini_settings(hook: Sequence[str]) -> JsonObject:
    entry: JsonObject = {
        "matcher": "*",
        "hooks": [{"type": "command", "command": shlex.join(hook), "timeout": HOOK_TIMEOUT_MS}],
    }
    return {
        "hooks": {event: [entry] for event in GEMINI_HOOK_EVENTS},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False},
        "security": {"auth": {"selectedType": "gemini-api-key"}},
    }


class GeminiSession:
    """A throwaway HOME (`home`), working folder (`cwd`) and TMPDIR for one `gemini -p`."""

    def __init__(self, root: Path, *, hook: Sequence[str], prompt: str = "Do the task.") -> None:
        self.home = root / "gemini-home"
        self.cwd = root / "work"
        self.tmp = root / "tmp"
        self.prompt = prompt
        for folder in (self.home / ".gemini", self.cwd, self.tmp):
            folder.mkdir(parents=True, exist_ok=True)
        settings = json.dumps(gemini_settings(hook), indent=2)
        (self.home / ".gemini" / "settings.json").write_text(settings, encoding="utf-8")

    def environment(self, base_url: str) -> dict[str, str]:
        """Only what the CLI needs: nothing of the test's own GEMINI_*/GOOGLE_* settings."""
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8",
            "GEMINI_API_KEY": "test-dummy-key",
            "GOOGLE_GEMINI_BASE_URL": base_url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "NO_COLOR": "1",
        }

    def start(self, steps: Sequence[Step]) -> tuple[RunningAgent, FakeGemini]:
        program = gemini_bin()  # may skip the test: before the endpoint starts
        fake = FakeGemini(list(steps)).__enter__()
        argv = [str(program), "-p", self.prompt, "--approval-mode", "yolo"]
        process = start_process(argv, self.cwd, self.environment(fake.base_url))
        return RunningAgent("gemini", process, fake), fake
