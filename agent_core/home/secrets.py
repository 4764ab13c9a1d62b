"""API keys: stored in the OS keyring, never in files, never echoed.

Keys are named by provider ("openai"); in the keyring they live under service `SERVICE` with the
provider name as the username. For headless use (CI, servers without a Secret Service) the
environment variable `env_override_name(name)`, e.g. `BRIEFDESK_OPENAI_API_KEY`, wins over the
keyring when it is set and non-empty.

The keyring is reached lazily and in a worker thread with a timeout: a hung D-Bus or a keyring
prompt nobody answers must surface as `keyring_unavailable`, not freeze the caller.

Redaction is the second line of defence: every key this module hands out or stores is
registered with `REDACTOR`, `KNOWN_SECRETS` registers every secret BriefDesk holds by value
(once a process, at the first mask: home/door.py), and `install_log_redaction()` scrubs
registered keys (and anything shaped like one) from log output.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, TypeVar, cast
from urllib.parse import urlsplit

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.views import SecretStatusView

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE = "BriefDesk"
ENVIRONMENT_BACKEND = "environment"
REDACTED = "[REDACTED]"
MIN_REDACTABLE_LENGTH = 8

_NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")
_T = TypeVar("_T")


# --- names -----------------------------------------------------------------------------------


def validate_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "A key name must be 1-64 characters of letters, digits, '-', '_' or '.' "
            "(for example 'openai').",
        )
    return name


def env_override_name(name: str) -> str:
    """The headless override for key `name`: `BRIEFDESK_<NAME>_API_KEY`.

    When this variable is set and non-empty it wins over the keyring, so CI and servers without
    a Secret Service can still run. Upper-cased; every non-alphanumeric character becomes `_`.
    """
    validate_name(name)
    return f"BRIEFDESK_{re.sub(r'[^A-Za-z0-9]', '_', name).upper()}_API_KEY"


def _env_override(name: str) -> str | None:
    value = os.environ.get(env_override_name(name), "").strip()
    return value or None


# --- keyring access --------------------------------------------------------------------------


def _unavailable(name: str, why: str) -> BriefDeskError:
    return BriefDeskError(
        ErrorCode.KEYRING_UNAVAILABLE,
        f"The system keyring is unavailable: {why}. Start or unlock your keyring "
        f"(Secret Service / macOS Keychain / Windows Credential Manager), or set "
        f"{env_override_name(name)} for headless use.",
        name=name,
    )


def _backend_label(backend: object) -> str:
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _usable_backend(name: str) -> KeyringBackend:
    """The active keyring backend, or `keyring_unavailable` if it cannot store anything."""
    try:
        from keyring.backends import chainer, fail, null
    except ImportError:
        raise _unavailable(name, "the 'keyring' package is not installed") from None
    from agent_core.home.keyring_choice import chosen_backend

    backend = chosen_backend()
    # keyring falls back to these instead of raising; they would silently lose or refuse keys.
    if isinstance(backend, fail.Keyring | null.Keyring) or (
        isinstance(backend, chainer.ChainerBackend) and not backend.backends
    ):
        raise _unavailable(name, f"no usable backend was found ({_backend_label(backend)})")
    return backend


def _in_worker(name: str, timeout: float, what: str, op: Callable[[], _T]) -> _T:
    """Run `op` in a daemon thread, bounded by `timeout` seconds.

    A plain daemon thread rather than an executor: executor threads are joined at interpreter
    exit, so a hung D-Bus call would then hang shutdown too.
    """
    if not (timeout > 0 and math.isfinite(timeout)):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "The keyring timeout must be a finite number > 0."
        )
    done = threading.Event()
    answers: list[_T] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            answers.append(op())
        except BaseException as exc:  # re-raised (sanitised) in the caller's thread
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=work, name="briefdesk-keyring", daemon=True).start()
    if not done.wait(timeout):
        raise _unavailable(name, f"it did not answer within {timeout:g} s while {what}")
    if not errors:
        return answers[0]
    error = errors[0]
    if isinstance(error, BriefDeskError):
        raise error
    locked = getattr(sys.modules.get("keyring.errors"), "KeyringLocked", None)
    if locked is not None and isinstance(error, locked):
        raise _unavailable(name, "the keyring is locked") from None
    # Only the type name: backend messages may quote what they were given, i.e. the secret.
    # Nor is the original chained (`from None`), so no traceback can print its text.
    raise _unavailable(name, f"the backend failed while {what} ({type(error).__name__})") from None


def get_key(name: str, *, timeout: float = 5.0) -> str:
    """The API key for provider `name`: env override first, then the keyring.

    Raises `key_missing` when nothing is stored and `keyring_unavailable` when the keyring
    cannot be asked (no backend, locked, hung, or erroring).
    """
    validate_name(name)
    secret = _env_override(name)
    if secret is None:

        def read() -> str | None:
            return _usable_backend(name).get_password(SERVICE, name)

        secret = _in_worker(name, timeout, "reading a key", read)
    if not secret:
        raise BriefDeskError(
            ErrorCode.KEY_MISSING,
            f"No API key stored for '{name}'. Run `briefdesk-cli keys set {name}` to store one "
            f"in the system keyring, or set {env_override_name(name)}.",
            name=name,
        )
    REDACTOR.add(secret)
    return secret


def set_key(name: str, secret: str, *, timeout: float = 5.0) -> SecretStatusView:
    """Store `secret` for `name` in the keyring (never the environment). Returns a status."""
    validate_name(name)
    if not isinstance(secret, str) or not secret.strip():
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Refusing to store an empty key for '{name}'."
        )
    # Pasted keys often carry a trailing newline; no provider key has surrounding whitespace.
    secret = secret.strip()
    REDACTOR.add(secret)

    def write() -> SecretStatusView:
        backend = _usable_backend(name)
        backend.set_password(SERVICE, name, secret)
        # Read back: a backend that accepts writes but drops them must not report success.
        stored = backend.get_password(SERVICE, name) == secret
        return _status(name, stored, _backend_label(backend))

    return _in_worker(name, timeout, "storing a key", write)


def delete_key(name: str, *, timeout: float = 5.0) -> SecretStatusView:
    """Remove the keyring entry for `name`; idempotent. The env override is not touched."""
    validate_name(name)

    def delete() -> SecretStatusView:
        backend = _usable_backend(name)
        if backend.get_password(SERVICE, name) is not None:
            backend.delete_password(SERVICE, name)
        stored = backend.get_password(SERVICE, name) is not None
        return _status(name, stored, _backend_label(backend))

    return _in_worker(name, timeout, "deleting a key", delete)


def key_status(name: str, *, timeout: float = 5.0) -> SecretStatusView:
    """Whether a key for `name` is available, and from where. Never includes the key."""
    validate_name(name)
    if _env_override(name) is not None:
        return _status(name, True, ENVIRONMENT_BACKEND)

    def probe() -> SecretStatusView:
        backend = _usable_backend(name)
        stored = bool(backend.get_password(SERVICE, name))
        return _status(name, stored, _backend_label(backend))

    return _in_worker(name, timeout, "checking a key", probe)


def _status(name: str, stored: bool, backend: str) -> SecretStatusView:
    return {"name": name, "stored": stored, "backend": backend}


# --- redaction -------------------------------------------------------------------------------

# Shapes of credentials we may never have been told about (a key pasted into a prompt, a header
# echoed by an HTTP library). Each is tried only when its literal is in the text: one scan for
# a literal is cheap, a regex scan of a large RunState is not.
# Not inside a longer word: "briefdesk-attack-..." is a path, not a key.
_SK_KEY = re.compile(r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}")
# The word boundary before "bearer" is checked in `_mask_bearer`: `\b` here made the scan of a
# large text several times slower.
_BEARER = re.compile(r"(?i)(bearer)\s+([A-Za-z0-9._~+/=-]{8,})")
# A token has a digit or a base64 sign, or is long and mixes case; "a bearer credential",
# "Bearer authentication" and "Bearer tokens" are words, and stay as written.
_TOKEN_SIGN = re.compile(r"[0-9_~+/=]")
_MIXED_CASE = re.compile(r"[a-z][A-Z]")
MIN_LETTERS_ONLY_TOKEN = 16


def _looks_like_token(word: str) -> bool:
    if _TOKEN_SIGN.search(word) is not None:
        return True
    return len(word) >= MIN_LETTERS_ONLY_TOKEN and _MIXED_CASE.search(word) is not None


def _mask_bearer(match: re.Match[str]) -> str:
    before = match.string[match.start() - 1 : match.start()]
    if before.isalnum() or before == "_" or not _looks_like_token(match.group(2)):
        return match.group(0)  # inside a longer word ("flagbearer"), or an ordinary word
    return f"{match.group(1)} {REDACTED}"


def _escaped_forms(secret: str) -> set[str]:
    """How `secret` reads inside JSON text: as is, escaped (both ways of writing non-ASCII),
    and escaped twice (a JSON string inside a JSON string: tool-call arguments in a RunState),
    so masking the text of a JSON document finds it without decoding the document."""
    once = {json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
    twice = {json.dumps(form)[1:-1] for form in once}
    return {secret, *once, *twice}


# JSON fields whose string values are credentials whatever they look like.
_SENSITIVE_FIELD = re.compile(
    r"(?i)(.*[_-])?(api[_-]?key|authorization|password|secret|access[_-]?token)"
)


def _is_sensitive_field(key: object, value: object) -> bool:
    return (
        isinstance(key, str)
        and isinstance(value, str)
        and bool(value)
        and _SENSITIVE_FIELD.fullmatch(key) is not None
    )


class Redactor:
    """Replaces registered secrets and key-shaped strings with `[REDACTED]`. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._secrets: set[str] = set()
        self._forms: tuple[str, ...] = ()

    def add(self, secret: str | None) -> None:
        """Register `secret`. Ones shorter than 8 characters are ignored: redacting them would
        mangle ordinary text and they are not real API keys anyway."""
        if not isinstance(secret, str) or len(secret) < MIN_REDACTABLE_LENGTH:
            return
        with self._lock:
            if secret in self._secrets:
                return
            self._secrets.add(secret)
            forms = {form for s in self._secrets for form in _escaped_forms(s)}
            # Longest first, so a secret that contains another is replaced whole.
            self._forms = tuple(sorted(forms, key=len, reverse=True))

    def redact_text(self, text: str) -> str:
        # str.replace, not one regex of all secrets: it scans a large text many times faster.
        for form in self._forms:
            text = text.replace(form, REDACTED)
        if "sk-" in text:
            text = _SK_KEY.sub(REDACTED, text)
        if "bearer" in text.lower():
            text = _BEARER.sub(_mask_bearer, text)
        return text

    def redact_json(self, obj: _T) -> _T:
        """A redacted copy of a JSON-like value (dicts, lists, tuples, strings); others as-is."""
        # Strings stay strings and containers keep their kind: the copy has `obj`'s type.
        return cast("_T", self._redacted(obj))

    def _redacted(self, obj: object) -> object:
        if isinstance(obj, str):
            return self.redact_text(obj)
        if isinstance(obj, dict):
            out: dict[object, object] = {}
            for key, value in obj.items():
                if _is_sensitive_field(key, value):
                    out[key] = REDACTED
                else:
                    out[self._redacted(key)] = self._redacted(value)
            return out
        if isinstance(obj, list):
            return [self._redacted(item) for item in obj]
        if isinstance(obj, tuple):
            return tuple(self._redacted(item) for item in obj)
        return obj


