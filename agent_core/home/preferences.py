"""Preferences as one typed, validated model.

The dotted keys (`openai.base_url`, `network.allowlist`, ...) are a public interface: the CLI's
`settings get/set` and the settings table use them. Every value is validated on the way in
(`parse`: `invalid_arguments`) and on the way out of storage (`from_stored`: `storage_corrupt`),
so readers never see a value that could crash them (nan, inf, a date overflow, a huge read).
Light on purpose: no SQLAlchemy, no SDK, no tools package.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Literal, cast
from urllib.parse import urlsplit

from agent_core.contract import json_input
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonValue
from agent_core.contract.presets import OPENAI_APIS, OpenAIApi
from agent_core.home import limits
from agent_core.home.db_url import parse_postgres_url

ModeName = Literal["default", "acceptEdits", "dangerouslySkipPermissions"]
# The values of agent_core.tools.policy.Mode (not imported: it pulls in the tools package).
MODES: tuple[ModeName, ...] = ("default", "acceptEdits", "dangerouslySkipPermissions")
ThemeName = Literal["system", "light", "dark"]
THEMES: tuple[ThemeName, ...] = ("system", "light", "dark")
LanguageName = Literal["system", "en", "zh_CN"]
LANGUAGES: tuple[LanguageName, ...] = ("system", "en", "zh_CN")
OcrSwitch = Literal["on", "off"]
OCR_SWITCH: tuple[OcrSwitch, ...] = ("on", "off")

MAX_APPROVAL_TTL_S = limits.MAX_SECONDS  # ten years: now + ttl never overflows a date
MAX_MEMORY_TTL_DAYS = 100 * 365
MAX_NETWORK_BYTES = 100_000_000  # a fetched page is read into memory and shown to the model
MAX_NETWORK_CALLS = 1_000
MAX_REVIEWER_CHARS = 80
MAX_NAME_CHARS = 200
MAX_URL_CHARS = 2_048
MAX_PATH_CHARS = 4_095  # what the kernel takes (home.config.PATH_MAX less its NUL)
MAX_READ_TIMEOUT_S = 3_600
_ALLOW_ENTRY = re.compile(r"\A(?:\*\.|\.)?[a-z0-9_:\[\]-]+(?:\.[a-z0-9_:\[\]-]+)*\.?\Z")


class _Invalid(ValueError):
    """A value a setting cannot take; the caller turns it into the right error code."""


def _key(public: str) -> dict[str, str]:
    return {"key": public}


@dataclass(frozen=True)
class Settings:
    """The home's preferences; read by public dotted key (`settings["openai.model"]`) or field."""

    reviewer: str | None = field(default=None, metadata=_key("reviewer"))
    """Who decides approvals by default; None: the OS user name (see Workspace.settings)."""
    approval_ttl: float = field(default=3600, metadata=_key("approval_ttl"))
    """Seconds before a pending approval expires (positive, at most ten years)."""
    mode: ModeName = field(default="default", metadata=_key("mode"))
    """The permission mode new runs start in."""
    model: str = field(default="offline", metadata=_key("model"))
    """The model new runs use: a spec (contract.model_spec), checked when a run starts."""
    openai_base_url: str = field(
        default="https://api.openai.com/v1", metadata=_key("openai.base_url")
    )
    """The http(s) endpoint of the OpenAI-compatible provider."""
    openai_model: str = field(default="gpt-4o-mini", metadata=_key("openai.model"))
    """The model name sent to the OpenAI-compatible provider."""
    openai_api: OpenAIApi = field(default="chat", metadata=_key("openai.api"))
    """Which provider API to call: chat completions or responses."""
    openai_stream: bool = field(default=True, metadata=_key("openai.stream"))
    """Whether the provider's answer is streamed."""
    openai_read_timeout: float = field(default=120, metadata=_key("openai.read_timeout"))
    """Seconds without a byte from the endpoint before a model call is abandoned and retried."""
    openai_max_response_bytes: int = field(
        default=16 << 20, metadata=_key("openai.max_response_bytes")
    )
    """Bytes of one model response at most, decompressed; past it the call is refused."""
    openai_price_input_per_mtok: float | None = field(
        default=None, metadata=_key("openai.price_input_per_mtok")
    )
    """US dollars per million input tokens; None: unknown (a remote run's cost is then null)."""
    openai_price_output_per_mtok: float | None = field(
        default=None, metadata=_key("openai.price_output_per_mtok")
    )
    """US dollars per million output tokens; None: unknown."""
    network_enabled: bool = field(default=False, metadata=_key("network.enabled"))
    """Whether fetch_url may reach the allowlist at all (no permission mode enables it)."""
    network_allowlist: tuple[str, ...] = field(default=(), metadata=_key("network.allowlist"))
    """Domains fetch_url may reach: "example.org" (and subdomains), "*.example.org" (only those)."""
    network_max_bytes: int = field(default=200_000, metadata=_key("network.max_bytes"))
    """Bytes read at most from one fetched page."""
    network_max_calls: int = field(default=5, metadata=_key("network.max_calls"))
    """Fetches a run may make at most."""
    max_parallel_calls: int = field(default=16, metadata=_key("limits.max_parallel_calls"))
    """Tool calls one model turn may propose at most; past it the whole turn is refused."""
    memory_ttl_days: float = field(default=90, metadata=_key("memory.ttl_days"))
    """Days before a long-term memory expires."""
    corpus_max_document_mb: float = field(default=100, metadata=_key("corpus.max_document_mb"))
    """A corpus file larger than this (MB) is not read: `document_too_large`."""
    corpus_parse_seconds: float = field(default=60, metadata=_key("corpus.parse_seconds"))
    """Seconds a parser may spend on one document before it is stopped (`document_unreadable`)."""
    corpus_parse_memory_mb: int = field(default=2048, metadata=_key("corpus.parse_memory_mb"))
    """Address space of the parser's worker process, in MB (past it: `document_unreadable`)."""
    corpus_ocr: OcrSwitch = field(default="on", metadata=_key("corpus.ocr"))
    """Whether a PDF page with no text layer (a scan) is read by OCR (Tesseract); off: such a
    document is `document_no_text`."""
    corpus_folder: str | None = field(default=None, metadata=_key("corpus.folder"))
    """The folder a run reads when it names none (`run --corpus` wins), and the Corpus tab's: an
    absolute path, checked to exist by the façade when set; None: the home's `corpus/`."""
    mcp_call_timeout: float = field(default=60, metadata=_key("mcp.call_timeout"))
    """Seconds an MCP server may take to answer one tool call (past it: `tool_timeout`)."""
    agents_decision_timeout: float = field(default=540, metadata=_key("agents.decision_timeout"))
    """Seconds an external agent's hook waits for a person; then it denies (`no decision in
    time`): under the 600 s the agents give their hooks, so a hook never times out open."""
    agents_idle_end: float = field(default=3600, metadata=_key("agents.idle_end"))
    """Seconds without a call after which an external agent's run ends (sessions that never
    send their end)."""
    db_url: str | None = field(default=None, metadata=_key("db.url"))
    """The team's PostgreSQL database (never with a password); None: the home's SQLite file."""
    ui_theme: ThemeName = field(default="system", metadata=_key("ui.theme"))
    """The desk window's colours: as the system's, or always light or dark."""
    ui_language: LanguageName = field(default="system", metadata=_key("ui.language"))
    """The window's language (read when it starts): the locale's, English or Simplified Chinese."""
    ui_notifications: bool = field(default=True, metadata=_key("ui.notifications"))
    """Desktop notifications when a decision waits and the window is not the active one."""

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def from_stored(cls, stored: Mapping[str, str]) -> Settings:
        """Build from the settings table (public key -> JSON text); unknown keys are ignored.

        A bad stored value is `storage_corrupt` naming the key, never a crash.
        """
        values: dict[str, object] = {}
        for key, text in stored.items():
            name = _FIELD_OF.get(key)
            if name is None:
                continue  # a setting a newer or older version knew: not ours to judge
            try:
                value = json_input.loads(text)  # nested too deep: storage_corrupt
                if key == "reviewer" and value == "":
                    value = None  # older versions stored "" for "the OS user name"
                values[name] = _VALIDATORS[key](value)
            except (ValueError, TypeError) as exc:  # JSONDecodeError and _Invalid included
                raise BriefDeskError(
                    ErrorCode.STORAGE_CORRUPT,
                    f"The stored setting {key!r} is unusable ({exc}). "
                    f"Replace it with `settings set {key} VALUE`.",
                    key=key,
                ) from None
        return _with_fields(cls(), values)

    @staticmethod
    def parse(key: str, raw: object) -> object:
        """Validate a value for `key` (the typed field value); `invalid_arguments` otherwise.

        CLI strings are parsed as JSON when they can be ("3600", "true", '["a.org"]', "null").
        """
        validator = _VALIDATORS.get(key)
        if validator is None:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"Unknown setting {key!r}. Known: {', '.join(sorted(_FIELD_OF))}",
                key=key,
            )
        value = raw
        if isinstance(raw, str):
            with contextlib.suppress(json.JSONDecodeError):
                value = json_input.loads(raw)
            # A text setting keeps the text as typed: `settings set openai.model 4` is "4".
            if key in _TEXT_KEYS and value is not None and not isinstance(value, str):
                value = raw
        try:
            return validator(value)
        except _Invalid as exc:
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, str(exc), key=key) from None

    def with_value(self, key: str, raw: object) -> Settings:
        """A copy with `key` set to the validated `raw` (see `parse`)."""
        # parse raised for an unknown key
        return _with_fields(self, {_FIELD_OF.get(key, key): self.parse(key, raw)})

    # -- reading --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """Public key -> JSON value: what `settings get` prints."""
        return {key: json_value(key, getattr(self, name)) for key, name in _FIELD_OF.items()}

    def __getitem__(self, key: str) -> JsonValue:
        """By public dotted key, as the old dict was read; KeyError for an unknown key."""
        name = _FIELD_OF.get(key)
        if name is None:
            raise KeyError(key)
        return json_value(key, getattr(self, name))

    def get(self, key: str, default: JsonValue = None) -> JsonValue:
        return self[key] if key in _FIELD_OF else default

    def __contains__(self, key: object) -> bool:
        return key in _FIELD_OF

    def keys(self) -> tuple[str, ...]:
        """The public keys. With `__getitem__`, lets `dict(settings)` keep working meanwhile."""
        return tuple(_FIELD_OF)


