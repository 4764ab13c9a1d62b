"""What a person types at a decision passes the door here: a note or reason (at most
`MAX_NOTE_CHARS`, masked) and edited arguments (masked where every call is: validate_call);
and which provider's key a run's door masks (the question and the answer use it too).

The facade calls these before it decides, so a refusal changes nothing, in the CLI and in the
window alike. The keys masked include the key of the provider the proposal's run uses.
"""

from __future__ import annotations

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonMapping
from agent_core.home.door import mask_incoming
from agent_core.home.limits import MAX_NOTE_CHARS
from agent_core.home.secrets import load_known_secrets
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows


def provider_of(model: str) -> str | None:
    """The keyring entry of the provider a run of `model` uses (None: it needs no key)."""
    from agent_core.models.endpoint import KEY_NAME

    return KEY_NAME if model == "openai" else None


def check_note(note: str | None) -> None:
    """`invalid_arguments` for a note or reason longer than the contract allows."""
    if note is not None and len(note) > MAX_NOTE_CHARS:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"A note or reason may be at most {MAX_NOTE_CHARS:,} characters "
            f"(this one has {len(note):,}).",
        )


def decision_note(store: Store, approval_id: str, note: str | None) -> str | None:
    """A decision's `--reason` (or request for changes), checked and masked."""
    check_note(note)
    if not note:
        return note
    return mask_incoming(note, _provider(store, approval_id))


def edited_args(store: Store, approval_id: str, args: JsonMapping | str) -> JsonMapping | str:
    """Edited arguments, with the run's provider key known, so validation masks it too."""
    load_known_secrets(_provider(store, approval_id))
    return args if isinstance(args, str) else mask_incoming(args)


def _provider(store: Store, approval_id: str) -> str | None:
    with store.read() as conn:
        try:
            approval = approval_rows.get_approval(conn, approval_id)
            return provider_of(run_rows.get_run_row(conn, approval.run_id).model)
        except BriefDeskError:  # not found, unreadable: the decision itself says so
            return None
