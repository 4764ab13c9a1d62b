"""Gemini CLI's hook protocol (measured on gemini-cli 0.61): `BeforeTool`, `AfterTool` and
`SessionEnd` on stdin (no call id: a call is known by its tool and input).

A `BeforeTool` answer is `{"decision": "allow"|"deny", "reason"}` on stdout, exit 0; a
denial's reason reaches the model ("Tool execution blocked: REASON"); a person's edit goes in
`hookSpecificOutput.tool_input`, the whole input (the CLI validates what it gets). Output that
is not JSON with exit 0 or 1 lets the tool run, so a call BriefDesk cannot read is refused
with the JSON denial and exit 2 (the CLI reads the JSON first, exit 2 alone also blocks).
"""

from __future__ import annotations

import json
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.external_agents.hook_call import HookAnswer, HookCall, HookEvent, HookReply, Verdict

BEFORE_TOOL: Final = "BeforeTool"
_EVENTS: Final = {
    BEFORE_TOOL: HookEvent.PRE_TOOL,
    "AfterTool": HookEvent.POST_TOOL,
    "SessionEnd": HookEvent.SESSION_END,
}
EXIT_BLOCKING: Final = 2


class GeminiFormat:
    agent = "gemini"

    def parse(self, payload: JsonObject) -> HookCall:
        agent_event = _text(payload, "hook_event_name")
        event = _EVENTS.get(agent_event, HookEvent.OTHER)
        tool_input = payload.get("tool_input")
        if event in (HookEvent.PRE_TOOL, HookEvent.POST_TOOL):
            _text(payload, "tool_name")
            if not isinstance(tool_input, dict):
                raise _bad("tool_input is not an object")
        mcp = payload.get("mcp_context")
        server = mcp.get("server_name") if isinstance(mcp, dict) else None
        return HookCall(
            agent=self.agent,
            event=event,
            agent_event=agent_event,
            session_id=_text(payload, "session_id"),
            cwd=_text(payload, "cwd"),
            tool_name=_optional_text(payload, "tool_name"),
            tool_input=tool_input if isinstance(tool_input, dict) else None,
            tool_response=payload.get("tool_response"),
            mcp_server=server if isinstance(server, str) and server else None,
        )

    def reply(self, call: HookCall, answer: HookAnswer) -> HookReply:
        if call.event is not HookEvent.PRE_TOOL or answer.verdict is Verdict.NO_OPINION:
            return HookReply("")
        if answer.verdict is Verdict.DENY:
            return HookReply(_denial(answer.reason or "denied by BriefDesk"))
        body: JsonObject = {"decision": "allow"}
        if answer.updated_input is not None:
            body["hookSpecificOutput"] = {
                "hookEventName": BEFORE_TOOL,
                "tool_input": answer.updated_input,
            }
        return HookReply(json.dumps(body, ensure_ascii=False))

    def refuse(self, agent_event: str | None, reason: str) -> HookReply:
        return HookReply(_denial(reason), EXIT_BLOCKING, f"BriefDesk denied this call: {reason}")


def _denial(reason: str) -> str:
    return json.dumps({"decision": "deny", "reason": reason}, ensure_ascii=False)


def _text(payload: JsonObject, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise _bad(f"{key} is missing")
    return value


def _optional_text(payload: JsonObject, key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _bad(what: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Not a Gemini CLI hook call: {what}.")
