"""What the corpus says about its documents: formats, statuses, per-document errors, and the
views `corpus status` / `corpus list` print (CLI contract, third wave: Documents).

Shared by the extractors (agent_core/corpus/formats), the index, the façade, the CLI and the
window, so a code or a key spelled here is the one every layer uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict

# Every suffix the corpus reads (lower case, with the dot) -> its `type` (no dot). `.markdown`
# and `.htm` are their own types: `type` is the file's extension, as the contract says.
INDEXED_TYPES: dict[str, str] = {
    ".md": "md",
    ".markdown": "markdown",
    ".txt": "txt",
    ".pdf": "pdf",
    ".docx": "docx",
    ".odt": "odt",
    ".html": "html",
    ".htm": "htm",
    ".epub": "epub",
    ".rtf": "rtf",
}
PLAIN_TYPES = frozenset({"md", "markdown", "txt"})
"""Read as text in the indexing process: no parser, no worker."""
PAGED_TYPES = frozenset({"pdf"})
"""Indexed page by page: hits carry `page`, `read_document` takes `pages`, citations say p. N."""


class DocumentStatus(StrEnum):
    """Where a document of the corpus folder stands in the index."""

    INDEXED = "indexed"
    """Its text is in the index as the file is now (same size, mtime and content hash)."""
    PENDING = "pending"
    """On disk but not indexed as it is now: new, or changed since it was indexed."""
    FAILED = "failed"
    """Its text could not be extracted (see its error); retried when the file changes."""


class DocumentErrorCode(StrEnum):
    """Why one document has no text in the index. Never stops the other documents."""

    ENCRYPTED = "document_encrypted"
    """It needs a password (or is under DRM)."""
    UNREADABLE = "document_unreadable"
    """Corrupt, truncated, not what its extension says, or its parser failed, ran out of its
    time or memory."""
    NO_TEXT = "document_no_text"
    """It opens but has no text to index: a scanned PDF with no text layer, an empty file."""
    TOO_LARGE = "document_too_large"
    """Past the setting `corpus.max_document_mb` (or it unpacks past its bound)."""
    NAME_REFUSED = "document_name_refused"
    """Its name holds a control, bidi or zero-width character (what a path may not hold): it
    could show as another name, so it is never read nor indexed."""


OCR_DID_NOT_RUN = "The PDF is a scan with no text layer, and OCR did not run: "
"""How `document_no_text` begins for a scan OCR did not read (the setting `corpus.ocr` off, or
Tesseract missing): a reindex that can run OCR reads it again though the file is the same."""


class DocumentError(Exception):
    """An extractor's refusal of one document: a stable code and a plain message."""

    def __init__(self, code: DocumentErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[DocumentError], tuple[DocumentErrorCode, str]]:
        return DocumentError, (self.code, self.message)  # it crosses from a parser's process

    def to_json(self) -> DocumentErrorJSON:
        return {"code": self.code.value, "message": self.message}


class DocumentErrorJSON(TypedDict):
    code: str
    """A DocumentErrorCode value."""
    message: str


@dataclass(frozen=True)
class ExtractedDocument:
    """The text of one document, as the index keeps it.

    Text is plain, with light Markdown structure the brief writer reads: `# ` headings (more
    `#` for deeper levels), paragraphs separated by a blank line, `- ` list items, `> ` quotes,
    `| ` table rows and fenced code. Nothing a reader of the document would not see: no
    scripts, styles, navigation, comments, hidden or off-page text.
    """

    title: str
    """The document's own title (metadata or first heading); "" when it has none."""
    sections: tuple[str, ...]
    """Paged documents: one text per page, in order (page N is sections[N-1]). Others: one."""
    paged: bool
    hidden_removed: int = 0
    """Runs of text left out because a reader of the rendered document cannot see them (styles,
    colours, size, position, clipping, PDF render modes): `corpus list`'s `hidden_removed`."""
    ocr_pages: int = 0
    """Pages with no text layer whose text was read by OCR: `corpus list`'s `ocr_pages`."""


class CorpusStatusView(TypedDict):
    """`corpus status`: the folder as it is now against the index."""

    root: str
    documents: int
    """Files of an indexed type in the folder (hidden files and folders excluded)."""
    indexed: int
    pending: int
    failed: int
    by_type: dict[str, int]
    """Documents per type (the extension, lower case, no dot)."""


class DocumentView(TypedDict):
    """One document of `corpus list`."""

    path: str
    """Its source id: the path relative to the corpus root, with `/`."""
    type: str
    pages: int | None
    """Pages of a paged document as indexed; null when not paged (or not indexed yet)."""
    chars: int | None
    """Characters of text indexed; null when pending or failed."""
    status: str
    """A DocumentStatus value."""
    error: DocumentErrorJSON | None
    hidden_removed: int
    """Runs of hidden text left out of the document as indexed (0 when none, pending or
    failed)."""
    ocr_pages: int
    """Its pages read by OCR as indexed (0 when none, pending or failed)."""


@dataclass(frozen=True)
class ReindexProgress:
    """How far a reindex is, for a progress bar: `done` of `total` changed files."""

    done: int
    total: int
    current: str
    """The source id just read, or (with `ocr_page`) being read ("" when finished)."""
    ocr_page: int = 0
    """Not 0: OCR starts reading this page (1-based) of `current`, a scan, which takes seconds."""
