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
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from agent_core.home.config import DEMO_CORPUS_DIR
from agent_core.models.planned import History, PlannedCall, TurnPlan
from tests.fixtures.attacks.layout import files_containing
from tests.support.cli import REPO_ROOT
from tests.support.fake_openai import FakeOpenAI, offline_planner
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
            [
                sys.executable,
                "-m",
                "agent_core.cli",
                "--home",
                str(self.home),
                "--json",
                *args,
            ],
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


def _asks_first(history: History) -> TurnPlan:
    """The offline workflow, after one clarifying question (so the run waits for an answer)."""
    if not history.outputs("ask_question"):
        return TurnPlan([PlannedCall("ask_question", {"question": "Who reads the brief?"})])
    return offline_planner(history)


def test_a_known_key_typed_into_a_question_an_answer_or_a_document_is_masked_at_the_door(
    secret_service_env: SecretServiceEnv, home: Path, tmp_path: Path
) -> None:
    """Issue 18, item 8. The canary is not key-shaped (no `sk-`), so only knowing the keyring's
    key can mask it: pasted into the question, the answer, and a corpus document the run reads,
    it reaches neither the model (request bodies) nor any byte under the home (runs.question,
    saved RunState, arguments, approvals, session items, the brief and its file name, the
    index, logs) nor any CLI output."""
    canary = "canary" + uuid.uuid4().hex + uuid.uuid4().hex[:8]
    corpus = tmp_path / "corpus"  # outside the home: the document itself is not under test
    shutil.copytree(DEMO_CORPUS_DIR, corpus)
    (corpus / "checkpoint-credentials.md").write_text(
        "# Checkpoints and durable runs\n\nCheckpoints make agent runs durable: a durable run "
        f"resumes from its checkpoints. The deploy key is {canary} for durable checkpoints.\n",
        encoding="utf-8",
    )
    cli = KeyringCli(home, secret_service_env)
    assert cli("keys", "set", "openai", stdin=canary)[0] == 0
    with FakeOpenAI(api_key=canary, planner=_asks_first) as server:
        cli("settings", "set", "openai.base_url", server.base_url)
        code, run = cli(
            "run", "--question", f"{QUESTION} My key is {canary}", "--model", "openai",
            "--corpus", str(corpus),
        )  # fmt: skip
        assert (code, run["status"]) == (0, "waiting_input"), run
        assert "[REDACTED]" in run["question"]
        code, answered = cli("answer", run["run_id"], "--text", f"engineers; use {canary}")
        assert code == 0, answered
        code, waiting = cli("resume", run["run_id"])
        assert (code, waiting["status"]) == (0, "waiting_approval"), waiting
        [proposal] = waiting["approvals"]
        cli("approvals", "approve", proposal["id"], "--reviewer", "ada")
        code, done = cli("resume", run["run_id"])
        requests = server.requests
        code_runs, _ = cli("runs")
        code_timeline, timeline = cli("timeline", run["run_id"])
    assert (code, done["status"], code_runs, code_timeline) == (0, "succeeded", 0, 0), done
    read = [
        e for e in timeline["events"] if e["kind"] == "tool_called" and e["tool"] == "read_document"
    ]
    assert "checkpoint-credentials.md" in {e["data"]["args"]["path"] for e in read}  # it was read
    assert [e["data"]["answer"] for e in timeline["events"] if e["kind"] == "answer_received"] == [
        "engineers; use [REDACTED]"
    ]
    for request in requests:
        assert request.header("Authorization") == f"Bearer {canary}"  # the key was used...
        assert canary.encode() not in request.body  # ...and never sent as text to the model
    assert (home / "state.db").is_file() and Path(proposal["target"]).is_file()
    assert files_containing(home, [canary]) == {}
    assert [out for out in cli.outputs if canary in out] == []
