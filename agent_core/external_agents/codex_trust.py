"""Codex runs a hook from config.toml only once it is trusted: `[hooks.state."KEY"]
trusted_hash = "sha256:..."` beside the hooks, as Codex's own /hooks screen records it.

KEY is `CONFIG_PATH:EVENT_LABEL:GROUP:HANDLER` (the config path with symlinks resolved, the event
in snake case, the positions of the matcher group and of the handler in it); the hash is SHA-256
of the hook's normalized identity as compact JSON with sorted keys. Measured against Codex
0.171.0's `hooks/list` (`currentHash`, `trustStatus`): tests/agents/test_connect_real_clis.py
asks the real Codex whether the hooks connect wrote are trusted, so a Codex that hashes another
way fails there, not on a person's desk.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, MutableMapping, MutableSequence
from pathlib import Path

from agent_core.external_agents.agent_specs import CODEX_SESSION_END_TIMEOUT_S, HOOK_TIMEOUT_S
from agent_core.external_agents.hook_entries import Moves, our_positions

_LABEL_WORD = re.compile(r"(?<!^)(?=[A-Z])")


def event_label(event: str) -> str:
    """`PreToolUse` -> `pre_tool_use`, as Codex names an event in its trust keys."""
    return _LABEL_WORD.sub("_", event).lower()


def trust_key(config_path: Path, event: str, group: int, handler: int) -> str:
    real = Path(os.path.realpath(config_path.parent)) / config_path.name
    return f"{real}:{event_label(event)}:{group}:{handler}"


def trust_hash(event: str, matcher: object, handler: MutableMapping[str, object]) -> str:
    """The hash Codex compares with `trusted_hash`: of the handler as Codex normalizes it (its
    default and clamped timeout, `async`), under its event and matcher."""
    timeout = handler.get("timeout")
    seconds = max(timeout, 1) if isinstance(timeout, int) else HOOK_TIMEOUT_S
    if event == "SessionEnd":
        seconds = min(seconds, CODEX_SESSION_END_TIMEOUT_S)
    normalized: dict[str, object] = {
        "type": "command",
        "command": handler.get("command"),
        "timeout": seconds,
        "async": bool(handler.get("async", False)),
    }
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict[str, object] = {"event_name": event_label(event), "hooks": [normalized]}
    if isinstance(matcher, str):
        identity["matcher"] = matcher
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def _our_handlers(
    hooks: MutableMapping[str, object], events: tuple[str, ...], is_ours: Callable[[object], bool]
) -> Iterator[tuple[str, int, int, object, MutableMapping[str, object]]]:
    for event in events:
        groups = hooks.get(event)
        if not isinstance(groups, MutableSequence):
            continue
        for g, h in our_positions(groups, is_ours):
            group = groups[g]
            assert isinstance(group, MutableMapping)
            handlers = group["hooks"]
            assert isinstance(handlers, MutableSequence)
            handler = handlers[h]
            assert isinstance(handler, MutableMapping)
            yield event, g, h, group.get("matcher"), handler


def _states(hooks: MutableMapping[str, object], create: bool) -> MutableMapping[str, object]:
    states = hooks.get("state")
    if states is None and create:
        hooks["state"] = {}
        states = hooks["state"]
    return states if isinstance(states, MutableMapping) else {}


def trust_ours(
    hooks: MutableMapping[str, object],
    config_path: Path,
    events: tuple[str, ...],
    is_ours: Callable[[object], bool],
) -> None:
    """Record BriefDesk's handlers as trusted, as a person would in Codex's /hooks."""
    for event, g, h, matcher, handler in list(_our_handlers(hooks, events, is_ours)):
        wanted = trust_hash(event, matcher, handler)
        states = _states(hooks, create=True)
        key = trust_key(config_path, event, g, h)
        state = states.get(key)
        if isinstance(state, MutableMapping):
            if state.get("trusted_hash") != wanted:
                state["trusted_hash"] = wanted
        else:
            states[key] = {"trusted_hash": wanted}


def ours_trusted(
    hooks: MutableMapping[str, object],
    config_path: Path,
    events: tuple[str, ...],
    is_ours: Callable[[object], bool],
) -> bool:
    """Whether every BriefDesk handler carries the trust Codex will accept (and is enabled)."""
    states = _states(hooks, create=False)
    for event, g, h, matcher, handler in _our_handlers(hooks, events, is_ours):
        state = states.get(trust_key(config_path, event, g, h))
        if not isinstance(state, MutableMapping):
            return False
        if state.get("enabled") is False:
            return False
        if state.get("trusted_hash") != trust_hash(event, matcher, handler):
            return False
    return True


def follow_moves(hooks: MutableMapping[str, object], config_path: Path, moves: list[Moves]) -> None:
    """After BriefDesk's handlers were removed: drop their trust entries, and move the person's
    entries with their hooks, whose positions (and so keys) shifted."""
    states = _states(hooks, create=False)
    if not states:
        return
    for move in moves:
        renamed: dict[str, object] = {}
        for (g, h), new in sorted(move.moved.items()):
            old_key = trust_key(config_path, move.event, g, h)
            if old_key not in states:
                continue
            entry = states.pop(old_key)
            if new is not None:
                renamed[trust_key(config_path, move.event, *new)] = entry
        for key, entry in renamed.items():
            states[key] = entry
    if not states and "state" in hooks:
        del hooks["state"]
