"""The timeline vocabulary shared by the runner, the CLI and the desktop."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from agent_core.contract.json_types import JsonObject
from agent_core.contract.views import EventView


class EventKind(StrEnum):
    RUN_STARTED = "run_started"
    RUN_RESUMED = "run_resumed"
    RUN_INTERRUPTED = "run_interrupted"
    RUN_FINISHED = "run_finished"
    MODEL_TURN = "model_turn"
    CHECKPOINT_SAVED = "checkpoint_saved"
    TOOL_CALLED = "tool_called"
    TOOL_RESULT = "tool_result"
    APPROVAL_REQUESTED = "approval_requested"
    APPROVAL_DECIDED = "approval_decided"
    BLOCKED = "blocked"
    OUTCOME_UNKNOWN = "outcome_unknown"
    RECONCILED = "reconciled"
    ARTIFACT_CONFIRMED = "artifact_confirmed"
    ARTIFACT_UNEXPECTED = "artifact_unexpected"
    QUESTION_ASKED = "question_asked"
    ANSWER_RECEIVED = "answer_received"
    MODEL_RETRY = "model_retry"
    """A model call failed and is tried again: `attempt`, `wait_s`, `reason`."""
    MODEL_DELTA = "model_delta"
    """Text the model is writing (streamed, batched): `turn`, `text`, `attempt`."""


@dataclass(frozen=True)
class Event:
    """One committed timeline row."""

    seq: int
    run_id: str | None
    """None: an event of the home itself (a stray file while no run watches)."""
    kind: str
    at: str
    tool: str | None = None
    data: JsonObject = field(default_factory=dict)

    def to_json(self) -> EventView:
        return {
            "seq": self.seq,
            "run_id": self.run_id,
            "kind": self.kind,
            "at": self.at,
            "tool": self.tool,
            "data": dict(self.data),  # the view's looser type: a copy, as JSON would give
        }
