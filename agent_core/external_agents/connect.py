"""Connecting BriefDesk's hook into a coding agent's settings, and taking it out again.

The flow: read the file (missing is empty; not JSON/TOML is refused, untouched), change only
BriefDesk's hooks in it (`hook_entries`), and for Codex their trust (`codex_trust`); show the
change as a unified diff; then, unless previewing, keep a copy of the file as it was beside it
(`NAME.briefdesk-backup`) and write the new text atomically (a temp file in the same folder,
the file's mode kept, renamed over it; through a symlink to the file it points at). Connecting
twice adds once; disconnecting removes exactly BriefDesk's handlers and what they left empty.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path

from tomlkit.toml_document import TOMLDocument

from agent_core.contract.agent_views import AgentChangeView, AgentStatusView
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.external_agents import codex_trust, hook_entries
from agent_core.external_agents.agent_specs import AgentSpec, SettingsFormat, is_briefdesk_hook
from agent_core.external_agents.agent_version import agent_version
from agent_core.external_agents.settings_json import parse_json_settings, render_json_settings
from agent_core.external_agents.settings_toml import parse_toml_settings, render_toml_settings

BACKUP_SUFFIX = ".briefdesk-backup"
GEMINI_TRUST_FOLDERS = (
    "Gemini CLI runs hooks only in folders it trusts: trust each project folder once when "
    "Gemini CLI asks (or start it there with GEMINI_CLI_TRUST_WORKSPACE=true)."
)
GEMINI_TRUSTS_ALL = "Gemini CLI runs these hooks in every folder (its folder trust is off)."
CODEX_TRUSTED = "Trusted: connect recorded BriefDesk's hooks as trusted in Codex's config.toml."
CODEX_UNTRUSTED = (
    "Codex will not run BriefDesk's hooks until they are trusted: run `briefdesk-cli agents "
    "connect codex` again, or trust them in Codex's /hooks screen."
)


@dataclass(frozen=True)
class Settings:
    """One agent's settings file as read: its text (None: no file yet) and parsed content."""

    spec: AgentSpec
    path: Path
    text: str | None
    doc: MutableMapping[str, object]

    def render(self) -> str:
        if isinstance(self.doc, TOMLDocument):
            return render_toml_settings(self.doc)
        assert isinstance(self.doc, dict)
        return render_json_settings(self.doc, self.text or "")

    def is_ours(self, command: object) -> bool:
        return is_briefdesk_hook(command, self.spec.name)


def running_cli() -> Path:
    """The briefdesk-cli the agent should run: this one when it is what runs, else the console
    script installed beside this Python (the window), else the one on PATH."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name.startswith("briefdesk-cli") and argv0.exists():
        return argv0.absolute()
    beside = Path(sys.executable).parent / "briefdesk-cli"
    if beside.exists():
        return beside
    found = shutil.which("briefdesk-cli")
    if found is not None:
        return Path(found).absolute()
    raise BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS,
        "briefdesk-cli was not found (beside this Python or on PATH): the agent could not run "
        "BriefDesk's hook. Install BriefDesk with its command line first.",
    )


def read_settings(spec: AgentSpec, project: Path | None) -> Settings:
    path = spec.settings_path(project)
    if path.exists() and not path.is_file():
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{path} is not a file.")
    try:
        text: str | None = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = None
    except UnicodeDecodeError:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"{path} is not UTF-8 text; BriefDesk left it as it is."
        ) from None
    except OSError as exc:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"{path} cannot be read: {exc.strerror or exc}."
        ) from None
    if spec.format is SettingsFormat.JSON:
        doc: MutableMapping[str, object] = parse_json_settings(text or "", path)
    else:
        doc = parse_toml_settings(text or "", path)
    return Settings(spec, path, text, doc)


def _event_names(spec: AgentSpec) -> tuple[str, ...]:
    return tuple(slot.event for slot in spec.slots)


def _hooks(settings: Settings) -> MutableMapping[str, object] | None:
    hooks = settings.doc.get("hooks")
    return hooks if isinstance(hooks, MutableMapping) else None


def _fingerprint(settings: Settings) -> str:
    """The parsed content as text, to tell whether an edit changed anything (JSON is compared
    by structure: rendering it may lay out a file differently that nothing changed in)."""
    if isinstance(settings.doc, TOMLDocument):
        return settings.render()
    return json.dumps(settings.doc)


def connect(
    spec: AgentSpec, project: Path | None, command: str, *, dry_run: bool
) -> AgentChangeView:
    """Add BriefDesk's hooks (`command`) to the agent's settings, and for Codex their trust."""
    settings = read_settings(spec, project)
    before = _fingerprint(settings)
    moves = hook_entries.add_hooks(
        settings.doc, spec.slots, command, settings.is_ours, str(settings.path)
    )
    hooks = _hooks(settings)
    if spec.name == "codex" and hooks is not None:
        codex_trust.follow_moves(hooks, settings.path, moves)
        codex_trust.trust_ours(hooks, settings.path, _event_names(spec), settings.is_ours)
    return _apply(settings, before, dry_run=dry_run, keep_backup=True)


def disconnect(spec: AgentSpec, project: Path | None, *, dry_run: bool) -> AgentChangeView:
    """Remove exactly BriefDesk's hooks (and their trust), and what they alone filled."""
    settings = read_settings(spec, project)
    before = _fingerprint(settings)
    events = _event_names(spec)
    moves = hook_entries.remove_hooks(settings.doc, events, settings.is_ours, str(settings.path))
    hooks = _hooks(settings)
    if spec.name == "codex" and hooks is not None:
        codex_trust.follow_moves(hooks, settings.path, moves)
    hook_entries.drop_empty_hooks(settings.doc)
    return _apply(settings, before, dry_run=dry_run, keep_backup=False)


