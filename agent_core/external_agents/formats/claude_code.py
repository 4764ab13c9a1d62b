"""Claude Code's hook protocol: `PreToolUse`, `PostToolUse`, `SessionEnd` and `Stop` on stdin;
a `PreToolUse` answer is `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
"permissionDecision": "allow"|"deny", "permissionDecisionReason", "updatedInput"}}` on stdout
with exit 0 (the reason of a denial reaches the model). A call that cannot be read is refused
with exit 2 and the reason on stderr: Claude Code blocks the tool then, whatever its event."""

from __future__ import annotations

import json
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.external_agents.hook_call import HookAnswer, HookCall, HookEvent, HookReply, Verdict

_EVENTS: Final = {
    "PreToolUse": HookEvent.PRE_TOOL,
    "PostToolUse": HookEvent.POST_TOOL,
    "SessionEnd": HookEvent.SESSION_END,
    "Stop": HookEvent.SESSION_END,
}
EXIT_BLOCKING: Final = 2
"""Claude Code's exit code for a hook that blocks the call (stderr goes to the model)."""


class ClaudeCodeFormat:
    agent = "claude-code"

    def parse(self, payload: JsonObject) -> HookCall:
        agent_event = _text(payload, "hook_event_name")
        event = _EVENTS.get(agent_event, HookEvent.OTHER)
        tool_input = payload.get("tool_input")
        if event in (HookEvent.PRE_TOOL, HookEvent.POST_TOOL):
            _text(payload, "tool_name")
            if not isinstance(tool_input, dict):
                raise _bad("tool_input is not an object")
        return HookCall(
            agent=self.agent,
            event=event,
            agent_event=agent_event,
            session_id=_text(payload, "session_id"),
            cwd=_text(payload, "cwd"),
            tool_name=_optional_text(payload, "tool_name"),
            tool_input=tool_input if isinstance(tool_input, dict) else None,
            tool_use_id=_optional_text(payload, "tool_use_id"),
            tool_response=payload.get("tool_response"),
        )

    def reply(self, call: HookCall, answer: HookAnswer) -> HookReply:
        if call.event is not HookEvent.PRE_TOOL or answer.verdict is Verdict.NO_OPINION:
            return HookReply("{}")
        decision: dict[str, JsonValue] = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow" if answer.verdict is Verdict.ALLOW else "deny",
            "permissionDecisionReason": answer.reason or "",
        }
        if answer.verdict is Verdict.ALLOW and answer.updated_input is not None:
            decision["updatedInput"] = answer.updated_input
        return HookReply(json.dumps({"hookSpecificOutput": decision}, ensure_ascii=False))

    def refuse(self, agent_event: str | None, reason: str) -> HookReply:
        """Exit 2 blocks a `PreToolUse` call; the same JSON denial is on stdout too."""
        decision = {
            "hookEventName": agent_event or "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
        body = json.dumps({"hookSpecificOutput": decision}, ensure_ascii=False)
        return HookReply(body, EXIT_BLOCKING, f"BriefDesk denied this call: {reason}")


def _text(payload: JsonObject, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise _bad(f"{key} is missing")
    return value


def _optional_text(payload: JsonObject, key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _bad(what: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Not a Claude Code hook call: {what}.")
