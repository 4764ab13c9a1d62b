"""Claude Code's hook protocol: `PreToolUse`, `PostToolUse`, `SessionEnd` and `Stop` on stdin;
a `PreToolUse` answer is `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
"permissionDecision": "allow"|"deny", "permissionDecisionReason", "updatedInput"}}` on stdout
with exit 0 (the reason of a denial reaches the model). A call that cannot be read is refused
with exit 2 and the reason on stderr: Claude Code blocks the tool then, whatever its event."""

from __future__ import annotations

import json
from typing import Final

from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.external_agents.formats.payload import read_call
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
        return read_call(self.agent, "Claude Code", payload, _EVENTS)

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
