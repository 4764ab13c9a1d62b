"""Every tool the agent has: one spec per module, one line each here.

To add a tool, write its module (an argument model, a body, a `SPEC`) and list it below;
docs/adding-a-tool.md walks through an example.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.tools import (
    ask_question,
    fetch_url,
    read_document,
    remember_audience,
    save_brief,
    search_corpus,
)
from agent_core.tools.specs import ToolSpec

TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        search_corpus.SPEC,
        read_document.SPEC,
        save_brief.SPEC,
        ask_question.SPEC,
        remember_audience.SPEC,
        fetch_url.SPEC,
    )
}


def spec_for(tool: str) -> ToolSpec:
    return BUILTIN.spec_for(tool)


@dataclass(frozen=True)
class ToolSet:
    """The tools one run offers: our own, and the MCP tools it listed when it started (those
    are the run's, recorded in `run_mcp_tools`, so another process sees the same specs)."""

    mcp: Mapping[str, ToolSpec] = field(default_factory=dict)
    unavailable: Mapping[str, BriefDeskError] = field(default_factory=dict)
    """Registered MCP servers that did not start when the run listed them: server -> why
    (`mcp_server_unavailable`, or `sandbox_unavailable` when no sandbox could be made)."""
    server_digests: Mapping[str, str | None] = field(default_factory=dict)
    """Each MCP server as the calling process registered it (tools/mcp/server_identity.py):
    a remembered rule decides only for the server it was made for."""

    def get(self, tool: str) -> ToolSpec | None:
        return TOOLS.get(tool) or self.mcp.get(tool)

    def spec_for(self, tool: str) -> ToolSpec:
        spec = self.get(tool)
        if spec is None:
            raise BriefDeskError(ErrorCode.UNKNOWN_TOOL, f"There is no tool named {tool[:80]!r}.")
        return spec

    def __contains__(self, tool: object) -> bool:
        return isinstance(tool, str) and self.get(tool) is not None

    def __iter__(self) -> Iterator[ToolSpec]:
        yield from TOOLS.values()
        yield from self.mcp.values()


BUILTIN = ToolSet()
"""BriefDesk's own six tools (a run without MCP servers, the offline model's)."""


def file_writing_tools() -> list[str]:
    """Tools whose confirmed effects the artifacts watcher expects to see on disk."""
    return [name for name, spec in TOOLS.items() if spec.writes_files]
