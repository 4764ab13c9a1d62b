"""remember_audience: the one stable fact kept in long-term memory (memory tier)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.storage.tables import memory
from agent_core.tools.specs import NonBlank, Tier, ToolArgs, ToolEnv, ToolResult, ToolSpec


class AudienceArgs(ToolArgs):
    audience: Annotated[
        NonBlank, Field(description="The audience type, a few words.", max_length=80)
    ]


def run(env: ToolEnv, args: AudienceArgs) -> ToolResult:
    audience = " ".join(args.audience.split()).lower()
    settings = env.scope.settings
    with env.local_store.write() as conn:
        memory.remember(
            conn,
            tenant="local",
            user=str(settings.get("reviewer") or "local"),
            purpose="brief_audience",
            key="audience",
            value=audience,
            provenance={"run_id": env.run_id, "tool": "remember_audience"},
            ttl_days=float(str(settings.get("memory.ttl_days") or 90)),
        )
    return ToolResult(
        ToolOutcomeStatus.SUCCESS, f"Remembered the audience: {audience}.", {"audience": audience}
    )


SPEC = ToolSpec(
    name="remember_audience",
    tier=Tier.MEMORY,
    description="Remember the type of audience the briefs are for (for example 'executives').",
    args_model=AudienceArgs,
    body=run,
)
