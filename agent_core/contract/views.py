"""Typed views the façade returns: exactly the JSON objects of the CLI contract.

`Workspace` returns these, `briefdesk-cli --json` prints them as they are, and the desktop
reads them; so a key renamed here is a contract change, caught by the CLI contract tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import NotRequired, TypedDict

from agent_core.contract.errors import ErrorJSON
from agent_core.contract.json_types import JsonObject
from agent_core.contract.mcp_views import McpCallView
from agent_core.contract.statuses import ApprovalStatus, RunStatus


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
    status: ApprovalStatus
    """An enum up to the JSON edge, where it is its text (a StrEnum is a str)."""
    created_at: str
    expires_at: str
    reviewer: str | None
    decision_reason: str | None
    decided_at: str | None
    decided_by_rule: str | None
    consumed_at: str | None
    desk: str | None
    """The desk (installation) whose run proposed it; null for rows older than team mode."""
    revision: int
    """1 for a first proposal; n+1 after n requests for changes in the same run."""
    revises: str | None
    """The proposal whose requested changes it answers (a revert: the write it undoes)."""
    revision_note: str | None
    """That request's text (a revert: its reason)."""
    content_field: NotRequired[str | None]
    """The argument a reviewer reads as the target's new content (a diff); null: none."""
    path_field: NotRequired[str | None]
    """The argument that names the target (editable as a path); null: none."""


class InboxItemView(TypedDict):
    """One decision a person owes (`inbox`): a pending proposal or a question waiting."""

    kind: str
    """`approval` or `question`."""
    id: str
    """The approval id, or (a question) the run id."""
    run_id: str
    desk: str | None
    """The desk whose run waits (team mode); null for rows older than desks."""
    tool: str
    """The proposal's tool, or the interaction tool that asked."""
    target: str | None
    """What the proposal acts on (a write: the absolute path); null for a question."""
    summary: str
    """One line, control characters escaped: what the agent asks (a question), or the run's
    question (a proposal)."""
    question: str
    """The run's question, one line, control characters escaped."""
    created_at: str
    """When it started waiting."""
    expires_at: str | None
    """When a proposal expires; null for a question (questions do not expire)."""
    revision: int
    """1 for a first proposal (and a question), n+1 after n requests for changes."""


class RunView(TypedDict):
    """A run (the contract's RUN), with its pending proposals whole.

    Its keys are, in this order (the JSON's): the fields the run record shows
    (storage/tables/runs.py `RunRow`, metadata `SHOWN`, taken by `shown_fields`) and the
    keys `RUN_COMPUTED` names, worked out when the view is made. A TypedDict cannot be
    derived from a dataclass, so the shown keys are repeated here for the type checker:
    tests/test_house_records.py holds them to the record, name and type.
    """

    run_id: str
    thread_id: str
    status: RunStatus
    """A `running` run whose owner died (another desk's: whose lease lapsed) shows as
    `interrupted`; a string only at the JSON edge."""
    question: str
    model: str
    mode: str
    created_at: str
    updated_at: str
    approvals: list[ApprovalView]
    question_pending: str | None
    """Shown only while the run is `waiting_input`."""
    output: str | None
    error: ErrorJSON | None
    corpus: str
    artifacts: str
    desk: str | None
    """The desk (installation) the run belongs to: only it resumes or cancels the run. Null
    for rows older than desks."""
    agent: str
    """`briefdesk` for BriefDesk's own runs, else the coding agent (or MCP client) whose
    session it is."""
    session_id: str | None
    """The agent's session; null for BriefDesk's own runs."""
    cwd: str | None
    """The folder the agent's session works in; null for BriefDesk's own runs."""
    ready_to_continue: NotRequired[bool]
    """True when `resume` would continue it now: its decision or answer has landed (from any
    process), its process died, it was never driven, or it failed in a way `resume` retries.
    Never for another desk's run (team mode): only its desk continues it."""
    owner: NotRequired[OwnerView | None]
    """Who drives a `running` run, as recorded; null for any other run."""
    usage: UsageView
    """What the run's model calls used, over its whole life (resumes included)."""


