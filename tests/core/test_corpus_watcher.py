"""The corpus watcher with a real watchdog observer on a real folder: a change of a document is
reported once its burst is quiet, a burst of many files is reported a few times at most, and
hidden files, hidden folders and files of other types are never reported."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_core.corpus.watcher import CorpusWatcher, is_relevant
from tests.support.waiting import wait_until


class Bursts:
    """What the watcher reported, burst by burst (its callback runs on the watcher's thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: list[frozenset[str]] = []

    def __call__(self, paths: frozenset[str]) -> None:
        with self.lock:
            self.seen.append(paths)

    def all_paths(self) -> set[str]:
        with self.lock:
            return set().union(*self.seen)

    def count(self) -> int:
        with self.lock:
            return len(self.seen)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "old.md").write_text("# Old\n")
    return folder


@pytest.fixture
def watched(corpus: Path) -> Iterator[Bursts]:
    bursts = Bursts()
    watcher = CorpusWatcher(corpus, bursts, quiet=0.3).start()
    try:
        yield bursts
    finally:
        watcher.stop()


def test_a_new_document_is_reported_once_within_seconds(corpus: Path, watched: Bursts) -> None:
    (corpus / "notes.md").write_text("# Notes\n\nA new line.\n")
    wait_until(lambda: "notes.md" in watched.all_paths(), timeout=10)
    assert watched.count() == 1  # created, modified and closed: one burst


def test_changes_in_subfolders_and_deletions_are_reported(corpus: Path, watched: Bursts) -> None:
    (corpus / "papers").mkdir()
    (corpus / "papers" / "a.pdf").write_bytes(b"%PDF-1.4\n")
    wait_until(lambda: "papers/a.pdf" in watched.all_paths(), timeout=10)
    (corpus / "old.md").unlink()
    wait_until(lambda: "old.md" in watched.all_paths(), timeout=10)


def test_a_burst_of_twenty_files_is_a_few_reports(corpus: Path, watched: Bursts) -> None:
    for number in range(20):
        (corpus / f"doc-{number:02}.txt").write_text(f"document {number}\n")
    names = {f"doc-{number:02}.txt" for number in range(20)}
    wait_until(lambda: names <= watched.all_paths(), timeout=15)
    # A sentinel after the burst: once it is reported, every event of the burst was (in order).
    (corpus / "sentinel.md").write_text("# Sentinel\n")
    wait_until(lambda: "sentinel.md" in watched.all_paths(), timeout=10)
    assert watched.count() <= 3


def test_hidden_files_folders_and_other_types_are_not_reported(
    corpus: Path, watched: Bursts
) -> None:
    (corpus / ".draft.md").write_text("hidden\n")
    (corpus / ".git").mkdir()
    (corpus / ".git" / "notes.md").write_text("inside a hidden folder\n")
    (corpus / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    (corpus / "notes.md.swp").write_bytes(b"swap")
    # The sentinel's events come after theirs: once it is reported, theirs were looked at.
    (corpus / "visible.md").write_text("# Visible\n")
    wait_until(lambda: "visible.md" in watched.all_paths(), timeout=10)
    assert watched.all_paths() == {"visible.md"}


def test_stop_joins_and_reports_nothing_after(corpus: Path) -> None:
    bursts = Bursts()
    watcher = CorpusWatcher(corpus, bursts, quiet=0.3).start()
    watcher.stop()
    assert not any(t.name == "corpus-watcher" and t.is_alive() for t in threading.enumerate())
    (corpus / "late.md").write_text("# Late\n")
    # A second watcher that sees the next change proves the first one would have had time.
    second = Bursts()
    other = CorpusWatcher(corpus, second, quiet=0.3).start()
    try:
        (corpus / "later.md").write_text("# Later\n")
        wait_until(lambda: "later.md" in second.all_paths(), timeout=10)
    finally:
        other.stop()
    assert bursts.count() == 0


def test_what_counts_as_a_change_of_the_corpus(tmp_path: Path) -> None:
    root = tmp_path
    assert is_relevant(root, root / "a" / "b.PDF", is_directory=False)
    assert is_relevant(root, root / "papers", is_directory=True)
    assert not is_relevant(root, root / "a" / ".b.md", is_directory=False)
    assert not is_relevant(root, root / ".cache" / "b.md", is_directory=False)
    assert not is_relevant(root, root / ".cache", is_directory=True)
    assert not is_relevant(root, root / "b.docx~", is_directory=False)
    assert not is_relevant(root, tmp_path.parent / "elsewhere.md", is_directory=False)
