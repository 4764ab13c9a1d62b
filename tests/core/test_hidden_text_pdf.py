"""What a reader of a PDF cannot see is never read (issue 41, item 1), on PDFs made by real tools
(tests/support/hidden_pdf_docs.py): per hiding technique one hidden sentence and one visible;
text shown in nearby styles stays; a scan's invisible OCR layer stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.contract.documents import ExtractedDocument
from agent_core.corpus.formats import ExtractLimits, extract_file
from tests.support.ci import require_or_skip
from tests.support.hidden_pdf_docs import EDITED, HIDDEN, SEEN_STYLES, STYLED, VISIBLE, build_all
from tests.support.hidden_pdf_docs import tools_missing as pdf_tools_missing


@pytest.fixture(scope="session")
def made(request: pytest.FixtureRequest) -> dict[str, Path]:
    missing = pdf_tools_missing()
    if missing:  # dev.sh installs them (libreoffice, qpdf, poppler-utils, tesseract-ocr)
        require_or_skip(f"missing tools to make the PDFs: {', '.join(missing)}")
    return build_all(Path(request.config.cache.mkdir("hidden-text-pdf")))


def read(path: Path) -> tuple[ExtractedDocument, str]:
    document = extract_file(path, "pdf", ExtractLimits())
    return document, " ".join("\n".join(document.sections).split())


@pytest.mark.parametrize("technique", [*STYLED, *EDITED])
def test_hidden_sentence_is_not_read(made: dict[str, Path], technique: str) -> None:
    document, text = read(made[technique])
    assert VISIBLE in text
    assert "mailbox" not in text, technique
    assert document.hidden_removed >= 1


def test_text_seen_in_nearby_styles_stays(made: dict[str, Path]) -> None:
    """Dark grey on a picture, 6 pt, white on black, half under a translucent box."""
    document, text = read(made["seen"])
    for _, sentence in SEEN_STYLES:
        assert sentence in text
    assert document.hidden_removed == 0


def test_ocr_layer_of_a_scan_stays(made: dict[str, Path]) -> None:
    """Tesseract's PDF: the page's picture, its words in invisible text over it."""
    document, text = read(made["scan"])
    assert "ledger" in text and "mailbox" in text, text
    assert document.hidden_removed == 0
    assert HIDDEN.split()[0] in text
