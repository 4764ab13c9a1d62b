"""The corpus index: what is in the folder, what the index holds of it, and bringing the two
together (`reindex`), incrementally by size, mtime and content hash.

Plain text (`.md`, `.markdown`, `.txt`) is read here; every other format goes to a parser in
a bounded worker process (extraction.py), started only when such a file changed. A file that
cannot be read is recorded as failed with its code (contract/documents.py) and never stops the
others. The walk obeys the same sandbox as read_document: every file goes through
`resolve_inside`, and is opened without following a symlink, so nothing outside the corpus
root is ever indexed. Runs index at their start (a run then only searches); the window's corpus
watcher (watcher.py) reindexes within seconds of a change.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat as stat_mode
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection

from agent_core.contract.documents import (
    INDEXED_TYPES,
    OCR_DID_NOT_RUN,
    PLAIN_TYPES,
    CorpusStatusView,
    DocumentError,
    DocumentErrorCode,
    DocumentStatus,
    DocumentView,
    ExtractedDocument,
    ReindexProgress,
)
from agent_core.contract.errors import BriefDeskError
from agent_core.corpus.extraction import ExtractionPool, Job
from agent_core.corpus.extraction_worker import ExtractionBounds
from agent_core.corpus.formats import ExtractLimits, OcrOptions
from agent_core.corpus.running_lines import drop_running_lines
from agent_core.home.clock import monotonic
from agent_core.home.door import mask_incoming
from agent_core.home.preferences import Settings
from agent_core.home.sandbox import (
    open_inside,
    read_text_nofollow,
    refuse_hostile_name,
    resolve_inside,
)
from agent_core.storage.store import Store
from agent_core.storage.tables import corpus as corpus_table
from agent_core.storage.tables.corpus import IndexedFile

MAX_INDEX_BYTES = 2_000_000  # a 50 MB text file is indexed by its head, not loaded whole
BATCH_SECONDS = 0.5  # documents are written in transactions of about this long, not one each
_CHUNK = 1 << 20

Progress = Callable[[ReindexProgress], None]


@dataclass(frozen=True)
class OnDisk:
    """A file of the corpus folder as it is now."""

    doc_type: str
    mtime_ns: int
    size: int

    def same_stat(self, known: IndexedFile | None) -> bool:
        return known is not None and (known.mtime_ns, known.size) == (self.mtime_ns, self.size)


def document_title(source_id: str, body: str) -> str:
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip()[:200]
        if stripped:
            return stripped[:120]
    return source_id


@dataclass(frozen=True)
class RefusedName:
    """A file of an indexed type whose name the corpus refuses: never read, listed as failed."""

    disk: OnDisk
    message: str


def walk(root: Path, refused: dict[str, RefusedName] | None = None) -> dict[str, OnDisk]:
    """Source ids (relative POSIX paths) of indexable files; hidden files and folders are
    skipped, folders that are symlinks are not entered, and a file that is a symlink counts
    only when it resolves to a regular file inside the root (as `resolve_inside` decides).

    A regular file whose name holds a control, bidi or zero-width character (what the sandbox
    refuses of a name) is never indexed; with `refused`, it is collected there, so a listing
    shows it as failed instead of leaving it out without a word."""
    found: dict[str, OnDisk] = {}
    with contextlib.suppress(OSError):  # the folder went away: nothing to index
        _walk_into(root, "", root, found, {} if refused is None else refused)
    return dict(sorted(found.items()))


def _walk_into(
    folder: Path, prefix: str, root: Path, found: dict[str, OnDisk], refused: dict[str, RefusedName]
) -> None:
    with os.scandir(folder) as entries:
        listed = sorted(entries, key=lambda e: e.name)
    for entry in listed:
        if entry.name.startswith("."):
            continue
        source_id = prefix + entry.name
        try:
            if entry.is_dir(follow_symlinks=False):
                _walk_into(Path(entry.path), source_id + "/", root, found, refused)
                continue
            doc_type = INDEXED_TYPES.get(Path(entry.name).suffix.lower())
            if doc_type is None:
                continue
            try:
                refuse_hostile_name(source_id)
            except BriefDeskError as hostile:
                st = entry.stat(follow_symlinks=False)
                if stat_mode.S_ISREG(st.st_mode):
                    disk = OnDisk(doc_type, st.st_mtime_ns, st.st_size)
                    refused[source_id] = RefusedName(disk, _name_refused_message(hostile))
                continue
            if entry.is_symlink():  # rare: resolved and checked like any path from outside
                st = resolve_inside(root, source_id, must_exist=True).stat()
            else:  # a regular file reached through real folders: inside by construction
                st = entry.stat(follow_symlinks=False)
        except (BriefDeskError, OSError):
            continue  # outside the root, a special file: not indexed
        if stat_mode.S_ISREG(st.st_mode):
            found[source_id] = OnDisk(doc_type, st.st_mtime_ns, st.st_size)


def _name_refused_message(hostile: BriefDeskError) -> str:
    return (
        f"Its name is refused ({hostile.message}): a name with control, bidi or zero-width "
        "characters can show as another, so it is not read. Rename the file to index it."
    )


def bounds_of(settings: Settings | None) -> ExtractionBounds:
    prefs = settings or Settings()
    seconds = float(prefs.corpus_parse_seconds)
    ocr = OcrOptions(seconds_per_page=seconds) if prefs.corpus_ocr == "on" else None
    return ExtractionBounds(
        seconds=seconds,
        memory_mb=int(prefs.corpus_parse_memory_mb),
        limits=ExtractLimits(ocr=ocr),
    )


def _file_hash(root: Path, source_id: str) -> str:
    digest = hashlib.sha256()
    with open_inside(root, source_id) as fd:
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class _Writer:
    """Puts documents into the index in short transactions of several documents each."""

    def __init__(self, store: Store, key: str, total: int, progress: Progress | None) -> None:
        self.store, self.key, self.total, self.progress = store, key, total, progress
        self.pending: list[Callable[[Connection], None]] = []
        self.done = 0
        self.since = monotonic()

    def add(self, source_id: str, write: Callable[[Connection], None]) -> None:
        self.pending.append(write)
        self.done += 1
        if monotonic() - self.since >= BATCH_SECONDS:
            self.flush()
        if self.progress is not None:
            self.progress(ReindexProgress(self.done, self.total, source_id))

    def ocr_started(self, job: Job, page: int) -> None:
        if self.progress is not None:
            self.progress(ReindexProgress(self.done, self.total, job.source_id, ocr_page=page))

    def flush(self) -> None:
        if self.pending:
            with self.store.write() as conn:
                for write in self.pending:
                    write(conn)
            self.pending.clear()
        self.since = monotonic()


def _plain(root: Path, source_id: str) -> ExtractedDocument:
    body, _truncated = read_text_nofollow(root, source_id, max_bytes=MAX_INDEX_BYTES)
    if not body.strip():
        raise DocumentError(DocumentErrorCode.NO_TEXT, "The file is empty.")
    return ExtractedDocument(title="", sections=(body,), paged=False)


def _indexed(
    source_id: str, doc_type: str, file: IndexedFile, doc: ExtractedDocument
) -> corpus_table.IndexedDocument:
    # The index is in state.db: no secret BriefDesk holds goes there, nor into the FTS index
    # and the CJK grams built from these sections.
    sections = tuple(mask_incoming(s) for s in doc.sections)
    if doc.paged:  # headers, footers, page numbers: never a brief's text (running_lines.py)
        sections = drop_running_lines(sections)
    title = mask_incoming(doc.title.strip()) or document_title(source_id, sections[0])
    return corpus_table.IndexedDocument(
        source_id,
        doc_type,
        title[:200],
        file,
        sections,
        doc.paged,
        hidden_removed=doc.hidden_removed,
        ocr_pages=doc.ocr_pages,
    )


def reindex(
    store: Store,
    root: Path,
    settings: Settings | None = None,
    progress: Progress | None = None,
) -> CorpusStatusView:
    """Bring the index of `root` up to date with the folder; the status afterwards."""
    key = str(root)
    refused_names: dict[str, RefusedName] = {}  # never indexed; listed as failed (_documents)
    on_disk = walk(root, refused_names)
    with store.read() as conn:
        known = corpus_table.indexed_files(conn, key)
    gone = [sid for sid in known if sid not in on_disk]
    changed = [sid for sid, f in on_disk.items() if not f.same_stat(known.get(sid))]
    prefs = settings or Settings()
    max_bytes = float(prefs.corpus_max_document_mb) * 1_000_000
    # Looked at again though its stat is the same: a document refused as too large once the
    # setting lets it in, one that could not be opened (a chmod changes no mtime), and a scan
    # OCR did not read once OCR can run.
    with store.read() as conn:
        rows = corpus_table.document_rows(conn, key)
    ocr_ready = prefs.corpus_ocr == "on" and shutil.which("tesseract") is not None
    unread_scans = {sid for sid, row in rows.items() if ocr_ready and _ocr_did_not_run(row)}
    changed += [
        sid
        for sid, row in rows.items()
        if sid in on_disk
        and sid not in changed
        and (
            (row.error_code == DocumentErrorCode.TOO_LARGE and on_disk[sid].size <= max_bytes)
            or (row.error_code == DocumentErrorCode.UNREADABLE and not row.file.sha256)
            or sid in unread_scans
        )
    ]
    writer = _Writer(store, key, len(gone) + len(changed), progress)
    for source_id in gone:
        writer.add(source_id, _drop(key, source_id))
    parse: dict[str, IndexedFile] = {}
    for source_id in changed:
        disk = on_disk[source_id]
        if disk.size > max_bytes:  # before hashing: a huge file is not read at all
            file = IndexedFile(disk.mtime_ns, disk.size, "")
            _record(writer, key, source_id, disk.doc_type, file, _too_large(disk, prefs))
            continue
        try:
            file = IndexedFile(disk.mtime_ns, disk.size, _file_hash(root, source_id))
        except BriefDeskError:
            continue  # gone or swapped since the walk: the next reindex sees it as it is
        except OSError as exc:  # no permission, an I/O error: listed, retried when it changes
            file = IndexedFile(disk.mtime_ns, disk.size, "")
            cannot = DocumentError(
                DocumentErrorCode.UNREADABLE, f"It cannot be opened ({exc.strerror or exc})."
            )
            _record(writer, key, source_id, disk.doc_type, file, cannot)
            continue
        previous = known.get(source_id)
        same_bytes = previous is not None and previous.sha256 == file.sha256
        if same_bytes and source_id not in unread_scans:
            writer.add(source_id, _touch(key, source_id, file))
        elif disk.doc_type in PLAIN_TYPES:
            try:
                outcome: ExtractedDocument | DocumentError = _plain(root, source_id)
            except DocumentError as refused:
                outcome = refused
            except BriefDeskError:
                continue
            _record(writer, key, source_id, disk.doc_type, file, outcome)
        else:
            parse[source_id] = file
    if parse:
        jobs = [Job(root, sid, on_disk[sid].doc_type) for sid in parse]
        with ExtractionPool(bounds_of(settings)) as pool:
            for job, outcome in pool.extract(jobs, writer.ocr_started):
                _record(writer, key, job.source_id, job.doc_type, parse[job.source_id], outcome)
    writer.flush()
    return _status(store, root, (on_disk, refused_names))


def _ocr_did_not_run(row: corpus_table.DocumentRow) -> bool:
    return row.error_code == DocumentErrorCode.NO_TEXT and (row.error_message or "").startswith(
        OCR_DID_NOT_RUN
    )


def _too_large(disk: OnDisk, prefs: Settings) -> DocumentError:
    return DocumentError(
        DocumentErrorCode.TOO_LARGE,
        f"It is {disk.size / 1_000_000:.3g} MB; the corpus reads documents up to "
        f"{prefs.corpus_max_document_mb:g} MB (setting corpus.max_document_mb).",
    )


def _touch(key: str, source_id: str, file: IndexedFile) -> Callable[[Connection], None]:
    return lambda conn: corpus_table.touch_document(conn, key, source_id, file)


def _drop(key: str, source_id: str) -> Callable[[Connection], None]:
    return lambda conn: corpus_table.drop_document(conn, key, source_id)


def _record(
    writer: _Writer,
    key: str,
    source_id: str,
    doc_type: str,
    file: IndexedFile,
    outcome: ExtractedDocument | DocumentError,
) -> None:
    if isinstance(outcome, DocumentError):
        code, message = outcome.code.value, outcome.message
        writer.add(
            source_id,
            lambda c: corpus_table.put_failure(c, key, source_id, doc_type, file, code, message),
        )
        return
    doc = _indexed(source_id, doc_type, file, outcome)
    writer.add(source_id, lambda c: corpus_table.put_document(c, key, doc))


def _status_of(disk: OnDisk, row: corpus_table.DocumentRow | None) -> DocumentStatus:
    if row is None or not disk.same_stat(row.file):
        return DocumentStatus.PENDING
    return DocumentStatus.FAILED if row.status == "failed" else DocumentStatus.INDEXED


Walked = tuple[dict[str, OnDisk], dict[str, RefusedName]]


def _documents(
    store: Store, root: Path, walked: Walked | None = None
) -> Iterator[tuple[str, OnDisk, DocumentStatus, corpus_table.DocumentRow | None]]:
    """Every file of the folder, by path, with its status and index row; a refused name is
    failed with `document_name_refused` (a row made here, never stored: the index holds
    nothing of it)."""
    if walked is None:
        refused: dict[str, RefusedName] = {}
        walked = walk(root, refused), refused
    on_disk, refused = walked
    with store.read() as conn:
        rows = corpus_table.document_rows(conn, str(root))
    listed = [
        (sid, disk, _status_of(disk, rows.get(sid)), rows.get(sid)) for sid, disk in on_disk.items()
    ]
    listed += [
        (sid, name.disk, DocumentStatus.FAILED, _refused_row(sid, name))
        for sid, name in refused.items()
    ]
    yield from sorted(listed, key=lambda entry: entry[0])


def _refused_row(source_id: str, name: RefusedName) -> corpus_table.DocumentRow:
    file = IndexedFile(name.disk.mtime_ns, name.disk.size, "")
    return corpus_table.DocumentRow(
        source_id=source_id,
        doc_type=name.disk.doc_type,
        title=source_id,
        file=file,
        status="failed",
        pages=None,
        chars=None,
        error_code=DocumentErrorCode.NAME_REFUSED.value,
        error_message=name.message,
    )


def corpus_status(store: Store, root: Path) -> CorpusStatusView:
    """The folder as it is now against the index (a file not indexed as it is now: pending)."""
    return _status(store, root, None)


def _status(store: Store, root: Path, walked: Walked | None) -> CorpusStatusView:
    view: CorpusStatusView = {
        "root": str(root),
        "documents": 0,
        "indexed": 0,
        "pending": 0,
        "failed": 0,
        "by_type": {},
    }
    for _sid, disk, status, _row in _documents(store, root, walked):
        view["documents"] += 1
        if status is DocumentStatus.INDEXED:
            view["indexed"] += 1
        elif status is DocumentStatus.FAILED:
            view["failed"] += 1
        else:
            view["pending"] += 1
        view["by_type"][disk.doc_type] = view["by_type"].get(disk.doc_type, 0) + 1
    return view


def corpus_documents(store: Store, root: Path, failed_only: bool = False) -> list[DocumentView]:
    """Every document of the folder as `corpus list` shows it (only the failed ones)."""
    out: list[DocumentView] = []
    for source_id, disk, status, row in _documents(store, root):
        if failed_only and status is not DocumentStatus.FAILED:
            continue
        current = row if status is not DocumentStatus.PENDING else None
        failed = status is DocumentStatus.FAILED and current is not None
        out.append(
            {
                "path": source_id,
                "type": disk.doc_type,
                "pages": current.pages if current else None,
                "chars": current.chars if current and not failed else None,
                "status": status.value,
                "error": (
                    {"code": current.error_code or "", "message": current.error_message or ""}
                    if failed and current
                    else None
                ),
                "hidden_removed": current.hidden_removed if current and not failed else 0,
                "ocr_pages": current.ocr_pages if current and not failed else 0,
            }
        )
    return out
