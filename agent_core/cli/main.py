"""briefdesk-cli: everything the GUI does, headless, on the same home (see the CLI contract).

A thin caller of Workspace. Only `run`, `resume` and `cancel` may import the Agents SDK.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agent_core.cli.preflight import refuse_early
from agent_core.cli.text import render_text, review_view
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.terminal_text import terminal_block, terminal_line
from agent_core.home import limits
from agent_core.home.version import version

API = 1
GLOBAL_VALUE_OPTIONS = ("--home", "--corpus", "--artifacts", "--db")
EXIT_ERROR = 2
EXIT_RUN_FAILED = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_STDOUT_CLOSED = 141  # 128 + SIGPIPE, as `yes | head -1` reports it
DRIVEN_RUN = "driven_run"  # the run `run`/`resume` drives, for Ctrl-C (set by execute)


class UsageError(Exception):
    pass


class VersionRequested(Exception):
    """`--version` was given: main prints the version (as JSON with --json) and exits 0."""


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        raise VersionRequested


class HelpRequested(Exception):
    """`--help` was given: main prints the help (as `{"help": TEXT}` with --json), exits 0."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)

    def print_help(self, file: Any = None) -> None:
        raise HelpRequested(self.format_help())


def split_globals(argv: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """Pull --home/--db/--json/--corpus/--artifacts from anywhere on the command line."""
    found: dict[str, Any] = {"json": False}
    rest: list[str] = []
    items = list(argv)
    i = 0
    while i < len(items):
        arg = items[i]
        name, eq, value = arg.partition("=")
        if arg == "--json":
            found["json"] = True
        elif name in GLOBAL_VALUE_OPTIONS:
            if not eq:
                if i + 1 >= len(items):
                    raise UsageError(f"{name} needs a value")
                i += 1
                value = items[i]
            if not value.strip():
                # An empty --home would silently be the default home: refuse it instead.
                what = "a PostgreSQL URL" if name == "--db" else "a folder"
                raise UsageError(f"{name} needs {what}, not an empty value")
            found[name.lstrip("-")] = value
        else:
            rest.append(arg)
        i += 1
    return found, rest


def _bounded(bound: limits.Bound) -> Callable[[str], int | float]:
    """An argparse type: the number checked against its bound (agent_core.home.limits) before the
    home is even opened, so a refused flag creates nothing."""

    def parse(text: str) -> int | float:
        try:
            return bound.parse_text(text)
        except limits.OutOfRange as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="briefdesk-cli", description="Drive BriefDesk from the command line.")
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="start a run and drive it to its next stop")
    run.add_argument("--question", required=True)
    run.add_argument("--thread")
    run.add_argument("--model")
    run.add_argument("--mode", choices=["default", "acceptEdits", "dangerouslySkipPermissions"])
    run.add_argument("--approval-ttl", type=_bounded(limits.SECONDS))
    run.add_argument("--max-turns", type=_bounded(limits.COUNT))
    run.add_argument("--max-tool-calls", type=_bounded(limits.COUNT))
    run.add_argument(
        "--max-tokens", type=_bounded(limits.TOKENS), help="token budget for remote models"
    )
    run.add_argument(
        "--max-seconds", type=_bounded(limits.SECONDS), help="wall-time budget of the run"
    )

    resume = sub.add_parser("resume")
    resume.add_argument("run_id")
    resume.add_argument("--take-over", action="store_true", help=TAKE_OVER_HELP)
    cancel = sub.add_parser("cancel")
    cancel.add_argument("run_id")
    cancel.add_argument("--reviewer", help="who cancels (default: the reviewer setting)")
    cancel.add_argument("--take-over", action="store_true", help=TAKE_OVER_HELP)
    answer = sub.add_parser("answer")
    answer.add_argument("run_id")
    answer.add_argument("--text", required=True)

    runs = sub.add_parser("runs")
    runs.add_argument("action", nargs="?", choices=["delete"])
    runs.add_argument("run_id", nargs="?")

    tl = sub.add_parser("timeline")
    tl.add_argument("run_id", nargs="?")
    tl.add_argument("--home-events", action="store_true")  # run_id null: stray files, no run
    tl.add_argument("--since", type=_bounded(limits.SEQ), default=0)

    ap = sub.add_parser("approvals")
    ap_sub = ap.add_subparsers(dest="action", required=True, parser_class=_Parser)
    ls = ap_sub.add_parser("list")
    ls.add_argument("--status")
    ls.add_argument("--run")
    ap_sub.add_parser("show", help="the proposal and a diff against the current file").add_argument(
        "id"
    )
    for action in ("approve", "reject", "edit"):
        a = ap_sub.add_parser(action)
        a.add_argument("id")
        a.add_argument("--reviewer", required=True)
        if action == "edit":
            a.add_argument("--args", required=True)
        else:
            a.add_argument("--reason")
        if action == "approve":
            a.add_argument("--remember", choices=["run", "home"])
        if action == "reject":
            a.add_argument(
                "--revise",
                action="store_true",
                help="request changes: send --reason back to the agent instead of ending the run",
            )

    rules = sub.add_parser("rules")
    rules.add_argument("action", choices=["list", "revoke"])
    rules.add_argument("id", nargs="?")

    grants = sub.add_parser("grants", help="who may decide what (team administration)")
    grants_sub = grants.add_subparsers(dest="action", required=True, parser_class=_Parser)
    grants_sub.add_parser("list")
    grant_add = grants_sub.add_parser(
        "add", help="let a reviewer decide (the first grant turns on the checks)"
    )
    grant_add.add_argument("--reviewer", required=True)
    grant_add.add_argument("--tool", help="only this tool's proposals (default: every tool)")
    grant_add.add_argument("--folder", help="only targets under this absolute folder")
    grant_add.add_argument("--role", help="only through this PostgreSQL role (team mode)")
    grants_sub.add_parser("revoke").add_argument("id")
    grants_sub.add_parser(
        "desk-role", help="give a desk's own PostgreSQL role its privileges (as the owner)"
    ).add_argument("role")

    audit = sub.add_parser("audit")
    audit.add_argument("--run")
    audit.add_argument("--principal", help="only person:NAME, rule:ID, policy:MODE or model")

    keys = sub.add_parser("keys")
    keys.add_argument("action", choices=["set", "status", "delete"])
    keys.add_argument("name")

    mem = sub.add_parser("memory")
    mem.add_argument("action", choices=["list", "delete"])
    mem.add_argument("--user")

    providers = sub.add_parser("providers", help="the model endpoint")
    providers.add_argument("action", choices=["check"], help="one small request to it")

    db = sub.add_parser("db", help="the store: which one, and moving a home into a team's")
    db_sub = db.add_subparsers(dest="action", required=True, parser_class=_Parser)
    db_sub.add_parser("status", help="which store, its schema revision, whether it answers")
    db_sub.add_parser(
        "password", help="store the team database's password (read from stdin) in the keyring"
    )
    db_copy = db_sub.add_parser(
        "copy", help="copy this home's store into an empty PostgreSQL database, then check it"
    )
    db_copy.add_argument("--to", required=True, metavar="URL", help="the empty database")

    st = sub.add_parser("settings")
    st.add_argument("action", choices=["get", "set"])
    st.add_argument("key", nargs="?")
    st.add_argument("value", nargs="?")
    return p


