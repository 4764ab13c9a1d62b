"""Typed views the façade returns: exactly the JSON objects of the CLI contract.

`Workspace` returns these, `briefdesk-cli --json` prints them as they are, and the desktop
reads them; so a key renamed here is a contract change, caught by the CLI contract tests.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from agent_core.contract.errors import ErrorJSON


class ApprovalView(TypedDict):
    """A proposal (the contract's APPROVAL)."""

    id: str
    run_id: str
    tool: str
    args: dict[str, object]
    """Normalized arguments (defaults filled in)."""
    target: str | None
    """The resolved resource; for a write the absolute path."""
    base_hash: str | None
    """sha256 of the target's content when proposed; null for a new file."""
    risk: str
    reason: str
    """Why policy asks (or, when auto-approved, why it did not)."""
    arg_hash: str
    """sha256 of the tool name and canonical JSON arguments (64 lowercase hex)."""
    state_version: int
    version: int
    status: str
    """An ApprovalStatus value."""
    created_at: str
    expires_at: str
    reviewer: str | None
    decision_reason: str | None
    decided_at: str | None
    decided_by_rule: str | None
    consumed_at: str | None
    desk: str | None
    """The desk (installation) whose run proposed it; null for rows older than team mode."""
    content_field: NotRequired[str | None]
    """The argument a reviewer reads as the target's new content (a diff); null: none."""
    path_field: NotRequired[str | None]
    """The argument that names the target (editable as a path); null: none."""


class RunView(TypedDict):
    """A run (the contract's RUN), with its pending proposals whole."""

    run_id: str
    thread_id: str
    status: str
    """A RunStatus value; a `running` run whose owner died (another desk's: whose lease
    lapsed) shows as `interrupted`."""
    question: str
    model: str
    mode: str
    created_at: str
    updated_at: str
    approvals: list[ApprovalView]
    question_pending: str | None
    output: str | None
    error: ErrorJSON | None
    corpus: str
    artifacts: str
    ready_to_continue: NotRequired[bool]
    """True when `resume` would continue it now: its decision or answer has landed (from any
    process), its process died, it was never driven, or it failed in a way `resume` retries.
    Never for another desk's run (team mode): only its desk continues it."""
    owner: NotRequired[OwnerView | None]
    """Who drives a `running` run, as recorded; null for any other run."""
    desk: str | None
    """The desk (installation) the run belongs to: only it resumes or cancels the run. Null
    for rows older than desks."""


class OwnerView(TypedDict):
    """The recorded owner of a `running` run: what a person needs before taking it over."""

    host: str
    pid: int
    since: str
    """ISO time at which it took the run (its latest run_started or run_resumed event)."""
    this_host: bool
    """False: recorded under another host name; this machine cannot tell whether that process
    still runs, so `resume --take-over` (the window asks first) may continue the run here."""
    desk: NotRequired[str | None]
    """The desk the run belongs to (team mode); null for rows older than desks."""


class DamagedRunView(TypedDict):
    """A run row this app cannot read (`runs` lists it apart; the other runs stay usable)."""

    run_id: str
    error: ErrorJSON
    """Always `storage_corrupt`, saying what in the row is unreadable."""


class EventView(TypedDict):
    """One timeline event (the contract's EVENT); `data` has secrets redacted."""

    seq: int
    run_id: str | None
    kind: str
    """An EventKind value."""
    at: str
    tool: str | None
    data: dict[str, object]


class RuleView(TypedDict):
    """A remembered decision (`rules list`), its scope in full."""

    id: str
    tool: str
    folder: str
    """Targets under this folder (absolute) are covered; never shortened."""
    scope: str
    """`run` (only `run_id`) or `home` (every run in this home)."""
    run_id: str | None
    created_by: str
    created_at: str
    revoked_at: str | None
    active: bool
    describes: str
    """The whole scope in one sentence, for people."""


class AuditEntryView(TypedDict):
    """One audit row: a decision (by a person, a rule or policy) or a blocked action."""

    id: int
    at: str
    run_id: str | None
    entry: str
    """`decision` or `block`."""
    principal: str
    """Who: `person:NAME`, `rule:ID`, `policy:MODE` or `model`."""
    tool: str | None
    arg_hash: str | None
    resource: str | None
    rule_id: str | None
    code: str | None
    decision: str | None
    detail: str | None
    db_role: NotRequired[str | None]
    """Team mode: the database role that wrote the row, stamped by the database itself."""


class StoreView(TypedDict):
    """Where this window's runs live and which desk it is (no I/O: what the Workspace opened)."""

    kind: str
    """A StoreKind value: `sqlite` (this computer's home) or `postgresql` (a team database)."""
    url: str
    """The store's URL as people see it: never a password."""
    host: str | None
    """host:port of a team database; null for the home's SQLite file."""
    database: str | None
    """The team database's name; null for the home's SQLite file."""
    desk: str
    """This installation's desk id (runs it drives carry it as `desk`)."""
    chosen_by: str
    """What chose the store: `option` (--db), `environment` (BRIEFDESK_DB), `setting` (db.url)
    or `home` (none of them: the home's SQLite file). Only `setting` and `home` change when
    the `db.url` setting is saved."""


class SecretStatusView(TypedDict):
    """Whether a secret is stored (never the secret itself)."""

    name: str
    """The keyring entry's name (a team database's: `db.USER.HOST.PORT.DB`)."""
    stored: bool
    backend: str
    """The keyring backend's class path, or `environment`."""
    overridden_by: NotRequired[str | None]
    """For a database password: `PGPASSWORD` or `PGPASSFILE` when set (libpq uses them
    instead of the keyring); null otherwise."""


class GrantView(TypedDict):
    """Who may decide what (`grants list`). With no grant at all, every reviewer decides
    every proposal; once one exists, a decision needs an active grant that covers it."""

    id: str
    reviewer: str
    """The reviewer name a decision is recorded under (`--reviewer`)."""
    tool: str | None
    """The tool whose proposals it covers; null: every tool."""
    folder: str | None
    """Targets under this absolute folder (on the desks); null: any target, or none."""
    role: str | None
    """The PostgreSQL role the deciding desk must log in as; null: any role."""
    created_by: str
    created_at: str
    revoked_at: str | None
    active: bool
    describes: str
    """The grant in one sentence, for people."""


class DeskRoleView(TypedDict):
    """What `grants desk-role ROLE` gave a desk's own PostgreSQL role on BriefDesk's tables."""

    role: str
    database: str
    read_write: list[str]
    """Tables it reads and writes (approvals, rules and runs under the database's guards)."""
    append_only: list[str]
    """Tables it reads and adds to, but never changes or deletes from (the audit log)."""
    read_only: list[str]
    """Tables it only reads (grants, team settings, the schema revision)."""
