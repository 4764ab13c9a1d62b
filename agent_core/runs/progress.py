"""A run's progress and limits as typed values (stored as JSON in `runs.state_json`/`limits_json`).

Progress changes only by `advance`, which returns a new value with `state_version` + 1, so a
proposal can say which version of the run state it was made against. Old rows (written before
a field existed) read with that field's default; unknown keys are ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import TypedDict, Unpack

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home import limits
from agent_core.home.clock import now_iso


class ProgressChanges(TypedDict, total=False):
    """The fields `RunProgress.advance` may change (the version it bumps itself)."""

    turns: int
    tool_calls: int
    tokens: int
    input_tokens: int
    output_tokens: int
    sources_found: tuple[str, ...]
    sources_read: tuple[str, ...]
    next_step: str
    active_s: float
    answers: tuple[tuple[str, str], ...]
    waiting_call: str | None
    rejected: bool
    reverting: str | None
    return_to: str | None


class SourceChanges(TypedDict):
    """The evidence fields after new source ids were merged in (`RunProgress.with_sources`)."""

    sources_found: tuple[str, ...]
    sources_read: tuple[str, ...]


@dataclass(frozen=True)
class RunProgress:
    """The run state container: counters, evidence and the next step of one run."""

    turns: int = 0
    """Model responses so far (each `model_turn` event gets the next one, across resumes)."""
    tool_calls: int = 0
    """Tool calls the model proposed so far (parallel calls one by one)."""
    tokens: int = 0
    """Tokens the model endpoint reported (offline and scripted models report none)."""
    input_tokens: int = 0
    """Of those, input (prompt) tokens: the cost of a run counts them apart."""
    output_tokens: int = 0
    """Of those, output (completion) tokens."""
    sources_found: tuple[str, ...] = ()
    """Source ids search returned, first-seen order."""
    sources_read: tuple[str, ...] = ()
    """Source ids read in full, first-read order."""
    next_step: str = "model"
    """What the run does next, for people (`model`, `run <tool>`, `done`, ...)."""
    active_s: float = 0.0
    """Seconds a process spent driving the run (the wall-time budget counts these)."""
    answers: tuple[tuple[str, str], ...] = ()
    """(call_id, answer) for each answered question (the interaction tool's)."""
    waiting_call: str | None = None
    """The question call the run waits on, while `waiting_input`."""
    rejected: bool = False
    """A person rejected a write of this run: it ends `cancelled`, not `succeeded`."""
    reverting: str | None = None
    """The revert proposal (`approvals revert`) the run waits on, until it is executed or
    rejected; None otherwise."""
    return_to: str | None = None
    """The status the run had when a revert made it wait: it gets it back afterwards."""
    state_version: int = 0
    """Increases with every change; proposals record the version they were made against."""
    created: str = field(default_factory=now_iso)
    """When the run was created (ISO time)."""

    def advance(self, **changes: Unpack[ProgressChanges]) -> RunProgress:
        return replace(self, **changes, state_version=self.state_version + 1)

    def answer_for(self, call_id: str) -> str | None:
        return dict(self.answers).get(call_id)

    def with_answer(self, call_id: str, answer: str) -> RunProgress:
        kept = tuple((c, a) for c, a in self.answers if c != call_id)
        return self.advance(
            answers=(*kept, (call_id, answer)), next_step="continue with the answer"
        )

    def with_sources(
        self, found: list[str] | None = None, read: list[str] | None = None
    ) -> SourceChanges:
        """The evidence fields after merging new source ids (first-seen order kept)."""
        return {
            "sources_found": _merge(self.sources_found, found or []),
            "sources_read": _merge(self.sources_read, read or []),
        }

    def to_json(self) -> dict[str, object]:
        # Field by field, not asdict(): this runs at every checkpoint, and asdict deep-copies.
        data: dict[str, object] = {f.name: getattr(self, f.name) for f in _PROGRESS_FIELDS}
        data["sources_found"] = list(self.sources_found)
        data["sources_read"] = list(self.sources_read)
        data["answers"] = dict(self.answers)
        # Only while a revert is in play: a state written before these fields existed stays
        # equal, key for key, when another desk answers its question (migration 0008 compares).
        for key in ("reverting", "return_to"):
            if data[key] is None:
                del data[key]
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def checked(self) -> RunProgress:
        """Self when every counter the budgets compare against is a number in range, else
        `storage_corrupt` (a nan `active_s` would switch the time budget off). Asked when a run
        is driven, not when it is cancelled: a damaged run can still be ended."""
        try:
            _check_counters(self)
        except limits.OutOfRange as exc:
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT, f"A stored run state is out of range ({exc})."
            ) from None
        return self

    @staticmethod
    def loads(text: str) -> RunProgress:
        try:
            raw = json.loads(text)
            if not isinstance(raw, dict):
                raise TypeError("not an object")
            known = {f.name for f in fields(RunProgress)}
            values = {k: v for k, v in raw.items() if k in known}
            for key in ("sources_found", "sources_read"):
                if key in values:
                    values[key] = tuple(str(s) for s in values[key])
            if "answers" in values:
                values["answers"] = tuple(
                    (str(c), str(a)) for c, a in dict(values["answers"]).items()
                )
            progress = RunProgress(**values)
        except (TypeError, ValueError, AttributeError) as exc:
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT, f"A stored run state cannot be read ({exc})."
            ) from None
        return progress


