"""BriefDesk's core: state, approvals, tools, sandbox, providers, runner and CLI. No Qt here."""

from __future__ import annotations

__version__ = "0.1.0"

# Bumped whenever the shape of a checkpoint (or the SDK RunState we store in it) changes in a
# way old code cannot read. A checkpoint from another runtime version is refused with
# `migration_required` instead of being fed into new code.
RUNTIME_VERSION = "briefdesk-runtime/1"