REDACTOR = Redactor()


class KnownSecrets:
    """Every secret BriefDesk holds, registered with a `Redactor` by value, whatever its shape.

    Held are: each `BRIEFDESK_*_API_KEY` in the environment, the team database's password
    (`PGPASSWORD`, or in `BRIEFDESK_DB`), and the keyring entries named by `watch` (the model
    key, each `keyring:` value of the desk's MCP servers, the team database's entry): those are
    read from the keyring itself, not from their environment overrides, so a keyring key
    shadowed by an override is masked too. Loaded once a process, at the first mask (`load`),
    so commands that mask nothing never reach D-Bus; loaded again only for names watched
    since (an `mcp add` naming a new secret). A key stored in this process (`set_key`) is
    registered as it is stored; a deleted one stays masked. Otherwise `load` is one attribute
    read.
    """

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._lock = threading.Lock()
        self._names: set[str] = set()
        self._read: set[str] = set()  # watched names already asked (a keyring that fails too)
        self._environment_read = False
        self._current = False  # everything known is registered: the hot path returns at once

    def watch(self, names: Iterable[str]) -> None:
        """Keyring entries that hold secrets (names only: nothing is read until `load`)."""
        new = {name for name in names if _NAME_RE.fullmatch(name)}
        with self._lock:
            if new - self._names:
                self._names |= new
                self._current = False

    def load(self, *, timeout: float = 2.0) -> None:
        """Register what is not registered yet. A keyring that cannot be reached within
        `timeout` adds nothing and refuses nothing (the key-shaped patterns still apply), and
        is not asked again for the same names."""
        if self._current:
            return
        with self._lock:  # a second caller waits: it must not mask before the keys are known
            if self._current:
                return
            if not self._environment_read:
                self._register_environment()
                self._environment_read = True
            unread = sorted(self._names - self._read)
            self._read |= set(unread)
            if unread:
                with contextlib.suppress(BriefDeskError):
                    for secret in _in_worker(
                        unread[0], timeout, "reading secrets", lambda: _keyring_values(unread)
                    ):
                        self._redactor.add(secret)
            self._current = True

    def _register_environment(self) -> None:
        for variable, value in os.environ.items():
            if variable.startswith("BRIEFDESK_") and variable.endswith("_API_KEY"):
                self._redactor.add(value.strip())
        self._redactor.add(os.environ.get("PGPASSWORD"))
        with contextlib.suppress(ValueError):  # a malformed URL: the store refuses it, not this
            self._redactor.add(urlsplit(os.environ.get("BRIEFDESK_DB", "")).password)


