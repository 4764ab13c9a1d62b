"""How the window names an external agent and its session: "Claude Code", its folder as
"~/project", what its call wants ("Claude Code: Write notes.md") and a small icon of its own.

Pure texts from the views (`RunView.agent`, `cwd`; a proposal's `tool` and `target`); the icon
is drawn, not loaded, so every agent (an MCP client's name too) has one without files.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

from agent_core.contract.views import InboxItemView
from desktop.models.visible_text import visible_line

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace

BRIEFDESK = "briefdesk"
# The agents' own names, as their makers write them (never translated).
TITLES = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}
# (background, letter): distinct per agent; an MCP client gets the grey one.
BADGES = {
    "claude-code": ("#c15f3c", "C"),
    "codex": ("#1f2328", "X"),
    "gemini": ("#1a73e8", "G"),
}
OTHER_BADGE = ("#6e7781", "M")

translate = QCoreApplication.translate


def is_agent(agent: object) -> bool:
    """A run of an external agent (or an MCP client), not one of BriefDesk's own."""
    return isinstance(agent, str) and bool(agent) and agent != BRIEFDESK


def agent_title(agent: str) -> str:
    """`claude-code` -> `Claude Code`; an MCP client's own name as it gave it (escaped)."""
    return TITLES.get(agent) or visible_line(agent)


def short_folder(path: str | None, *, most: int | None = None) -> str:
    """A folder as a person reads it: under the home folder as `~/...`; longer than `most`
    characters, its last two names after `…/` (where the whole path is shown elsewhere)."""
    if not path:
        return ""
    home = os.path.expanduser("~").rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home) :]
    if most is not None and len(path) > most:
        path = "…/" + "/".join(PurePosixPath(path).parts[-2:])
    return visible_line(path)


def relative_target(target: str | None, cwd: str | None) -> str:
    """A file target inside the session's folder relative to it (`notes.md`); `shell:DIR` and
    `mcp:NAME` targets, and files elsewhere, whole (a file outside the folder must read so)."""
    if not target:
        return ""
    if cwd and target.startswith(cwd.rstrip("/") + "/"):
        return visible_line(target[len(cwd.rstrip("/")) + 1 :])
    return short_folder(target) if target.startswith("/") else visible_line(target)


def call_text(agent: str, tool: str, target: str | None, cwd: str | None) -> str:
    """One line naming the agent and its call: `Claude Code: Write notes.md`."""
    what = relative_target(target, cwd)
    if target and target.startswith("shell:"):
        what = ""  # the folder is said where the session is named
    line = f"{visible_line(tool)} {what}".strip()
    return translate("AgentLabels", "{agent}: {call}").format(agent=agent_title(agent), call=line)


def session_text(agent: str, cwd: str | None) -> str:
    """What an agent's run is called where BriefDesk's runs show their question."""
    if not cwd:
        return translate("AgentLabels", "{agent} session").format(agent=agent_title(agent))
    return translate("AgentLabels", "{agent} in {folder}").format(
        agent=agent_title(agent), folder=short_folder(cwd)
    )


def short_session(session_id: str | None) -> str:
    """The session id as a row shows it: its first eight characters."""
    if not session_id:
        return ""
    return translate("AgentLabels", "session {id}").format(id=visible_line(session_id[:8]))


def mcp_parts(tool: str, target: str | None) -> tuple[str, str]:
    """(server, tool) of an agent's MCP call: `mcp:fs` and `mcp__fs__write_file` (Claude Code,
    Codex) or `mcp_fs_write_file` (Gemini CLI) -> (`fs`, `write_file`)."""
    server = target[len("mcp:") :] if target and target.startswith("mcp:") else ""
    for prefix in (f"mcp__{server}__", f"mcp_{server}_"):
        if server and tool.startswith(prefix):
            return server, tool[len(prefix) :]
    return server, tool


@cache
def agent_icon(agent: str) -> QIcon:
    """A small round badge: the agent's letter on its colour (drawn once per agent)."""
    colour, letter = BADGES.get(agent, OTHER_BADGE)
    icon = QIcon()
    for size in (16, 24, 32, 48):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(colour))
        painter.drawRoundedRect(QRectF(0, 0, size, size), size * 0.28, size * 0.28)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(int(size * 0.62))
        painter.setFont(font)
        painter.setPen(QColor("white"))
        painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, letter)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def file_name(path: str) -> str:
    return PurePosixPath(path).name


Agents = dict[str, tuple[str, str | None]]
"""run id -> (agent, its session's folder), for the runs that are external agents' sessions."""


class AgentInbox(NamedTuple):
    items: list[InboxItemView]
    agents: Agents


def read_agent_inbox(ws: Workspace) -> AgentInbox:
    """Bridge thread: the inbox and, for its items, which are an external agent's (read in
    the same job, so a session that began a moment ago is named as well)."""
    items = ws.inbox()
    runs = ws.list_runs(sorted({item["run_id"] for item in items})) if items else []
    agents = {
        run["run_id"]: (str(run["agent"]), run.get("cwd"))
        for run in runs
        if is_agent(run.get("agent"))
    }
    return AgentInbox(items, agents)
