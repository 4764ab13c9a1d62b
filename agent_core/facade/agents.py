"""The façade's coding agents: connect BriefDesk's hook into Claude Code, Codex or Gemini CLI,
take it out, and say where each stands (CLI `agents`, the window's Settings ▸ Agents).

No home is opened or created: these calls touch only the agents' settings files. `home` names
the BriefDesk home the agent's hook will use (written into the hook as `--home` when it is not
the default home, so the agent's process finds it whatever its environment).
"""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.contract.agent_views import AGENT_NAMES, AgentChangeView, AgentStatusView
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.external_agents import connect
from agent_core.external_agents.agent_specs import agent_spec, hook_command
from agent_core.home.config import check_path_names, default_home_dir, resolve_home_dir


def _project(project: str | os.PathLike[str] | None) -> Path | None:
    if project is None:
        return None
    check_path_names(project, "project folder")
    folder = Path(project).expanduser().absolute()
    if not folder.is_dir():
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"The project folder {folder} is not a folder."
        )
    return folder


def _hook_home(home: str | os.PathLike[str] | None) -> Path | None:
    """The home to name in the hook: None for the default one (no `--home` needed)."""
    chosen = resolve_home_dir(home)
    return None if chosen == default_home_dir().resolve() else chosen


def agents_status(project: str | os.PathLike[str] | None = None) -> list[AgentStatusView]:
    """Each agent: connected or not, its settings file, its version (null: not on PATH) and,
    where it applies, its `trust`. `project`: Claude Code's settings of that folder."""
    folder = _project(project)
    return [
        connect.status_of(spec, folder if spec.takes_project else None)
        for spec in map(agent_spec, AGENT_NAMES)
    ]


def connect_agent(
    name: str,
    *,
    project: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
) -> AgentChangeView:
    """Add BriefDesk's hooks to the agent's settings; `dry_run`: only the diff, nothing written
    (the window shows it before the person confirms)."""
    spec = agent_spec(name)
    folder = _project(project)
    command = hook_command(connect.running_cli(), spec.name, _hook_home(home))
    return connect.connect(spec, folder, command, dry_run=dry_run)


def disconnect_agent(
    name: str, *, project: str | os.PathLike[str] | None = None, dry_run: bool = False
) -> AgentChangeView:
    """Remove exactly what `connect_agent` added (whichever home or install it named)."""
    spec = agent_spec(name)
    return connect.disconnect(spec, _project(project), dry_run=dry_run)
