"""BriefDesk's core: state, approvals, tools, sandbox, providers, runner and CLI. No Qt here."""

from __future__ import annotations

# The package version, from the distribution's metadata (`agent_core.home.version`), read on first
# use: every CLI command imports this package, and most never ask.
__version__: str


def __getattr__(name: str) -> str:
    if name == "__version__":
        from agent_core.home.version import version

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Bumped whenever the shape of a checkpoint (or the SDK RunState we store in it) changes in a
# way old code cannot read. A checkpoint from another runtime version is refused with
# `migration_required` instead of being fed into new code.
RUNTIME_VERSION = "briefdesk-runtime/1"
