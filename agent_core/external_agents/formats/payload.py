"""Reading a hook's stdin JSON into a HookCall: the three agents send the same fields
(`hook_event_name`, `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_use_id`,
`tool_response`) under their own event names; what differs is passed in."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.external_agents.hook_call import HookCall, HookEvent

TOOL_EVENTS = frozenset({HookEvent.PRE_TOOL, HookEvent.PERMISSION, HookEvent.POST_TOOL})
"""Events about one tool call: they must name the tool and give its input as an object."""


def read_call(
    agent: str,
    title: str,
    payload: JsonObject,
    events: Mapping[str, HookEvent],
    *,
    tool_events: Collection[HookEvent] = TOOL_EVENTS,
    mcp_server: str | None = None,
) -> HookCall:
    """The HookCall of `agent`'s payload; `invalid_arguments` naming the agent (`title`) when
    it is not that agent's hook JSON."""
    agent_event = _text(payload, "hook_event_name", title)
    event = events.get(agent_event, HookEvent.OTHER)
    tool_input = payload.get("tool_input")
    if event in tool_events:
        _text(payload, "tool_name", title)
        if not isinstance(tool_input, dict):
            raise _bad(title, "tool_input is not an object")
    return HookCall(
        agent=agent,
        event=event,
        agent_event=agent_event,
        session_id=_text(payload, "session_id", title),
        cwd=_text(payload, "cwd", title),
        tool_name=_optional_text(payload, "tool_name"),
        tool_input=tool_input if isinstance(tool_input, dict) else None,
        tool_use_id=_optional_text(payload, "tool_use_id"),
        tool_response=payload.get("tool_response"),
        mcp_server=mcp_server,
    )


def _text(payload: JsonObject, key: str, title: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise _bad(title, f"{key} is missing")
    return value


def _optional_text(payload: JsonObject, key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _bad(title: str, what: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Not a {title} hook call: {what}.")
