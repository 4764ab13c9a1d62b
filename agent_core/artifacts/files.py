"""The files of an artifacts folder as the watcher sees them: which ones it walks, and how one
physical write is told from another (`inode_key`) and identified by its content."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agent_core.home.mounts import pseudo_mount_points
from agent_core.home.sandbox import file_sha256, is_temp_artifact

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileId:
    """One physical write of a regular file, hashed."""

    path: str
    content_hash: str
    inode_key: str


def inode_key(st: os.stat_result) -> str:
    """One physical write: a new inode (atomic replace) or a new mtime (write in place)."""
    return f"{st.st_ino}:{st.st_mtime_ns}"


def identify(path: Path) -> FileId | None:
    """Hash a regular file; None if it is gone, not a regular file, or changed while hashed."""
    try:
        before = os.lstat(path)
        if not stat.S_ISREG(before.st_mode):
            return None
        digest = file_sha256(path)
        after = os.lstat(path)
    except Exception as exc:  # vanished, or swapped for a symlink mid-way (BriefDeskError)
        log.debug("cannot sight %s: %s", path, exc)
        return None
    same = (before.st_ino, before.st_mtime_ns, before.st_size) == (
        after.st_ino,
        after.st_mtime_ns,
        after.st_size,
    )
    if digest is None or not same:
        return None  # a write in progress: its own events will bring it back
    return FileId(str(path), digest, inode_key(after))


def iter_artifact_files(root: Path) -> Iterator[Path]:
    """Files under `root`, temp files skipped. Symlinked folders and pseudo file systems
    mounted inside (/proc, sysfs, ...) are not entered; the caller lstat()s what it yields."""
    skipped = pseudo_mount_points()
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if Path(folder, d) not in skipped)
        for name in sorted(filenames):
            if not is_temp_artifact(name):
                yield Path(folder) / name
