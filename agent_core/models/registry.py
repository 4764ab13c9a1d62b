"""The models a run can use, by spec (`offline`, `openai`, `scripted:FILE`).

`agent_core.contract.model_spec` parses the spec; this module checks it (a script must load)
and builds the model it names. The SDK-heavy models are imported only when built, so checking
a spec (the CLI's preflight) stays light.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.model_spec import ModelKind, ModelSpec
from agent_core.home.preferences import Settings
from agent_core.models.endpoint import CallObserver, EndpointConfig

if TYPE_CHECKING:
    from agents.models.interface import Model

    from agent_core.models.planned import FullHistory

__all__ = ["ModelSpec", "build_model", "replays_exactly", "validate_model_spec"]


def validate_model_spec(text: str) -> ModelSpec:
    """The spec `text` names, its script readable; `invalid_arguments` otherwise."""
    spec = ModelSpec.parse(text)
    if spec.kind is ModelKind.SCRIPTED:
        from agent_core.models.scripted import load_script

        load_script(Path(spec.script or ""))
    return spec


def replays_exactly(text: str) -> bool:
    """True for the embedded models (offline, scripted): deterministic in the conversation.

    False for a spec that names no model: building it fails later, where the run reports it.
    """
    try:
        return ModelSpec.parse(text).replays_exactly
    except BriefDeskError:
        return False


def build_model(
    text: str,
    run_id: str,
    settings: Settings,
    observer: CallObserver,
    full_history: FullHistory | None = None,
) -> Model:
    """The model of run `run_id`; `invalid_arguments` for a spec that names none.
    `full_history`: the run's whole conversation, for the offline model when it is sent a
    bounded view."""
    spec = ModelSpec.parse(text)
    prefix = "c" + run_id.removeprefix("run-")[:10]  # call ids unique across runs
    if spec.kind is ModelKind.OFFLINE:
        from agent_core.models.offline import OfflineModel

        return OfflineModel(prefix, full_history)
    if spec.kind is ModelKind.SCRIPTED:
        from agent_core.models.scripted import ScriptedModel, load_script

        return ScriptedModel(prefix, load_script(Path(spec.script or "")))
    from agent_core.models.openai_compat import OpenAICompatModel

    return OpenAICompatModel(EndpointConfig.from_settings(settings), observer)
