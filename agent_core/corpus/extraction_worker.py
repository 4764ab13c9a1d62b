"""The extraction worker's side (extraction.py starts it): a job in, its outcome out.

This is the module a spawned worker imports to find its loop, so it imports only what the loop
needs: no storage, no clock, no sandbox (the parent's), and each format's parser only when a
document of that format arrives (formats.extract_file). A PDF-only batch never loads lxml.

After each document the worker hands the memory its parser freed back to the system
(glibc's `malloc_trim`: freed blocks otherwise stay in the heap, and a 300 dpi page rendered
for OCR left 25 MB resident behind it), and a worker that still holds more than
`ExtractionBounds.recycle_mb` over what it held ready retires after answering: the next
document gets a fresh one (a pool's `maxtasksperchild`, but only after a document that left
memory behind).
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.reduction import recv_handle
from pathlib import Path

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits, extract_file

MIB = 1024 * 1024
_LIBC = ctypes.CDLL(None) if sys.platform.startswith("linux") else None


@dataclass(frozen=True)
class ExtractionBounds:
    """What one document may cost a worker."""

    seconds: float = 60.0
    memory_mb: int = 2048
    """The worker's address space (RLIMIT_AS), interpreter and libraries included."""
    recycle_mb: int = 16
    """Resident memory a worker may keep past its ready size after a document (the least it
    held after one of that format: its parser's libraries count as ready); past it the worker
    retires. Negative: a fresh worker for every document."""
    limits: ExtractLimits = field(default_factory=ExtractLimits)


Outcome = ExtractedDocument | DocumentError


@dataclass(frozen=True)
class OcrPageStarted:
    """The worker's word that OCR of `page` (1-based) starts: that page gets its own time."""

    page: int


@dataclass(frozen=True)
class Answered:
    """A document's outcome, and whether the worker leaves after it (it held memory)."""

    outcome: Outcome
    retiring: bool = False


def serve(conn: Connection, bounds: ExtractionBounds) -> None:
    """The worker's loop: a job in, its text or its DocumentError out, until the pipe closes
    or the worker retires."""
    limit = bounds.memory_mb * MIB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    limits = bounds.limits
    if limits.ocr is not None:
        announce = replace(limits.ocr, page_started=lambda page: conn.send(OcrPageStarted(page)))
        limits = replace(limits, ocr=announce)
    ready: dict[str, int] = {}  # format -> the least resident bytes after one of its documents
    while True:
        try:
            doc_type = conn.recv()
            fd = recv_handle(conn)
        except EOFError:
            return
        outcome = _extract(fd, doc_type, limits)
        release_freed_memory()
        held = resident_bytes()
        retiring = bounds.recycle_mb < 0
        if held is not None and not retiring:
            ready[doc_type] = baseline = min(ready.get(doc_type, held), held)
            retiring = held > baseline + bounds.recycle_mb * MIB
        try:
            conn.send(Answered(outcome, retiring))
        except MemoryError:
            too_large = DocumentError(DocumentErrorCode.UNREADABLE, "Its text is too large.")
            conn.send(Answered(too_large, retiring=True))
            return
        if retiring:
            return


def _extract(fd: int, doc_type: str, limits: ExtractLimits) -> Outcome:
    try:
        # The file the indexer opened (no symlink followed), not whatever its name is now.
        return extract_file(Path(f"/dev/fd/{fd}"), doc_type, limits)
    except DocumentError as refused:
        return refused
    except MemoryError:
        return DocumentError(DocumentErrorCode.UNREADABLE, "Its reader ran out of memory.")
    except Exception as exc:  # a parser's bug on a strange file: that file fails alone
        return DocumentError(
            DocumentErrorCode.UNREADABLE, f"Its reader failed ({type(exc).__name__})."
        )
    finally:
        os.close(fd)


def release_freed_memory() -> None:
    """Return the heap's free pages to the system (glibc only; elsewhere nothing to do)."""
    trim = getattr(_LIBC, "malloc_trim", None)  # glibc's; not in musl or macOS
    if trim is not None:
        trim(0)


def resident_bytes() -> int | None:
    """This process's resident memory now (Linux), None where it cannot be read cheaply."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
