"""The real Codex, headless (`codex exec`), against the fake Responses endpoint.

`CodexSession(root, hook=[...])` makes a throwaway HOME with `~/.codex/config.toml` (its own
`CODEX_HOME`), a working folder and a temporary folder of its own (Codex refuses to set up its
sandbox helper under the host's temp folder) under `root`. The config points the model at
`[model_providers.fake]` (`wire_api = "responses"`, a model from Codex's built-in list: an
unknown one gets no `apply_patch`), turns off the update check, analytics, plugins, apps, tool
suggestions and web search, and runs `hook` for `PreToolUse`, `PermissionRequest`,
`PostToolUse` and `Stop` (timeout 600 s). `session.start(steps)` starts `codex exec
--skip-git-repo-check -s workspace-write --dangerously-bypass-hook-trust PROMPT` (hooks run only
once trusted; `agents connect` trusts them in a person's config) and returns a `RunningAgent`.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from tests.support.agent_clis import codex_bin
from tests.support.fake_responses import FakeResponses, Step
from tests.support.waiting import wait_until

T = TypeVar("T")

HOOK_TIMEOUT_S = 600
SESSION_TIMEOUT_S = 120.0
MODEL = "gpt-5.5"
"""In Codex 0.171's built-in model list (its tools then include `apply_patch`)."""
CODEX_HOOK_EVENTS = ("PreToolUse", "PermissionRequest", "PostToolUse", "Stop")


class Endpoint(Protocol):
    """The fake model endpoint of a session (fake_responses.py, fake_gemini.py)."""

    def __exit__(self, *exc: object) -> None: ...


@dataclass(frozen=True)
class AgentResult:
    exit_code: int
    stdout: str
    stderr: str


class RunningAgent:
    """A started session: `while_running(...)`, `wait()`; `with` kills it (and its hooks) if it
    still runs and stops its endpoint."""

    def __init__(self, name: str, process: subprocess.Popen[str], endpoint: Endpoint) -> None:
        self.name = name
        self.process = process
        self.endpoint = endpoint
        self._result: AgentResult | None = None

    def while_running(self, predicate: Callable[[], T], *, timeout: float = 60.0) -> T:
        """What `predicate` returns once truthy; fails at once, with what the session printed,
        if the session ends first."""

        def holds_or_still_running() -> T:
            found = predicate()
            if not found and self.process.poll() is not None:
                ended = self.wait()
                raise AssertionError(
                    f"{self.name} ended ({ended.exit_code}) first: {ended.stderr[-2000:]!r}"
                )
            return found

        return wait_until(holds_or_still_running, timeout=timeout, interval=0.05)

    def wait(self, timeout: float = SESSION_TIMEOUT_S) -> AgentResult:
        if self._result is not None:
            return self._result
        try:
            stdout, stderr = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            stdout, stderr = self.process.communicate()
            raise AssertionError(
                f"{self.name} did not end in {timeout} s: {stderr[-2000:]}"
            ) from None
        self._result = AgentResult(self.process.returncode, stdout, stderr)
        return self._result

    def kill(self) -> None:
        """SIGKILL to the session's own process group (the CLI and the hooks it started)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)

    def __enter__(self) -> RunningAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        if self._result is None:
            self.process.communicate()
        self.endpoint.__exit__(*exc)


def start_process(argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def codex_config(base_url: str, hook: Sequence[str]) -> str:
    command = shlex.join(hook).replace("\\", "\\\\").replace('"', '\\"')
    hooks = "".join(
        f'\n[[hooks.{event}]]\nmatcher = "*"\n[[hooks.{event}.hooks]]\ntype = "command"\n'
        f'command = "{command}"\ntimeout = {HOOK_TIMEOUT_S}\n'
        for event in CODEX_HOOK_EVENTS
    )
    return (
        f'model = "{MODEL}"\n'
        'model_provider = "fake"\n'
        "check_for_update_on_startup = false\n"
        'web_search = "disabled"\n'
        "\n[model_providers.fake]\n"
        'name = "fake"\n'
        f'base_url = "{base_url}"\n'
        'env_key = "FAKE_MODEL_KEY"\n'
        'wire_api = "responses"\n'
        "\n[analytics]\nenabled = false\n"
        "\n[features]\nplugins = false\nremote_plugin = false\napps = false\n"
        "tool_suggest = false\n" + hooks
    )


class CodexSession:
    """A throwaway HOME (`home`), working folder (`cwd`) and TMPDIR for one `codex exec`."""

    def __init__(self, root: Path, *, hook: Sequence[str], prompt: str = "Do the task.") -> None:
        self.home = root / "codex-home"
        self.codex_home = self.home / ".codex"
        self.cwd = root / "work"
        self.tmp = root / "tmp"
        self.hook = list(hook)
        self.prompt = prompt
        for folder in (self.codex_home, self.cwd, self.tmp):
            folder.mkdir(parents=True, exist_ok=True)

    def environment(self) -> dict[str, str]:
        """Only what the CLI needs: nothing of the test's own OPENAI_*/CODEX_* settings."""
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "CODEX_HOME": str(self.codex_home),
            "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8",
            "FAKE_MODEL_KEY": "sk-test-dummy",
        }

    def start(self, steps: Sequence[Step]) -> tuple[RunningAgent, FakeResponses]:
        program = codex_bin()  # may skip the test: before the endpoint starts
        fake = FakeResponses(list(steps)).__enter__()
        config = codex_config(fake.base_url, self.hook)
        (self.codex_home / "config.toml").write_text(config, encoding="utf-8")
        argv = [
            str(program),
            "exec",
            "--skip-git-repo-check",
            "-s",
            "workspace-write",
            "--dangerously-bypass-hook-trust",
            self.prompt,
        ]
        process = start_process(argv, self.cwd, self.environment())
        return RunningAgent("codex", process, fake), fake
