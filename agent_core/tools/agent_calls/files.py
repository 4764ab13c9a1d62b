"""The files an agent's call aims at, read as BriefDesk's own proposals read them (no symlink
followed, bounded): their text for a diff, their hash for `base_hash`."""

from __future__ import annotations

from pathlib import Path

from agent_core.contract.canonical import sha256_hex
from agent_core.home.sandbox import file_bytes

MAX_FILE_BYTES = 4 << 20
"""A larger file is neither diffed nor kept (the same bound as BriefDesk's own proposals)."""


def file_data(path: str) -> bytes | None:
    """The file's bytes (None: missing, not a regular file, or too large)."""
    return file_bytes(Path(path), max_bytes=MAX_FILE_BYTES)


def read_text(path: str) -> str | None:
    """The file's text (None: missing, not a regular file, or too large)."""
    data = file_data(path)
    return None if data is None else data.decode("utf-8", errors="replace")


def file_hash(path: str) -> str | None:
    """sha256 of the file's bytes (None: missing, not a regular file, or too large)."""
    data = file_data(path)
    return None if data is None else sha256_hex(data)
