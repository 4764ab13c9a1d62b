"""What a tool is: one `ToolSpec` carries everything the engine needs to know about it.

Its argument model (pydantic, strict, undeclared keys refused), how its target is resolved
and hashed, its body, and for a side effect how an unknown outcome is settled after a crash.
The gate, the executor, review and the watcher ask the spec; none of them branches on a
tool's name. The specs themselves live one module per tool; `registry.py` lists them.

The SDK silently drops undeclared keys when it parses arguments, so every call is validated
here against the model's raw JSON before anything else sees it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TypeAlias, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from agent_core.contract import json_input
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonMapping, JsonObject, JsonValue
from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.home.preferences import Settings
from agent_core.storage.store import Store
from agent_core.storage.team.leases import Holder

MAX_RAW_ARGS_BYTES = 256_000  # a 1 MB argument is an attack, not a brief
MAX_STRING_CHARS = 200_000

ArgsJSON: TypeAlias = dict[str, JsonValue]
"""Normalized arguments as stored in proposals and events (defaults filled in). Our own tools
take strings and integers; an MCP tool takes whatever JSON its input schema allows."""


class Tier(StrEnum):
    READ = "read"
    """Reads the corpus; allowed."""
    PLAN = "plan"
    """Planning only; allowed."""
    INTERACTION = "interaction"
    """Asks the person; the run waits for the answer."""
    MEMORY = "memory"
    """Writes long-term memory; allowed."""
    WRITE = "write"
    """Writes a file; asks a person in `default` mode."""
    NETWORK = "network"
    """Reaches the network; refused unless enabled with an allowlist."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


NonBlank = Annotated[str, AfterValidator(_not_blank)]


