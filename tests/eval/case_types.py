"""What an evaluation case is (tests/eval/README.md), and the corpora the cases ask about."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO_CORPUS = REPO_ROOT / "resources" / "corpus"
HOSTILE_CORPUS = Path(__file__).resolve().parent / "hostile_corpus"
DOCUMENTS_CORPUS = Path(__file__).resolve().parent / "documents_corpus"


class Suite(Enum):
    """Which group a case's figures are reported under."""

    EN = "en"
    """English questions over the demo corpus."""
    ZH = "zh"
    """Chinese questions over the demo corpus's Chinese documents."""
    HOSTILE = "hostile"
    """English questions over tests/eval/hostile_corpus (benchmark-style injections)."""
    DOCS = "docs"
    """English questions over tests/eval/documents_corpus: PDF, Word, OpenDocument, HTML, EPUB
    and RTF (made by LibreOffice and pandoc from SQLite's documentation), Markdown and text."""
    BRIEFS = "briefs"
    """English and Chinese questions over tests/eval/briefs_corpus.py's documents: PDFs with
    running headers, page numbers, code and tables (LibreOffice), DOCX and ODT (pandoc)."""


@dataclass(frozen=True)
class EvalCase:
    suite: Suite
    question: str
    corpus: Path
    gold: tuple[str, ...]
    relevant: tuple[str, ...] = ()
    off_topic: tuple[str, ...] = ()
    injected: tuple[str, ...] = ()
