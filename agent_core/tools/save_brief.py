"""save_brief: the one file write (write tier: a person approves it in `default` mode).

Atomic and durable (temp file, fsync, rename, fsync folder). After a crash between the write
and its confirmation, `reconcile` settles the call by the target's content hash: a file that
already holds the approved content is recorded as written, never written twice. The last
checks (this process still drives the run, the target's hash) and the rename run inside the
write fence (tools/write_fence.py), and so does `reconcile`: an owner frozen past its checks
cannot write after the run was taken over and written by another desk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from pydantic import Field

from agent_core.contract.canonical import sha256_hex
from agent_core.contract.errors import OUT_OF_SPACE_ERRNOS, BriefDeskError, ErrorCode, storage_full
from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.home import crash
from agent_core.home.sandbox import (
    atomic_write_nofollow,
    file_sha256,
    remove_nofollow,
    remove_stale_temps,
    resolve_write_target,
)
from agent_core.tools import write_fence
from agent_core.tools.specs import (
    NonBlank,
    Tier,
    ToolArgs,
    ToolEnv,
    ToolResult,
    ToolScope,
    ToolSpec,
)


class SaveArgs(ToolArgs):
    relative_path: Annotated[
        NonBlank, Field(description="Path under the artifacts folder.", max_length=1024)
    ]
    content: Annotated[
        NonBlank, Field(description="The Markdown content of the brief.", max_length=200_000)
    ]


def resolve(args: SaveArgs, scope: ToolScope) -> str:
    scope.artifacts.mkdir(parents=True, exist_ok=True)
    target = resolve_write_target(scope.artifacts, args.relative_path)
    # The sandbox reads `briefs/` (or `briefs/.`) as `briefs`: the write would create a file
    # named `briefs` where a folder was meant. Checked after the sandbox, whose refusals
    # (path_outside_scope for `/etc/`, `..`) keep their codes.
    if args.relative_path.rsplit("/", 1)[-1] in ("", "."):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "save_brief: 'relative_path' names a folder (it ends with '/'); name a file in it.",
        )
    return str(target)


def base_hash(target: str | None) -> str | None:
    return file_sha256(Path(target)) if target else None


def expected_hash(args: SaveArgs) -> str:
    return sha256_hex(args.content)


def run(env: ToolEnv, args: SaveArgs) -> ToolResult:
    target = Path(str(env.target))
    _require_base(target, file_sha256(target), env.base_hash)  # refused before any wait
    crash.pause_at(crash.AFTER_BASE_CHECK)
    artifacts = env.scope.artifacts.resolve()
    with write_fence.held(artifacts):
        # Every writer of this folder passes here: what is checked now still holds at the
        # rename, and a run taken over while this process was frozen is written by its new
        # owner alone.
        write_fence.check_still_driving(env.store, env.run_id, env.holder)
        found = file_sha256(target)
        if found == expected_hash(args) and found != env.base_hash:
            return _saved(target, args.content, reconciled=True)  # written while we waited
        _require_base(target, found, env.base_hash)
        crash.pause_at(crash.IN_WRITE_FENCE)
        try:
            atomic_write_nofollow(
                env.scope.artifacts,
                target.relative_to(artifacts).as_posix(),
                args.content.encode("utf-8"),
                after_durable=crash.after_write_before_confirm,
            )
            done = f"wrote {target} (sha256 {expected_hash(args)[:12]}…)"
            write_fence.check_after_change(env.store, env.run_id, env.holder, done)
        except OSError as exc:
            if exc.errno not in OUT_OF_SPACE_ERRNOS:
                raise
            # The temp file is gone (the write removes it on failure); whether the rename
            # landed is settled on resume by `reconcile`, so the run stops retryably instead.
            raise storage_full(
                f"The artifacts folder {artifacts} is out of disk space (or over its quota), "
                "so the approved brief was not saved. Free some space there, then resume the "
                "run."
            ) from None
    return _saved(target, args.content, reconciled=False)


def _require_base(target: Path, found: str | None, base: str | None) -> None:
    if found != base:
        raise BriefDeskError(
            ErrorCode.TARGET_CHANGED,
            f"{target} changed since the proposal was shown; the approved diff no longer applies.",
        )


def reconcile(env: ToolEnv, args: SaveArgs) -> ToolResult | None:
    target = Path(str(env.target))
    artifacts = env.scope.artifacts.resolve()
    if not artifacts.is_dir():
        return None  # no folder, no write; the body says what is missing
    # In the fence: a writer still inside it (frozen there, having checked ownership before
    # this process took the run) makes this wait and stop retryably, so no rename of theirs
    # can land after the hash read here.
    with write_fence.held(artifacts):
        write_fence.check_still_driving(env.store, env.run_id, env.holder)
        remove_stale_temps(target)  # a kill between fsync and rename leaves one behind
        if file_sha256(target) == expected_hash(args):
            return _saved(target, args.content, reconciled=True)
    return None


def remove(env: ToolEnv) -> ToolResult:
    """A revert of a write that created its file: remove it, under the same checks and fence
    as a write (the file must still be what the write left: `env.base_hash`)."""
    target = Path(str(env.target))
    _require_base(target, file_sha256(target), env.base_hash)
    artifacts = env.scope.artifacts.resolve()
    with write_fence.held(artifacts):
        write_fence.check_still_driving(env.store, env.run_id, env.holder)
        found = file_sha256(target)
        if found is None:
            return _removed(target, reconciled=True)  # removed while we waited
        _require_base(target, found, env.base_hash)
        remove_nofollow(
            env.scope.artifacts,
            target.relative_to(artifacts).as_posix(),
            after_durable=crash.after_write_before_confirm,
        )
        write_fence.check_after_change(env.store, env.run_id, env.holder, f"removed {target}")
    return _removed(target, reconciled=False)


def reconcile_removal(env: ToolEnv) -> ToolResult | None:
    """After a crash between a removal and its confirmation: gone means done."""
    target = Path(str(env.target))
    artifacts = env.scope.artifacts.resolve()
    if not artifacts.is_dir():
        return _removed(target, reconciled=True)
    with write_fence.held(artifacts):
        write_fence.check_still_driving(env.store, env.run_id, env.holder)
        if file_sha256(target) is None:
            return _removed(target, reconciled=True)
    return None


def _removed(target: Path, *, reconciled: bool) -> ToolResult:
    data = {"removed": True, "path": str(target)}
    summary = {"path": str(target), "removed": True, "reconciled": reconciled}
    return ToolResult(ToolOutcomeStatus.SUCCESS, json.dumps(data), summary)


def _saved(target: Path, content: str, *, reconciled: bool) -> ToolResult:
    size = len(content.encode("utf-8"))
    data = {"saved": True, "path": str(target), "bytes": size, "sha256": sha256_hex(content)}
    summary = {"path": str(target), "bytes": size, "reconciled": reconciled}
    return ToolResult(ToolOutcomeStatus.SUCCESS, json.dumps(data), summary)


SPEC = ToolSpec(
    name="save_brief",
    tier=Tier.WRITE,
    description="Propose saving the brief as a Markdown file inside the artifacts folder. "
    "A person reviews the exact path and content before anything is written.",
    args_model=SaveArgs,
    body=run,
    resolve_target=resolve,
    base_hash=base_hash,
    expected_hash=expected_hash,
    reconcile=reconcile,
    content_field="content",
    path_field="relative_path",
)