def _keyring_values(names: list[str]) -> list[str]:
    backend = _usable_backend(names[0])
    values = (backend.get_password(SERVICE, name) for name in names)
    return [value.strip() for value in values if value]


KNOWN_SECRETS = KnownSecrets(REDACTOR)


def watch_secret_names(names: Iterable[str]) -> None:
    """Name keyring entries whose values are masked by value from the next mask on."""
    KNOWN_SECRETS.watch(names)


def load_known_secrets() -> None:
    """Register every secret BriefDesk holds with `REDACTOR` (once a process; see
    `KnownSecrets`). Blocking at most a couple of seconds the first time: off the event loop."""
    KNOWN_SECRETS.load()


class RedactingLogFilter(logging.Filter):
    """Redacts a record's message, args, traceback and stack text in place; never drops it."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        super().__init__()
        self._redactor = redactor

    @property
    def redactor(self) -> Redactor:
        # Resolved late so the filter follows the module singleton unless given its own.
        return self._redactor or REDACTOR

    def filter(self, record: logging.LogRecord) -> bool:
        r = self.redactor
        try:
            # Merge first: a secret can hide in an arg whose str()/repr() we cannot redact
            # piecewise (an exception, a custom object).
            message = record.getMessage()
        except Exception:
            record.msg = r.redact_text(str(record.msg))
            record.args = _redact_args(r, record.args)
        else:
            record.msg = r.redact_text(message)
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            # Formatters use exc_text when present, so the raw traceback is never re-rendered.
            record.exc_text = r.redact_text(record.exc_text)
        if record.stack_info:
            record.stack_info = r.redact_text(record.stack_info)
        return True


_LogArgs = tuple[object, ...] | Mapping[str, object] | None  # logging.LogRecord.args


def _redact_args(r: Redactor, args: _LogArgs) -> _LogArgs:
    if isinstance(args, dict):
        return {k: _redact_arg(r, v) for k, v in args.items()}
    if isinstance(args, tuple):
        return tuple(_redact_arg(r, a) for a in args)
    return args


def _redact_arg(r: Redactor, arg: object) -> object:
    if isinstance(arg, str | dict | list | tuple):
        return r.redact_json(arg)
    if isinstance(arg, int | float | bool) or arg is None:
        return arg
    return r.redact_text(str(arg))


def install_log_redaction(logger: logging.Logger | None = None) -> RedactingLogFilter:
    """Attach one shared `RedactingLogFilter` to `logger` (root by default) and its handlers.

    Logger filters only see records logged on that very logger; records propagated from child
    loggers only meet handler filters. So the handlers get it too; call again after adding
    handlers. Idempotent.
    """
    target = logger if logger is not None else logging.getLogger()
    existing = next((f for f in target.filters if isinstance(f, RedactingLogFilter)), None)
    log_filter = existing or RedactingLogFilter()
    if existing is None:
        target.addFilter(log_filter)
    for handler in target.handlers:
        if not any(isinstance(f, RedactingLogFilter) for f in handler.filters):
            handler.addFilter(log_filter)
    return log_filter
