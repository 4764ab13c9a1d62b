"""What the extractors share: the text cap, the zip bound, text assembly.

Imported only by the format modules (never by the package). No parser library here: the PDF
reader imports this module too, and a PDF-only worker need not load lxml (package_xml.py has
the XML helpers).
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument

_BLANK_RUNS = re.compile(r"\n{3,}")
_INLINE_SPACE = re.compile(r"[ \t\f\v\u00a0]+")


def cap(text: str, max_chars: int) -> str:
    """The text cut at the document's budget (cutting is not an error)."""
    return text if len(text) <= max_chars else text[:max_chars]


def join_blocks(blocks: Iterable[str]) -> str:
    """Blocks (paragraphs, headings, list items...) separated by blank lines, none empty."""
    text = "\n\n".join(b for b in (block.strip() for block in blocks) if b)
    return _BLANK_RUNS.sub("\n\n", text)


def squash_spaces(text: str) -> str:
    """Runs of inline white space as one space (line breaks kept), each line stripped."""
    return "\n".join(_INLINE_SPACE.sub(" ", line).strip() for line in text.split("\n"))


def single_section(title: str, text: str, limits_max_chars: int) -> ExtractedDocument:
    """An unpaged document, or NO_TEXT when nothing but white space came out."""
    text = cap(text.strip(), limits_max_chars)
    if not text.strip():
        raise DocumentError(DocumentErrorCode.NO_TEXT, "The document has no text.")
    return ExtractedDocument(title=title.strip(), sections=(text,), paged=False)


def open_zip(path: Path, max_unpacked_bytes: int, kind: str) -> zipfile.ZipFile:
    """A zip package whose declared unpacked size is within its bound (a zip bomb is refused
    before anything is decompressed)."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file is not a readable {kind} package ({error})."
        ) from error
    declared = sum(info.file_size for info in archive.infolist())
    if declared > max_unpacked_bytes:
        archive.close()
        raise DocumentError(
            DocumentErrorCode.TOO_LARGE,
            f"The {kind} package unpacks to {declared} bytes, past the bound of "
            f"{max_unpacked_bytes} bytes.",
        )
    return archive


def read_member(archive: zipfile.ZipFile, name: str, kind: str) -> bytes:
    """One member's bytes; a corrupt member (bad CRC, truncated) makes the file unreadable."""
    try:
        return archive.read(name)
    except KeyError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The {kind} package has no {name}."
        ) from error
    except (
        zipfile.BadZipFile,
        zlib.error,
        OSError,
        EOFError,
        ValueError,
        NotImplementedError,
    ) as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The {kind} package's {name} is corrupt ({error})."
        ) from error