def json_value(key: str, value: object) -> JsonValue:
    """A field value as JSON shows it (the allowlist is a list there)."""
    if isinstance(value, tuple):
        return list(value)
    return cast("JsonValue", value)  # every other field is a str, number, bool or None


def _with_fields(settings: Settings, changes: Mapping[str, object]) -> Settings:
    """A copy with fields (by name) set to values their validators returned, so typed."""
    rebuild: Callable[..., Settings] = replace
    return rebuild(settings, **changes)


# -- validators: value (already JSON-decoded) -> typed value, or _Invalid ------------------------


def _number(key: str, bound: limits.Bound) -> Callable[[object], int | float]:
    """The bound's check (agent_core.home.limits: finite, in range), worded for this setting."""

    def check(value: object) -> int | float:
        try:
            return bound.check(value)
        except limits.OutOfRange as exc:
            raise _Invalid(f"{key} {exc}.") from None

    return check


_ttl = _number("approval_ttl", limits.SECONDS)  # the same bound as `run --approval-ttl`
_read_timeout = _number("openai.read_timeout", limits.Bound(MAX_READ_TIMEOUT_S, "seconds"))
_memory_ttl = _number("memory.ttl_days", limits.Bound(MAX_MEMORY_TTL_DAYS, "days"))


def _price(key: str) -> Callable[[object], int | float | None]:
    """A price per million tokens (0 and up), or null for "not set"."""
    check = _number(key, limits.PRICE)

    def price(value: object) -> int | float | None:
        return None if value is None else check(value)

    return price


