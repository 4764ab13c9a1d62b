"""Refusals made before a command opens its home, so that a refused call creates nothing.

Opening a Workspace initialises a new home (its folders, `state.db`, the demo corpus). So what
can be refused without a store is refused here first, by the validators the façade itself
uses: the store's URL, required arguments, JSON and names a person typed, setting keys and
values, folders. And a home with no `state.db` holds no run, proposal, rule or grant yet: a
lookup there is `not_found` (the store's own answer once it exists) without creating it.

The façade keeps its own checks: this module only moves the refusal earlier, never adds one.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.cli.parser import GlobalOptions
from agent_core.contract.errors import BriefDeskError, ErrorCode

if TYPE_CHECKING:
    from agent_core.home.config import Home

# The façade's modules are imported where they are used: `keys` and `--version` stay as
# cheap as they were (SQLAlchemy and the tool registry cost most of a second to import).

# Commands that never open a home (the keyring; `db status`/`db password` read it unopened).
_WITHOUT_HOME = frozenset({"keys", "db status", "db password"})


def refuse_early(args: argparse.Namespace, g: GlobalOptions) -> argparse.Namespace:
    """Raise the refusal this command would meet once its home is open; else return `args`."""
    name = _name(args)
    if name in _WITHOUT_HOME or args.command in _WITHOUT_HOME:
        return args  # `db status` and `db password` check the URL they are given themselves
    from agent_core.facade.team import TeamStoreFacade
    from agent_core.home.config import Home, check_path_names, resolve_home_dir
    from agent_core.storage.location import checked_db_option

    checked_db_option(g.get("db"))  # --db, else $BRIEFDESK_DB: a malformed URL creates nothing
    home = Home(resolve_home_dir(g.get("home")))  # a name too long for the system is refused
    for folder, what in (
        (g.get("corpus"), "corpus folder"),
        (g.get("artifacts"), "artifacts folder"),
    ):
        if folder:
            check_path_names(folder, what)
    home.check()
    team = TeamStoreFacade.chosen_team_db(g.get("home"), db=g.get("db")) is not None
    check = _CHECKS.get(name)
    if check is not None:
        check(args, g, home, team)
    if not team and not home.db_path.exists():
        _refuse_lookup_in_new_home(name, args)
    return args


def _name(args: argparse.Namespace) -> str:
    action = getattr(args, "action", None)
    return f"{args.command} {action}" if action else str(args.command)


def _need(value: str | None, what: str) -> str:
    if not value:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{what} is required.")
    return value


def _reviewer(reviewer: str | None) -> None:
    if not (reviewer or "").strip():
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "A reviewer name is required (--reviewer)."
        )


# -- what each command refuses before it opens anything -------------------------------------

Check = Callable[[argparse.Namespace, GlobalOptions, "Home", bool], None]


def _run(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    if not (args.question or "").strip():
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The question must not be empty.")
    from agent_core.home.config import existing_folder, refuse_non_folder
    from agent_core.tools.agent_calls.registry import refuse_agent_thread

    refuse_agent_thread(args.thread)
    from agent_core.home.mounts import refuse_system_folder

    if args.model:
        from agent_core.models.registry import validate_model_spec

        validate_model_spec(args.model)
    if g.get("corpus"):
        existing_folder(Path(g["corpus"]).expanduser().resolve(), "corpus folder")
    if g.get("artifacts"):
        artifacts = Path(g["artifacts"]).expanduser().resolve()
        refuse_system_folder(artifacts)
        home.check_artifacts(artifacts)
        refuse_non_folder(artifacts, "artifacts folder")


def _answer(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    if not (args.text or "").strip():
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The answer must not be empty.")


def _timeline(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    if args.home_events and args.run_id:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "Give a RUN_ID or --home-events, not both."
        )
    if not args.home_events:
        _need(args.run_id, "RUN_ID")


def _approvals_list(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.contract.statuses import ApprovalStatus

    if args.status and args.status not in ApprovalStatus._value2member_map_:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Unknown approval status {args.status!r}."
        )


def _decision(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.contract.approvals import required_note
    from agent_core.contract.json_input import object_argument

    if getattr(args, "revise", False):
        required_note(args.reason)  # the façade checks the note first, then the reviewer
    _reviewer(args.reviewer)
    if args.action == "edit":
        object_argument(args.args)


def _revert(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.review.person_door import check_note

    check_note(args.reason)
    _reviewer(args.reviewer)


def _settings_get(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.home.preferences import Settings

    if args.key and args.key not in Settings().to_json():
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"Unknown setting {args.key!r}.")


def _settings_set(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.home.preferences import Settings, json_value

    key = _need(args.key, "KEY")
    json_value(key, Settings.parse(key, _need(args.value, "VALUE")))


def _grants_add(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.facade.grants import check_grant

    check_grant(
        reviewer=args.reviewer, tool=args.tool, folder=args.folder, role=args.role, team=team
    )


def _desk_role(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    if not team:  # the store's own refusal on SQLite (storage/desk_roles.py)
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "Desk roles are PostgreSQL roles: give --db postgresql://OWNER@HOST/DB (the team "
            "database, logged in as its owner).",
        )


def _db_copy(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.storage.location import parse_db_url

    parse_db_url(args.to)


def _corpus(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.home.config import existing_folder

    if g.get("corpus"):  # `run --corpus` refuses the same way
        existing_folder(Path(g["corpus"]).expanduser().resolve(), "corpus folder")


def _mcp_add(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.tools.mcp.servers import new_server

    command, *server_args = args.server_command or [""]
    new_server(
        args.name,
        command,
        server_args,
        args.env,
        trust_hints=args.trust_hints,
        roots=args.root,
        network=args.network,
        sandbox=args.sandbox,
    )


def _mcp_tier(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.tools.mcp.servers import check_tool_name

    check_tool_name(args.tool)


def _rules_add(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
    from agent_core.review.suggested_rules import suggestion_number

    number = suggestion_number(args.from_suggestion, args.id)
    if not team and not home.db_path.exists():  # a new home has no suggestion (the store's answer)
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"No suggestion {number}: there are no suggestions (nothing was decided here yet).",
        )


def _required(attribute: str, what: str) -> Check:
    def check(args: argparse.Namespace, g: GlobalOptions, home: Home, team: bool) -> None:
        _need(getattr(args, attribute), what)

    return check


_CHECKS: dict[str, Check] = {
    "run": _run,
    "answer": _answer,
    "timeline": _timeline,
    "runs delete": _required("run_id", "RUN_ID"),
    "rules revoke": _required("id", "ID"),
    "rules add": _rules_add,
    "memory delete": _required("user", "--user"),
    "approvals list": _approvals_list,
    "approvals approve": _decision,
    "approvals reject": _decision,
    "approvals edit": _decision,
    "approvals revert": _revert,
    "approvals resolve": _revert,
    "settings get": _settings_get,
    "settings set": _settings_set,
    "grants add": _grants_add,
    "grants desk-role": _desk_role,
    "db copy": _db_copy,
    "corpus status": _corpus,
    "corpus list": _corpus,
    "corpus reindex": _corpus,
    "mcp add": _mcp_add,
    "mcp tier": _mcp_tier,
}


# -- lookups in a home that does not exist yet ----------------------------------------------


def _refuse_lookup_in_new_home(name: str, args: argparse.Namespace) -> None:
    """A new home has nothing to find: the store's own not_found, before it is created.

    Read from what the line names, not from a list of commands: a RUN_ID or a `--run` filter
    (`approvals list --run`, `audit --run`), an approval's, rule's or grant's ID, an MCP
    server's NAME. An empty name (`resume ''`) finds nothing either.
    """
    command = str(args.command)
    for attribute in ("run_id", "run"):
        run_id = getattr(args, attribute, None)
        if run_id is not None:
            raise BriefDeskError(ErrorCode.NOT_FOUND, f"No run {run_id!r} in this home.")
    found_by_id = {"approvals": "approval", "rules": "rule", "grants": "grant"}
    item_id = getattr(args, "id", None)
    if item_id is not None and command in found_by_id:
        suffix = " in this home" if command == "approvals" else ""
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No {found_by_id[command]} {item_id!r}{suffix}.")
    server = getattr(args, "name", None)
    if command == "mcp" and name != "mcp add" and server is not None:
        raise BriefDeskError(
            ErrorCode.NOT_FOUND,
            f"No MCP server named {server[:40]!r} is registered on this desk "
            "(briefdesk-cli mcp list).",
        )
