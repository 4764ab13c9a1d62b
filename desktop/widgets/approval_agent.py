"""The approval dialog's part for an external agent's proposal (Claude Code, Codex, Gemini
CLI, an MCP client): who asks and where ("Claude Code wants to edit notes.md in ~/project"),
and for a call that writes no file what it does: a shell command with its risky words marked,
its folder and what it names; an MCP call's server, tool and arguments; a fetch's address.

A file write, edit or patch is shown by the dialog's diff (each file now against the file after
the change: `files`, the target first); a patch of several files gets a picker of its files.
"""

from __future__ import annotations

import difflib
from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QLabel

from agent_core.contract.views import ApprovalDetailView, FileChangeView, RunView
from desktop.i18n import core_words
from desktop.models import agent_labels
from desktop.models.visible_text import visible_line
from desktop.widgets import approval_shell
from desktop.widgets.approval_parts import label

translate = QCoreApplication.translate
PANEL_STYLE = (
    "padding: 6px; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px;"
    " color: #1f2328;"
)
MONO = "font-family: monospace; font-size: 13px;"
HEADING_FOLDER_CHARS = 40  # the heading names the folder; its whole path is in the details


def agent_of(info: ApprovalDetailView | None) -> str | None:
    """The external agent whose proposal it is; None for BriefDesk's own."""
    agent = info["run"].get("agent") if info is not None else None
    return agent if isinstance(agent, str) and agent_labels.is_agent(agent) else None


def is_file_change(info: ApprovalDetailView) -> bool:
    """An agent's write, edit or patch of a file: its target is the file's absolute path."""
    target = info["approval"].get("target") or ""
    return agent_of(info) is not None and target.startswith("/")


def heading(info: ApprovalDetailView) -> str:
    """Rich text: "<b>Claude Code</b> wants to edit <b>notes.md</b> in <b>~/project</b>"."""
    ap, run = info["approval"], info["run"]
    agent = agent_labels.agent_title(str(run.get("agent")))
    cwd = run.get("cwd")
    folder = escape(agent_labels.short_folder(cwd, most=HEADING_FOLDER_CHARS))
    target = ap.get("target") or ""
    tool = escape(visible_line(ap["tool"]))
    words = {"agent": escape(agent), "folder": folder, "tool": tool}
    if target.startswith("/"):
        words["file"] = escape(agent_labels.relative_target(target, cwd))
        name = ap["tool"].lower()
        if "patch" in name:
            text = translate(
                "AgentApproval", "<b>{agent}</b> wants to patch <b>{file}</b> in {folder}"
            )
        elif "edit" in name or "replace" in name:
            text = translate(
                "AgentApproval", "<b>{agent}</b> wants to edit <b>{file}</b> in {folder}"
            )
        elif info["current_text"] is None and info.get("current_hash") is None:
            text = translate(
                "AgentApproval", "<b>{agent}</b> wants to create <b>{file}</b> in {folder}"
            )
        else:
            text = translate(
                "AgentApproval", "<b>{agent}</b> wants to overwrite <b>{file}</b> in {folder}"
            )
    elif target.startswith("shell:"):
        text = translate("AgentApproval", "<b>{agent}</b> wants to run a command in {folder}")
    elif target.startswith("mcp:"):
        server, mcp_tool = agent_labels.mcp_parts(ap["tool"], target)
        words.update(server=escape(visible_line(server)), mcp_tool=escape(visible_line(mcp_tool)))
        text = translate(
            "AgentApproval",
            "<b>{agent}</b> wants to call <b>{mcp_tool}</b> of the MCP server <b>{server}</b>",
        )
    elif target.startswith("fetch:"):
        text = translate("AgentApproval", "<b>{agent}</b> wants to reach the network")
    else:
        text = translate("AgentApproval", "<b>{agent}</b> wants to use <b>{tool}</b> in {folder}")
    return text.format(**words)


def run_text(run: RunView) -> str:
    """The dialog's Run detail for an agent's session: "run-… (waiting): Claude Code in
    ~/project · session 704d1a28"."""
    return translate("AgentApproval", "{run} ({status}): {session} · {id}").format(
        run=run["run_id"],
        status=core_words.run_status(run["status"]),
        session=agent_labels.session_text(str(run.get("agent")), run.get("cwd")),
        id=agent_labels.short_session(run.get("session_id")),
    )


