"""The façade's artifacts: the watcher that confirms approved writes, the panel's states, and
reading what a run wrote the way its tools read (never through a symlink out of the folder).

Each import stays inside its method: importing the façade never starts watchdog.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from agent_core.contract.artifact_views import ArtifactStateView
from agent_core.contract.errors import BriefDeskError
from agent_core.facade.base import WorkspaceBase


class RunningWatcher(Protocol):
    """A started artifacts watcher, as its caller holds it: stopped before `Workspace.close`."""

    def stop(self) -> None: ...


class ArtifactCommands(WorkspaceBase):
    """Mixed into `Workspace`: the artifacts folder and what the watcher made of it."""

    def settle_unconfirmed_writes(self) -> int:
        """Record `artifact_confirmed` for writes of ended runs that a kill left unconfirmed,
        where the file still holds the approved content (agent_core/artifacts/settle.py); how many.
        Best effort: a home that cannot be written now (read-only, locked, full) settles
        nothing and still answers."""
        from agent_core.artifacts.settle import settle_unconfirmed_writes

        try:
            return len(settle_unconfirmed_writes(self.store, desk=self.team_desk))
        except BriefDeskError:
            return 0

    def watch_artifacts(self) -> RunningWatcher:
        """Start the artifacts watcher on the home's artifacts folder: it confirms approved writes
        and flags unexpected ones. Returns it running; the caller `stop()`s it before `close()`."""
        from agent_core.artifacts.watcher import ArtifactWatcher

        return ArtifactWatcher(self.store, self.home.artifacts, desk=self.team_desk).start()

    def artifact_states(self, root: str | Path | None = None) -> list[ArtifactStateView]:
        """The files under `root` (default: the home's artifacts folder), each with the watcher's
        verdict: confirmed, duplicate, unexpected or unseen. Reads the disk."""
        from agent_core.artifacts.panel import artifact_states

        return artifact_states(
            self.store, Path(root) if root else self.home.artifacts, desk=self.team_desk
        )

    @staticmethod
    def read_text_inside(root: str | Path, relative: str, *, max_bytes: int) -> tuple[str, bool]:
        """(text, truncated) of `root`/`relative`, read as the agent's tools read: a symlink out
        of `root` or a non-regular file raises `BriefDeskError` instead of being followed."""
        from agent_core.home.sandbox import read_text_nofollow

        return read_text_nofollow(Path(root), relative, max_bytes=max_bytes)

    @staticmethod
    def file_hash(path: str | Path) -> str | None:
        """sha256 of the file as it is now, None if missing; a symlink is `path_outside_scope`."""
        from agent_core.home.sandbox import file_sha256

        return file_sha256(Path(path))
