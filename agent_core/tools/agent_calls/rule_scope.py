"""What a remembered rule made from an external agent's call covers: never wider than shown.

A person who approves an agent's call with `--remember` saw one call: the rule covers what
that call showed and nothing wider (the scopes `rules suggest` proposes, review/suggested_rules.py,
are the same: a file or its folder, never its parent):

- a file write, edit or patch: the folder of the file it targets (a later write is covered
  only when every file it changes lies in that folder);
- a shell command: that exact command, run in that exact folder (`shell:DIR $ COMMAND`);
- an MCP call: that server's tool (`mcp:SERVER/TOOL`, as for BriefDesk's own MCP rules).

A fetch or an unknown tool gets no rule: its URL or arguments are not a scope a rule can hold.
Shell and MCP rules are bound to the agent (and desk) they were made for (`owner`): Codex and
Claude Code both call their shell `Bash`, and an MCP server of one agent is not another's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from agent_core.contract.json_types import JsonObject
from agent_core.tools.agent_calls.kinds import AgentTools, CallKind

SHELL_SCOPE_PREFIX: Final = "shell:"
MCP_SCOPE_PREFIX: Final = "mcp:"
COMMAND_SEPARATOR: Final = " $ "
_DIR_KEYS: Final = ("dir_path", "directory", "workdir")
"""Where a shell tool runs when its input names a folder (Gemini's `dir_path`, Codex's
`workdir`): part of the exact command a rule remembers."""


@dataclass(frozen=True)
class AgentRuleScope:
    folder: str
    """The rule's `folder`: a folder path, `shell:DIR $ COMMAND` or `mcp:SERVER/TOOL`."""
    owner: str | None
    """Shell and MCP rules: `agent:NAME[@DESK]` (kept as the rule's `server_digest`, which no
    registered server's digest equals: BriefDesk's own runs never apply it); None: a folder."""


def rule_owner(agent: str, desk: str | None) -> str:
    return f"agent:{agent}" + (f"@{desk}" if desk else "")


def agent_rule_scope(
    tools: AgentTools,
    tool: str,
    tool_input: JsonObject,
    target: str | None,
    desk: str | None,
) -> AgentRuleScope | None:
    """The narrowest rule a call shows (see module doc); None: no rule can be that narrow."""
    if target is None:
        return None
    kind = tools.kind(tool, tool_input)
    if kind is CallKind.FILE_WRITE and os.path.isabs(target):
        return AgentRuleScope(str(Path(target).parent), None)
    if kind is CallKind.SHELL and target.startswith(SHELL_SCOPE_PREFIX):
        command = shell_scope(target[len(SHELL_SCOPE_PREFIX) :], tool_input)
        return None if command is None else AgentRuleScope(command, rule_owner(tools.agent, desk))
    if kind is CallKind.MCP and target.startswith(MCP_SCOPE_PREFIX):
        server = target[len(MCP_SCOPE_PREFIX) :]
        folder = f"{MCP_SCOPE_PREFIX}{server}/{tool}"
        return AgentRuleScope(folder, rule_owner(tools.agent, desk))
    return None


def shell_scope(cwd: str, tool_input: JsonObject) -> str | None:
    """`shell:DIR $ COMMAND` for a shell call's exact command (None: it names none)."""
    command = tool_input.get("command")
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        command = " ".join(str(part) for part in command)
    if not isinstance(command, str) or not command.strip():
        return None
    where = cwd
    for key in _DIR_KEYS:
        folder = tool_input.get(key)
        if isinstance(folder, str) and folder:
            where = os.path.normpath(os.path.join(cwd, folder))
    return f"{SHELL_SCOPE_PREFIX}{where}{COMMAND_SEPARATOR}{command}"
