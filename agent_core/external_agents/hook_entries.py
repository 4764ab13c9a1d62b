"""BriefDesk's hooks inside an agent's parsed settings, whatever the file's format.

The three agents share one shape (`hooks: {EVENT: [{matcher, hooks: [{type: "command", command,
timeout}]}]}`), as a JSON object or as TOML tables (tomlkit's containers are mappings and
sequences, and take plain dicts and lists). BriefDesk's handlers are found by their command
(`is_briefdesk_hook`), so removing them never touches a handler the person added, even one they
put into BriefDesk's group.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, MutableSequence
from dataclasses import dataclass

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.external_agents.agent_specs import HookSlot

Position = tuple[int, int]
"""(group index, handler index) of a handler under one event."""
IsOurs = Callable[[object], bool]
"""Whether a handler's command is BriefDesk's hook."""


@dataclass(frozen=True)
class Moves:
    """Where each handler of one event went when BriefDesk's were removed: its new position,
    or None for a removed one (Codex keys its trust by position)."""

    event: str
    moved: dict[Position, Position | None]


def _refuse(where: str, what: str) -> BriefDeskError:
    return BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS,
        f"{where}: {what}, so BriefDesk cannot add its hook there; the file is left as it is.",
    )


def hooks_table(
    doc: MutableMapping[str, object], where: str, *, create: bool
) -> MutableMapping[str, object] | None:
    hooks = doc.get("hooks")
    if hooks is None and create:
        doc["hooks"] = {}
        hooks = doc["hooks"]
    if hooks is None:
        return None
    if not isinstance(hooks, MutableMapping):
        raise _refuse(where, "its `hooks` is not a table of events")
    return hooks


def _groups(
    hooks: MutableMapping[str, object], event: str, where: str
) -> MutableSequence[object] | None:
    groups = hooks.get(event)
    if groups is None:
        return None
    if not isinstance(groups, MutableSequence) or isinstance(groups, str):
        raise _refuse(where, f"its `hooks.{event}` is not a list")
    return groups


def _handlers(group: object) -> MutableSequence[object]:
    if isinstance(group, MutableMapping):
        handlers = group.get("hooks")
        if isinstance(handlers, MutableSequence) and not isinstance(handlers, str):
            return handlers
    return []


def _is_ours_handler(handler: object, is_ours: IsOurs) -> bool:
    return (
        isinstance(handler, MutableMapping)
        and handler.get("type") == "command"
        and is_ours(handler.get("command"))
    )


def our_positions(groups: MutableSequence[object], is_ours: IsOurs) -> list[Position]:
    return [
        (g, h)
        for g, group in enumerate(groups)
        for h, handler in enumerate(_handlers(group))
        if _is_ours_handler(handler, is_ours)
    ]


def wanted_handler(slot: HookSlot, command: str) -> dict[str, object]:
    return {"type": "command", "command": command, "timeout": slot.timeout}


def _is_wanted(group: object, handler: object, slot: HookSlot, command: str) -> bool:
    if not isinstance(group, MutableMapping) or not isinstance(handler, MutableMapping):
        return False
    return (
        group.get("matcher") == slot.matcher
        and handler.get("command") == command
        and handler.get("timeout") == slot.timeout
    )


def slot_connected(
    doc: MutableMapping[str, object], slot: HookSlot, command: str | None, is_ours: IsOurs
) -> bool:
    """Whether the slot holds BriefDesk's handler (`command` given: exactly that one)."""
    hooks = doc.get("hooks")
    if not isinstance(hooks, MutableMapping):
        return False
    groups = hooks.get(slot.event)
    if not isinstance(groups, MutableSequence) or isinstance(groups, str):
        return False
    found = our_positions(groups, is_ours)
    if command is None or len(found) != 1:
        return bool(found) and command is None
    g, h = found[0]
    return _is_wanted(groups[g], _handlers(groups[g])[h], slot, command)


def add_hooks(
    doc: MutableMapping[str, object],
    slots: tuple[HookSlot, ...],
    command: str,
    is_ours: IsOurs,
    where: str,
) -> list[Moves]:
    """Put BriefDesk's handler in every slot, once: a slot already holding exactly it is left
    alone; an older one of BriefDesk's (another home, a moved install) is replaced."""
    hooks = hooks_table(doc, where, create=True)
    assert hooks is not None  # created when missing
    moves: list[Moves] = []
    for slot in slots:
        groups = _groups(hooks, slot.event, where)
        if groups is not None and slot_connected(doc, slot, command, is_ours):
            continue
        if groups is not None and our_positions(groups, is_ours):
            moves.append(_remove_from(hooks, slot.event, groups, is_ours))
            groups = _groups(hooks, slot.event, where)
        group: dict[str, object] = {}
        if slot.matcher is not None:
            group["matcher"] = slot.matcher
        group["hooks"] = [wanted_handler(slot, command)]
        if groups is None:
            hooks[slot.event] = [group]
        else:
            groups.append(group)
    return moves


def remove_hooks(
    doc: MutableMapping[str, object], events: tuple[str, ...], is_ours: IsOurs, where: str
) -> list[Moves]:
    """Take out BriefDesk's handlers, and the groups and event lists left empty."""
    hooks = hooks_table(doc, where, create=False)
    if hooks is None:
        return []
    moves: list[Moves] = []
    for event in events:
        groups = _groups(hooks, event, where)
        if groups is not None and our_positions(groups, is_ours):
            moves.append(_remove_from(hooks, event, groups, is_ours))
    return moves


def drop_empty_hooks(doc: MutableMapping[str, object]) -> None:
    """After a removal: a `hooks` table left with nothing in it goes too."""
    hooks = doc.get("hooks")
    if isinstance(hooks, MutableMapping) and not hooks:
        del doc["hooks"]


def _remove_from(
    hooks: MutableMapping[str, object],
    event: str,
    groups: MutableSequence[object],
    is_ours: IsOurs,
) -> Moves:
    moved: dict[Position, Position | None] = {}
    kept_groups = 0
    for g in range(len(groups)):
        group = groups[kept_groups]  # the groups removed before it shifted it down
        handlers = _handlers(group)
        kept = 0
        emptied = False
        for h in range(len(handlers)):
            handler = handlers[kept]
            if _is_ours_handler(handler, is_ours):
                del handlers[kept]
                emptied = not handlers
                moved[(g, h)] = None
            else:
                moved[(g, h)] = (kept_groups, kept)
                kept += 1
        if emptied:
            del groups[kept_groups]  # a group of BriefDesk's handlers only
        else:
            kept_groups += 1
    if not groups:
        del hooks[event]
    return Moves(event, moved)
