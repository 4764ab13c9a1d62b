"""Typed errors with stable codes: the codes are a public interface (see the CLI contract)."""

from __future__ import annotations

import errno
from enum import StrEnum
from typing import NotRequired, TypedDict


class ErrorCode(StrEnum):
    INVALID_ARGUMENTS = "invalid_arguments"
    UNKNOWN_TOOL = "unknown_tool"
    NOT_FOUND = "not_found"
    PATH_OUTSIDE_SCOPE = "path_outside_scope"
    WRITE_FORBIDDEN = "write_forbidden"
    NETWORK_BLOCKED = "network_blocked"
    APPROVAL_EXPIRED = "approval_expired"
    APPROVAL_SUPERSEDED = "approval_superseded"
    APPROVAL_ALREADY_RESOLVED = "approval_already_resolved"
    TARGET_CHANGED = "target_changed"
    NOT_REVERTIBLE = "not_revertible"  # `approvals revert` of anything but an executed write
    TARGET_BUSY = "target_busy"  # another writer holds the write fence: retryable
    MIGRATION_REQUIRED = "migration_required"
    RUN_IN_PROGRESS = "run_in_progress"
    BUDGET_EXCEEDED = "budget_exceeded"
    TOO_MANY_CALLS = "too_many_calls"  # a model turn past limits.max_parallel_calls
    DUPLICATE_CALL_ID = "duplicate_call_id"  # a second call with one call id in one turn
    STORAGE_LOCKED = "storage_locked"
    STORAGE_CORRUPT = "storage_corrupt"
    STORAGE_READ_ONLY = "storage_read_only"
    STORAGE_TOO_NEW = "storage_too_new"
    KEYRING_UNAVAILABLE = "keyring_unavailable"
    KEY_MISSING = "key_missing"
    RUN_NOT_WAITING = "run_not_waiting"
    RUN_NOT_FINISHED = "run_not_finished"
    PROVIDER_ERROR = "provider_error"
    PREVIOUSLY_REJECTED = "previously_rejected"
    SANDBOX_UNSUPPORTED = "sandbox_unsupported"
    STORAGE_FULL = "storage_full"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    QUESTION_ALREADY_ANSWERED = "question_already_answered"
    RUN_OWNED_ELSEWHERE = "run_owned_elsewhere"
    NOT_AUTHORIZED = "not_authorized"
    DATABASE_NOT_EMPTY = "database_not_empty"  # `db copy --to` a database that holds data
    INTERRUPTED = "interrupted"
    MCP_SERVER_UNAVAILABLE = "mcp_server_unavailable"  # does not start, exits, breaks protocol
    TOOL_TIMEOUT = "tool_timeout"  # an MCP call past mcp.call_timeout
    SANDBOX_UNAVAILABLE = "sandbox_unavailable"  # no sandbox for a server without --no-sandbox
    NOT_APPROVED = "not_approved"  # an MCP client's call rejected, or not decided in time


class ErrorJSON(TypedDict):
    """An error as the CLI prints it and a failed run stores it."""

    code: str
    """A stable code (ErrorCode, or `agent_error` for an SDK failure)."""
    message: str
    """For people."""
    retryable: NotRequired[bool]
    """True when `resume` may continue the failed run (provider_error, storage_full,
    storage_unavailable)."""
    host: NotRequired[str]
    """storage_unavailable: the database server (host:port) that could not be used."""


class BriefDeskError(Exception):
    """An error a user can act on. `code` is stable; `message` is for people."""

    def __init__(self, code: ErrorCode | str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.details = details

    retryable: bool | None = None
    """Set by codes whose failures `resume` may continue; None: not said."""

    def to_json(self) -> ErrorJSON:
        data = ErrorJSON(code=self.code, message=self.message)
        if self.retryable is not None:
            data["retryable"] = self.retryable
        host = self.details.get("host")
        if isinstance(host, str):
            data["host"] = host
        return data

    def __repr__(self) -> str:
        return f"BriefDeskError({self.code!r}, {self.message!r})"


OUT_OF_SPACE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def storage_full(message: str) -> BriefDeskError:
    """Out of disk space or quota: a retryable stop (`resume` continues once space is freed)."""
    error = BriefDeskError(ErrorCode.STORAGE_FULL, message)
    error.retryable = True
    return error
