"""The real Claude Code, headless, against the fake Anthropic endpoint: one session per test.

`ClaudeSession(root, hook=[...])` makes a throwaway HOME and working folder under `root` and a
settings file whose hooks run `hook` for `PreToolUse`, `PostToolUse` and `SessionEnd` (timeout
600 s, as `agents connect` writes them). `session.start(steps)` starts `claude -p PROMPT
--settings FILE` (the npm package of tests/support/agent_clis.py) with its model scripted by
`steps` (tests/support/fake_anthropic.py) and returns a Popen-style handle: the test decides
while the session waits in its hook, then `wait()` gives the exit code, stdout and the requests
the endpoint received.

Permission mode `default`, on purpose: a hook's allow or deny decides a call outright in every
mode, but when the hook gives no decision (it fails, prints nothing, times out) the mode decides,
and with `-p` `default` refuses a Write, Edit or Bash (it would ask, and `-p` counts ask as
deny; measured). `acceptEdits` would write the file instead, and `bypassPermissions` is refused
as root. So in `default` only BriefDesk's hook can let a write through.

No network: the model endpoint is the fake on 127.0.0.1, non-essential traffic, telemetry and
the updater are off, and a proxy that refuses connections (`HTTPS_PROXY` on a closed port, with
127.0.0.1 exempt) turns anything else the CLI might try into a fast failure, not a connection out.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from agent_core.contract.json_types import JsonObject
from tests.support.agent_clis import claude_bin
from tests.support.fake_anthropic import FakeAnthropic, Step, tool_result_text, tool_results
from tests.support.waiting import WaitTimeout, wait_until

T = TypeVar("T")

HOOK_TIMEOUT_S = 600
SESSION_TIMEOUT_S = 120.0
CLOSED_PROXY = "http://127.0.0.1:9"
"""The discard port: nothing listens there, so a connection through this proxy fails at once."""


def hook_settings(command: Sequence[str]) -> JsonObject:
    """Claude Code settings that run `command` for every tool before and after it runs, and at
    the session's end."""
    hook: JsonObject = {
        "type": "command",
        "command": shlex.join(command),
        "timeout": HOOK_TIMEOUT_S,
    }
    return {
        "hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [hook]}],
            "PostToolUse": [{"matcher": "*", "hooks": [hook]}],
            "SessionEnd": [{"hooks": [hook]}],
        }
    }


@dataclass(frozen=True)
class ClaudeResult:
    """A finished session, seen from outside."""

    exit_code: int
    stdout: str
    stderr: str
    requests: list[JsonObject]
    """The bodies of the agent loop's requests to the endpoint, in order."""

    @property
    def output(self) -> JsonObject:
        """The `--output-format json` result (`session_id`, `result`, `is_error`, ...)."""
        found: JsonObject = json.loads(self.stdout)
        return found

    def tool_result_for(self, tool_use_id: str) -> str | None:
        """The text the model received for that tool call (in the last request), if any."""
        if not self.requests:
            return None
        for block in tool_results(self.requests[-1]):
            if block.get("tool_use_id") == tool_use_id:
                return tool_result_text(block)
        return None


class RunningClaude:
    """A started session: `poll()`, `while_running(...)`, `wait()`; `with` kills it (and its
    hooks) if still running."""

    def __init__(self, process: subprocess.Popen[str], fake: FakeAnthropic) -> None:
        self.process = process
        self.fake = fake
        self._result: ClaudeResult | None = None

    def poll(self) -> int | None:
        return self.process.poll()

    def while_running(self, predicate: Callable[[], T], *, timeout: float = 60.0) -> T:
        """What `predicate` returns once it is truthy; fails at once, with what the session
        printed and what its model last received, if the session ends first."""

        def holds_or_still_running() -> T:
            found = predicate()
            if not found and self.process.poll() is not None:
                ended = self.wait()
                raise AssertionError(
                    f"claude ended ({ended.exit_code}) first: {ended.stderr[-1500:]!r}; "
                    f"its model last received {self.last_received()!r}"
                )
            return found

        try:
            return wait_until(holds_or_still_running, timeout=timeout, interval=0.05)
        except WaitTimeout:
            raise WaitTimeout(
                f"not true within {timeout} s while claude ran; its model last received "
                f"{self.last_received()!r}"
            ) from None

    def last_received(self) -> list[str]:
        """The last tool results the model received (what the hooks let happen)."""
        requests = self.fake.main_requests()
        last: JsonObject = requests[-1] if requests else {}
        return [tool_result_text(block) for block in tool_results(last)][-3:]

    def wait(self, timeout: float = SESSION_TIMEOUT_S) -> ClaudeResult:
        if self._result is not None:
            return self._result
        try:
            stdout, stderr = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            stdout, stderr = self.process.communicate()
            raise AssertionError(
                f"claude did not end within {timeout} s: {stderr[-2000:]}"
            ) from None
        requests = self.fake.main_requests()
        self._result = ClaudeResult(self.process.returncode, stdout, stderr, requests)
        return self._result

    def kill(self) -> None:
        """SIGKILL to the session's own process group (the CLI and the hooks it started)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)

    def __enter__(self) -> RunningClaude:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        if self._result is None:
            self.process.communicate()
        self.fake.__exit__(*exc)


class ClaudeSession:
    """A throwaway HOME (`home`) and working folder (`cwd`) for one `claude -p` session."""

    def __init__(
        self,
        root: Path,
        *,
        hook: Sequence[str],
        env: Mapping[str, str] | None = None,
        prompt: str = "Do what the task needs.",
    ) -> None:
        self.home = root / "claude-home"
        self.cwd = root / "work"
        self.settings_path = root / "claude-settings.json"
        self.prompt = prompt
        self.extra_env = dict(env or {})
        for folder in (self.home, self.cwd):
            folder.mkdir(parents=True, exist_ok=True)
        self.settings_path.write_text(json.dumps(hook_settings(hook), indent=2), encoding="utf-8")

    def environment(self, base_url: str) -> dict[str, str]:
        """Only what the CLI needs: nothing of the test's own ANTHROPIC_*/CLAUDE_* settings."""
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "HTTPS_PROXY": CLOSED_PROXY,
            "HTTP_PROXY": CLOSED_PROXY,
            "NO_PROXY": "127.0.0.1,localhost",
            **self.extra_env,
        }

    def start(self, steps: Sequence[Step]) -> RunningClaude:
        program = claude_bin()  # may skip the test: before the endpoint starts
        fake = FakeAnthropic(steps).__enter__()
        argv = [
            str(program),
            "-p",
            self.prompt,
            "--settings",
            str(self.settings_path),
            "--permission-mode",
            "default",
            "--output-format",
            "json",
        ]
        process = subprocess.Popen(
            argv,
            cwd=self.cwd,
            env=self.environment(fake.base_url),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        return RunningClaude(process, fake)
