"""What a bounded view of a conversation looks like to a model (runs/transcript.py makes it).

A long run's model is not sent the whole conversation: its oldest items are folded into one
developer note, and older tool results are replaced by a digest line. The embedded models read
these markers: the scripted one needs only the step numbers (still in the view's call ids), the
offline one asks for the whole conversation when it sees a view, so its brief stays a pure
function of the conversation.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

FOLD_NOTE = "[BriefDesk history]"
_DIGEST_LINE = re.compile(
    r"^\[BriefDesk: an earlier result, \d+ characters, sha256 [0-9a-f]{16}\]$"
)


def digest_line(text: str) -> str:
    """What the model sees of an older tool result: its size and digest (the full text stays
    in the run's ledger and transcript)."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"[BriefDesk: an earlier result, {len(text)} characters, sha256 {digest}]"


def fold_note(folded: int) -> dict[str, str]:
    return {
        "role": "developer",
        "content": f"{FOLD_NOTE} The first {folded} items of this run's conversation are left "
        "out of this view to keep it short; their results stay in the run's record.",
    }


def is_windowed(items: Sequence[object]) -> bool:
    """True when `items` is a bounded view (a fold note or a digest line in it), not the whole
    conversation."""
    for item in items:
        if not isinstance(item, dict):
            continue
        content = item.get("content") if item.get("role") == "developer" else None
        if isinstance(content, str) and content.startswith(FOLD_NOTE):
            return True
        output = item.get("output") if item.get("type") == "function_call_output" else None
        if isinstance(output, str) and _DIGEST_LINE.match(output):
            return True
    return False
