"""Codex's hook protocol (measured on codex 0.171 `exec`): `PreToolUse`, `PermissionRequest`,
`PostToolUse` and `Stop` on stdin.

- `PreToolUse` can deny (`permissionDecision: "deny"` + reason, which reaches the model as
  "Command blocked by PreToolUse hook: REASON") or rewrite (`"allow"` + `updatedInput`, the
  whole input: for `apply_patch` `{"command": PATCH}`); a plain allow is not what every
  version takes, so an approval without an edit prints nothing and the tool runs.
- `PermissionRequest` answers `{"decision": {"behavior": "allow"|"deny", "message"}}`; it can
  not rewrite (an `updatedInput` there fails closed), so an edit that did not reach the call
  by `PreToolUse` is denied rather than run unedited.
- A hook that prints something else, or exits 1, lets the tool run: a call BriefDesk cannot
  read is refused with the JSON denial *and* exit 2 with the reason on stderr (which Codex
  also reads as a block).
"""

from __future__ import annotations

import json
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.external_agents.hook_call import HookAnswer, HookCall, HookEvent, HookReply, Verdict

PRE_TOOL_USE: Final = "PreToolUse"
PERMISSION_REQUEST: Final = "PermissionRequest"
_EVENTS: Final = {
    PRE_TOOL_USE: HookEvent.PRE_TOOL,
    PERMISSION_REQUEST: HookEvent.PERMISSION,
    "PostToolUse": HookEvent.POST_TOOL,
    "Stop": HookEvent.SESSION_END,
}
"""`Stop` ends a turn; under `codex exec` the turn is the session (Codex has no SessionEnd)."""
EXIT_BLOCKING: Final = 2
"""Codex blocks a tool call whose hook exits 2, with stderr as the reason."""


class CodexFormat:
    agent = "codex"

    def parse(self, payload: JsonObject) -> HookCall:
        agent_event = _text(payload, "hook_event_name")
        event = _EVENTS.get(agent_event, HookEvent.OTHER)
        tool_input = payload.get("tool_input")
        if event in (HookEvent.PRE_TOOL, HookEvent.PERMISSION, HookEvent.POST_TOOL):
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
        if answer.verdict is Verdict.NO_OPINION:
            return HookReply("")
        if call.event is HookEvent.PERMISSION:
            return _permission(call, answer)
        if call.event is not HookEvent.PRE_TOOL:
            return HookReply("")
        if answer.verdict is Verdict.ALLOW:
            if answer.updated_input is None:
                return HookReply("")  # nothing printed: the tool runs as the model asked
            return _pre_tool("allow", updatedInput=answer.updated_input)
        return _pre_tool("deny", permissionDecisionReason=answer.reason or "denied by BriefDesk")

    def refuse(self, agent_event: str | None, reason: str) -> HookReply:
        """Whatever the event: the denial in JSON, exit 2 and the reason on stderr (Codex reads
        exit 2 as a block of `PreToolUse` and `PermissionRequest`; after a tool or at `Stop`
        nothing is left to block)."""
        if agent_event in _EVENTS and _EVENTS[agent_event] in (
            HookEvent.POST_TOOL,
            HookEvent.SESSION_END,
        ):
            return HookReply("", 0, f"BriefDesk could not record this: {reason}")
        if agent_event == PERMISSION_REQUEST:
            body = _permission_body("deny", reason)
        else:
            body = _pre_tool("deny", permissionDecisionReason=reason).stdout
        return HookReply(body, EXIT_BLOCKING, f"BriefDesk denied this call: {reason}")


def _pre_tool(decision: str, **fields: JsonValue) -> HookReply:
    output: JsonObject = {"hookEventName": PRE_TOOL_USE, "permissionDecision": decision}
    output.update(fields)
    return HookReply(json.dumps({"hookSpecificOutput": output}, ensure_ascii=False))


def _permission(call: HookCall, answer: HookAnswer) -> HookReply:
    edit_unapplied = answer.updated_input is not None and answer.updated_input != call.tool_input
    if answer.verdict is Verdict.ALLOW and not edit_unapplied:
        return HookReply(_permission_body("allow", answer.reason))
    reason = answer.reason or "denied by BriefDesk"
    if answer.verdict is Verdict.ALLOW:
        reason = "approved with an edit that Codex cannot apply at this point; call again"
    return HookReply(_permission_body("deny", reason))


def _permission_body(behavior: str, message: str | None) -> str:
    decision: JsonObject = {"behavior": behavior}
    if message:
        decision["message"] = message
    output = {"hookEventName": PERMISSION_REQUEST, "decision": decision}
    return json.dumps({"hookSpecificOutput": output}, ensure_ascii=False)


def _text(payload: JsonObject, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise _bad(f"{key} is missing")
    return value


def _optional_text(payload: JsonObject, key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _bad(what: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Not a Codex hook call: {what}.")
