"""The artifact watcher's vocabulary: the verdict on one physical write, and the artifacts
panel's row. Pure data, so storage records verdicts and the desktop reads states without
reaching into the watcher."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypedDict


class SightingVerdict(StrEnum):
    """What the watcher made of one physical write (`artifact_sightings.verdict`)."""

    CONFIRMED = "confirmed"
    """The first physical write of an approved ledger entry."""
    DUPLICATE = "duplicate"
    """Another physical write of content that was already confirmed for the same run."""
    UNEXPECTED = "unexpected"
    """A write that no approved ledger entry explains."""


SEEN_VERDICTS = (SightingVerdict.CONFIRMED, SightingVerdict.DUPLICATE)
"""The verdicts that stand for "this approved write was seen"."""

ArtifactState = Literal["confirmed", "duplicate", "unexpected", "unseen"]
"""A verdict, or `unseen`: no watcher has sighted the file's current write."""


class ArtifactStateView(TypedDict):
    """One file under an artifacts folder as the panel shows it (`Workspace.artifact_states`)."""

    path: str
    """Absolute."""
    relative: str
    """To the folder listed, POSIX separators; the list is sorted by it."""
    size: int
    modified: str
    """The file's mtime, ISO 8601 in UTC, to the second."""
    state: ArtifactState
    """The verdict recorded for the file's current write."""
    count: int
    """That sighting's count (how many times the approved write was seen); 0 when unseen."""
    run_id: str | None
    """The run the current write was recorded on; null for a home event or when unseen."""
    writes_seen: int
    """Every physical write of this path that a watcher sighted."""
