"""What a desk hears when the team's database changes: the vocabulary of change notices.

A listener (storage/team/listen.py) turns each commit another desk announces, and its own
state (listening restarted, the connection lost), into one `ChangeNotice` for its callback.
The notice says what to read again, never the changes themselves: the tables are the truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from agent_core.contract.errors import ErrorJSON


class NoticeKind(StrEnum):
    CHANGED = "changed"
    """A commit (of any desk) appended events or changed runs or proposals."""
    RESYNC = "resync"
    """Listening (re)started: notices sent meanwhile were missed, so read everything again."""
    LOST = "lost"
    """The listening connection failed (`error` says why); it reconnects by itself."""


@dataclass(frozen=True)
class ChangeNotice:
    """One thing a listener hears, handed to its callback."""

    kind: NoticeKind
    seq: int | None = None
    """The newest event seq of the commit; None when it appended none."""
    run_ids: tuple[str, ...] | None = ()
    """The runs whose rows or events changed, sorted; None: too many to name (read them all)."""
    events: int = 0
    """How many events the commit appended."""
    own: bool = False
    """Sent by a commit through the listener's own Store (its followers heard of it)."""
    error: ErrorJSON | None = None
    """For LOST: why listening stopped (`storage_unavailable` with what to check)."""
