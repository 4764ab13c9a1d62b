"""briefdesk-cli's command line: the global options found anywhere on it, and the parser of
the rest (`build_parser`). Parsing opens nothing: a refused line creates no home.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import NoReturn, TypedDict

from agent_core.home import limits

GLOBAL_VALUE_OPTIONS = ("--home", "--corpus", "--artifacts", "--db")
TAKE_OVER_HELP = (
    "confirm taking the run from an owner this machine cannot see (recorded under another "
    "host name, or another desk whose lease lapsed); refused while that owner provably runs"
)


class GlobalOptions(TypedDict, total=False):
    """The options valid before or after any command, and what the command learnt on the way."""

    json: bool
    home: str
    corpus: str
    artifacts: str
    db: str
    driven_run: str
    """The run `run`/`resume` drives (set by `execute`), so Ctrl-C can say where it stopped."""


class UsageError(Exception):
    pass


class VersionRequested(Exception):
    """`--version` was given: main prints the version (as JSON with --json) and exits 0."""


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        raise VersionRequested


class HelpRequested(Exception):
    """`--help` was given: main prints the help (as `{"help": TEXT}` with --json), exits 0."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def print_help(self, file: object = None) -> None:
        raise HelpRequested(self.format_help())


def before_separator(argv: Sequence[str]) -> list[str]:
    """The line up to its first `--`: what follows belongs to another program (`mcp add`)."""
    items = list(argv)
    return items[: items.index("--")] if "--" in items else items


def split_globals(argv: Sequence[str]) -> tuple[GlobalOptions, list[str]]:
    """Pull --home/--db/--json/--corpus/--artifacts from anywhere on the command line before
    its first `--` (after it, everything is kept as given)."""
    found: GlobalOptions = {"json": False}
    rest: list[str] = []
    items = before_separator(argv)
    tail = list(argv)[len(items) :]
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
            _set_value(found, name, value)
        else:
            rest.append(arg)
        i += 1
    return found, rest + tail


def parse_line(rest: Sequence[str]) -> argparse.Namespace:
    """The command line without its globals, parsed. `mcp add ... -- COMMAND [ARG...]`: what
    follows the first `--` is the server's command, taken whole (it may have options of its
    own), never read as BriefDesk's."""
    items = list(rest)
    server_command: list[str] | None = None
    if items[:2] == ["mcp", "add"] and "--" in items:
        cut = items.index("--")
        items, server_command = items[:cut], items[cut + 1 :]
    args = build_parser().parse_args(items)
    if server_command is not None:
        args.server_command = server_command
    return args


def _set_value(found: GlobalOptions, name: str, value: str) -> None:
    if name == "--home":
        found["home"] = value
    elif name == "--corpus":
        found["corpus"] = value
    elif name == "--artifacts":
        found["artifacts"] = value
    else:
        found["db"] = value


