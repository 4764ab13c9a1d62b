"""briefdesk-cli: everything the GUI does, headless, on the same home (see the CLI contract).

A thin caller of Workspace, in three parts: `parser.py` reads the command line,
`preflight.py` refuses what it can before a home is opened, `commands.py` runs the command on
the façade; this module prints the answer (one JSON object, or text) and chooses the exit code.
Only `run`, `resume` and `cancel` may import the Agents SDK. `hook` is answered before the
other commands' modules (the façade, the printers) are imported: an agent waits on every one.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence

from agent_core.cli.parser import (
    GlobalOptions,
    HelpRequested,
    UsageError,
    VersionRequested,
    before_separator,
    build_parser,
    parse_line,
    split_globals,
)
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.terminal_text import terminal_block, terminal_line
from agent_core.facade.process import make_undumpable

__all__ = ["build_parser", "main"]

API = 1
EXIT_ERROR = 2
EXIT_RUN_FAILED = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_STDOUT_CLOSED = 141  # 128 + SIGPIPE, as `yes | head -1` reports it


def _json_text(body: Mapping[str, object]) -> str:
    """Strict JSON: json.dumps would print nan/inf as NaN/Infinity, which is not JSON. Every
    number is checked on its way in, so only a damaged stored row can carry one this far."""
    try:
        return json.dumps({"api": API, **body}, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise BriefDeskError(
            ErrorCode.STORAGE_CORRUPT,
            "A stored value is not a finite number, so it cannot be shown as JSON.",
        ) from None


def _emit(as_json: bool, body: Mapping[str, object], text: Callable[[], str]) -> None:
    """Print the result: one JSON object, or text with control characters escaped."""
    encoding = sys.stdout.encoding or "utf-8"
    if as_json:
        line = _json_text(body)
        if not _encodable(line, encoding):  # the same JSON value, with \u escapes
            line = json.dumps(json.loads(line))
    else:
        line = terminal_block(text())  # the net under every text path, whatever built it
        if not _encodable(line, encoding):
            line = line.encode(encoding, "backslashreplace").decode(encoding)
    print(line)
    sys.stdout.flush()  # a closed pipe shows here, where main can still answer it quietly


def _encodable(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _check_decodable(argv: Sequence[str]) -> None:
    """Bytes that are not UTF-8 reach argv as lone surrogates, which no store can hold."""
    for arg in argv:
        if not _encodable(arg, "utf-8"):
            raise UsageError(f"argument '{terminal_line(arg)}' is not valid UTF-8 text")


def _error_text(error: Mapping[str, object]) -> str:
    return f"error [{terminal_line(str(error['code']))}]: {terminal_line(str(error['message']))}"


def _interrupted(g: GlobalOptions) -> Mapping[str, object]:
    """After Ctrl-C: the run this command drove, as its lifecycle left it, or an error."""
    from agent_core.cli.commands import open_workspace

    run_id = g.get("driven_run")
    if run_id:
        try:
            ws = open_workspace(g)
            try:
                return dict(ws.get_run(run_id))
            finally:
                ws.close()
        except (BriefDeskError, KeyboardInterrupt):
            pass  # the store cannot answer now (or Ctrl-C again): say what happened instead
    message = "Interrupted (Ctrl-C) before the command finished."
    if run_id:
        message += f" Run {run_id} may be continued with `briefdesk-cli resume {run_id}`."
    return {"error": BriefDeskError(ErrorCode.INTERRUPTED, message).to_json()}


def _outcome(argv: list[str]) -> tuple[Mapping[str, object], Callable[[], str], int]:
    """What to print and the exit code; prints nothing itself."""
    from agent_core.cli.commands import execute
    from agent_core.cli.preflight import refuse_early
    from agent_core.cli.text import render_text
    from agent_core.home.version import version

    g: GlobalOptions = {}
    try:
        _check_decodable(argv)
        found, rest = split_globals(argv)
        g.update(found)
        args = refuse_early(parse_line(rest), g)  # before a home is created
        body = execute(args, g)
        _json_text(body)  # a non-finite number: an error object here, never NaN printed
    except VersionRequested:
        return {"version": version()}, lambda: f"briefdesk-cli {version()}", 0
    except HelpRequested as asked:
        help_text = asked.text
        return {"help": help_text}, lambda: help_text.rstrip("\n"), 0
    except UsageError as exc:
        usage = str(exc)
        return (
            {"error": {"code": str(ErrorCode.INVALID_ARGUMENTS), "message": usage}},
            lambda: f"usage error: {terminal_line(usage)}\n(try briefdesk-cli --help)",
            EXIT_ERROR,
        )
    except BriefDeskError as exc:
        error = exc.to_json()
        return {"error": error}, lambda: _error_text(error), EXIT_ERROR
    except KeyboardInterrupt:
        stopped = _interrupted(g)
        failure = stopped.get("error")
        if isinstance(failure, dict):
            return stopped, lambda: _error_text(failure), EXIT_INTERRUPTED
        return stopped, lambda: render_text(dict(stopped)), EXIT_INTERRUPTED
    code = 0
    if "run_id" in body and body.get("status") == "failed":
        code = EXIT_RUN_FAILED
    provider = body.get("provider")
    if isinstance(provider, dict) and not provider.get("ok"):
        code = EXIT_RUN_FAILED  # `providers check`: the endpoint did not answer as it should
    return body, lambda: render_text(dict(body)), code


def main(argv: Sequence[str] | None = None) -> int:
    make_undumpable()  # no child of ours reads our environment through /proc
    if getattr(sys, "frozen", False):  # the bundle's corpus parsers run as spawned workers
        import multiprocessing

        multiprocessing.freeze_support()  # a no-op unless frozen: not imported for nothing
    as_program = argv is None  # run as the program, not called in-process (a test)
    argv = list(sys.argv[1:] if argv is None else argv)
    if "hook" in argv:  # imported only for it: every other command starts without a store
        from agent_core.cli.hook_command import end_hook_process, run_hook

        hooked = run_hook(argv)  # the agent's own format, not the JSON envelope
        if hooked is not None and as_program:
            end_hook_process(hooked)
        if hooked is not None:
            return hooked
    from agent_core.cli.commands import AnsweredItself

    as_json = "--json" in before_separator(argv)  # after `--`: a server's own option
    try:
        body, text, code = _outcome(argv)
    except AnsweredItself as done:  # it spoke its own protocol on stdout (`mcp serve`)
        return done.exit_code
    try:
        _emit(as_json, body, text)
    except BrokenPipeError:
        # The reader left (`briefdesk-cli runs | head -1`): no traceback, and no second
        # BrokenPipeError when Python flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_STDOUT_CLOSED
    return code


if __name__ == "__main__":
    sys.exit(main())
