"""Text replacements as coding agents' edit tools make them (Claude Code's `Edit`/`MultiEdit`,
Gemini CLI's `replace`): the file's text after replacing `old` with `new`."""

from __future__ import annotations

from agent_core.contract.errors import BriefDeskError, ErrorCode


def replaced(text: str, old: str, new: str, *, replace_all: bool, path: str) -> str:
    """`text` with `old` replaced by `new`: every occurrence with `replace_all`, else exactly
    one (the agent's own tool refuses an ambiguous or missing one, so no diff is shown for an
    edit that would not run); an empty `old` on an empty or missing file writes `new`."""
    if old == "":
        if text:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS, f"An edit of {path} with no old text: the file exists."
            )
        return new
    count = text.count(old)
    if count == 0:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"The text to replace is not in {path}.")
    if count > 1 and not replace_all:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"The text to replace occurs {count} times in {path}: the edit is ambiguous.",
        )
    return text.replace(old, new) if replace_all else text.replace(old, new, 1)