RUN_COMPUTED = frozenset({"approvals", "ready_to_continue", "owner", "usage"})
"""The RUN keys no field of the run record holds: made when the view is (review/run_views.py)."""


class UsageView(TypedDict):
    """Model usage of a run (the contract's RUN `usage`), or of several runs summed."""

    requests: int
    """Model responses recorded (each `model_turn` event is one), embedded models included."""
    input_tokens: int
    """Input (prompt) tokens the endpoint reported; the embedded models report none."""
    output_tokens: int
    """Output (completion) tokens the endpoint reported."""
    cost: float | None
    """In `currency`: 0 for the embedded models; for a remote model tokens times the prices
    set (`openai.price_input_per_mtok`, `openai.price_output_per_mtok`), null while either is
    unset. Summed: null when any run's cost is."""
    currency: str
    """Always "USD"."""


class UsageTotalView(UsageView):
    """Usage summed over every run of the home (`Workspace.usage_total`)."""

    runs: int


class BudgetUseView(TypedDict):
    """How much of one of a run's budgets it used."""

    used: float
    """Turns, tool calls and tokens are whole numbers; seconds of driving are not."""
    limit: float | None
    """The run's limit (fixed when it was created); null: no limit (tokens only)."""


class RunBudgetsView(TypedDict):
    """A run's four budgets and how much of each it used (`Workspace.run_budgets`)."""

    turns: BudgetUseView
    tool_calls: BudgetUseView
    tokens: BudgetUseView
    seconds: BudgetUseView


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


class SuggestionView(TypedDict):
    """A rule `rules suggest` offers: the narrowest one that would have decided what a person
    approved at least three times, never wider than the targets that person saw."""

    tool: str
    scope: str
    """What the rule would cover, whole: the one file the person approved each time, or the
    folder that holds the files approved (never its parent); for an external agent's shell
    command the exact command in its folder (`shell:DIR $ COMMAND`), for its MCP call that
    server's tool (`mcp:SERVER/TOOL`). `rules add --from-suggestion N` makes it a `home` rule
    with this as its `folder`."""
    agent: str | None
    """The external agent (`claude-code`, `codex`, `gemini`) whose calls a shell or MCP rule
    would decide, on this desk only; None: a file or folder rule, for any caller of the tool."""
    would_approve: int
    """How many past proposals it would have approved (`would_have_asked_about`)."""
    would_have_asked_about: list[str]
    """Those proposals' ids, oldest first: each approved by a person, none rejected or sent
    back (a rule that would have approved one of those is never suggested)."""


class AuditEntryView(TypedDict):
    """One audit row: a decision (by a person, a rule or policy) or a blocked action."""

    id: int
    at: str
    run_id: str | None
    entry: str
    """`decision`, `block`, `take_over`, `cancel_requested`, `rule_revoked` (a person
    revoked a remembered rule: `rule_id`, its folder as `resource`, its scope as `detail`) or
    `rule_added` (a person made a suggested rule: the same columns)."""
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


class PreviousProposalView(TypedDict):
    """The proposal a revision answers (`approvals show`'s `previous`): what was sent back."""

    id: str
    """The revised proposal's id (the revision's `revises`)."""
    revision: int
    content: str | None
    """Its content argument (what it would have written); null: its tool writes no content."""
    reviewer: str | None
    """Who asked for the changes."""


class FileChangeView(TypedDict):
    """One file an external agent's call changes, as a reviewer compares it."""

    path: str
    current_text: str | None
    """The file now (another desk's target: as kept when proposed); null: no such file, or
    another desk's file whose text was not kept."""
    after_text: str | None
    """The file after the change; null: the change deletes it."""


