"""Scans are read: a PDF page with no text layer that shows an image is rendered by pdfium and
read by Tesseract (English and Simplified Chinese), one page at a time.

The glue follows OCRmyPDF's: the `tesseract` program once per page, with a timeout, after
asking `tesseract --list-langs` what is installed. OCRmyPDF itself is not used: it exists to
write a new PDF with a text layer (Ghostscript or pdfium rasterizing, hOCR grafted with pikepdf),
and the index needs only each page's text. Nor Pillow: pdfium renders the page to a grey bitmap,
handed to Tesseract as a PGM on its stdin (no temporary file, nothing on disk).

Runs in the extraction worker only (extraction.py), inside its time and memory: each page's OCR
is announced first (`OcrOptions.page_started`), so the worker's parent gives that page its own
`corpus.parse_seconds`; Tesseract gets what is left of it, and dies with the worker when the
parent kills it (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from agent_core.contract.documents import OCR_DID_NOT_RUN, DocumentError, DocumentErrorCode
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import cap
from agent_core.home.clock import monotonic

RENDER_DPI = 300  # what Tesseract reads best; a 150 dpi scan gains nothing past it
MAX_PIXELS = 40_000_000  # a poster-sized page is read at a lower resolution, not refused
INSTALL_HINT = "Debian: apt install tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim"
_PR_SET_PDEATHSIG = 1
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
# Tesseract's Chinese comes out in words spaced apart ("调查 小 组"): a reader sees no spaces.
_CJK_SPACES = re.compile(f"(?<=[{_CJK}])[ \\t]+(?=[{_CJK}])")


@dataclass(frozen=True)
class Tesseract:
    program: str
    languages: str
    """For `-l`: the installed ones of those asked, joined by `+`."""


def read_scanned_pages(
    document: pdfium.PdfDocument,
    sections: list[str],
    limits: ExtractLimits,
    shape: Callable[[str], str],
) -> tuple[list[str], int]:
    """`sections` (one text per page) with each empty page that shows an image read by OCR and
    shaped like a page's text (`shape`), and how many pages OCR read.

    A document left with no text at all is `document_no_text`, saying why OCR did not help
    (off, Tesseract missing, nothing found); one with text on other pages keeps it."""
    scans = [i for i, text in enumerate(sections) if not text.strip() and _shows_image(document, i)]
    if not scans:
        return sections, 0
    has_text = any(text.strip() for text in sections)
    ocr = limits.ocr
    if ocr is None:
        if has_text:
            return sections, 0
        raise DocumentError(
            DocumentErrorCode.NO_TEXT, f"{OCR_DID_NOT_RUN}it is off (setting corpus.ocr)."
        )
    tesseract = find_tesseract(ocr.languages)
    if isinstance(tesseract, str):
        if has_text:
            return sections, 0
        raise DocumentError(DocumentErrorCode.NO_TEXT, f"{OCR_DID_NOT_RUN}{tesseract}.")
    read = list(sections)
    budget = limits.max_chars - sum(len(text) for text in sections)
    pages = 0
    for index in scans:
        if budget <= 0:
            break  # past the document's cap, as for text pages: counted, not read
        if ocr.page_started is not None:
            ocr.page_started(index + 1)
        raw = ocr_page(document, index, tesseract, ocr.seconds_per_page)
        text = cap(shape(_CJK_SPACES.sub("", raw)), budget)
        budget -= len(text)
        read[index] = text
        pages += 1
    if not any(text.strip() for text in read):
        raise DocumentError(
            DocumentErrorCode.NO_TEXT,
            f"The PDF is a scan with no text layer, and OCR found no text on its {pages} "
            f"page{'s' if pages != 1 else ''}.",
        )
    return read, pages


def _shows_image(document: pdfium.PdfDocument, index: int) -> bool:
    page = document[index]
    try:
        return any(True for _ in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
    finally:
        page.close()


@functools.cache
def find_tesseract(wanted: tuple[str, ...]) -> Tesseract | str:
    """Tesseract with the installed ones of `wanted`, or why OCR cannot run (a plain reason)."""
    program = shutil.which("tesseract")
    if program is None:
        return f"Tesseract is not installed ({INSTALL_HINT})"
    try:
        listed = subprocess.run(
            [program, "--list-langs"],
            capture_output=True,
            text=True,
            timeout=30,
            env=_environment(),
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"Tesseract does not start ({error})"
    installed = {line.strip() for line in listed.stdout.splitlines()[1:]}
    languages = [language for language in wanted if language in installed]
    if not languages:
        return f"Tesseract has none of the languages {', '.join(wanted)} ({INSTALL_HINT})"
    return Tesseract(program, "+".join(languages))


def ocr_page(document: pdfium.PdfDocument, index: int, tesseract: Tesseract, seconds: float) -> str:
    """Tesseract's text of page `index` (0-based) as rendered; `seconds` for all of it."""
    started = monotonic()
    image = _render_pgm(document, index)
    left = max(0.1, seconds - (monotonic() - started))
    command = [tesseract.program, "stdin", "stdout", "-l", tesseract.languages]
    command += ["--dpi", str(RENDER_DPI)]
    try:
        done = subprocess.run(
            command,
            input=image,
            capture_output=True,
            timeout=left,
            env=_environment(),
            preexec_fn=_die_with_parent,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE,
            f"Reading page {index + 1} by OCR took longer than {seconds:g} s "
            "(setting corpus.parse_seconds, per scanned page).",
        ) from None
    except OSError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"OCR of page {index + 1} could not start ({error})."
        ) from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DocumentError(
            DocumentErrorCode.UNREADABLE,
            f"OCR of page {index + 1} failed ({why[-1] if why else done.returncode}).",
        )
    return done.stdout.decode("utf-8", "replace")


