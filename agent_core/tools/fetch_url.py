"""fetch_url: off unless enabled with an allowlist; every boundary lives in network.py."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agent_core.tools import network
from agent_core.tools.specs import (
    NonBlank,
    Tier,
    ToolArgs,
    ToolEnv,
    ToolResult,
    ToolScope,
    ToolSpec,
)


class FetchArgs(ToolArgs):
    url: Annotated[
        NonBlank, Field(description="An http(s) URL on an allowed domain.", max_length=2048)
    ]


def resolve(args: FetchArgs, scope: ToolScope) -> str:
    """The host, checked at validation, so a refused URL is never proposed in any mode."""
    host = network.check_url(args.url, scope.settings)
    if scope.network_calls_used is not None:
        network.check_budget(scope.network_calls_used, scope.settings)
    return host


def run(env: ToolEnv, args: FetchArgs) -> ToolResult:
    with env.store.read() as conn:
        used = network.calls_used(conn, env.run_id, exclude_call=env.call_id)
    return network.fetch(args.url, env.scope.settings, calls_used=used)


SPEC = ToolSpec(
    name="fetch_url",
    tier=Tier.NETWORK,
    description="Fetch a web page by URL (GET). Disabled unless the network is enabled in "
    "settings.",
    args_model=FetchArgs,
    body=run,
    resolve_target=resolve,
    network_access=True,
)
