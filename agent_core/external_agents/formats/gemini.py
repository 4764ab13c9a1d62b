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

from agent_core.contract.json_types import JsonObject
from agent_core.external_agents.formats.payload import read_call
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
        mcp = payload.get("mcp_context")  # names the server exactly: `mcp_a_b_c` does not
        server = mcp.get("server_name") if isinstance(mcp, dict) else None
        server = server if isinstance(server, str) and server else None
        return read_call(self.agent, "Gemini CLI", payload, _EVENTS, mcp_server=server)

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