class ApprovalDetailView(TypedDict):
    """What a reviewer's dialog shows (`Workspace.describe_approval`), read off the GUI thread."""

    approval: ApprovalView
    run: RunView
    """The run that proposed it."""
    current_text: str | None
    """The text the diff starts from: the file now, or (another desk's) the kept base."""
    current_hash: str | None
    """sha256 of the target as it is now on this desk; null: missing, or not this desk's."""
    compared_with: str
    """`file` (this desk's file now), `proposal_base` (the content kept when another desk
    proposed it) or `unknown_base` (another desk's, its content not kept)."""
    target_changed: bool
    """The target changed on disk since the proposal (only the proposing desk can tell)."""
    content_field: str | None
    """The argument a reviewer reads as the target's new content; null: none."""
    path_field: str | None
    """The argument that names the target; null: none."""
    newest_id: str
    """The newest version of the same call (an edit supersedes the one shown), or, once a
    request for changes was answered, the newest version of the revision that answers it."""
    artifacts_root: str
    """The run's artifacts folder."""
    previous: PreviousProposalView | None
    """For a revision (`revision` > 1): the proposal whose requested changes it answers;
    null for a first proposal and a revert."""
    mcp: McpCallView | None
    """For a tool of an MCP server: its server, tool, hints and whether the call's outcome is
    unknown; null for BriefDesk's own tools."""
    after_text: NotRequired[str | None]
    """An external agent's file write or edit: the target's text after the change (its diff
    starts from `current_text`); null: the change deletes it, or cannot be worked out."""
    files: NotRequired[list[FileChangeView]]
    """An external agent's file write, edit or patch: every file it changes, the target first
    (a patch may change several); empty when the change cannot be worked out."""


class EditCheckView(TypedDict):
    """Edited arguments validated as `edit` would, nothing changed (`Workspace.validate_edit`)."""

    ok: bool
    error: ErrorJSON | None
    """Why the edit would be refused; null when `ok`."""
    target: str | None
    """The resolved target of the edited call; null when refused or the tool has none."""
    args: NotRequired[JsonObject]
    """The normalized arguments (defaults filled in); only when `ok`."""


class MemoryView(TypedDict):
    """One unexpired long-term memory (`memory list`)."""

    id: str
    tenant: str
    user: str
    purpose: str
    """What it is for, e.g. `brief_audience`."""
    key: str
    value: str
    created_at: str
    expires_at: str
    policy_version: int
    provenance: dict[str, object]
    """Where it came from (the run and the text it was learnt from)."""


class RunOptions(TypedDict, total=False):
    """The options of `Workspace.create_run` / `start_run` beyond the question."""

    thread: str | None
    model: str | None
    mode: str | None
    approval_ttl: float | None
    max_turns: int | None
    max_tool_calls: int | None
    max_tokens: int | None
    max_seconds: float | None
    corpus: str | Path | None
    artifacts: str | Path | None


class FileDiffView(TypedDict):
    path: str
    diff: str


class ApprovalShowView(TypedDict):
    """`approvals show`: the proposal, whether its target changed, and a unified diff."""

    approval: ApprovalView
    target_changed: bool
    compared_with: str
    """As in ApprovalDetailView: `file`, `proposal_base` or `unknown_base`."""
    diff: str | None
    """The unified diff from the text compared with to the proposed content; null: the tool
    writes no content (its arguments are shown instead)."""
    previous: PreviousProposalView | None
    """For a revision (`revision` > 1): the revised proposal's id, revision, content and who
    asked for changes; null for a first proposal and a revert (an addition of the third
    wave)."""
    revision_diff: str | None
    """For a revision: the unified diff from the previous proposal's content to this one's;
    null when there is no previous proposal or its tool writes no content."""
    mcp: McpCallView | None
    """For a tool of an MCP server (see ApprovalDetailView); null otherwise."""
    diffs: NotRequired[list[FileDiffView]]
    """An external agent's file write, edit or patch: one diff per file it changes, the
    target's first (its `diff` too)."""
