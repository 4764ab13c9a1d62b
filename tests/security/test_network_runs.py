"""fetch_url inside real runs (in-process, scripted model, real SQLite home, real listener).

- Network off (the default): refused at validation, never proposed, in every permission mode,
  even for an allowlisted host.
- Network on with a hostile allowlist: every IP-literal and local-name trick aimed at a real
  listener on 127.0.0.1 / ::1 is refused, and the listener receives nothing.
- Network on: `network.max_calls` is a per-run budget counted in the ledger, for sequential
  and parallel calls; a fetch asks a person in default and acceptEdits modes.
- While tool bodies run they are inside the socket guard; the model provider is not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.views import EventView, RunView
from agent_core.facade.workspace import Workspace
from agent_core.tools import network
from agent_core.tools.registry import TOOLS
from tests.fixtures.attacks.listener import Listener

MODES = ("default", "acceptEdits", "dangerouslySkipPermissions")


@pytest.fixture
def listener() -> Iterator[Listener]:
    with Listener() as running:
        yield running


def _drive(
    ws: Workspace, tmp_path: Path, turns: list[dict[str, Any]], mode: str
) -> tuple[RunView, list[EventView]]:
    script = tmp_path / f"script-{mode}-{len(list(tmp_path.iterdir()))}.json"
    script.write_text(json.dumps(turns), encoding="utf-8")
    run_id = ws.create_run("fetch things", model=f"scripted:{script}", mode=mode)
    return ws.drive(run_id), ws.timeline(run_id)


def _of(events: list[EventView], kind: str, tool: str = "fetch_url") -> list[EventView]:
    return [e for e in events if e["kind"] == kind and e["tool"] == tool]


@pytest.mark.parametrize("mode", MODES)
def test_a_disabled_network_is_refused_at_validation_in_every_mode(
    ws: Workspace, tmp_path: Path, mode: str
) -> None:
    ws.set_setting("network.allowlist", ["example.org"])  # allowlisted, but the network is off
    run, events = _drive(
        ws,
        tmp_path,
        [{"call": "fetch_url", "args": {"url": "https://example.org/"}}, {"say": "ok"}],
        mode,
    )
    assert run["status"] == "succeeded"
    assert [(e["data"]["code"], e["data"]["rule"]) for e in _of(events, "blocked")] == [
        ("network_blocked", "network.off")
    ]
    assert _of(events, "approval_requested") == [] and _of(events, "tool_called") == []
    assert ws.list_approvals(run_id=run["run_id"]) == []
    assert [a["rule_id"] for a in ws.audit_entries(run["run_id"])] == ["network.off"]


def test_ip_literal_and_local_name_tricks_are_refused_even_when_allowlisted(
    ws: Workspace, tmp_path: Path, listener: Listener
) -> None:
    hosts = [
        "127.0.0.1",
        "localhost",
        "2130706433",
        "0x7f000001",
        "0177.0.0.1",
        "127.1",
        "::1",
        "::ffff:127.0.0.1",
        "[::1]",
    ]
    ws.set_setting("network.enabled", True)
    ws.set_setting("network.allowlist", hosts)
    p, p6 = listener.port, listener.port6
    urls = [
        f"http://127.0.0.1:{p}/x",
        f"http://localhost:{p}/x",
        f"http://2130706433:{p}/x",
        f"http://0x7f000001:{p}/x",
        f"http://0177.0.0.1:{p}/x",
        f"http://127.1:{p}/x",
        f"http://[::1]:{p6}/x",
        f"http://[::ffff:127.0.0.1]:{p}/x",
        f"http://127。0。0。1:{p}/x",
        f"http://LOCALHOST.:{p}/x",
    ]
    turns: list[dict[str, Any]] = [
        {"calls": [{"call": "fetch_url", "args": {"url": u}} for u in urls]},
        {"say": "done"},
    ]
    run, events = _drive(ws, tmp_path, turns, "dangerouslySkipPermissions")
    assert run["status"] == "succeeded"
    rules = [e["data"]["rule"] for e in _of(events, "blocked")]
    assert len(rules) == len(urls)
    assert set(rules) == {"network.ip_literal", "network.host"}
    assert _of(events, "tool_called") == [] and ws.list_approvals(run_id=run["run_id"]) == []
    listener.drain()
    assert listener.connections == []


def test_the_per_run_budget_counts_fetches_in_the_ledger(ws: Workspace, tmp_path: Path) -> None:
    ws.set_setting("network.enabled", True)
    ws.set_setting("network.allowlist", ["briefdesk.invalid"])  # resolves nowhere: fails fast
    ws.set_setting("network.max_calls", 2)
    fetch = [
        {"call": "fetch_url", "args": {"url": f"https://{n}.briefdesk.invalid/"}} for n in "abc"
    ]
    run, events = _drive(ws, tmp_path, [*fetch, {"say": "done"}], "dangerouslySkipPermissions")
    executed = [e for e in _of(events, "tool_result") if e["data"]["executed"]]
    assert [e["data"]["outcome"] for e in executed] == ["provider_error", "provider_error"]
    blocked = _of(events, "blocked")
    assert [(e["data"]["code"], e["data"]["rule"]) for e in blocked] == [
        ("network_blocked", "network.budget")
    ]
    # refused at validation: the third call was never even proposed
    assert len(ws.list_approvals(run_id=run["run_id"])) == 2


def test_the_budget_holds_for_parallel_calls_at_execution(ws: Workspace, tmp_path: Path) -> None:
    ws.set_setting("network.enabled", True)
    ws.set_setting("network.allowlist", ["briefdesk.invalid"])
    ws.set_setting("network.max_calls", 2)
    fetch = [
        {"call": "fetch_url", "args": {"url": f"https://{n}.briefdesk.invalid/"}} for n in "abc"
    ]
    run, events = _drive(
        ws, tmp_path, [{"calls": fetch}, {"say": "done"}], "dangerouslySkipPermissions"
    )
    assert len([e for e in _of(events, "tool_result") if e["data"]["executed"]]) == 2
    assert [e["data"]["rule"] for e in _of(events, "blocked")] == ["network.budget"]
    assert run["status"] == "succeeded"


@pytest.mark.parametrize("mode", ["default", "acceptEdits"])
def test_an_allowed_fetch_asks_a_person(ws: Workspace, tmp_path: Path, mode: str) -> None:
    ws.set_setting("network.enabled", True)
    ws.set_setting("network.allowlist", ["example.org"])
    run, events = _drive(
        ws,
        tmp_path,
        [{"call": "fetch_url", "args": {"url": "https://EXAMPLE.org./a"}}, {"say": "ok"}],
        mode,
    )
    assert run["status"] == "waiting_approval"
    [approval] = run["approvals"]
    assert (approval["tool"], approval["risk"], approval["target"]) == (
        "fetch_url",
        "network",
        "example.org",
    )
    assert _of(events, "tool_called") == []


def test_tool_bodies_run_inside_the_guard_and_the_model_provider_does_not(
    ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spies that call through: the real search runs guarded; the real model call does not."""
    from agent_core.models.planned import PlannedModel

    seen: dict[str, list[bool]] = {"tool": [], "model": []}
    real_search, real_model = TOOLS["search_corpus"].body, PlannedModel.get_response

    def search_spy(*args: Any, **kwargs: Any) -> Any:
        seen["tool"].append(network.guard_active())
        return real_search(*args, **kwargs)

    async def model_spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen["model"].append(network.guard_active())
        return await real_model(self, *args, **kwargs)

    monkeypatch.setitem(TOOLS, "search_corpus", replace(TOOLS["search_corpus"], body=search_spy))
    monkeypatch.setattr(PlannedModel, "get_response", model_spy)
    run, _events = _drive(
        ws,
        tmp_path,
        [{"call": "search_corpus", "args": {"query": "checkpoints"}}, {"say": "ok"}],
        "default",
    )
    assert run["status"] == "succeeded"
    assert seen == {"tool": [True], "model": [False, False]}


def test_parallel_fetches_that_all_started_count_only_those_before_them(ws: Workspace) -> None:
    """Three calls of one turn whose ledger entries all exist before any checks its budget:
    each must count only the ones started before it, or every one sees two others and all
    three refuse (the race behind a budget test that once executed 1 of 2 under load)."""
    from agent_core.storage.tables import ledger

    with ws.store.write() as conn:
        for call in ("call-a", "call-b", "call-c"):
            ledger.start(
                conn, f"key-{call}", run_id="run-x", call_id=call, tool="fetch_url", arg_hash="h"
            )
    with ws.store.read() as conn:
        used = [
            network.calls_used(conn, "run-x", exclude_call=call)
            for call in ("call-a", "call-b", "call-c")
        ]
    assert used == [0, 1, 2]  # with network.max_calls 2: a and b run, c is refused