def change_summary(before: str | None, after: str) -> str:
    """ "<b>Lines:</b> +1 −1 · 4 after the change" for the diff's caption (no plural to get
    wrong: "1 lines")."""
    added = removed = 0
    for line in difflib.unified_diff((before or "").splitlines(), after.splitlines(), n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return translate(
        "AgentApproval",
        "<b>Lines:</b> +{added} −{removed} · {lines} after the change",
    ).format(added=added, removed=removed, lines=len(after.splitlines()))


class AgentPart:
    """Shown for an agent's call that writes no file; hidden otherwise."""

    def __init__(self) -> None:
        self.widget: QLabel = label(rich=True, wrap=True, style=PANEL_STYLE)
        self.widget.setAccessibleName(translate("AgentApproval", "What the agent's call does"))
        self.widget.hide()

    def show_for(self, info: ApprovalDetailView | None) -> None:
        if info is None or agent_of(info) is None or is_file_change(info):
            self.widget.hide()
            return
        ap = info["approval"]
        target = ap.get("target") or ""
        cwd = str(info["run"].get("cwd") or "")
        if target.startswith("shell:"):
            text = shell_text(_command(ap["args"]), target[len("shell:") :] or cwd)
        elif target.startswith("mcp:"):
            server, tool = agent_labels.mcp_parts(ap["tool"], target)
            text = translate(
                "AgentApproval",
                "MCP server: <b>{server}</b> · tool: <b>{tool}</b> · arguments below",
            ).format(server=escape(visible_line(server)), tool=escape(visible_line(tool)))
        elif target.startswith("fetch:"):
            text = translate("AgentApproval", "Address: <b>{url}</b>").format(
                url=escape(visible_line(target[len("fetch:") :]))
            )
        else:
            text = translate("AgentApproval", "Tool: <b>{tool}</b> · arguments below").format(
                tool=escape(visible_line(ap["tool"]))
            )
        self.widget.setText(text)
        self.widget.show()


def _command(args: dict[str, object]) -> str:
    """The command of a shell call: `command` (Claude Code, Gemini CLI), or Codex's argv list."""
    command = args.get("command", args.get("cmd", ""))
    if isinstance(command, list):
        return " ".join(str(word) for word in command)
    return str(command)


def shell_text(command: str, folder: str) -> str:
    """The shell panel: the command (risky words marked), its folder, and what it names."""
    named = approval_shell.touched(command, folder)
    risky = approval_shell.risky_words(command)
    lines = [
        translate("AgentApproval", "Command:"),
        f'<div style="{MONO}">{approval_shell.marked_html(command)}</div>',
        translate("AgentApproval", "Folder: <b>{folder}</b>").format(
            folder=escape(agent_labels.short_folder(folder))
        ),
    ]
    if risky:
        lines.append(
            translate("AgentApproval", "<b>Look twice:</b> {words}").format(
                words=", ".join(f"<b>{escape(word)}</b>" for word in dict.fromkeys(risky))
            )
        )
    if named.inside:
        lines.append(
            translate("AgentApproval", "Names in the folder: {paths}").format(
                paths=_paths(named.inside, folder)
            )
        )
    if named.outside:
        lines.append(
            translate(
                "AgentApproval",
                '<span style="color:#b42318;"><b>Outside the folder:</b></span> {paths}',
            ).format(paths=_paths(named.outside, ""))
        )
    if named.addresses:
        lines.append(
            translate("AgentApproval", "Reaches: {urls}").format(
                urls=", ".join(escape(visible_line(url)) for url in named.addresses)
            )
        )
    lines.append(
        translate(
            "AgentApproval",
            "<small>A command runs as you: it can change anything you can. These are the "
            "paths and addresses it names.</small>",
        )
    )
    return "<br>".join(lines)


def _paths(paths: list[str], folder: str) -> str:
    return ", ".join(
        f"<b>{escape(agent_labels.relative_target(path, folder) or path)}</b>" for path in paths
    )


class PatchFiles:
    """Which file of a patch the diff shows: a picker, seen only when the call changes more
    than one file (each file's diff is read in turn, the target first)."""

    def __init__(self) -> None:
        self.widget = QComboBox()
        self.widget.setAccessibleName(translate("AgentApproval", "File of the patch"))
        self.widget.hide()
        self.files: list[FileChangeView] = []

    def show_for(self, info: ApprovalDetailView) -> FileChangeView | None:
        """The file to diff now: the one picked if the files are the same, else the first."""
        files = list(info.get("files") or [])
        paths = [f["path"] for f in files]
        keep = self.widget.currentIndex() if paths == [f["path"] for f in self.files] else 0
        self.files = files
        self.widget.blockSignals(True)
        self.widget.clear()
        for number, path in enumerate(paths, start=1):
            self.widget.addItem(
                translate("AgentApproval", "File {n} of {count}: {path}").format(
                    n=number, count=len(paths), path=visible_line(path)
                )
            )
        self.widget.setCurrentIndex(max(keep, 0))
        self.widget.blockSignals(False)
        self.widget.setVisible(len(files) > 1)
        return self.picked()

    def picked(self) -> FileChangeView | None:
        index = self.widget.currentIndex()
        return self.files[index] if 0 <= index < len(self.files) else None