def _count(key: str, maximum: int, unit: str) -> Callable[[object], int | float]:
    return _number(key, limits.Bound(maximum, unit, whole=True))


def _flag(key: str) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        if not isinstance(value, bool):
            raise _Invalid(f"{key} takes true or false.")
        return value

    return check


def _choice(key: str, choices: tuple[str, ...]) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _Invalid(f"{key} must be one of {', '.join(choices)}.")
        return value

    return check


def _name(key: str, limit: int) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            raise _Invalid(f"{key} takes a non-empty name.")
        value = value.strip()
        if len(value) > limit or not value.isprintable():
            raise _Invalid(f"{key} takes printable text of at most {limit} characters.")
        return value

    return check


def _reviewer(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and not value.strip():
        raise _Invalid("reviewer takes a name, or null for the OS user name.")
    return _name("reviewer", MAX_REVIEWER_CHARS)(value)


def _base_url(value: object) -> str:
    message = "openai.base_url takes an http(s) URL such as https://api.openai.com/v1."
    if not isinstance(value, str) or not value or len(value) > MAX_URL_CHARS:
        raise _Invalid(message)
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in value):
        raise _Invalid(message)
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises ValueError on a bad port
    except ValueError:
        raise _Invalid(message) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise _Invalid(message)
    if parts.username is not None or parts.password is not None:
        # Keys belong in the OS keyring, never in a settings row.
        raise _Invalid("openai.base_url must not carry credentials: store the key with `keys set`.")
    return value


