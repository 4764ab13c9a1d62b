"""Approvals are data: one typed record (`Approval`) per proposal row, with a status enum.

The record is the one declaration besides the table (storage/schema.py): a row is read by its
fields' types, the contract's view is the record minus `HIDDEN`. Nothing here touches a
database; the moves of its status are contract/approval_moves.py's table, persisted by one
conditional update so that the first reviewer wins.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from datetime import datetime
from typing import Protocol, cast

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonMapping
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView


class ColumnsByName(Protocol):
    def __getitem__(self, name: str, /) -> object: ...

    def get(self, name: str, /) -> object: ...


class StoredRow(Protocol):
    """A database row as SQLAlchemy returns it (its `_mapping`: the columns by name)."""

    @property
    def _mapping(self) -> ColumnsByName: ...


@dataclass(frozen=True)
class Approval:
    id: str
    run_id: str
    thread_id: str
    call_id: str
    tool: str
    args: JsonMapping
    """The call's arguments, normalized (read only: a proposal binds them)."""
    target: str | None
    base_hash: str | None
    risk: str
    reason: str
    arg_hash: str
    state_version: int
    version: int
    status: ApprovalStatus
    created_at: str
    expires_at: str
    reviewer: str | None = None
    decision_reason: str | None = None
    decided_at: str | None = None
    decided_by_rule: str | None = None
    consumed_at: str | None = None
    desk: str | None = None
    """The desk whose run proposed it (None: a row from before team mode, this home's)."""
    base_digest: str | None = None
    """The blob holding the target's content when proposed (None: a new file, or older row)."""
    revision: int = 1
    """1 for a first proposal; n+1 after n requests for changes in the same run."""
    revises: str | None = None
    """The proposal whose requested changes it answers (a revert: the write it undoes)."""
    revision_note: str | None = None
    """That request's text (a revert: its reason)."""

    def to_json(self) -> ApprovalView:
        """The contract's APPROVAL: every field but those kept from reviewers (`HIDDEN`), the
        status still an `ApprovalStatus` (a `str`: it is text at the JSON edge)."""
        view = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in HIDDEN}
        view["args"] = dict(self.args)
        return cast(ApprovalView, view)

    @staticmethod
    def from_row(row: StoredRow) -> Approval:
        """A stored proposal; `storage_corrupt` (never a traceback) for one that cannot be read.
        Each column is read by its field's declared type (the record is the declaration)."""
        values = row._mapping
        try:
            args = json.loads(_text(values["args_json"]))
            if not isinstance(args, dict):
                raise TypeError("its arguments are not a JSON object")
            read: dict[str, object] = {"args": args}
            for f in fields(Approval):
                if f.name != "args":
                    value = values[f.name]
                    if value is None and f.default not in (MISSING, None):
                        value = f.default  # a column added later, NULL in an older row
                    read[f.name] = _READERS[str(f.type)](value)
            return Approval(**read)  # type: ignore[arg-type]  # each value read by its type
        except (TypeError, ValueError, KeyError) as exc:
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT,
                f"Approval {values.get('id')!r} of run {values.get('run_id')!r} holds a row "
                f"this app cannot read ({exc}).",
            ) from None


HIDDEN = frozenset({"thread_id", "call_id", "base_digest"})
"""Fields of the record a reviewer's view leaves out: the SDK's thread and call, the base blob."""


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def _text_or_none(value: object) -> str | None:
    return None if value is None else _text(value)


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not an integer")
    return value


def _status(value: object) -> ApprovalStatus:
    return ApprovalStatus(_text(value))


_READERS: dict[str, Callable[[object], object]] = {
    "str": _text,
    "str | None": _text_or_none,
    "int": _integer,
    "ApprovalStatus": _status,
}


def is_revert(approval: Approval) -> bool:
    """A revert of an executed write (`approvals revert`): the first proposal of its own call
    (revision 1) that names the write it undoes. An answer to a request for changes also
    names a proposal, but is revision 2 or later."""
    return approval.revises is not None and approval.revision == 1


def is_expired(approval: Approval, now: datetime) -> bool:
    return datetime.fromisoformat(approval.expires_at) <= now


def check_decidable(approval: Approval, now: datetime) -> None:
    """Raise the contract's error when this proposal can no longer be decided.

    Expired and superseded take precedence over already-resolved.
    """
    if approval.status is ApprovalStatus.EXPIRED or (
        approval.status is ApprovalStatus.PENDING and is_expired(approval, now)
    ):
        raise BriefDeskError(
            ErrorCode.APPROVAL_EXPIRED,
            f"Approval {approval.id} expired at {approval.expires_at}; "
            "it can no longer be decided.",
        )
    if approval.status is ApprovalStatus.SUPERSEDED:
        raise BriefDeskError(
            ErrorCode.APPROVAL_SUPERSEDED,
            f"Approval {approval.id} was replaced by an edit; decide the newest version instead.",
        )
    if approval.status is not ApprovalStatus.PENDING:
        raise BriefDeskError(
            ErrorCode.APPROVAL_ALREADY_RESOLVED,
            f"Approval {approval.id} is already {approval.status}"
            + (f" by {approval.reviewer}" if approval.reviewer else "")
            + ".",
        )


def required_note(reason: str | None) -> str:
    """A change request's note, stripped; `invalid_arguments` when there is none."""
    note = (reason or "").strip()
    if not note:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "Requesting changes needs a note that says what to change (--reason).",
        )
    return note


# -- a change request, as the model reads it ------------------------------------------------
# JSON, so that the offline model reads the note back exactly (whatever its words) and a remote
# model sees plainly that a person wrote it; the framing is ours and never the note itself.

CHANGES_REQUESTED_RESULT = "changes_requested"


def change_request_result(approval: Approval) -> str:
    """The tool result the model receives for a call a person sent back with a note."""
    return json.dumps(
        {
            "status": CHANGES_REQUESTED_RESULT,
            "executed": False,
            "approval_id": approval.id,
            "reviewer_note": approval.decision_reason or "",
            "message": (
                f"A reviewer sent this {approval.tool} call back instead of approving it, so "
                "nothing was done. Change the call as the reviewer's note asks and propose it "
                "again; a person reviews the new proposal."
            ),
        },
        ensure_ascii=False,
    )


def change_request_note(tool_output: str) -> str | None:
    """The reviewer's note when `tool_output` is a change request (see above), else None."""
    if CHANGES_REQUESTED_RESULT not in tool_output:
        return None  # most results: no need to parse them
    try:
        data = json.loads(tool_output)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.get("status") != CHANGES_REQUESTED_RESULT:
        return None
    note = data.get("reviewer_note")
    return note if isinstance(note, str) else ""