class ToolArgs(BaseModel):
    """Base of every argument model: strict types, undeclared keys refused, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    def to_json(self) -> ArgsJSON:
        return self.model_dump()


class SchemaArgs(ToolArgs):
    """Arguments checked by a JSON schema rather than declared fields (an MCP tool's): kept
    exactly as given, after `ToolSpec.validate` checked them against the spec's schema."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    def to_json(self) -> ArgsJSON:
        return dict(self.model_extra or {})


@dataclass
class ToolResult:
    outcome: ToolOutcomeStatus
    text: str
    """What the model receives."""
    summary: JsonMapping = field(default_factory=dict)
    """Small facts for the `tool_result` event and the run's evidence."""

    def to_record(self) -> dict[str, object]:
        return {"outcome": str(self.outcome), "text": self.text, "summary": self.summary}


@dataclass(frozen=True)
class ToolScope:
    """Where a call may reach: the run's folders and the network settings."""

    corpus: Path
    artifacts: Path
    settings: Settings
    network_calls_used: int | None = None
    """fetch_url executions so far in the run, so a call beyond the budget is never proposed."""


@dataclass(frozen=True)
class ToolEnv:
    """What a tool body may use while it runs (one call of one run)."""

    store: Store
    scope: ToolScope
    run_id: str
    call_id: str
    target: str | None
    """The resolved target (for a write: the approved absolute path)."""
    base_hash: str | None = None
    """The target's content hash when the person saw the proposal (a write refuses otherwise)."""
    answer: str | None = None
    """The person's answer, for `ask_question`."""
    desk_store: Store | None = None
    """This desk's own store when the run's store is a team database (None: the same one)."""
    holder: Holder | None = None
    """Team mode: the desk and process the run was claimed by (a write re-checks, inside its
    fence, that they still hold it; None: the run's owner fields name this process)."""

    @property
    def local_store(self) -> Store:
        """Where this desk keeps what stays on it: the corpus index and long-term memory."""
        return self.desk_store or self.store


ArgsT = TypeVar("ArgsT", bound=ToolArgs)
Body = Callable[[ToolEnv, ToolArgs], ToolResult]
Resolver = Callable[[ToolArgs, ToolScope], "str | None"]


def _no_target(args: ToolArgs, scope: ToolScope) -> str | None:
    return None


def _no_hash(target: str | None) -> str | None:
    return None


def _no_expected_hash(args: ToolArgs) -> str | None:
    return None


def _own_args(model: type[ArgsT], args: ToolArgs) -> ArgsT:
    """A tool's functions take its own argument model; the spec parsed `args` into it."""
    if not isinstance(args, model):
        raise TypeError(f"{model.__name__} expected, not {type(args).__name__}")
    return args


@dataclass(frozen=True, init=False)
class ToolSpec:
    name: str
    tier: Tier
    description: str
    args_model: type[ToolArgs]
    body: Body
    """Runs the call once; may raise BriefDeskError (refused, nothing happened)."""
    resolve_target: Resolver
    """The resource a call aims at, checked against the sandbox/network rules (raises)."""
    base_hash: Callable[[str | None], str | None]
    """The target's current content hash (None: no such file, or not a file tool)."""
    expected_hash: Callable[[ToolArgs], str | None]
    """The content hash the target holds once the call ran (the ledger records it)."""
    reconcile: Callable[[ToolEnv, ToolArgs], ToolResult | None] | None
    """Side effects only: settle a started but unconfirmed call without redoing it.
    Returns the result when the effect is found done; None when it must run again."""
    content_field: str | None
    """The argument a reviewer reads as the new content of the target (shown as a diff)."""
    path_field: str | None
    """The argument that names the target (the edit panel validates it as you type)."""
    network_access: bool
    """Only such a tool's body runs outside the socket guard (it guards its own hosts)."""
    source: str | None
    """None for BriefDesk's own tools; the server's name for a tool of an MCP server."""
    params_schema: JsonObject | None
    """A closed JSON schema that checks the arguments (and is what the model sees) instead of
    `args_model`'s fields; `args_model` is then `SchemaArgs`."""
    annotations: JsonObject
    """What an MCP server says of its tool (readOnlyHint...): shown to a person, deciding
    nothing by itself."""
    reruns_after_unknown: bool
    """A side effect whose outcome is unknown (cut by a crash or a timeout) may simply run
    again. False: a person is asked whether it happened (an MCP write)."""

    def __init__(
        self,
        name: str,
        tier: Tier,
        description: str,
        args_model: type[ArgsT],
        body: Callable[[ToolEnv, ArgsT], ToolResult],
        resolve_target: Callable[[ArgsT, ToolScope], str | None] = _no_target,
        base_hash: Callable[[str | None], str | None] = _no_hash,
        expected_hash: Callable[[ArgsT], str | None] = _no_expected_hash,
        reconcile: Callable[[ToolEnv, ArgsT], ToolResult | None] | None = None,
        content_field: str | None = None,
        path_field: str | None = None,
        network_access: bool = False,
        source: str | None = None,
        params_schema: JsonObject | None = None,
        annotations: JsonObject | None = None,
        reruns_after_unknown: bool = True,
    ) -> None:
        """Typed by the tool's own argument model; stored taking any ToolArgs, each function
        checking that it got its model (the engine only hands it what `parse` returned)."""

        def run(env: ToolEnv, args: ToolArgs) -> ToolResult:
            return body(env, _own_args(args_model, args))

        def resolve(args: ToolArgs, scope: ToolScope) -> str | None:
            return resolve_target(_own_args(args_model, args), scope)

        def expected(args: ToolArgs) -> str | None:
            return expected_hash(_own_args(args_model, args))

        settle: Callable[[ToolEnv, ToolArgs], ToolResult | None] | None = None
        if reconcile is not None:
            settle_own = reconcile

            def settle(env: ToolEnv, args: ToolArgs) -> ToolResult | None:
                return settle_own(env, _own_args(args_model, args))

        fields = {
            "name": name,
            "tier": tier,
            "description": description,
            "args_model": args_model,
            "body": run,
            "resolve_target": resolve,
            "base_hash": base_hash,
            "expected_hash": expected,
            "reconcile": settle,
            "content_field": content_field,
            "path_field": path_field,
            "network_access": network_access,
            "source": source,
            "params_schema": params_schema,
            "annotations": dict(annotations or {}),
            "reruns_after_unknown": reruns_after_unknown,
        }
        for key, value in fields.items():
            object.__setattr__(self, key, value)  # frozen: set once, here

    @property
    def has_side_effect(self) -> bool:
        return self.tier in (Tier.WRITE, Tier.NETWORK)

    @property
    def writes_files(self) -> bool:
        """Writes into the artifacts folder (what the watcher expects and acceptEdits
        approves): our own write tier. An MCP write reaches wherever its server does."""
        return self.tier is Tier.WRITE and self.source is None

    @property
    def runs_without_pause(self) -> bool:
        """A read: allowed in every mode and without effect, so the SDK need not stop before
        it (a pause costs a whole RunState round trip). It is still validated, checkpointed
        (A) and recorded in the ledger when it runs; after a crash the interrupted turn is
        given its model's response again (runs/model_turns.py) and the ledger answers the
        calls it had already made."""
        return self.tier is Tier.READ

    def parse(self, raw: str) -> ToolArgs:
        """The model's raw JSON, checked and parsed (defaults filled in)."""
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_RAW_ARGS_BYTES:
            raise _invalid(self.name, f"arguments exceed {MAX_RAW_ARGS_BYTES} bytes")
        try:
            args = json_input.loads(raw or "{}")  # 5,000 deep: malformed, not a crash
        except json.JSONDecodeError as exc:
            raise _invalid(self.name, f"arguments are not valid JSON ({exc.msg})") from None
        if not isinstance(args, dict):
            raise _invalid(self.name, "arguments must be a JSON object")
        return self.validate(args)

    def validate(self, args: Mapping[str, object]) -> ToolArgs:
        if self.params_schema is not None:
            _check_schema(self.name, self.params_schema, args)
            return self.args_model.model_validate(dict(args))
        # Strict mode asks the model to send every key; an optional one may be null (default).
        optional = {n for n, f in self.args_model.model_fields.items() if not f.is_required()}
        given = {k: v for k, v in args.items() if not (v is None and k in optional)}
        try:
            return self.args_model.model_validate(given)
        except ValidationError as exc:
            raise _invalid(self.name, _first_problem(exc)) from None

    def json_schema(self) -> dict[str, object]:
        """The SDK's strict schema: every property required, optional ones nullable (or the
        spec's own closed schema, sent non-strict: strict would make optional keys required)."""
        if self.params_schema is not None:
            return dict(self.params_schema)
        props: dict[str, object] = {}
        for name, info in self.args_model.model_fields.items():
            kind = "integer" if info.annotation in (int, int | None) else "string"
            props[name] = {
                "type": kind if info.is_required() else [kind, "null"],
                "description": info.description or "",
            }
        return {
            "type": "object",
            "properties": props,
            "required": list(self.args_model.model_fields),
            "additionalProperties": False,
        }


MAX_PROBLEM_CHARS = 200


def _check_schema(tool: str, schema: JsonObject, args: Mapping[str, object]) -> None:
    """`invalid_arguments` naming the first problem (undeclared keys named as such)."""
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    errors = list(cls(schema).iter_errors(dict(args)))
    declared = schema.get("properties")
    extra = [k for k in args if not isinstance(declared, dict) or k not in declared]
    if extra and schema.get("additionalProperties") is False:
        raise _invalid(tool, "undeclared argument(s) " + ", ".join(repr(k[:40]) for k in extra[:5]))
    error = jsonschema.exceptions.best_match(errors)
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "arguments"
        raise _invalid(tool, f"{where}: {error.message[:MAX_PROBLEM_CHARS]}")


def _invalid(tool: str, message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{tool}: {message}")


def _first_problem(exc: ValidationError) -> str:
    """One readable sentence for the first problem (undeclared keys named first)."""
    errors = exc.errors()
    extra = [str(e["loc"][0])[:40] for e in errors if e["type"] == "extra_forbidden"]
    if extra:
        return "undeclared argument(s) " + ", ".join(repr(k) for k in extra[:5])
    first = errors[0]
    name = repr(str(first["loc"][0])[:40]) if first["loc"] else "arguments"
    kind = first["type"]
    if kind == "missing":
        return f"missing required argument {name}"
    if kind in ("int_type", "int_parsing"):
        return f"{name} must be an integer"
    if kind in ("string_type",):
        return f"{name} must be a string"
    ctx = first.get("ctx") or {}
    if kind == "string_too_long":
        return f"{name} is longer than {ctx.get('max_length')} characters"
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"{name} is out of range ({first['msg']})"
    return f"{name}: {first['msg']}"
