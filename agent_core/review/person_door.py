"""What a person types at a decision passes the door here: a note or reason (at most
`MAX_NOTE_CHARS`, masked) and edited arguments (masked where every call is: validate_call).

The facade calls these before it decides, so a refusal changes nothing, in the CLI and in the
window alike. Every secret BriefDesk holds is masked, whatever the model of the proposal's run
(home/door.py).
"""

from __future__ import annotations

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonMapping
from agent_core.home.door import mask_incoming
from agent_core.home.limits import MAX_NOTE_CHARS


def check_note(note: str | None) -> None:
    """`invalid_arguments` for a note or reason longer than the contract allows."""
    if note is not None and len(note) > MAX_NOTE_CHARS:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"A note or reason may be at most {MAX_NOTE_CHARS:,} characters "
            f"(this one has {len(note):,}).",
        )


def decision_note(note: str | None) -> str | None:
    """A decision's `--reason` (or request for changes), checked and masked."""
    check_note(note)
    if not note:
        return note
    return mask_incoming(note)


def edited_args(args: JsonMapping | str) -> JsonMapping | str:
    """Edited arguments, masked; raw JSON text is masked by validation, in its decoded values."""
    return args if isinstance(args, str) else mask_incoming(args)
