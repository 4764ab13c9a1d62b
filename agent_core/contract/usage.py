"""A run's usage (requests, tokens, cost) as the contract shows it, and usage summed.

Pure arithmetic on counters the run recorded (runs/gate.py counts each model response in the
write that records its `model_turn` event): the CLI, the façade and the window share it. The
cost is worked out when the run is read, from the prices set then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.model_spec import ModelKind, ModelSpec
from agent_core.contract.views import UsageTotalView, UsageView

CURRENCY = "USD"
COST_DIGITS = 6  # micro-dollars: enough for one cheap request, no float noise in sums


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens, as the `openai.price_*_per_mtok` settings say."""

    input_per_mtok: float | None = None
    output_per_mtok: float | None = None

    def cost(self, input_tokens: int, output_tokens: int) -> float | None:
        if self.input_per_mtok is None or self.output_per_mtok is None:
            return None
        spent = input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok
        return round(spent / 1e6, COST_DIGITS)


def _count(state: Mapping[str, object], key: str) -> int:
    """A stored counter; anything but a whole number from 0 reads as 0 (a damaged state is
    refused where the run is driven, never where it is shown)."""
    value = state.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def usage_of(state: Mapping[str, object], model: str, prices: Prices) -> UsageView:
    """The usage of a run from its stored state (`runs.state_json`) and model spec."""
    input_tokens, output_tokens = _count(state, "input_tokens"), _count(state, "output_tokens")
    try:
        kind: ModelKind | None = ModelSpec.parse(model).kind
    except BriefDeskError:
        kind = None  # a model this version does not know: its price is unknown
    cost = prices.cost(input_tokens, output_tokens) if kind is ModelKind.OPENAI else None
    return {
        "requests": _count(state, "turns"),  # each model response is one turn
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cost": 0.0 if kind in (ModelKind.OFFLINE, ModelKind.SCRIPTED) else cost,
        "currency": CURRENCY,
    }


def total_usage(usages: Iterable[UsageView]) -> UsageTotalView:
    """Usage summed; the cost is null as soon as one of them is unknown."""
    total: UsageTotalView = {
        "runs": 0,
        "requests": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cost": 0.0,
        "currency": CURRENCY,
    }
    for usage in usages:
        total["runs"] += 1
        total["requests"] += usage["requests"]
        total["input_tokens"] += usage["input_tokens"]
        total["output_tokens"] += usage["output_tokens"]
        cost, known = usage["cost"], total["cost"]
        total["cost"] = None if cost is None or known is None else round(known + cost, COST_DIGITS)
    return total
