"""A run's usage and budgets as a person reads them: "3 requests · 1,234 tokens · $0.0012",
"Tokens 1,234 of 500,000". Text only: the core counted and priced them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from agent_core.contract.views import BudgetUseView, RunBudgetsView, UsageView

translate = QCoreApplication.translate


def cost_text(usage: UsageView) -> str:
    """`$0.0012`, `$0.00` for an embedded model, `cost unknown` while no prices are set."""
    cost = usage["cost"]
    if cost is None:
        return translate("UsageText", "cost unknown")
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
    return translate("UsageText", "{requests} req · {tokens} tok").format(
        requests=compact(usage["requests"]), tokens=compact(tokens_of(usage))
    )


def usage_text(usage: UsageView) -> str:
    """`3 requests · 1,234 tokens (1,200 in, 34 out) · $0.0012`."""
    requests = (
        translate("UsageText", "{n} request")
        if usage["requests"] == 1
        else translate("UsageText", "{n} requests")
    ).format(n=f"{usage['requests']:,}")
    tokens = translate("UsageText", "{n} tokens").format(n=f"{tokens_of(usage):,}")
    if tokens_of(usage):
        tokens += translate("UsageText", " ({input} in, {output} out)").format(
            input=f"{usage['input_tokens']:,}", output=f"{usage['output_tokens']:,}"
        )
    return f"{requests} · {tokens} · {cost_text(usage)}"


def _of(use: BudgetUseView, unit: str = "", whole: bool = True) -> str:
    used = f"{use['used']:,.0f}" if whole else f"{use['used']:,.1f}"
    limit = use["limit"]
    if limit is None:
        return translate("UsageText", "{used} (no limit)").format(used=used + unit)
    return translate("UsageText", "{used} of {limit}").format(
        used=used + unit, limit=f"{limit:,.0f}{unit}"
    )


def budget_rows(budgets: RunBudgetsView) -> list[tuple[str, str]]:
    """(label, "used of limit") for each budget, in the order `run --max-*` names them."""
    return [
        (translate("UsageText", "Turns"), _of(budgets["turns"])),
        (translate("UsageText", "Tool calls"), _of(budgets["tool_calls"])),
        (translate("UsageText", "Tokens"), _of(budgets["tokens"])),
        (
            translate("UsageText", "Time"),
            _of(budgets["seconds"], translate("UsageText", " s"), whole=False),
        ),
    ]