def _render_pgm(document: pdfium.PdfDocument, index: int) -> bytearray:
    """The page in grey at RENDER_DPI (less for a huge page), as a binary PGM.

    pdfium renders straight into the PGM's pixel area, behind its header: the image exists
    once (a 300 dpi page is 8 MB; copying the pixels out and joining them to the header held
    three copies at once)."""
    image = bytearray()

    def into_image(
        width: int, height: int, format: int, rev_byteorder: bool = False
    ) -> pdfium.PdfBitmap:
        if format != pdfium_c.FPDFBitmap_Gray:
            raise DocumentError(
                DocumentErrorCode.UNREADABLE, f"Page {index + 1} did not render in grey."
            )
        header = b"P5\n%d %d\n255\n" % (width, height)
        image.extend(header)
        image.extend(bytes(width * height))
        pixels = (ctypes.c_ubyte * (width * height)).from_buffer(image, len(header))
        return pdfium.PdfBitmap.new_native(width, height, format, rev_byteorder, buffer=pixels)

    page = document[index]
    try:
        width, height = page.get_size()
        scale = RENDER_DPI / 72
        area = max(width * height, 1.0)
        scale = min(scale, math.sqrt(MAX_PIXELS / area))
        bitmap = page.render(scale=scale, grayscale=True, bitmap_maker=into_image)
    finally:
        page.close()
    bitmap.close()  # the bitmap's shell only: its pixels are the image's
    return image


def _environment() -> dict[str, str]:
    """Tesseract's: one thread (up to four workers run at once, the Tesseract FAQ's advice),
    and nothing of BriefDesk's environment it does not need."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "OMP_THREAD_LIMIT": "1"}
    if "TESSDATA_PREFIX" in os.environ:
        env["TESSDATA_PREFIX"] = os.environ["TESSDATA_PREFIX"]
    return env


def _die_with_parent() -> None:
    """In Tesseract's process before exec: killed with the worker (its deadline's SIGKILL)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