def _check_counters(progress: RunProgress) -> None:
    """A stored counter the budgets compare against is a number in range (a `nan` or a text
    `active_s` would switch the time budget off)."""
    for name in (
        "turns", "tool_calls", "tokens", "input_tokens", "output_tokens", "state_version",
        "active_s",
    ):  # fmt: skip
        value = getattr(progress, name)
        bound = limits.ELAPSED if name == "active_s" else limits.COUNTER
        try:
            if bound.whole and not isinstance(value, int):
                raise limits.OutOfRange(f"takes {bound.describe()}")
            bound.check(value)
        except limits.OutOfRange as exc:
            raise limits.OutOfRange(f"{name} {exc}") from None


def _merge(existing: tuple[str, ...], new: list[str]) -> tuple[str, ...]:
    return existing + tuple(dict.fromkeys(s for s in new if s not in existing))


MAX_COUNT = limits.MAX_COUNT
MAX_TTL_S = float(limits.MAX_SECONDS)  # far enough ahead; still a date Python can write


_PROGRESS_FIELDS = fields(RunProgress)


@dataclass(frozen=True)
class RunLimits:
    """What a run may use; fixed when it is created, kept by `resume`."""

    max_turns: int = 50
    """Model turns (the contract asks for at least 50 by default)."""
    max_tool_calls: int = 100
    """Tool calls proposed by the model (at least 100 by default)."""
    max_seconds: float = 900.0
    """Seconds of driving (not of waiting for a person)."""
    max_tokens: int | None = 500_000
    """Tokens a remote model may report; None for no limit."""
    approval_ttl: float = 3600.0
    """Seconds a proposal waits for a person before it expires."""

    def __post_init__(self) -> None:
        # One bound per concept (agent_core.home.limits), shared with the CLI's flags and settings.
        for name in ("max_turns", "max_tool_calls"):
            _check(name, getattr(self, name), limits.COUNT)
        if self.max_tokens is not None:
            _check("max_tokens", self.max_tokens, limits.TOKENS)
        _check("max_seconds", self.max_seconds, limits.SECONDS)
        _check("approval_ttl", self.approval_ttl, limits.SECONDS)

    def to_json(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # numbers only

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @staticmethod
    def loads(text: str) -> RunLimits:
        try:
            raw = json.loads(text)
            known = {f.name for f in fields(RunLimits)}
            return RunLimits(**{k: v for k, v in dict(raw).items() if k in known})
        except BriefDeskError as exc:
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT, f"A stored run limit is invalid: {exc.message}"
            ) from None
        except (TypeError, ValueError) as exc:
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT, f"Stored run limits cannot be read ({exc})."
            ) from None


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _check(name: str, value: object, bound: limits.Bound) -> None:
    try:
        if bound.whole and not isinstance(value, int):  # a stored 2.0 is no count either
            raise limits.OutOfRange(f"takes {bound.describe()}")
        bound.check(value)
    except limits.OutOfRange as exc:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{_flag(name)} {exc}.") from None
