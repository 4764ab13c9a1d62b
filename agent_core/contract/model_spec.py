"""Model spec strings (`offline`, `openai`, `scripted:FILE`): the one parser of them.

A run names its model by such a string (`run --model`, the `model` setting, a run's JSON).
Pure text handling, so the desktop can label a run's model too; building the model the spec
names is `agent_core.models.registry`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from agent_core.contract.errors import BriefDeskError, ErrorCode

SCRIPTED_PREFIX = "scripted:"
SPEC_FORMS = "offline, scripted:FILE or openai"


class ModelKind(StrEnum):
    OFFLINE = "offline"
    """The built-in model: plans each turn from the corpus, no network."""
    OPENAI = "openai"
    """An OpenAI-protocol endpoint, as the `openai.*` settings name it."""
    SCRIPTED = "scripted"
    """A JSON script plays the model (drills, attack tests)."""


@dataclass(frozen=True)
class ModelSpec:
    kind: ModelKind
    script: str | None = None
    """The script's path as written after `scripted:` (read when the model is built)."""

    @classmethod
    def parse(cls, text: str) -> ModelSpec:
        """The spec `text` names, or `invalid_arguments`."""
        if text.startswith(SCRIPTED_PREFIX):
            return cls(ModelKind.SCRIPTED, text.removeprefix(SCRIPTED_PREFIX))
        if text in (ModelKind.OFFLINE, ModelKind.OPENAI):
            return cls(ModelKind(text))
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Unknown model {text!r}: use {SPEC_FORMS}."
        )

    @classmethod
    def scripted(cls, path: object) -> ModelSpec:
        return cls(ModelKind.SCRIPTED, str(path))

    @property
    def text(self) -> str:
        """The spec as a run stores it."""
        if self.kind is ModelKind.SCRIPTED:
            return f"{SCRIPTED_PREFIX}{self.script}"
        return self.kind.value

    @property
    def needs_network(self) -> bool:
        return self.kind is ModelKind.OPENAI

    @property
    def replays_exactly(self) -> bool:
        """The embedded models (offline, scripted) are pure functions of the conversation."""
        return self.kind is not ModelKind.OPENAI

    @property
    def label(self) -> str:
        """How a person reads it: `scripted:/long/path/attack.json` -> `scripted: attack.json`."""
        if self.kind is ModelKind.SCRIPTED:
            return "scripted: " + (self.script or "").rsplit("/", 1)[-1]
        return self.text


def model_label(text: str | None) -> str:
    """A run's model as a person reads it; a spec this version does not know, as stored."""
    try:
        return ModelSpec.parse(text or "").label
    except BriefDeskError:
        return text or ""
