"""Text extractors of the corpus, one module per format.

Each module's `extract(path, limits)` returns the document's ExtractedDocument or raises
DocumentError (never another exception for a bad file). Parser libraries are imported only
inside `extract_file`, so the index (which reads plain text itself) and the app never load them:
they run in the extraction worker (agent_core/corpus/extraction.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent_core.contract.documents import ExtractedDocument

# Type (the extension, contract INDEXED_TYPES values) -> the module that reads it.
_MODULE_BY_TYPE: dict[str, str] = {
    "pdf": "pdf",
    "docx": "docx",
    "odt": "odt",
    "html": "html",
    "htm": "html",
    "epub": "epub",
    "rtf": "rtf",
}


@dataclass(frozen=True)
class OcrOptions:
    """How a PDF page with no text layer is read (pdf_ocr.py): rendered, then Tesseract."""

    seconds_per_page: float = 60.0
    """What one page's OCR may take (the setting `corpus.parse_seconds`, per page)."""
    languages: tuple[str, ...] = ("eng", "chi_sim")
    """Tesseract's languages, those installed of them (English and Simplified Chinese)."""
    page_started: Callable[[int], None] | None = None
    """Told each page's number as its OCR starts: the worker's parent gives that page its
    time (extraction.py). Set inside the worker, never pickled."""


@dataclass(frozen=True)
class ExtractLimits:
    """What one document may yield."""

    max_chars: int = 5_000_000
    """Text kept per document; the rest is cut (not an error)."""
    max_unpacked_bytes: int = 512 * 1024 * 1024
    """What a zip-based format (docx, odt, epub) may decompress to; past it: too large."""
    ocr: OcrOptions | None = None
    """None: a page with no text layer stays empty (the setting `corpus.ocr` off; the index
    asks for OCR from the setting, see index.bounds_of)."""


def extract_file(path: Path, doc_type: str, limits: ExtractLimits) -> ExtractedDocument:
    """The text of one non-plain document; DocumentError when it has none to give."""
    module_name = _MODULE_BY_TYPE.get(doc_type)
    if module_name is None:
        raise ValueError(f"no extractor for type {doc_type!r} (plain text is read by the index)")
    module = importlib.import_module(f"{__name__}.{module_name}")
    document: ExtractedDocument = module.extract(path, limits)
    return document
