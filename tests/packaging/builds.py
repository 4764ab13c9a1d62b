"""Build the wheel the way a fresh clone would: from a copy of the sources (what git tracks, plus
new files not ignored), so no build output lands in the checkout and no stale build/ leaks in."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_NEVER = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                ".*_cache", ".hypothesis", "test-artifacts")  # fmt: skip


def source_copy(dest: Path) -> Path:
    """The checkout's sources as a fresh clone (with today's uncommitted edits) would hold them."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if listed.returncode != 0:  # not a git checkout (an unpacked source archive)
        shutil.copytree(REPO, dest, ignore=_NEVER)
        return dest
    for name in filter(None, listed.stdout.split("\0")):
        source = REPO / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


def build_wheel(work: Path) -> Path:
    """`pip wheel` of a source copy under `work`; returns the .whl file."""
    source = source_copy(work / "source")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"),
         str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (work / "dist").glob("briefdesk-*.whl")
    return wheel
