"""home.secrets against a real Secret Service (private bus + gnome-keyring), plus redaction.

keyring picks its backend (and D-Bus address) once per process, so every keyring operation runs
in a fresh `python -c` child whose environment points at the throwaway service.
"""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home import secrets
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401  (registers the `secret_service_env` fixture)
)

REPO = Path(__file__).resolve().parents[2]
SECRET = "sk-test-" + "Q7rW2pLx9ZkV4mNc8TfY3hJd"  # key-shaped, so the pattern rules apply too
OTHER_SECRET = "env-override-value-5d1f9a7c"

# Reads [[op, args, kwargs], ...] as JSON on stdin (so no secret appears in argv), prints results.
DRIVER = """
import json, sys, time
from agent_core.home import secrets
from agent_core.contract.errors import BriefDeskError
out = []
for op, args, kwargs in json.load(sys.stdin):
    t0 = time.monotonic()
    try:
        out.append({"ok": getattr(secrets, op)(*args, **kwargs)})
    except BriefDeskError as exc:
        out.append({"code": exc.code, "message": exc.message, "repr": repr(exc)})
    out[-1]["elapsed"] = time.monotonic() - t0
print(json.dumps(out))
"""

Op = tuple[str, list[Any], dict[str, Any]]


def run_ops(env: Mapping[str, str], *ops: Op, timeout: float = 15.0) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps(ops),
        env=child_env(env, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in proc.stderr
    ops: list[dict[str, Any]] = json.loads(proc.stdout)
    return ops


def secret_tool(env: Mapping[str, str], *args: str, stdin: str | None = None) -> str:
    proc = subprocess.run(
        ["secret-tool", *args],
        input=stdin,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def no_bus_env() -> Iterator[dict[str, str]]:
    """Isolated dirs and a D-Bus address whose socket does not exist."""
    with tempfile.TemporaryDirectory(prefix="bd-nobus-") as tmp:
        env = {k: tmp for k in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR")}
        env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={tmp}/no-such-bus"
        yield env


# --- real Secret Service -----------------------------------------------------------------------


@pytest.mark.keyring
def test_round_trip_against_real_secret_service(secret_service_env: dict[str, str]) -> None:
    results = run_ops(
        secret_service_env,
        ("key_status", ["openai"], {}),
        ("set_key", ["openai", SECRET + "\n"], {}),  # pasted with a newline: stored stripped
        ("key_status", ["openai"], {}),
        ("get_key", ["openai"], {}),
        ("delete_key", ["openai"], {}),
        ("delete_key", ["openai"], {}),  # idempotent
        ("get_key", ["openai"], {}),
    )
    before, stored, status, got, deleted, deleted_again, missing = results
    assert before["ok"]["stored"] is False
    assert stored["ok"]["stored"] is True
    assert status["ok"]["stored"] is True
    for r in (before, stored, status, deleted, deleted_again):
        assert set(r["ok"]) == {"name", "stored", "backend"}
        assert r["ok"]["name"] == "openai"
        assert "SecretService" in r["ok"]["backend"]
        assert SECRET not in json.dumps(r)
    assert got["ok"] == SECRET
    assert deleted["ok"]["stored"] is False
    assert deleted_again["ok"]["stored"] is False
    assert missing["code"] == ErrorCode.KEY_MISSING
    assert "briefdesk-cli keys set openai" in missing["message"]


@pytest.mark.keyring
def test_key_really_lives_in_the_secret_service(secret_service_env: dict[str, str]) -> None:
    run_ops(secret_service_env, ("set_key", ["openai", SECRET], {}))
    looked_up = secret_tool(
        secret_service_env, "lookup", "service", "BriefDesk", "username", "openai"
    )
    assert looked_up == SECRET

    # And the other way: an item another tool stored is what get_key returns.
    secret_tool(
        secret_service_env,
        *("store", "--label=other tool", "service", "BriefDesk", "username", "anthropic"),
        stdin=OTHER_SECRET,
    )
    [got] = run_ops(secret_service_env, ("get_key", ["anthropic"], {}))
    assert got["ok"] == OTHER_SECRET


@pytest.mark.keyring
def test_env_override_wins_over_keyring(secret_service_env: dict[str, str]) -> None:
    run_ops(secret_service_env, ("set_key", ["openai", SECRET], {}))
    override = {secrets.env_override_name("openai"): OTHER_SECRET}
    got, status = run_ops(
        {**secret_service_env, **override},
        ("get_key", ["openai"], {}),
        ("key_status", ["openai"], {}),
    )
    assert got["ok"] == OTHER_SECRET
    assert status["ok"] == {"name": "openai", "stored": True, "backend": "environment"}
    assert OTHER_SECRET not in json.dumps(status)

    # Blank counts as unset: the keyring answers again.
    [got] = run_ops(
        {**secret_service_env, secrets.env_override_name("openai"): "  "},
        ("get_key", ["openai"], {}),
    )
    assert got["ok"] == SECRET


def test_dead_bus_is_keyring_unavailable_fast(no_bus_env: dict[str, str]) -> None:
    results = run_ops(
        no_bus_env,
        ("get_key", ["openai"], {"timeout": 3.0}),
        ("set_key", ["openai", SECRET], {"timeout": 3.0}),
        ("key_status", ["openai"], {"timeout": 3.0}),
    )
    for r in results:
        assert r["code"] == ErrorCode.KEYRING_UNAVAILABLE
        assert r["elapsed"] < 3.0
        assert SECRET not in r["message"] and SECRET not in r["repr"]
        assert "BRIEFDESK_OPENAI_API_KEY" in r["message"]  # tells headless users the way out


@pytest.mark.keyring
def test_hung_secret_service_times_out_instead_of_hanging(
    secret_service_env: SecretServiceEnv,
) -> None:
    # A stopped daemon still owns org.freedesktop.secrets, so the bus routes calls to it and
    # they are never answered: the wedged-keyring case that must not freeze the app.
    os.kill(secret_service_env.keyring_daemon_pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        results = run_ops(
            secret_service_env,
            ("get_key", ["openai"], {"timeout": 1.0}),
            ("set_key", ["openai", SECRET], {"timeout": 0.5}),
            timeout=10.0,
        )
        total = time.monotonic() - started
    finally:
        os.kill(secret_service_env.keyring_daemon_pid, signal.SIGCONT)
    got, stored = results
    assert got["code"] == stored["code"] == ErrorCode.KEYRING_UNAVAILABLE
    assert "did not answer within 1 s" in got["message"]
    assert "did not answer within 0.5 s" in stored["message"]
    assert SECRET not in stored["message"] and SECRET not in stored["repr"]
    assert 0.9 <= got["elapsed"] < 2.0
    assert 0.4 <= stored["elapsed"] < 1.5
    assert total < 6.0  # the stuck worker threads do not keep the process alive either


@pytest.mark.parametrize(
    "backend", ["keyring.backends.fail.Keyring", "keyring.backends.null.Keyring"]
)
def test_placeholder_backends_are_unavailable(no_bus_env: dict[str, str], backend: str) -> None:
    env = {**no_bus_env, "PYTHON_KEYRING_BACKEND": backend}
    [r] = run_ops(env, ("set_key", ["openai", SECRET], {}))
    assert r["code"] == ErrorCode.KEYRING_UNAVAILABLE
    assert backend in r["message"]
    assert SECRET not in r["message"]


BACKEND_THAT_ECHOES = """
import json, sys, traceback
import keyring
from keyring.backend import KeyringBackend
from agent_core.home import secrets
from agent_core.contract.errors import BriefDeskError

class Echoing(KeyringBackend):
    priority = 1
    def get_password(self, service, username):
        return None
    def set_password(self, service, username, password):
        raise RuntimeError(f"cannot store {password!r}")
    def delete_password(self, service, username):
        pass

keyring.set_keyring(Echoing())
try:
    secrets.set_key("openai", sys.stdin.read())
except BriefDeskError as exc:
    print(json.dumps({"code": exc.code, "tb": "".join(traceback.format_exception(exc))}))
"""


def test_backend_exception_text_is_not_propagated(no_bus_env: dict[str, str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", BACKEND_THAT_ECHOES],
        input=SECRET,
        env=child_env(no_bus_env, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=15,
    )
    out = json.loads(proc.stdout)
    assert out["code"] == ErrorCode.KEYRING_UNAVAILABLE
    assert "RuntimeError" in out["tb"]  # the type name is kept for diagnosis...
    assert SECRET not in out["tb"]  # ...but not the text, nor the chained original


# --- validation (in-process; rejected before the keyring is touched) --------------------------


def test_env_override_name() -> None:
    assert secrets.env_override_name("openai") == "BRIEFDESK_OPENAI_API_KEY"
    assert secrets.env_override_name("azure-openai.eu") == "BRIEFDESK_AZURE_OPENAI_EU_API_KEY"


@pytest.mark.parametrize("name", ["", "a" * 65, "open ai", "../x", "ключ", None])
def test_bad_names_are_invalid_arguments(name: Any) -> None:
    for call in (
        lambda: secrets.get_key(name),
        lambda: secrets.key_status(name),
        lambda: secrets.delete_key(name),
        lambda: secrets.set_key(name, SECRET),
    ):
        with pytest.raises(BriefDeskError) as info:
            call()
        assert info.value.code == ErrorCode.INVALID_ARGUMENTS
        assert SECRET not in str(info.value)


@pytest.mark.parametrize("secret", ["", "  \n"])
def test_empty_secret_is_refused(secret: str) -> None:
    with pytest.raises(BriefDeskError) as info:
        secrets.set_key("openai", secret)
    assert info.value.code == ErrorCode.INVALID_ARGUMENTS


def test_get_key_registers_returned_key_for_redaction(monkeypatch: pytest.MonkeyPatch) -> None:
    value = "plain-looking-override-8c2e1b"  # matches no pattern: only registration redacts it
    monkeypatch.setenv(secrets.env_override_name("redaction-probe"), value)
    assert secrets.get_key("redaction-probe") == value
    assert secrets.REDACTOR.redact_text(f"using {value}!") == "using [REDACTED]!"


# --- redaction (in-process) --------------------------------------------------------------------


def test_redact_text() -> None:
    r = secrets.Redactor()
    r.add("correct-horse-battery")
    r.add("short")  # under 8 characters: ignored, or every "short" in a log would vanish
    r.add("correct-horse")  # contained in the longer one: the longer one still goes whole
    text = (
        "key=correct-horse-battery and correct-horse; short; "
        "Authorization: Bearer abc.DEF-123_456 / key sk-proj-AbCdEfGhIjKlMnOpQr; sk-tiny"
    )
    out = r.redact_text(text)
    assert out == (
        "key=[REDACTED] and [REDACTED]; short; "
        "Authorization: Bearer [REDACTED] / key [REDACTED]; sk-tiny"
    )
    assert r.redact_text(out) == out


def test_redact_json() -> None:
    r = secrets.Redactor()
    r.add(SECRET)
    payload = {
        "messages": [{"content": f"my key is {SECRET}"}, ("tuple", f"Bearer {SECRET}")],
        "headers": {"Authorization": "Basic dXNlcjpwYXNz", "X-Api-Key": "tiny"},
        "openai_api_key": "anything",
        "max_tokens": 100,
        "ok": True,
        "none": None,
    }
    original = json.dumps(payload)
    out = r.redact_json(payload)
    assert json.dumps(payload) == original  # input untouched
    assert out == {
        "messages": [{"content": "my key is [REDACTED]"}, ("tuple", "Bearer [REDACTED]")],
        "headers": {"Authorization": "[REDACTED]", "X-Api-Key": "[REDACTED]"},
        "openai_api_key": "[REDACTED]",
        "max_tokens": 100,
        "ok": True,
        "none": None,
    }


def test_logging_filter_redacts_messages_args_and_tracebacks() -> None:
    secrets.REDACTOR.add(SECRET)
    parent = logging.getLogger("briefdesk-test-redaction")
    parent.propagate = False
    parent.setLevel(logging.DEBUG)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    parent.addHandler(handler)
    try:
        log_filter = secrets.install_log_redaction(parent)
        assert secrets.install_log_redaction(parent) is log_filter  # idempotent
        assert handler.filters == [log_filter]

        child = parent.getChild("provider")  # propagated records only meet handler filters
        child.info("calling with %s", SECRET)
        child.info("headers %r", {"Authorization": f"Bearer {SECRET}"})
        child.warning(f"inline {SECRET}")
        try:
            raise ValueError(f"rejected key {SECRET}")
        except ValueError:
            child.exception("provider failed")
    finally:
        parent.removeHandler(handler)
        parent.filters.clear()

    out = stream.getvalue()
    assert SECRET not in out
    assert "calling with [REDACTED]" in out
    assert "inline [REDACTED]" in out
    assert "ValueError: rejected key [REDACTED]" in out
