"""Codex's config.toml, edited in place with tomlkit: comments, blank lines, key order, quoting and
tables the person wrote all survive, and only the tables BriefDesk adds or removes change.

A file that is not valid TOML is refused (`invalid_arguments`) and left untouched.
"""

from __future__ import annotations

from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.toml_document import TOMLDocument

from agent_core.contract.errors import BriefDeskError, ErrorCode


def parse_toml_settings(text: str, path: Path) -> TOMLDocument:
    try:
        return tomlkit.parse(text)
    except TOMLKitError as exc:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"{path} is not valid TOML ({exc}); BriefDesk left it as it is. Correct it and "
            "connect again.",
        ) from None


def render_toml_settings(doc: TOMLDocument) -> str:
    return tomlkit.dumps(doc)