def _bounded(bound: limits.Bound) -> Callable[[str], int | float]:
    """An argparse type: the number checked against its bound (agent_core.home.limits) before the
    home is even opened, so a refused flag creates nothing."""

    def parse(text: str) -> int | float:
        try:
            return bound.parse_text(text)
        except limits.OutOfRange as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def _global_options(p: argparse.ArgumentParser) -> None:
    """Shown in the help only: `split_globals` takes them off the line before parsing (and
    SUPPRESS keeps them off the parsed namespace)."""
    g = p.add_argument_group("global options (accepted anywhere on the line)")
    for flag, metavar, what in (
        ("--home", "DIR", "the home folder (else $BRIEFDESK_HOME, else the user data folder)"),
        ("--db", "URL", "a team's PostgreSQL database (else $BRIEFDESK_DB, else db.url)"),
        ("--corpus", "DIR", "the documents folder of this run (run, corpus)"),
        ("--artifacts", "DIR", "the folder this run writes its briefs into (run)"),
    ):
        g.add_argument(flag, metavar=metavar, default=argparse.SUPPRESS, help=what)
    g.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object"
    )
    g.add_argument("--version", action=_VersionAction)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="briefdesk-cli", description="Drive BriefDesk from the command line.")
    _global_options(p)
    sub = p.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND", title="commands"
    )

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

    resume = sub.add_parser("resume", help="continue a run from its latest checkpoint")
    resume.add_argument("run_id")
    resume.add_argument("--take-over", action="store_true", help=TAKE_OVER_HELP)
    cancel = sub.add_parser("cancel", help="end a run that is not finished")
    cancel.add_argument("run_id")
    cancel.add_argument("--reviewer", help="who cancels (default: the reviewer setting)")
    cancel.add_argument("--take-over", action="store_true", help=TAKE_OVER_HELP)
    answer = sub.add_parser("answer", help="answer the question a waiting run asked")
    answer.add_argument("run_id")
    answer.add_argument("--text", required=True)

    runs = sub.add_parser("runs", help="list runs; runs delete RUN_ID deletes a finished one")
    runs.add_argument("action", nargs="?", choices=["delete"])
    runs.add_argument("run_id", nargs="?")

    tl = sub.add_parser("timeline", help="a run's events, oldest first")
    tl.add_argument("run_id", nargs="?")
    tl.add_argument("--home-events", action="store_true")  # run_id null: stray files, no run
    tl.add_argument("--since", type=_bounded(limits.SEQ), default=0)

    sub.add_parser(
        "inbox", help="every decision you owe, across runs and desks: soonest expiry first"
    )

    ap = sub.add_parser(
        "approvals",
        help="write proposals: list, show, approve, reject (--revise), edit, revert, resolve",
    )
    ap_sub = ap.add_subparsers(dest="action", required=True, parser_class=_Parser)
    ls = ap_sub.add_parser("list", help="proposals, their targets whole")
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

    rv = ap_sub.add_parser(
        "revert",
        help="propose putting an executed write's target back as it was before it (a person "
        "decides; resume executes it)",
    )
    rv.add_argument("id", help="the approval of the executed write")
    rv.add_argument("--reviewer", required=True)
    rv.add_argument("--reason", help="why (kept as the revert's revision_note)")

    rs = ap_sub.add_parser(
        "resolve",
        help="for a call whose outcome is unknown: --done records that it happened (it is not "
        "called again)",
    )
    rs.add_argument("id", help="the proposal that asks whether the call happened")
    rs.add_argument("--reviewer", required=True)
    rs.add_argument("--done", action="store_true", required=True, help="it did happen")
    rs.add_argument("--reason")

    rules = sub.add_parser(
        "rules", help="remembered decisions: list, revoke, suggest, add --from-suggestion N"
    )
    rules.add_argument("action", choices=["list", "revoke", "suggest", "add"])
    rules.add_argument("id", nargs="?")
    rules.add_argument("--reviewer", help="who revokes or adds (default: the reviewer setting)")
    rules.add_argument(
        "--from-suggestion",
        type=int,
        metavar="N",
        help="add: make the N-th rule `rules suggest` lists (1-based)",
    )

    grants = sub.add_parser(
        "grants", help="who may decide what (team administration): list, add, revoke, desk-role"
    )
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

    audit = sub.add_parser("audit", help="decisions, revoked rules and blocked actions")
    audit.add_argument("--run")
    audit.add_argument("--principal", help="only person:NAME, rule:ID, policy:MODE or model")

    keys = sub.add_parser("keys", help="secrets in the OS keyring: set, status, delete")
    keys.add_argument("action", choices=["set", "status", "delete"])
    keys.add_argument("name")

    mem = sub.add_parser("memory", help="long-term memory: list, delete --user U")
    mem.add_argument("action", choices=["list", "delete"])
    mem.add_argument("--user")

    corpus = sub.add_parser(
        "corpus", help="the documents the agent reads, and their index: status, list, reindex"
    )
    corpus_sub = corpus.add_subparsers(dest="action", required=True, parser_class=_Parser)
    corpus_sub.add_parser("status", help="documents, indexed, pending and failed, by type")
    corpus_list = corpus_sub.add_parser("list", help="every document with its status")
    corpus_list.add_argument("--failed", action="store_true", help="only those that failed")
    corpus_sub.add_parser("reindex", help="index what changed, then print the status")

    providers = sub.add_parser("providers", help="the model endpoint: check")
    providers.add_argument("action", choices=["check"], help="one small request to it")

    db = sub.add_parser(
        "db", help="the store, and moving a home into a team's: status, password, copy"
    )
    db_sub = db.add_subparsers(dest="action", required=True, parser_class=_Parser)
    db_sub.add_parser("status", help="which store, its schema revision, whether it answers")
    db_sub.add_parser(
        "password", help="store the team database's password (read from stdin) in the keyring"
    )
    db_copy = db_sub.add_parser(
        "copy", help="copy this home's store into an empty PostgreSQL database, then check it"
    )
    db_copy.add_argument("--to", required=True, metavar="URL", help="the empty database")

    _mcp_parser(
        sub.add_parser(
            "mcp", help="MCP servers of this desk: add, list, tools, tier, remove, serve"
        )
    )

    st = sub.add_parser("settings", help="preferences: get [KEY], set KEY VALUE")
    st.add_argument("action", choices=["get", "set"])
    st.add_argument("key", nargs="?")
    st.add_argument("value", nargs="?")

    _agents_parser(
        sub.add_parser(
            "agents",
            help="the coding agents BriefDesk decides for: connect, disconnect, status",
        )
    )

    hook = sub.add_parser(
        "hook",
        help="a coding agent's hook: its hook call on stdin, its answer on stdout in its own "
        "format (waits for a person's decision; never imports the Agents SDK)",
    )
    hook.add_argument("name", help="claude-code, codex or gemini")
    return p


