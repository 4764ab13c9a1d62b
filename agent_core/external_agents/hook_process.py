"""One `briefdesk-cli hook NAME` process: the agent's stdin in, the agent's answer out.

Whatever goes wrong (JSON that is not the agent's hook call, an unknown agent, a store that
does not answer, a bug) the agent gets its own format's denial, never a traceback and never
nothing: a hook never fails open. An unknown agent has no format: it gets Claude Code's
denial shape with exit 2, which every agent treats as a blocking hook.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.external_agents.formats import format_for
from agent_core.external_agents.formats.claude_code import ClaudeCodeFormat
from agent_core.external_agents.hook import HookDesk, answer_call
from agent_core.external_agents.hook_call import HookFormat, HookReply
from agent_core.tools.agent_calls.registry import tools_for

log = logging.getLogger(__name__)

MAX_STDIN_CHARS = 8 << 20
"""A hook call larger than this is refused unread (a Write of a huge file, say)."""

OpenDesk = Callable[[], AbstractContextManager[HookDesk]]
"""Opens the home (or the team's database) only once the call was read."""


def answer_hook(agent: str, stdin_text: str, open_desk: OpenDesk) -> HookReply:
    try:
        hook_format = format_for(agent)
    except BriefDeskError as exc:
        return ClaudeCodeFormat().refuse(None, exc.message)
    agent_event: str | None = None
    try:
        payload = _payload(stdin_text)
        event_name = payload.get("hook_event_name")
        agent_event = event_name if isinstance(event_name, str) else None
        call = hook_format.parse(payload)
        tools = tools_for(agent)
        with open_desk() as desk:
            answer = answer_call(desk, call, tools)
        return hook_format.reply(call, answer)
    except BriefDeskError as exc:
        return _refused(hook_format, agent_event, f"{exc.message} ({exc.code})")
    except Exception as exc:  # never fail open: anything unexpected denies
        log.exception("hook %s failed", agent)
        return _refused(
            hook_format, agent_event, f"BriefDesk could not decide ({type(exc).__name__})."
        )


def _refused(hook_format: HookFormat, agent_event: str | None, reason: str) -> HookReply:
    return hook_format.refuse(agent_event, reason)


def _payload(stdin_text: str) -> JsonObject:
    if len(stdin_text) > MAX_STDIN_CHARS:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The hook call is too large to read.")
    try:
        payload = json.loads(stdin_text)
    except ValueError:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "The hook call on stdin is not JSON."
        ) from None
    if not isinstance(payload, dict):
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The hook call is not a JSON object.")
    return payload
