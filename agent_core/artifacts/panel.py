"""The artifacts panel's read model: the files of a folder now, each with the verdict recorded
for its current write."""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

from agent_core.artifacts.files import inode_key, iter_artifact_files
from agent_core.contract.artifact_views import ArtifactState, ArtifactStateView, SightingVerdict
from agent_core.storage.store import Store
from agent_core.storage.tables import sightings as table
from agent_core.storage.tables.sightings import SightingRow

_STATE_OF: dict[SightingVerdict, ArtifactState] = {
    SightingVerdict.CONFIRMED: "confirmed",
    SightingVerdict.DUPLICATE: "duplicate",
    SightingVerdict.UNEXPECTED: "unexpected",
}


def artifact_states(store: Store, root: Path, desk: str | None = None) -> list[ArtifactStateView]:
    """The files under `root` now, each with the verdict recorded for its current write.

    `state`: confirmed | duplicate | unexpected | unseen (no watcher has sighted this write).
    Reads the file system: call it off the GUI thread.
    """
    root = Path(root).expanduser().resolve()
    files: list[tuple[Path, os.stat_result]] = []
    if root.is_dir():
        for path in iter_artifact_files(root):
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                files.append((path, st))
    sightings: dict[str, list[SightingRow]] = {}
    with store.read() as conn:
        for row in table.sightings_of_paths(conn, [str(p) for p, _ in files], desk):
            sightings.setdefault(row.path, []).append(row)
    states: list[ArtifactStateView] = []
    for path, st in files:
        seen = sightings.get(str(path), [])
        key = inode_key(st)
        current = next((r for r in reversed(seen) if r.inode_key == key), None)
        states.append(
            ArtifactStateView(
                path=str(path),
                relative=path.relative_to(root).as_posix(),
                size=st.st_size,
                modified=datetime.fromtimestamp(st.st_mtime, UTC).isoformat(timespec="seconds"),
                state=_STATE_OF[current.verdict] if current else "unseen",
                count=current.count if current else 0,
                run_id=current.run_id if current else None,
                writes_seen=len(seen),
            )
        )
    return sorted(states, key=lambda state: state["relative"])
