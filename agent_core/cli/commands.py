"""What each briefdesk-cli command does: one call (or a few) on the façade, and the JSON body
it answers with (`execute`). Only `run`, `resume` and `cancel` may import the Agents SDK, so
every façade module is imported where it is used.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from agent_core.cli.parser import GlobalOptions, UsageError
from agent_core.cli.text import review_view
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.terminal_text import terminal_line

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace


def open_workspace(options: GlobalOptions) -> Workspace:
    from agent_core.facade.workspace import Workspace

    return Workspace(options.get("home"), db=options.get("db"))


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


def execute(args: argparse.Namespace, g: GlobalOptions) -> Mapping[str, object]:
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
    if cmd == "agents":
        return _agents(args, g)  # the agents' settings files only: no home is opened
    ws = open_workspace(g)
    try:
        if cmd in ("runs", "approvals", "inbox", "timeline", "audit", "cancel", "answer"):
            ws.sweep_expired()  # reads never write; a command settles what is overdue first
        if cmd in ("run", "resume") or (cmd == "runs" and args.action is None):
            ws.settle_unconfirmed_writes()  # confirmations a kill lost (artifacts/settle.py)
        if cmd == "run":
            from agent_core.facade.watched import drive_watched

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
            g["driven_run"] = run_id
            return drive_watched(ws, run_id)  # confirms its own writes before it exits
        if cmd == "resume":
            from agent_core.facade.watched import drive_watched

            g["driven_run"] = args.run_id
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
        if cmd == "inbox":
            return {"inbox": ws.inbox()}
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
            if args.action == "revert":
                return {"approval": ws.revert(args.id, reviewer=args.reviewer, reason=args.reason)}
            if args.action == "resolve":
                return {
                    "approval": ws.resolve_done(args.id, reviewer=args.reviewer, reason=args.reason)
                }
            return {"approval": ws.edit(args.id, reviewer=args.reviewer, args=args.args)}
        if cmd == "rules":
            if args.action == "revoke":
                rule_id = _need(args.id, "ID")
                return {"rule": ws.revoke_rule(rule_id, reviewer=args.reviewer)}
            if args.action == "suggest":
                return {"suggestions": ws.suggest_rules()}
            if args.action == "add":
                from agent_core.review.suggested_rules import suggestion_number

                number = suggestion_number(args.from_suggestion, args.id)
                return {"rule": ws.add_rule_from_suggestion(number, reviewer=args.reviewer)}
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
        if cmd == "corpus":
            corpus = g.get("corpus")
            if args.action == "list":
                return {"documents": ws.corpus_documents(corpus, failed_only=args.failed)}
            if args.action == "reindex":
                return {"corpus": ws.reindex_corpus(corpus)}
            return {"corpus": ws.corpus_status(corpus)}
        if cmd == "providers":
            return {"provider": ws.providers_check()}
        if cmd == "db":
            return ws.copy_store(args.to)
        if cmd == "mcp":
            return _mcp(ws, args)
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


class AnsweredItself(Exception):
    """The command spoke its own protocol on stdout (`mcp serve`): nothing more is printed."""

    def __init__(self, exit_code: int = 0) -> None:
        super().__init__(exit_code)
        self.exit_code = exit_code


def _mcp_serve(ws: Workspace) -> None:
    """Serve MCP over stdio until the client leaves (external_agents/mcp_serve.py)."""
    import asyncio
    import logging

    from agent_core.external_agents.mcp_client_run import ServeDesk
    from agent_core.external_agents.mcp_serve import serve_stdio

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)  # stdout is the protocol's
    desk = ServeDesk(
        store=ws.store,
        desk_store=ws.desk_store,
        settings=ws.settings(),
        desk=ws.desk,
        team_desk=ws.team_desk,
        log_dir=ws.home.logs,
        corpus=ws.default_corpus(),
        artifacts=ws.home.artifacts,
    )
    asyncio.run(serve_stdio(desk))
    raise AnsweredItself()


def _agents(args: argparse.Namespace, g: GlobalOptions) -> Mapping[str, object]:
    from agent_core.facade import agents

    if args.action == "status":
        return {"agents": agents.agents_status(args.project)}
    if args.action == "connect":
        return agents.connect_agent(
            args.name, project=args.project, home=g.get("home"), dry_run=args.dry_run
        )
    return agents.disconnect_agent(args.name, project=args.project, dry_run=args.dry_run)


def _mcp(ws: Workspace, args: argparse.Namespace) -> Mapping[str, object]:
    if args.action == "serve":
        _mcp_serve(ws)
    if args.action == "add":
        command, *server_args = args.server_command or [""]
        server = ws.mcp_add(
            args.name,
            command,
            server_args,
            env=args.env,
            trust_hints=args.trust_hints,
            roots=args.root,
            network=args.network,
            sandbox=args.sandbox,
        )
        return {"server": server}
    if args.action == "tools":
        return {"tools": ws.mcp_tools(args.name)}
    if args.action == "tier":
        return {"tier": ws.mcp_tier(args.name, args.tool, args.tier)}
    if args.action == "remove":
        return {"removed": ws.mcp_remove(args.name)}
    return {"servers": ws.mcp_servers()}
