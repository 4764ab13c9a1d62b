"""Reading proposals: the view a reviewer sees, the listing, one proposal by its id.

Reads never write: a pending proposal past its time shows as expired here (the view rule
`shown_status`), and only the sweep (review/expiry.py) records the move.
"""

from __future__ import annotations

from agent_core.contract.approval_moves import shown_status
from agent_core.contract.approvals import Approval
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView
from agent_core.home.clock import utcnow
from agent_core.storage.location import StoreKind
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.tools.agent_calls.registry import agent_of_thread
from agent_core.tools.mcp.servers import split_model_name
from agent_core.tools.mcp.tool_spec import CONTENT_FIELD, PATH_FIELD
from agent_core.tools.registry import spec_for


def approval_view(approval: Approval) -> ApprovalView:
    """The contract's APPROVAL plus what its tool's spec tells a reviewer's window: which
    argument is the new content of the target (shown as a diff) and which names the target."""
    view = approval.to_json()
    view["status"] = shown_status(approval, utcnow())
    if agent_of_thread(approval.thread_id) is not None:
        # An external agent's call: its diff is the file after the change (approval_detail).
        view["content_field"] = view["path_field"] = None
        return view
    if split_model_name(approval.tool) is not None:
        # An MCP call aims at a path only when it writes that file whole (tool_spec.py).
        whole_file = approval.target is not None and approval.target.startswith("/")
        view["content_field"] = CONTENT_FIELD if whole_file else None
        view["path_field"] = PATH_FIELD if whole_file else None
        return view
    spec = spec_for(approval.tool)
    view["content_field"] = spec.content_field
    view["path_field"] = spec.path_field
    return view


def list_approvals(
    store: Store, *, status: str | None = None, run_id: str | None = None
) -> list[ApprovalView]:
    if status and status not in ApprovalStatus._value2member_map_:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Unknown approval status {status!r}.")
    # A pending proposal past its time shows as expired (see approval_view): filter on that.
    stored = None if status in (ApprovalStatus.PENDING, ApprovalStatus.EXPIRED) else status
    with store.read() as conn:
        views = [
            approval_view(a)
            for a in approval_rows.list_approvals(conn, status=stored, run_id=run_id)
        ]
    return [v for v in views if status is None or v["status"] == status]


def get_approval(store: Store, approval_id: str) -> ApprovalView:
    with store.read() as conn:
        return approval_view(approval_rows.get_approval(conn, approval_id))


def proposed_elsewhere(approval: Approval, desk: str | None, run_desk: str | None = None) -> bool:
    """True when another desk's run proposed it (team mode: `desk` is the reader's): this
    machine does not hold its target, so only the kept base and the owner's checks count."""
    owner = approval.desk or run_desk
    return desk is not None and owner is not None and owner != desk


def gives_back_here(store: Store, approval: Approval, desk: str | None) -> bool:
    """Whether this process gives a closed revert's run its status back at once: always on the
    home's own SQLite file; in team mode only on the run's desk (the database refuses another
    desk's role that write: migration 0008), else the run's desk does it at its next resume."""
    return store.kind is StoreKind.SQLITE or (desk is not None and approval.desk == desk)
