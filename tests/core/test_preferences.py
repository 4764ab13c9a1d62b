"""Settings are one typed model: every value is validated on the way in (`invalid_arguments`) and
on the way out of storage (`storage_corrupt`), and the public dotted keys read as before."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from agent_core.home.config import DEFAULT_SETTINGS
from agent_core.home.preferences import MAX_APPROVAL_TTL_S, Settings

PUBLIC_DEFAULTS: dict[str, object] = {
    "reviewer": None,
    "approval_ttl": 3600,
    "mode": "default",
    "model": "offline",
    "openai.base_url": "https://api.openai.com/v1",
    "openai.model": "gpt-4o-mini",
    "openai.api": "chat",
    "openai.stream": True,
    "openai.read_timeout": 120,
    "openai.max_response_bytes": 16 << 20,
    "openai.price_input_per_mtok": None,
    "openai.price_output_per_mtok": None,
    "network.enabled": False,
    "network.allowlist": [],
    "network.max_bytes": 200_000,
    "network.max_calls": 5,
    "limits.max_parallel_calls": 16,
    "memory.ttl_days": 90,
    "corpus.max_document_mb": 100,
    "corpus.parse_seconds": 60,
    "corpus.parse_memory_mb": 2048,
    "corpus.ocr": "on",
    "corpus.folder": None,
    "mcp.call_timeout": 60,
    "agents.decision_timeout": 540,
    "agents.idle_end": 3600,
    "db.url": None,
    "ui.theme": "system",
    "ui.language": "system",
    "ui.notifications": True,
}


def refused(key: str, raw: object) -> BriefDeskError:
    with pytest.raises(BriefDeskError) as caught:
        Settings.parse(key, raw)
    assert caught.value.code == "invalid_arguments", (key, raw)
    return caught.value


def test_defaults_and_public_keys() -> None:
    assert Settings().to_json() == PUBLIC_DEFAULTS
    assert json.dumps(Settings().to_json()) == json.dumps(PUBLIC_DEFAULTS)  # order too
    assert DEFAULT_SETTINGS == PUBLIC_DEFAULTS


def test_read_by_public_key_like_the_old_dict() -> None:
    s = Settings(network_allowlist=("example.org",), openai_model="m")
    assert s["openai.model"] == "m" and s.openai_model == "m"
    assert s["network.allowlist"] == ["example.org"]
    assert s.get("reviewer") is None and s.get("nope", 7) == 7
    assert "mode" in s and "nope" not in s
    assert dict(s) == s.to_json()
    with pytest.raises(KeyError):
        s["nope"]


@pytest.mark.parametrize(
    ("key", "raw", "value"),
    [
        ("approval_ttl", "120", 120),
        ("approval_ttl", "1.5", 1.5),
        ("approval_ttl", MAX_APPROVAL_TTL_S, MAX_APPROVAL_TTL_S),
        ("memory.ttl_days", "0.5", 0.5),
        ("network.max_calls", "3", 3),
        ("network.max_calls", 3.0, 3),
        ("network.max_bytes", "1000", 1000),
        ("network.enabled", "true", True),
        ("openai.stream", "false", False),
        ("mode", "acceptEdits", "acceptEdits"),
        ("openai.api", "responses", "responses"),
        ("openai.base_url", "http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("openai.model", "4", "4"),  # a text setting keeps the text as typed
        ("model", "scripted:/tmp/x.json", "scripted:/tmp/x.json"),
        ("reviewer", "null", None),
        ("openai.price_input_per_mtok", "0.15", 0.15),
        ("openai.price_output_per_mtok", "0", 0),  # a free model
        ("openai.price_output_per_mtok", "null", None),
        ("reviewer", " dana ", "dana"),
        ("network.allowlist", "Example.org, docs.python.org", ("example.org", "docs.python.org")),
        ("network.allowlist", '["a.org", "*.b.org"]', ("a.org", "*.b.org")),
        ("network.allowlist", ["A.org"], ("a.org",)),
        ("network.allowlist", "Bücher.de", ("xn--bcher-kva.de",)),
        ("network.allowlist", "[]", ()),
    ],
)
def test_parse_accepts(key: str, raw: object, value: object) -> None:
    assert Settings.parse(key, raw) == value


@pytest.mark.parametrize("key", ["approval_ttl", "memory.ttl_days"])
@pytest.mark.parametrize(
    "raw", ["NaN", "Infinity", "-Infinity", "1e400", "-5", "0", "true", True, "soon", None, "[]"]
)
def test_durations_are_positive_finite_numbers(key: str, raw: object) -> None:
    refused(key, raw)


def test_durations_are_bounded_so_dates_never_overflow() -> None:
    refused("approval_ttl", MAX_APPROVAL_TTL_S + 1)
    refused("approval_ttl", "1e300")
    refused("memory.ttl_days", "1e9")
    # The largest accepted value can still be added to today's date.
    assert datetime.now(UTC) + timedelta(seconds=MAX_APPROVAL_TTL_S)


@pytest.mark.parametrize("key", ["network.max_calls", "network.max_bytes"])
@pytest.mark.parametrize("raw", ["1.5", "0", "-1", "NaN", "1e400", "true", False, "10**9", "1e12"])
def test_network_limits_are_positive_whole_numbers(key: str, raw: object) -> None:
    refused(key, raw)


@pytest.mark.parametrize("key", ["network.enabled", "openai.stream"])
@pytest.mark.parametrize("raw", ["1", "0", "yes", "null", 1])
def test_flags_take_true_or_false(key: str, raw: object) -> None:
    refused(key, raw)


def test_choices() -> None:
    assert "dangerouslySkipPermissions" in str(refused("mode", "yolo"))
    refused("mode", "Default")
    assert "responses" in str(refused("openai.api", "completions"))
    refused("openai.api", "null")


@pytest.mark.parametrize(
    "raw",
    [
        "ftp://example.org",
        "example.org/v1",
        "https://",
        "https://user:secret@example.org/v1",  # keys go to the keyring, not a settings row
        "https://exa mple.org",
        "https://example.org:99999/v1",
        "https://example.org/\x00",
        "null",
        "42",
        "",
    ],
)
def test_base_url_is_an_http_url(raw: str) -> None:
    refused("openai.base_url", raw)


@pytest.mark.parametrize(
    "raw",
    [
        '"a.org"x',
        "*",
        "a*.org",
        "a..org",
        '["a.org", 5]',
        '[""]',
        '["https://a.org/x"]',
        '["a b.org"]',
        "5",
        "null",
    ],
)
def test_allowlist_is_a_list_of_domains(raw: str) -> None:
    refused("network.allowlist", raw)


@pytest.mark.parametrize("raw", ['""', "   ", "x" * 81, "dana\nroot", "\x1b[31m", ["dana"], 5])
def test_reviewer_is_a_short_printable_name_or_null(raw: object) -> None:
    refused("reviewer", raw)


@pytest.mark.parametrize("key", ["model", "openai.model"])
@pytest.mark.parametrize("raw", ['""', "null", "x" * 201, "a\tb"])
def test_names_are_short_printable_text(key: str, raw: str) -> None:
    refused(key, raw)


def test_unknown_key_names_the_known_keys() -> None:
    error = refused("openai.key", "x")
    assert "openai.base_url" in str(error) and "network.allowlist" in str(error)
    with pytest.raises(BriefDeskError) as caught:
        Settings().with_value("nope", 1)
    assert caught.value.code == "invalid_arguments"


def test_with_value_returns_a_validated_copy() -> None:
    s = Settings().with_value("network.allowlist", "A.org")
    assert s.network_allowlist == ("a.org",) and Settings().network_allowlist == ()


def test_workspace_round_trip(ws: Workspace) -> None:
    assert isinstance(ws.settings(), Settings) and ws.settings().reviewer  # the OS user name
    after = ws.set_setting("approval_ttl", "120")
    assert after.approval_ttl == 120 and after["approval_ttl"] == 120
    assert ws.set_setting("openai.api", "responses").openai_api == "responses"
    with pytest.raises(BriefDeskError) as caught:
        ws.set_setting("approval_ttl", "NaN")
    assert caught.value.code == "invalid_arguments"
    assert ws.settings().approval_ttl == 120  # a refused value changes nothing


def _store_raw(home: Path, key: str, value_json: str) -> None:
    with sqlite3.connect(home / "state.db") as db:
        db.execute(
            "INSERT INTO settings (key, value_json) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json",
            (key, value_json),
        )
    db.close()


@pytest.mark.parametrize(
    ("key", "value_json"),
    [
        ("approval_ttl", "1e400"),
        ("approval_ttl", "NaN"),
        ("approval_ttl", "-1"),
        ("network.max_calls", "1.5"),
        ("network.max_bytes", "true"),
        ("mode", '"yolo"'),
        ("network.allowlist", "{}"),
        ("openai.base_url", '"file:///etc/passwd"'),
        ("memory.ttl_days", "not json"),
    ],
)
def test_a_bad_stored_value_is_storage_corrupt(home: Path, key: str, value_json: str) -> None:
    Workspace(home).close()  # creates the schema
    _store_raw(home, key, value_json)
    ws = Workspace(home)
    try:
        with pytest.raises(BriefDeskError) as caught:
            ws.settings()
        assert caught.value.code == "storage_corrupt"
        assert key in caught.value.message and "settings set" in caught.value.message
        # The way out the message names works: replace the bad value.
        ws.set_setting(key, json.dumps(PUBLIC_DEFAULTS[key]))
        assert ws.settings()[key] == PUBLIC_DEFAULTS[key]
    finally:
        ws.close()


def test_stored_values_of_older_versions_still_read(home: Path) -> None:
    Workspace(home).close()
    _store_raw(home, "reviewer", '""')  # older versions: "" meant the OS user name
    _store_raw(home, "network.max_calls", "3.0")
    _store_raw(home, "retired.setting", "not json")  # unknown keys are not ours to judge
    ws = Workspace(home)
    try:
        prefs = ws.settings()
        assert prefs.reviewer and prefs.network_max_calls == 3
    finally:
        ws.close()


def test_an_agents_decision_timeout_stays_under_the_agents_own_600_s() -> None:
    """From 1 to 590 seconds (contract): past 600 the agent's own hook timeout would run it."""
    assert Settings.parse("agents.decision_timeout", 1) == 1
    assert Settings.parse("agents.decision_timeout", 590) == 590
    for raw in (0, 0.5, 591, 600, -1, True, "soon"):
        refused("agents.decision_timeout", raw)