def status_of(spec: AgentSpec, project: Path | None) -> AgentStatusView:
    """Whether BriefDesk's hook is in every slot; a file that cannot be read is not connected."""
    try:
        settings: Settings | None = read_settings(spec, project)
    except BriefDeskError:
        settings = None
    return _view(spec, spec.settings_path(project), settings)


def _view(spec: AgentSpec, path: Path, settings: Settings | None) -> AgentStatusView:
    connected = settings is not None and all(
        hook_entries.slot_connected(settings.doc, slot, None, settings.is_ours)
        for slot in spec.slots
    )
    view = AgentStatusView(
        name=spec.name,
        connected=connected,
        settings_path=str(path),
        version=agent_version(spec.program, spec.package),
    )
    trust = _trust(settings, spec, connected)
    if trust is not None:
        view["trust"] = trust
    return view


def _trust(settings: Settings | None, spec: AgentSpec, connected: bool) -> str | None:
    if spec.name == "gemini":
        security = settings.doc.get("security") if settings is not None else None
        folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
        off = isinstance(folder_trust, dict) and folder_trust.get("enabled") is False
        return GEMINI_TRUSTS_ALL if off else GEMINI_TRUST_FOLDERS
    if spec.name != "codex":
        return None
    hooks = _hooks(settings) if settings is not None else None
    trusted = (
        connected
        and settings is not None
        and hooks is not None
        and codex_trust.ours_trusted(hooks, settings.path, _event_names(spec), settings.is_ours)
    )
    return CODEX_TRUSTED if trusted else CODEX_UNTRUSTED


def unified_diff(path: Path, before: str | None, after: str) -> str:
    old = [] if before is None else before.splitlines(keepends=True)
    lines = difflib.unified_diff(
        old,
        after.splitlines(keepends=True),
        str(path) if before is not None else "/dev/null",
        str(path),
    )
    # A last line without its newline is marked as diff(1) marks it, not run into the next.
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _apply(settings: Settings, before: str, *, dry_run: bool, keep_backup: bool) -> AgentChangeView:
    """Show, and unless `dry_run` write, the edited settings."""
    changed = _fingerprint(settings) != before
    after = settings.render() if changed else settings.text or ""
    backup: Path | None = None
    if changed and not dry_run:
        if keep_backup and settings.text is not None:
            backup = settings.path.with_name(settings.path.name + BACKUP_SUFFIX)
        _write(settings, after, backup)
    return AgentChangeView(
        agent=_view(settings.spec, settings.path, settings),
        changed=changed,
        written=changed and not dry_run,
        diff=unified_diff(settings.path, settings.text, after) if changed else "",
        backup_path=None if backup is None else str(backup),
    )


def _write(settings: Settings, text: str, backup: Path | None) -> None:
    """Atomically, in the folder of the file itself (a symlinked settings file stays a link)."""
    target = Path(os.path.realpath(settings.path))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current != settings.text:
            raise BriefDeskError(
                ErrorCode.TARGET_CHANGED,
                f"{settings.path} changed while BriefDesk was preparing its change: run the "
                "command again.",
            )
        if backup is not None:
            shutil.copy2(target, backup)
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(temp, mode)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise BriefDeskError(
            ErrorCode.WRITE_FORBIDDEN, f"{settings.path} cannot be written: {exc.strerror or exc}."
        ) from None