def _workspace(globals_: dict[str, Any]) -> Any:
    from agent_core.facade.workspace import Workspace

    return Workspace(globals_.get("home"), db=globals_.get("db"))


TAKE_OVER_HELP = (
    "confirm taking the run from an owner this machine cannot see (recorded under another "
    "host name, or another desk whose lease lapsed); refused while that owner provably runs"
)


def _tell_taken_over(run_id: str, owner: Mapping[str, object] | None) -> None:
    """Who owned the run goes to stderr: stdout stays one JSON object."""
    if owner is not None:
        print(
            terminal_line(
                f"Took over run {run_id} from process {owner['pid']} on host "
                f"{owner['host']!r}"
                + (f" (desk {owner['desk']!r})" if owner.get("desk") else "")
                + f", its owner since {owner['since']}."
            ),
            file=sys.stderr,
        )


def _need(value: str | None, what: str) -> str:
    if not value:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{what} is required.")
    return value


def execute(args: argparse.Namespace, g: dict[str, Any]) -> Mapping[str, object]:
    """Run one command; returns the JSON body (without `api`)."""
    cmd = args.command
    if cmd == "keys":
        from agent_core.home import secrets

        if args.action == "set":
            secret = sys.stdin.read()
            return secrets.set_key(args.name, secret)
        if args.action == "delete":
            return secrets.delete_key(args.name)
        return secrets.key_status(args.name)
    if cmd == "db" and args.action == "status":
        from agent_core.facade.workspace import Workspace

        # Before any store opens: it must answer while a team's server is away.
        return {"store": Workspace.store_status(g.get("home"), db=g.get("db"))}
    if cmd == "db" and args.action == "password":
        from agent_core.facade.workspace import Workspace

        url = Workspace.chosen_team_db(g.get("home"), db=g.get("db"))
        if url is None:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                "This home uses its own SQLite file: name the team database with --db URL "
                "(or `settings set db.url URL`) first.",
            )
        return {"password": Workspace.set_db_password(url, sys.stdin.read())}
    ws = _workspace(g)
    try:
        if cmd in ("runs", "approvals", "timeline", "audit", "cancel", "answer"):
            ws.sweep_expired()  # reads never write; a command settles what is overdue first
        if cmd in ("run", "resume") or (cmd == "runs" and args.action is None):
            ws.settle_unconfirmed_writes()  # confirmations a kill lost (artifacts/settle.py)
        if cmd == "run":
            from agent_core.artifacts.watcher import drive_watched

            run_id = ws.create_run(
                args.question,
                thread=args.thread,
                model=args.model,
                mode=args.mode,
                approval_ttl=args.approval_ttl,
                max_turns=args.max_turns,
                max_tool_calls=args.max_tool_calls,
                max_tokens=args.max_tokens,
                max_seconds=args.max_seconds,
                corpus=g.get("corpus"),
                artifacts=g.get("artifacts"),
            )
            g[DRIVEN_RUN] = run_id
            return drive_watched(ws, run_id)  # confirms its own writes before it exits
        if cmd == "resume":
            from agent_core.artifacts.watcher import drive_watched

            g[DRIVEN_RUN] = args.run_id
            if args.take_over:
                _tell_taken_over(args.run_id, ws.take_over(args.run_id))
            else:
                ws.check_own_desk(args.run_id)  # before a watcher: its folder is on that desk
            return drive_watched(ws, args.run_id)
        if cmd == "cancel":
            owner = ws.run_owner(args.run_id) if args.take_over else None
            run = ws.cancel(args.run_id, reviewer=args.reviewer, take_over=args.take_over)
            if owner is not None and not owner["this_host"]:
                _tell_taken_over(args.run_id, owner)
            return run
        if cmd == "answer":
            return ws.answer(args.run_id, args.text)
        if cmd == "runs":
            if args.action == "delete":
                return {"deleted": ws.delete_run(_need(args.run_id, "RUN_ID"))}
            good, damaged = ws.list_runs_checked()
            return {"runs": good, "damaged": damaged} if damaged else {"runs": good}
        if cmd == "timeline":
            if args.home_events and args.run_id:
                raise BriefDeskError(
                    ErrorCode.INVALID_ARGUMENTS, "Give a RUN_ID or --home-events, not both."
                )
            if args.home_events:
                return {"events": ws.home_events(since=args.since)}
            return {"events": ws.timeline(_need(args.run_id, "RUN_ID"), since=args.since)}
        if cmd == "approvals":
            if args.action == "list":
                return {"approvals": ws.list_approvals(status=args.status, run_id=args.run)}
            if args.action == "show":
                return review_view(ws.describe_approval(args.id))
            if args.action == "approve":
                return {
                    "approval": ws.approve(
                        args.id, reviewer=args.reviewer, reason=args.reason, remember=args.remember
                    )
                }
            if args.action == "reject":
                return {
                    "approval": ws.reject(
                        args.id, reviewer=args.reviewer, reason=args.reason, revise=args.revise
                    )
                }
            return {"approval": ws.edit(args.id, reviewer=args.reviewer, args=args.args)}
        if cmd == "rules":
            if args.action == "revoke":
                return {"rule": ws.revoke_rule(_need(args.id, "ID"))}
            return {"rules": ws.list_rules()}
        if cmd == "grants":
            if args.action == "add":
                grant = ws.add_grant(
                    reviewer=args.reviewer, tool=args.tool, folder=args.folder, role=args.role
                )
                return {"grant": grant}
            if args.action == "revoke":
                return {"grant": ws.revoke_grant(args.id)}
            if args.action == "desk-role":
                return {"desk_role": ws.grant_desk_role(args.role)}
            return {"grants": ws.list_grants()}
        if cmd == "audit":
            return {"entries": ws.audit_entries(args.run, args.principal)}
        if cmd == "memory":
            if args.action == "delete":
                return {"deleted": ws.delete_user_memory(_need(args.user, "--user"))}
            return {"memories": ws.memories()}
        if cmd == "providers":
            return {"provider": ws.providers_check()}
        if cmd == "db":
            return ws.copy_store(args.to)
        if cmd == "settings":
            if args.action == "set":
                prefs = ws.set_setting(_need(args.key, "KEY"), _need(args.value, "VALUE"))
                return {"settings": prefs.to_json()}
            values = ws.settings().to_json()
            if args.key:
                if args.key not in values:
                    raise BriefDeskError(ErrorCode.NOT_FOUND, f"Unknown setting {args.key!r}.")
                return {"settings": {args.key: values[args.key]}}
            return {"settings": values}
        raise UsageError(f"unknown command {cmd}")
    finally:
        ws.close()


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


def _interrupted(g: dict[str, Any]) -> Mapping[str, object]:
    """After Ctrl-C: the run this command drove, as its lifecycle left it, or an error."""
    run_id = g.get(DRIVEN_RUN)
    if run_id:
        try:
            ws = _workspace(g)
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
    g: dict[str, Any] = {}
    try:
        _check_decodable(argv)
        found, rest = split_globals(argv)
        g.update(found)
        args = refuse_early(build_parser().parse_args(rest), g)  # before a home is created
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
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    body, text, code = _outcome(argv)
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