def _agents_parser(agents: argparse.ArgumentParser) -> None:
    agents_sub = agents.add_subparsers(dest="action", required=True, parser_class=_Parser)
    project_help = "Claude Code only: that folder's .claude/settings.json, not the user's"
    for action, what in (
        ("connect", "write BriefDesk's hook into the agent's settings (a copy is kept)"),
        ("disconnect", "remove exactly what connect added"),
    ):
        one = agents_sub.add_parser(action, help=what)
        one.add_argument("name", choices=["claude-code", "codex", "gemini"])
        one.add_argument("--project", metavar="DIR", help=project_help)
        one.add_argument(
            "--dry-run", action="store_true", help="print the change as a diff, write nothing"
        )
    status = agents_sub.add_parser("status", help="each agent: connected, settings, version")
    status.add_argument("--project", metavar="DIR", help=project_help)


def _mcp_parser(mcp: argparse.ArgumentParser) -> None:
    mcp_sub = mcp.add_subparsers(dest="action", required=True, parser_class=_Parser)
    add = mcp_sub.add_parser(
        "add",
        help="register a stdio MCP server (it is not started)",
        usage="briefdesk-cli mcp add NAME [--env KEY=VALUE|KEY=keyring:SECRET_NAME]... "
        "[--root DIR]... [--network] [--no-sandbox] [--trust-hints] -- COMMAND [ARG...]",
    )
    add.add_argument("name")
    add.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="KEY=VALUE|KEY=keyring:SECRET_NAME",
        help="a variable of its environment; keyring: values are read when it starts",
    )
    add.add_argument(
        "--trust-hints", action="store_true", help="let its readOnlyHint make a tool read-tier"
    )
    add.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder it may read and write (besides folders named as its arguments)",
    )
    add.add_argument(
        "--network", action="store_true", help="let it reach the network (otherwise none)"
    )
    add.add_argument(
        "--no-sandbox",
        dest="sandbox",
        action="store_false",
        help="run it unconfined: it can read your home and BriefDesk's secrets",
    )
    add.set_defaults(server_command=[])
    mcp_sub.add_parser("list", help="the registered servers (never an env value)")
    mcp_sub.add_parser("tools", help="start a server and list its tools").add_argument("name")
    tier = mcp_sub.add_parser("tier", help="override one tool's tier")
    tier.add_argument("name")
    tier.add_argument("tool")
    tier.add_argument("tier", choices=["read", "write", "network", "interaction"])
    mcp_sub.add_parser("remove", help="forget a server and its tier overrides").add_argument("name")
    mcp_sub.add_parser(
        "serve",
        help="be an MCP server on stdin/stdout: any MCP client gets this desk's servers' "
        "tools, every call decided as a run's (lives as long as its client)",
    )
