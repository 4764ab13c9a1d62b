"""A canary API key, stored in a real Secret Service, must surface nowhere but the wire.

A throwaway D-Bus session with gnome-keyring (tests/support/secret_service.py) holds the key,
set through `briefdesk-cli keys set openai` (secret on stdin). A full run (+ approve + resume)
against the OpenAI-protocol stand-in then proves the key was used, and only as the
Authorization header of each request: not in any request body or other header, not in any byte
under the home folder (state.db and its -wal/-shm, logs, artifacts), not in any CLI output, not
in `keys status`. Under CI=true the fixture fails instead of skipping when the daemons are
missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.attacks.layout import files_containing
from tests.support.cli import REPO_ROOT
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_faults import Fault, FaultyOpenAI
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401
)

pytestmark = [pytest.mark.keyring, pytest.mark.slow]

QUESTION = "How do checkpoints make agent runs durable?"


class KeyringCli:
    """briefdesk-cli in the throwaway keyring's world; keeps every output for leak checks."""

    def __init__(self, home: Path, service_env: SecretServiceEnv, **extra: str) -> None:
        self.home = home
        self.env = child_env(service_env, PYTHONPATH=str(REPO_ROOT), **extra)
        self.outputs: list[str] = []

    def __call__(self, *args: str, stdin: str | None = None) -> tuple[int, dict[str, Any]]:
        proc = subprocess.run(
            [sys.executable, "-m", "agent_core.cli", "--home", str(self.home), "--json", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=120,
        )
        self.outputs += [proc.stdout, proc.stderr]
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc.returncode, json.loads(proc.stdout)


def test_a_canary_key_appears_only_in_the_authorization_header(
    secret_service_env: SecretServiceEnv, home: Path
) -> None:
    canary = "sk-canary-" + uuid.uuid4().hex
    cli = KeyringCli(home, secret_service_env)
    code, stored = cli("keys", "set", "openai", stdin=canary + "\n")
    assert (code, stored["stored"]) == (0, True), stored
    assert stored["backend"].startswith("keyring.backends.SecretService")
    with FakeOpenAI(api_key=canary) as server:
        cli("settings", "set", "openai.base_url", server.base_url)
        code, run = cli("run", "--question", QUESTION, "--model", "openai")
        assert (code, run["status"]) == (0, "waiting_approval"), run
        [proposal] = run["approvals"]
        cli("approvals", "approve", proposal["id"], "--reviewer", "ada")
        code, done = cli("resume", run["run_id"])
        requests = server.requests
    assert (code, done["status"]) == (0, "succeeded"), done
    assert Path(proposal["target"]).read_text(encoding="utf-8") == proposal["args"]["content"]
    code, status = cli("keys", "status", "openai")
    assert (code, status["stored"]) == (0, True)

    # The key was used: every request carried it, in the Authorization header and nowhere else.
    assert len(requests) == 4
    for request in requests:
        assert request.header("Authorization") == f"Bearer {canary}"
        assert [k.lower() for k, v in request.headers if canary in v] == ["authorization"]
        assert canary.encode() not in request.body
    # ...and it is nowhere else: not one byte under the home, not in any CLI output.
    assert (home / "state.db").is_file()  # the walk below reads the database itself
    assert files_containing(home, [canary]) == {}
    assert [out for out in cli.outputs if canary in out] == []


def test_a_reachable_keyring_without_the_key_fails_the_run_as_key_missing(
    secret_service_env: SecretServiceEnv, home: Path
) -> None:
    cli = KeyringCli(home, secret_service_env)
    code, status = cli("keys", "status", "openai")
    assert (code, status["stored"]) == (0, False)
    # OpenAI's own API needs a key (a local server may not): the run stops before any request.
    cli("settings", "set", "openai.base_url", "https://api.openai.com/v1")
    code, run = cli("run", "--question", QUESTION, "--model", "openai")
    assert (code, run["status"], run["error"]["code"]) == (1, "failed", "key_missing")
    assert "briefdesk-cli keys set openai" in run["error"]["message"]


def test_the_canary_stays_on_the_wire_through_retries_streams_checks_and_refusals(
    secret_service_env: SecretServiceEnv, home: Path
) -> None:
    """The new paths: streamed answers (Chat Completions and Responses), retries after a 429,
    a dropped and a corrupted stream, `providers check`, and a 401 whose body echoes the key
    it was sent (as OpenAI's does): the key is still only ever the Authorization header."""
    canary = "sk-canary-" + uuid.uuid4().hex
    cli = KeyringCli(home, secret_service_env, BRIEFDESK_RETRY_SCALE="0.01")
    assert cli("keys", "set", "openai", stdin=canary)[0] == 0
    with FaultyOpenAI(api_key=canary) as server:
        cli("settings", "set", "openai.base_url", server.base_url)
        server.fail(Fault.http(429, retry_after_ms="50"), Fault.drop(), Fault.corrupt())
        code, chat = cli(
            "run", "--question", QUESTION, "--model", "openai", "--mode", "acceptEdits"
        )
        assert (code, chat["status"]) == (0, "succeeded"), chat
        code, check = cli("providers", "check")
        assert (code, check["provider"]["ok"]) == (0, True), check
        cli("settings", "set", "openai.api", "responses")
        server.fail(Fault.truncate())
        code, responses = cli("run", "--question", QUESTION, "--model", "openai")
        assert (code, responses["status"]) == (0, "waiting_approval"), responses
        server.api_key = "sk-the-right-one-" + uuid.uuid4().hex  # now the canary is refused
        code, refused = cli("run", "--question", QUESTION, "--model", "openai")
        code_check, refused_check = cli("providers", "check")
        exchanges = server.exchanges
    assert (code, refused["status"], refused["error"]["retryable"]) == (1, "failed", False)
    assert "HTTP 401" in refused["error"]["message"]
    assert (code_check, refused_check["provider"]["ok"]) == (1, False)
    _, events = cli("timeline", chat["run_id"])
    assert [e["data"]["attempt"] for e in events["events"] if e["kind"] == "model_retry"] == [
        1,
        2,
        3,
    ]
    assert {e.path for e in exchanges} == {"/v1/chat/completions", "/v1/responses"}
    assert {e.fault for e in exchanges} >= {"http", "drop", "corrupt", "truncate"}
    for exchange in exchanges:
        assert exchange.header("Authorization") == f"Bearer {canary}"
        assert [k.lower() for k, v in exchange.headers if canary in v] == ["authorization"]
        assert canary.encode() not in exchange.body
    assert files_containing(home, [canary]) == {}
    assert [out for out in cli.outputs if canary in out] == []
