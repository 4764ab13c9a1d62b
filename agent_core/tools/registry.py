"""Every tool the agent has: one spec per module, one line each here.

To add a tool, write its module (an argument model, a body, a `SPEC`) and list it below;
docs/adding-a-tool.md walks through an example.
"""

from __future__ import annotations

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
    spec = TOOLS.get(tool)
    if spec is None:
        raise BriefDeskError(ErrorCode.UNKNOWN_TOOL, f"There is no tool named {tool[:80]!r}.")
    return spec


def file_writing_tools() -> list[str]:
    """Tools whose confirmed effects the artifacts watcher expects to see on disk."""
    return [name for name, spec in TOOLS.items() if spec.writes_files]
