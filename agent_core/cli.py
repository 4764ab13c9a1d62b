"""briefdesk-cli: everything the GUI does, headless, on the same home (see the CLI contract).

A thin caller of Workspace. Only `run`, `resume` and `cancel` may import the Agents SDK.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agent_core.cli_text import render_text, review_view
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.version import version

API = 1
GLOBAL_VALUE_OPTIONS = ("--home", "--corpus", "--artifacts")
EXIT_ERROR = 2
EXIT_RUN_FAILED = 1


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


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def split_globals(argv: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """Pull --home/--json/--corpus/--artifacts from anywhere on the command line."""
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
            found[name.lstrip("-")] = value
        else:
            rest.append(arg)
        i += 1
    return found, rest


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="briefdesk-cli", description="Drive BriefDesk from the command line.")
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="start a run and drive it to its next stop")
    run.add_argument("--question", required=True)
    run.add_argument("--thread")
    run.add_argument("--model")
    run.add_argument("--mode", choices=["default", "acceptEdits", "dangerouslySkipPermissions"])
    run.add_argument("--approval-ttl", type=float)
    run.add_argument("--max-turns", type=int)
    run.add_argument("--max-tool-calls", type=int)
    run.add_argument("--max-tokens", type=int, help="token budget for remote models")
    run.add_argument("--max-seconds", type=float, help="wall-time budget of the run")

    sub.add_parser("resume").add_argument("run_id")
    cancel = sub.add_parser("cancel")
    cancel.add_argument("run_id")
    cancel.add_argument("--reviewer", help="who cancels (default: the reviewer setting)")
    answer = sub.add_parser("answer")
    answer.add_argument("run_id")
    answer.add_argument("--text", required=True)

    runs = sub.add_parser("runs")
    runs.add_argument("action", nargs="?", choices=["delete"])
    runs.add_argument("run_id", nargs="?")

    tl = sub.add_parser("timeline")
    tl.add_argument("run_id")
    tl.add_argument("--since", type=int, default=0)

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

    rules = sub.add_parser("rules")
    rules.add_argument("action", choices=["list", "revoke"])
    rules.add_argument("id", nargs="?")

    audit = sub.add_parser("audit")
    audit.add_argument("--run")

    keys = sub.add_parser("keys")
    keys.add_argument("action", choices=["set", "status", "delete"])
    keys.add_argument("name")

    mem = sub.add_parser("memory")
    mem.add_argument("action", choices=["list", "delete"])
    mem.add_argument("--user")

    providers = sub.add_parser("providers", help="the model endpoint")
    providers.add_argument("action", choices=["check"], help="one small request to it")

    st = sub.add_parser("settings")
    st.add_argument("action", choices=["get", "set"])
    st.add_argument("key", nargs="?")
    st.add_argument("value", nargs="?")
    return p


def _workspace(globals_: dict[str, Any]) -> Any:
    from agent_core.workspace import Workspace

    return Workspace(globals_.get("home"))


def _need(value: str | None, what: str) -> str:
    if not value:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{what} is required.")
    return value


def execute(args: argparse.Namespace, g: dict[str, Any]) -> Mapping[str, object]:
    """Run one command; returns the JSON body (without `api`)."""
    cmd = args.command
    if cmd == "keys":
        from agent_core import secrets

        if args.action == "set":
            secret = sys.stdin.read()
            return secrets.set_key(args.name, secret)
        if args.action == "delete":
            return secrets.delete_key(args.name)
        return secrets.key_status(args.name)
    ws = _workspace(g)
    try:
        if cmd in ("runs", "approvals", "timeline", "audit", "cancel", "answer"):
            ws.sweep_expired()  # reads never write; a command settles what is overdue first
        if cmd == "run":
            from agent_core.artifacts import drive_watched

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
            return drive_watched(ws, run_id)  # confirms its own writes before it exits
        if cmd == "resume":
            from agent_core.artifacts import drive_watched

            return drive_watched(ws, args.run_id)
        if cmd == "cancel":
            return ws.cancel(args.run_id, reviewer=args.reviewer)
        if cmd == "answer":
            return ws.answer(args.run_id, args.text)
        if cmd == "runs":
            if args.action == "delete":
                return {"deleted": ws.delete_run(_need(args.run_id, "RUN_ID"))}
            return {"runs": ws.list_runs()}
        if cmd == "timeline":
            return {"events": ws.timeline(args.run_id, since=args.since)}
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
                return {"approval": ws.reject(args.id, reviewer=args.reviewer, reason=args.reason)}
            return {"approval": ws.edit(args.id, reviewer=args.reviewer, args=args.args)}
        if cmd == "rules":
            if args.action == "revoke":
                return {"rule": ws.revoke_rule(_need(args.id, "ID"))}
            return {"rules": ws.list_rules()}
        if cmd == "audit":
            return {"entries": ws.audit_entries(args.run)}
        if cmd == "memory":
            if args.action == "delete":
                return {"deleted": ws.delete_user_memory(_need(args.user, "--user"))}
            return {"memories": ws.memories()}
        if cmd == "providers":
            return {"provider": ws.providers_check()}
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


def _emit(as_json: bool, body: Mapping[str, object], text: Callable[[], str]) -> None:
    if as_json:
        print(json.dumps({"api": API, **body}, ensure_ascii=False))
    else:
        print(text())


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        g, rest = split_globals(argv)
        args = build_parser().parse_args(rest)
        body = execute(args, g)
    except VersionRequested:
        _emit(as_json, {"version": version()}, lambda: f"briefdesk-cli {version()}")
        return 0
    except UsageError as exc:
        usage = str(exc)
        _emit(
            as_json,
            {"error": {"code": "invalid_arguments", "message": usage}},
            lambda: f"usage error: {usage}\n(try briefdesk-cli --help)",
        )
        return EXIT_ERROR
    except BriefDeskError as exc:
        error = exc.to_json()
        _emit(as_json, {"error": error}, lambda: f"error [{error['code']}]: {error['message']}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    _emit(as_json, body, lambda: render_text(dict(body)))
    if "run_id" in body and body.get("status") == "failed":
        return EXIT_RUN_FAILED
    provider = body.get("provider")
    if isinstance(provider, dict) and not provider.get("ok"):
        return EXIT_RUN_FAILED  # `providers check`: the endpoint did not answer as it should
    return 0


if __name__ == "__main__":
    sys.exit(main())
