"""An MCP call that writes a whole file: where it lands, and that it overwrites only what a
person saw (contract, "MCP whole-file writes").

- The target: an absolute `path` as given; a relative one under the server's first granted
  folder (tools/mcp/server_identity.py), through the sandbox's own resolution, so `..` or a
  symlink leading out of the folder is `path_outside_scope`; with no granted folder the call
  aims at the server (`mcp:NAME`: no diff, no base). The server is sent the absolute target,
  so it writes the file the person was shown, whatever it makes of a relative path.
- The base: checked when the person approves (review/decisions.py); again by the executor in
  the transaction that records the call's intent, just before it goes out (a change records
  nothing and sends the run back to a person with the new diff: runs/reproposal.py); and a
  last time in the tool's body as the request is sent (a change in that instant is refused
  like save_brief's: `target_changed`, the model is told, nothing is written). A file that
  already holds exactly the content to write is no change to anyone.
"""

from __future__ import annotations

import os
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.home.sandbox import file_sha256, resolve_inside
from agent_core.tools.mcp.server_identity import ServerFacts


class McpTargetChanged(BriefDeskError):
    """The file an approved whole-file write would replace is no longer what the person saw:
    the call is not sent."""


def server_target(server: str) -> str:
    """What a call that aims at no one file targets: its server."""
    return f"mcp:{server}"


def whole_file_target(server: str, path: object, facts: ServerFacts | None) -> str:
    """The absolute file a whole-file write of `path` replaces (or its server, see above).
    `facts` None: a process that does not know the server (a reviewer's), which cannot say
    where a relative path lands: `invalid_arguments`, never a guess."""
    if not isinstance(path, str) or "\x00" in path:
        return server_target(server)
    if os.path.isabs(path):
        return os.path.normpath(path)
    if facts is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"A relative path of an MCP write is placed by the run's own desk, in the first "
            f"folder granted to the server {server!r}: give the absolute path (the proposal's "
            "target shows where the call lands).",
        )
    if facts.folder is None:
        return server_target(server)
    return str(resolve_inside(facts.folder, path, must_exist=False))


def target_changed(target: str | None, base_hash: str | None, content_hash: str | None) -> bool:
    """The file at an absolute `target` holds neither the approved base nor the content the
    call would write."""
    if target is None or not os.path.isabs(target):
        return False
    found = file_sha256(Path(target))
    return found != base_hash and found != content_hash


def require_unchanged(
    target: str | None,
    base_hash: str | None,
    content_hash: str | None,
    *,
    refusal: type[BriefDeskError] = BriefDeskError,
) -> None:
    """`target_changed` (as `refusal`) when the file is no longer what the person saw."""
    if target_changed(target, base_hash, content_hash):
        raise refusal(
            ErrorCode.TARGET_CHANGED,
            f"{target} changed since the write was approved; it was not sent to the server.",
        )


def sent_arguments(args: JsonObject, path_field: str, target: str | None) -> JsonObject:
    """The arguments as sent: a relative path replaced by the absolute target it resolved to."""
    path = args.get(path_field)
    if target is None or not os.path.isabs(target) or not isinstance(path, str):
        return args
    return args if os.path.isabs(path) else {**args, path_field: target}
