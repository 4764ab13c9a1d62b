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

from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.external_agents.formats.payload import read_call
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
        return read_call(self.agent, "Codex", payload, _EVENTS)

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
