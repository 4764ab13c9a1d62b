"""Document parsers run in worker processes, each document bounded in time and memory.

A parser is the one part of the corpus that reads a hostile file's structure (a PDF's object
tree, a zip's XML), so it never runs in the app's process: a parser that hangs is killed when
its document's time is up, one that explodes in memory meets the worker's address-space limit
(RLIMIT_AS), and one that crashes takes only its worker down. Each such document is
`document_unreadable` with a plain reason; the next document gets a fresh worker.

Workers are started only when a document needs a parser (a reindex of plain text, or with
nothing changed, starts none), with the `spawn` method (a fork of a process with Qt and SDK
threads is unsafe), and are stopped when the batch ends. A worker imports only its loop
(extraction_worker.py) and the parser of each format it meets, gives back what a document's
parser freed, and retires after a document that left it holding memory anyway.

A scanned PDF page is read by OCR (formats/pdf_ocr.py), which takes seconds a page: the worker
announces each such page (`OcrPageStarted`) and its parent gives that page `seconds` of its own,
so a document's time is `seconds` for its text and `seconds` more per scanned page.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import send_handle
from pathlib import Path

from agent_core.contract.documents import DocumentError, DocumentErrorCode
from agent_core.contract.errors import BriefDeskError
from agent_core.corpus.extraction_worker import (
    Answered,
    ExtractionBounds,
    OcrPageStarted,
    Outcome,
    serve,
)
from agent_core.home.clock import monotonic
from agent_core.home.sandbox import open_inside

MIB = 1024 * 1024


@dataclass(frozen=True)
class Job:
    root: Path
    source_id: str
    doc_type: str


class _Worker:
    def __init__(self, bounds: ExtractionBounds) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process: BaseProcess = ctx.Process(
            target=serve,
            args=(child, bounds),
            name="briefdesk-extract",
            daemon=True,
        )
        self.process.start()
        child.close()
        self.job: Job | None = None
        self.deadline = 0.0
        self.ocr_page = 0
        """The page its OCR is reading now (0: none)."""

    def give(self, job: Job, fd: int, seconds: float) -> None:
        self.job = job
        self.deadline = monotonic() + seconds
        self.ocr_page = 0
        self.conn.send(job.doc_type)
        send_handle(self.conn, fd, self.process.pid or 0)

    def stop(self, *, kill: bool = False) -> None:
        self.conn.close()
        if kill:
            self.process.kill()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class ExtractionPool:
    """Up to `workers` worker processes, started on first use; a context manager."""

    def __init__(self, bounds: ExtractionBounds, workers: int | None = None) -> None:
        self.bounds = bounds
        self.size = max(1, min(workers or (os.cpu_count() or 1), 4))
        self._idle: list[_Worker] = []
        self.workers_started = 0
        """Workers started so far: a crash, a timeout or a retirement starts another."""

    def __enter__(self) -> ExtractionPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        while self._idle:
            self._idle.pop().stop()

    def _worker(self) -> _Worker:
        if self._idle:
            return self._idle.pop()
        self.workers_started += 1
        return _Worker(self.bounds)

    def extract(
        self, jobs: Iterable[Job], on_ocr_page: Callable[[Job, int], None] | None = None
    ) -> Iterator[tuple[Job, Outcome]]:
        """Each job's outcome, in the order they finish; `on_ocr_page(job, page)` as OCR of a
        scanned page starts (a window shows which document takes seconds a page)."""
        waiting = deque(jobs)
        busy: dict[Connection, _Worker] = {}
        try:
            while waiting or busy:
                while waiting and len(busy) < self.size:
                    job = waiting.popleft()
                    try:
                        with open_inside(job.root, job.source_id) as fd:
                            worker = self._worker()
                            worker.give(job, fd, self.bounds.seconds)
                    except BriefDeskError as gone:  # removed or swapped since the walk
                        yield job, DocumentError(DocumentErrorCode.UNREADABLE, gone.message)
                        continue
                    busy[worker.conn] = worker
                if not busy:
                    break
                soonest = min(w.deadline for w in busy.values())
                ready = wait(list(busy), timeout=max(0.0, soonest - monotonic()))
                for conn, worker in list(busy.items()):
                    if conn in ready:
                        finished = self._collect(worker)
                        if finished is not None:
                            del busy[conn]
                            yield finished
                        elif on_ocr_page is not None and worker.job is not None:
                            on_ocr_page(worker.job, worker.ocr_page)
                    elif monotonic() >= worker.deadline:
                        del busy[conn]
                        yield self._timed_out(worker)
        finally:
            for worker in busy.values():
                worker.stop(kill=True)

    def _collect(self, worker: _Worker) -> tuple[Job, Outcome] | None:
        """The worker's document and outcome; None while it is still reading (a scanned page's
        OCR started, which gets `seconds` of its own from now)."""
        job = worker.job
        assert job is not None
        try:
            message: Answered | OcrPageStarted = worker.conn.recv()
        except (EOFError, OSError):  # the worker died: a crash, or the memory limit's kill
            worker.stop(kill=True)
            return job, DocumentError(
                DocumentErrorCode.UNREADABLE, "Its reader crashed on this file."
            )
        if isinstance(message, OcrPageStarted):
            worker.ocr_page = message.page
            worker.deadline = max(worker.deadline, monotonic() + self.bounds.seconds)
            return None
        if message.retiring:  # it holds memory its document left: the next gets a fresh one
            worker.stop()
        else:
            self._idle.append(worker)
        return job, message.outcome

    def _timed_out(self, worker: _Worker) -> tuple[Job, Outcome]:
        job = worker.job
        assert job is not None
        worker.stop(kill=True)
        seconds = f"{self.bounds.seconds:g}"
        if worker.ocr_page:
            return job, DocumentError(
                DocumentErrorCode.UNREADABLE,
                f"Reading page {worker.ocr_page} by OCR took longer than {seconds} s "
                "(setting corpus.parse_seconds, per scanned page).",
            )
        return job, DocumentError(
            DocumentErrorCode.UNREADABLE, f"Reading it took longer than {seconds} s."
        )
