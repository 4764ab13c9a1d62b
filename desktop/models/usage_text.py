"""A run's usage and budgets as a person reads them: "3 requests · 1,234 tokens · $0.0012",
"Tokens 1,234 of 500,000". Text only: the core counted and priced them."""

from __future__ import annotations

from agent_core.contract.views import BudgetUseView, RunBudgetsView, UsageView


def cost_text(usage: UsageView) -> str:
    """`$0.0012`, `$0.00` for an embedded model, `cost unknown` while no prices are set."""
    cost = usage["cost"]
    if cost is None:
        return "cost unknown"
    digits = 2 if cost == 0 or cost >= 1 else 4 if cost >= 0.0001 else 6
    sign = "$" if usage["currency"] == "USD" else f"{usage['currency']} "
    return f"{sign}{cost:,.{digits}f}"


def tokens_of(usage: UsageView) -> int:
    return usage["input_tokens"] + usage["output_tokens"]


def compact(count: int) -> str:
    """A count in a narrow row: 950, 12.3k, 4.5M."""
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k".replace(".0k", "k")
    return f"{count / 1_000_000:.1f}M".replace(".0M", "M")


def row_text(usage: UsageView | None) -> str:
    """The runs list's usage column: `3 req · 12.3k tok` (empty without usage)."""
    if usage is None:
        return ""
    return f"{compact(usage['requests'])} req · {compact(tokens_of(usage))} tok"


def usage_text(usage: UsageView) -> str:
    """`3 requests · 1,234 tokens (1,200 in, 34 out) · $0.0012`."""
    plural = "" if usage["requests"] == 1 else "s"
    tokens = f"{tokens_of(usage):,} tokens"
    if tokens_of(usage):
        tokens += f" ({usage['input_tokens']:,} in, {usage['output_tokens']:,} out)"
    return f"{usage['requests']:,} request{plural} · {tokens} · {cost_text(usage)}"


def _of(use: BudgetUseView, unit: str = "", whole: bool = True) -> str:
    used = f"{use['used']:,.0f}" if whole else f"{use['used']:,.1f}"
    limit = use["limit"]
    if limit is None:
        return f"{used}{unit} (no limit)"
    return f"{used}{unit} of {limit:,.0f}{unit}"


def budget_rows(budgets: RunBudgetsView) -> list[tuple[str, str]]:
    """(label, "used of limit") for each budget, in the order `run --max-*` names them."""
    return [
        ("Turns", _of(budgets["turns"])),
        ("Tool calls", _of(budgets["tool_calls"])),
        ("Tokens", _of(budgets["tokens"])),
        ("Time", _of(budgets["seconds"], " s", whole=False)),
    ]