def _db_url(value: object) -> str | None:
    """A PostgreSQL URL without a password, or null/"" for the home's SQLite file."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > MAX_URL_CHARS or not value.isprintable():
        raise _Invalid(
            "db.url takes a PostgreSQL URL such as postgresql://desk@db.example.org/team."
        )
    try:
        url = parse_postgres_url(value.strip())
    except BriefDeskError as exc:
        raise _Invalid(exc.message) from None
    if url.password is not None:
        raise _Invalid(
            "db.url must not carry a password: it would sit in a file. Store it with "
            f"`briefdesk-cli keys set {url.key_name}` (or use PGPASSFILE)."
        )
    return value.strip()


def _folder(value: object) -> str | None:
    """An absolute folder path (`~` expanded), or null/"" for the home's corpus folder. Its
    existence is the façade's to check (a stored folder may be gone later: not corrupt)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    message = "corpus.folder takes an absolute folder path, or null for the home's corpus folder."
    if not isinstance(value, str) or len(value) > MAX_PATH_CHARS or not value.isprintable():
        raise _Invalid(message)
    folder = os.path.expanduser(value.strip())
    if not os.path.isabs(folder):
        raise _Invalid(message)
    return folder


def _allowlist(value: object) -> tuple[str, ...]:
    message = 'network.allowlist takes a list of domains (["example.org"] or "a.org,b.org").'
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list | tuple):
        raise _Invalid(message)
    entries: list[str] = []
    for raw in value:
        if not isinstance(raw, str) or not raw.strip():
            raise _Invalid(message)
        entry = unicodedata.normalize("NFKC", raw.strip()).lower()
        if not entry.isascii():
            # fetch_url compares punycode host names: store the entry the way it will match.
            try:
                entry = entry.encode("idna").decode("ascii")
            except UnicodeError:
                raise _Invalid(f"{message} Not a domain: {raw!r}.") from None
        # "*" alone (everything), a URL or path, spaces, quotes: not a domain. IP literals
        # pass here and are refused by fetch_url whatever the allowlist says.
        if not _ALLOW_ENTRY.match(entry) or len(entry) > 253:
            raise _Invalid(f"{message} Not a domain: {raw!r}.")
        entries.append(entry)
    return tuple(entries)


_VALIDATORS: dict[str, Callable[[object], object]] = {
    "reviewer": _reviewer,
    "approval_ttl": _ttl,
    "mode": _choice("mode", MODES),
    "model": _name("model", MAX_NAME_CHARS),
    "openai.base_url": _base_url,
    "openai.model": _name("openai.model", MAX_NAME_CHARS),
    "openai.api": _choice("openai.api", OPENAI_APIS),
    "openai.stream": _flag("openai.stream"),
    "openai.read_timeout": _read_timeout,
    "openai.max_response_bytes": _number("openai.max_response_bytes", limits.RESPONSE_BYTES),
    "openai.price_input_per_mtok": _price("openai.price_input_per_mtok"),
    "openai.price_output_per_mtok": _price("openai.price_output_per_mtok"),
    "limits.max_parallel_calls": _number("limits.max_parallel_calls", limits.PARALLEL_CALLS),
    "network.enabled": _flag("network.enabled"),
    "network.allowlist": _allowlist,
    "network.max_bytes": _count("network.max_bytes", MAX_NETWORK_BYTES, "bytes"),
    "network.max_calls": _count("network.max_calls", MAX_NETWORK_CALLS, "calls"),
    "memory.ttl_days": _memory_ttl,
    "corpus.max_document_mb": _number("corpus.max_document_mb", limits.DOCUMENT_MB),
    "corpus.parse_seconds": _number("corpus.parse_seconds", limits.DOCUMENT_SECONDS),
    "corpus.parse_memory_mb": _number("corpus.parse_memory_mb", limits.PARSER_MEMORY_MB),
    "corpus.ocr": _choice("corpus.ocr", OCR_SWITCH),
    "corpus.folder": _folder,
    "mcp.call_timeout": _number("mcp.call_timeout", limits.Bound(3_600, "seconds")),
    "agents.decision_timeout": _number(
        "agents.decision_timeout", limits.Bound(590, "seconds", minimum=1, exclusive=False)
    ),
    "agents.idle_end": _number("agents.idle_end", limits.SECONDS),
    "db.url": _db_url,
    "ui.theme": _choice("ui.theme", THEMES),
    "ui.language": _choice("ui.language", LANGUAGES),
    "ui.notifications": _flag("ui.notifications"),
}
_FIELD_OF: dict[str, str] = {f.metadata["key"]: f.name for f in fields(Settings)}
_TEXT_KEYS = frozenset(
    {"reviewer", "model", "openai.base_url", "openai.model", "db.url", "corpus.folder"}
)
assert set(_FIELD_OF) == set(_VALIDATORS), "every setting has exactly one validator"
