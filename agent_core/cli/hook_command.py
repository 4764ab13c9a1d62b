"""`briefdesk-cli hook NAME`: answered in the agent's own hook format, not in the CLI's JSON
envelope (the agent reads stdout and the exit code). Refusals are the agent's denials
(external_agents/hook_process.py). The home opens only once the call was read.

An agent waits for two hook processes per tool call (before and after it), so a read must stay
cheap: the process loads only the hook's modules (no façade, no Agents SDK), pauses the cyclic
garbage collector while it loads them (it would scan the growing heap again and again), and
ends without the interpreter's teardown (`end_hook_process`)."""

from __future__ import annotations

import gc
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

from agent_core.cli.parser import GlobalOptions, UsageError, split_globals
from agent_core.external_agents.hook_call import HookReply

if TYPE_CHECKING:
    from agent_core.external_agents.hook import HookDesk


EXIT_BLOCKING = 2
"""The exit code all three agents read as "block this call" (stderr says why)."""


def run_hook(argv: Sequence[str]) -> int | None:
    """The exit code of a `hook NAME` command line; None for any other command."""
    try:
        options, rest = split_globals(argv)
    except UsageError:
        return None  # the usual parser says what is wrong
    if len(rest) != 2 or rest[0] != "hook" or rest[1].startswith("-"):
        return None
    stdin_text = sys.stdin.read()

    @contextmanager
    def open_desk() -> Iterator[HookDesk]:
        yield from _desk(options)

    gc.disable()  # on again once the home is open (`_desk`), or whatever happens before
    try:
        from agent_core.external_agents.hook_process import answer_hook

        reply = answer_hook(rest[1], stdin_text, open_desk)
    except Exception as exc:  # not even the agent's format answered (a broken install): exit 2
        # blocks the call in all three agents, where exit 1 or no output lets Codex and Gemini
        # CLI run it. Never fail open.
        reply = HookReply("", EXIT_BLOCKING, f"BriefDesk could not decide ({type(exc).__name__}).")
    finally:
        gc.enable()
    if reply.stderr:
        print(reply.stderr, file=sys.stderr)
    print(reply.stdout)
    sys.stdout.flush()
    return reply.exit_code


def end_hook_process(exit_code: int) -> NoReturn:
    """End a hook process once it answered, without the interpreter's teardown: unloading the
    modules (SQLAlchemy's above all) costs a quarter of a read's CPU. Nothing is left to it: the
    answer is printed and flushed, the stores closed (`_desk`), no thread but a daemon one
    runs, and the log is flushed here."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(exit_code)


def _desk(options: GlobalOptions) -> Iterator[HookDesk]:
    # The home as Workspace opens it, without the façade's domains (tools, review, corpus).
    from agent_core.external_agents.hook import HookDesk
    from agent_core.facade.home_stores import desk_settings, open_home_stores

    opened = open_home_stores(options.get("home"), options.get("db"))
    # What a read needs is loaded: kept out of every later collection (a first one would
    # scan it all), and a call that waits for a person collects its own garbage as usual.
    gc.freeze()
    gc.enable()
    try:
        yield HookDesk(opened.store, desk_settings(opened.desk_store), opened.team_desk)
    finally:
        opened.close()
