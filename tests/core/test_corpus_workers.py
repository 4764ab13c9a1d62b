"""The extraction workers' memory (issue 43, item 5), on real worker processes and real documents
(tests/fixtures/documents): a worker loads the parser of the format at hand and no other, and a
worker that retires after a document leaves the next one to a fresh worker, which reads it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import psutil

from agent_core.contract.documents import ExtractedDocument
from agent_core.corpus.extraction import ExtractionPool, Job
from agent_core.corpus.extraction_worker import ExtractionBounds

DOCUMENTS = Path(__file__).resolve().parents[1] / "fixtures" / "documents"


def corpus_of(tmp_path: Path, *names: str) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    for name in names:
        shutil.copyfile(DOCUMENTS / name, root / name)
    return root


def live_workers() -> list[psutil.Process]:
    """This process's extraction workers (multiprocessing's resource tracker left out)."""
    return [
        child
        for child in psutil.Process().children()
        if any("spawn_main" in part for part in child.cmdline())
    ]


def maps_library(process: psutil.Process, name: str) -> bool:
    return any(name in mapped.path for mapped in process.memory_maps())


def read_all(pool: ExtractionPool, root: Path, *names: str) -> list[ExtractedDocument]:
    jobs = [Job(root, name, name.rsplit(".", 1)[1]) for name in names]
    outcomes = [outcome for _job, outcome in pool.extract(jobs)]
    assert all(isinstance(outcome, ExtractedDocument) for outcome in outcomes), outcomes
    return [outcome for outcome in outcomes if isinstance(outcome, ExtractedDocument)]


def test_a_worker_reading_pdfs_loads_no_xml_parser_until_a_docx_comes(tmp_path: Path) -> None:
    root = corpus_of(tmp_path, "wal.pdf", "pages.pdf", "wal.docx")
    with ExtractionPool(ExtractionBounds(), workers=1) as pool:
        read_all(pool, root, "wal.pdf", "pages.pdf")
        (worker,) = live_workers()
        assert maps_library(worker, "pypdfium2")
        assert not maps_library(worker, "lxml/etree")
        read_all(pool, root, "wal.docx")
        (worker,) = live_workers()
        assert maps_library(worker, "lxml/etree")  # what the first look would have seen


def test_after_a_retired_worker_each_next_document_is_read_by_a_fresh_one(tmp_path: Path) -> None:
    names = ("wal.pdf", "pages.pdf", "wal.docx", "paper.pdf")
    root = corpus_of(tmp_path, *names)
    every_document = ExtractionBounds(recycle_mb=-1)
    with ExtractionPool(every_document, workers=1) as pool:
        fresh = read_all(pool, root, *names)
        assert pool.workers_started == len(names)
        assert live_workers() == []  # the last one retired too
    with ExtractionPool(ExtractionBounds(), workers=1) as pool:
        kept = read_all(pool, root, *names)
        assert pool.workers_started == 1
    assert [doc.sections for doc in fresh] == [doc.sections for doc in kept]
