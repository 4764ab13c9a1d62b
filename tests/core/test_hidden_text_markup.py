"""Text a reader of the rendered document cannot see is never indexed (issue 41, item 1), for
the markup formats: DOCX, ODT, RTF, HTML and EPUB, one document per hiding technique, made by
LibreOffice, pandoc or by hand (tests/support/hidden_markup_docs.py); and what a reader sees,
styled near those ways (dark grey, 8 pt, a normal colour over a white parent), stays."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_core.corpus import search as corpus_search
from agent_core.corpus.formats import ExtractLimits, extract_file
from agent_core.facade.workspace import Workspace
from tests.support.ci import require_or_skip
from tests.support.hidden_markup_docs import (
    DOCX_EDITS,
    EPUB_SOURCES,
    FODT_FORMATS,
    HIDDEN,
    HIDDEN_WORD,
    HTML_SOURCES,
    KEPT_FODT_SENTENCES,
    KEPT_SENTENCES,
    VISIBLE,
    VISIBLE_WORD,
    Made,
    build_all,
    kept_documents,
)

LIMITS = ExtractLimits()
CASES = (
    [(name, kind) for name, kinds in FODT_FORMATS.items() for kind in kinds]
    + [(name, "docx") for name in DOCX_EDITS]
    + [(name, "html") for name in HTML_SOURCES]
    + [(name, "epub") for name in EPUB_SOURCES]
)


@pytest.fixture(scope="session")
def made(request: pytest.FixtureRequest) -> dict[tuple[str, str], Made]:
    for tool in ("soffice", "pandoc"):
        if shutil.which(tool) is None:
            require_or_skip(f"{tool} is not installed (Debian: libreoffice-writer-nogui, pandoc)")
    cache = Path(request.config.cache.mkdir("hidden-text-markup"))
    return {(m.technique, m.doc_type): m for m in build_all(cache)}


@pytest.fixture(scope="session")
def kept(request: pytest.FixtureRequest, made: dict[tuple[str, str], Made]) -> list[Made]:
    return kept_documents(Path(request.config.cache.mkdir("hidden-text-markup")))


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("technique", "doc_type"), CASES, ids=[f"{k}-{n}" for n, k in CASES])
def test_hidden_sentence_is_left_out_and_counted(
    made: dict[tuple[str, str], Made], technique: str, doc_type: str
) -> None:
    document = extract_file(made[technique, doc_type].path, doc_type, LIMITS)
    text = _words("\n".join(document.sections))
    assert VISIBLE in text
    assert HIDDEN_WORD not in text
    assert document.hidden_removed >= 1


@pytest.mark.parametrize("doc_type", ["odt", "docx", "rtf", "html", "epub"])
def test_near_but_visible_styles_stay(kept: list[Made], doc_type: str) -> None:
    (document,) = [m for m in kept if m.doc_type == doc_type]
    extracted = extract_file(document.path, doc_type, LIMITS)
    text = _words("\n".join(extracted.sections))
    expected = KEPT_FODT_SENTENCES if doc_type in ("odt", "docx", "rtf") else KEPT_SENTENCES
    for sentence in expected:
        assert sentence in text
    assert extracted.hidden_removed == 0


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    opened = Workspace(tmp_path / "home")
    yield opened
    opened.close()


def test_a_hidden_sentence_is_never_found_by_search(
    made: dict[tuple[str, str], Made], workspace: Workspace, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for (technique, doc_type), document in made.items():
        shutil.copyfile(document.path, corpus / f"{technique}.{doc_type}")
    status = workspace.reindex_corpus(corpus)
    assert status["failed"] == 0 and status["indexed"] == len(made)
    with workspace.desk_store.read() as conn:
        hidden_hits = corpus_search.search(conn, corpus.resolve(), HIDDEN_WORD, 100)
        visible_hits = corpus_search.search(conn, corpus.resolve(), VISIBLE_WORD, 100)
    assert [hit["source_id"] for hit in hidden_hits] == []
    assert len({hit["source_id"] for hit in visible_hits}) == len(made)
    assert HIDDEN not in "".join(hit["snippet"] for hit in visible_hits)
