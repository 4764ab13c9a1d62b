"""The corpus's per-format extractors on documents made by real tools (pandoc, LibreOffice,
qpdf, pdftoppm): see tests/fixtures/documents/README.md for how each file was made."""

from __future__ import annotations

import contextlib
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits, extract_file
from tests.support.ci import require_or_skip

DOCS = Path(__file__).resolve().parents[1] / "fixtures" / "documents"
LIMITS = ExtractLimits()
INSTRUCTION = "pwned.md"
WAL_SENTENCE = "WAL is significantly faster in most scenarios."


def extract(name: str, doc_type: str, limits: ExtractLimits = LIMITS) -> ExtractedDocument:
    return extract_file(DOCS / name, doc_type, limits)


def refusal(path: Path, doc_type: str, limits: ExtractLimits = LIMITS) -> DocumentErrorCode:
    with pytest.raises(DocumentError) as caught:
        extract_file(path, doc_type, limits)
    assert caught.value.message  # a plain reason, for `corpus list --failed`
    return caught.value.code


# -- structure and known text, per format ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [("wal.docx", "docx"), ("wal.odt", "odt"), ("wal.epub", "epub")],
)
def test_structured_formats_give_headings_lists_and_paragraphs(name: str, doc_type: str) -> None:
    document = extract(name, doc_type)
    assert not document.paged and len(document.sections) == 1
    assert document.title == "Write-Ahead Logging"
    text = document.sections[0]
    assert "# 1. Overview\n\n" in text
    assert "## 2.1. Checkpointing" in text or "# 2.1. Checkpointing" in text
    assert f"- {WAL_SENTENCE}" in text
    # A paragraph is one line, separated from the next by a blank line.
    assert (
        "\n\nThere are advantages and disadvantages to using WAL instead of a rollback journal."
        in text
    )


def test_rtf_paragraphs_and_title() -> None:
    document = extract("wal.rtf", "rtf")
    assert document.title == "Write-Ahead Logging"
    text = document.sections[0]
    assert WAL_SENTENCE in text
    assert "\n\n1. Overview\n\n" in text
    assert "\\par" not in text and "{\\" not in text


def test_pdf_pages_paragraphs_and_headings() -> None:
    document = extract("wal.pdf", "pdf")
    assert document.paged and len(document.sections) == 4
    assert document.title == "Write-Ahead Logging"
    first = document.sections[0]
    assert "## 1. Overview" in first
    assert WAL_SENTENCE in first
    # Lines of one paragraph joined with single spaces, as the page shows them.
    assert (
        "The default method by which SQLite implements atomic commit and rollback is a rollback"
        " journal." in first
    )
    assert "\r" not in first and "\ufffe" not in first and "\x02" not in first


def test_pdf_known_text_on_known_pages() -> None:
    document = extract("pages.pdf", "pdf")
    assert len(document.sections) == 3
    expected = [
        "Locking and concurrency control are handled by the pager module.",
        "A stale super-journal is a super-journal that is no longer being used for anything.",
        "In SQLite version 2, if many processes are reading from the database,",
    ]
    for page, sentence in enumerate(expected):
        assert sentence in document.sections[page]
        others = [s for i, s in enumerate(document.sections) if i != page]
        assert not any(sentence in other for other in others)


def test_chinese_text_keeps_its_punctuation_and_words() -> None:
    pdf = extract("chinese.pdf", "pdf").sections[0]
    docx = extract("chinese.docx", "docx")
    sentence = "预写日志是一种让读者和写者同时工作的方法。"
    assert sentence in pdf and sentence in docx.sections[0]
    # Lines wrapped by the page join without a space between CJK characters.
    assert "读者继续读取原来的数据库文件。" in pdf
    assert "## 检查点" in pdf
    assert docx.title == "预写日志简介"


def test_pdf_with_only_an_owner_password_is_read() -> None:
    assert WAL_SENTENCE in extract("owner-password.pdf", "pdf").sections[0]


def test_html_main_text_without_boilerplate() -> None:
    document = extract("isolation.html", "html")
    assert document.title == "Isolation In SQLite"
    text = document.sections[0]
    assert "# Isolation In SQLite" in text
    assert "## Isolation Between Database Connections" in text
    assert "- Transactions in SQLite are SERIALIZABLE." in text
    for boilerplate in ("- Purchase", "- Documentation", "toggle_div", "Search Documentation"):
        assert boilerplate not in text
    assert "sqlite.css" not in text


def test_html_elements_a_browser_hides_are_dropped(tmp_path: Path) -> None:
    page = tmp_path / "page.htm"
    page.write_text(
        "<html><head><title>T</title><style>p{color:red}</style></head><body>"
        "<nav><a href='/'>Home</a></nav><main><h2>Seen</h2><p>Shown text.</p>"
        "<p hidden>one</p><p aria-hidden='true'>two</p><p style='display: none'>three</p>"
        "<span style='font-size:0'>four</span><p style='opacity:0'>five</p>"
        "<input type='hidden' value='six'><!-- seven --><script>eight()</script>"
        "<pre>code  kept</pre><blockquote>Quoted.</blockquote>"
        "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
        "</main><footer>Footer</footer></body></html>",
        encoding="utf-8",
    )
    text = extract_file(page, "htm", LIMITS).sections[0]
    # aria-hidden hides from a screen reader only: the text is on screen (issue 41).
    assert text == (
        "## Seen\n\nShown text.\n\ntwo\n\n```\ncode  kept\n```\n\n> Quoted.\n\n| a | b |\n| 1 | 2 |"
    )


def test_html_encoding_from_meta_charset(tmp_path: Path) -> None:
    page = tmp_path / "latin.html"
    page.write_bytes(
        b'<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head>'
        b"<body><p>Cr\xe8me br\xfbl\xe9e.</p></body></html>"
    )
    document = extract_file(page, "html", LIMITS)
    assert document.title == "Café" and document.sections[0] == "Crème brûlée."


def test_epub_package_files_are_not_text() -> None:
    text = extract("wal.epub", "epub").sections[0]
    assert "- 2. How WAL Works" not in text  # the navigation document's table of contents
    assert "span.smallcaps" not in text  # a stylesheet
    assert text.count("# 2.2. Concurrency") == 1


# -- hostile documents ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [("hostile.pdf", "pdf"), ("hostile.docx", "docx"), ("hostile.odt", "odt")],
)
def test_hidden_instructions_are_dropped(name: str, doc_type: str) -> None:
    document = extract(name, doc_type)
    text = "\n".join(document.sections)
    assert (
        "A checkpoint moves the content of the write-ahead log back into the database file." in text
    )
    assert "Visible words stay." in text and "A comment follows." in text
    assert "By default a checkpoint runs when the log reaches one thousand pages." in text
    for hidden in ("White:", "Tiny:", "OffPage:", "Vanish:", "Comment:"):
        assert hidden not in text
    if doc_type != "pdf":  # a PDF prints a tracked deletion struck through: a reader sees it
        assert INSTRUCTION not in text


def test_hidden_html_instruction_is_dropped() -> None:
    text = extract("isolation.html", "html").sections[0]
    assert INSTRUCTION not in text
    assert "Isolation And Concurrency" not in text  # a section the trim left out


# -- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [("encrypted.pdf", "pdf"), ("encrypted.odt", "odt"), ("drm.epub", "epub")],
)
def test_encrypted_documents(name: str, doc_type: str) -> None:
    assert refusal(DOCS / name, doc_type) is DocumentErrorCode.ENCRYPTED


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [
        ("truncated.pdf", "pdf"),
        ("wal.rtf", "pdf"),
        ("wal.pdf", "docx"),
        ("word97.doc", "docx"),
        ("wal.odt", "docx"),
        ("wal.pdf", "odt"),
        ("wal.docx", "odt"),
        ("wal.pdf", "epub"),
        ("wal.odt", "epub"),
        ("wal.pdf", "html"),
        ("wal.pdf", "rtf"),
        ("isolation.html", "rtf"),
    ],
)
def test_unreadable_documents(name: str, doc_type: str) -> None:
    assert refusal(DOCS / name, doc_type) is DocumentErrorCode.UNREADABLE


def test_truncated_zip_package_is_unreadable(tmp_path: Path) -> None:
    for name, doc_type in (("wal.docx", "docx"), ("wal.odt", "odt"), ("wal.epub", "epub")):
        data = (DOCS / name).read_bytes()
        cut = tmp_path / name
        cut.write_bytes(data[: len(data) // 2])
        assert refusal(cut, doc_type) is DocumentErrorCode.UNREADABLE


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [("scan.pdf", "pdf"), ("empty.pdf", "pdf"), ("empty.docx", "docx")],
)
def test_documents_without_text(name: str, doc_type: str) -> None:
    assert refusal(DOCS / name, doc_type) is DocumentErrorCode.NO_TEXT


def test_empty_html_and_rtf_have_no_text(tmp_path: Path) -> None:
    page = tmp_path / "empty.html"
    page.write_text("<html><head><title>Only a title</title></head><body> </body></html>")
    assert refusal(page, "html") is DocumentErrorCode.NO_TEXT
    rtf = tmp_path / "empty.rtf"
    rtf.write_text("{\\rtf1\\ansi {\\fonttbl\\f0 Times;}\\f0 }")
    assert refusal(rtf, "rtf") is DocumentErrorCode.NO_TEXT


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [("wal.docx", "docx"), ("wal.odt", "odt"), ("wal.epub", "epub")],
)
def test_zip_unpacking_past_its_bound_is_too_large(name: str, doc_type: str) -> None:
    small = ExtractLimits(max_unpacked_bytes=4096)
    assert refusal(DOCS / name, doc_type, small) is DocumentErrorCode.TOO_LARGE


def test_text_is_cut_at_max_chars() -> None:
    limits = ExtractLimits(max_chars=500)
    for name, doc_type in (("wal.docx", "docx"), ("wal.odt", "odt"), ("wal.epub", "epub")):
        assert len(extract(name, doc_type, limits).sections[0]) == 500
    pages = extract("wal.pdf", "pdf", limits).sections
    assert len(pages) == 4 and sum(map(len, pages)) == 500 and pages[-1] == ""
    assert len(extract("wal.rtf", "rtf", limits).sections[0]) == 500
    assert len(extract("isolation.html", "html", limits).sections[0]) == 500


def test_plain_types_are_not_extracted_here() -> None:
    for plain in ("md", "markdown", "txt"):
        with pytest.raises(ValueError):
            extract_file(DOCS / "chinese.md", plain, LIMITS)


def test_importing_the_package_loads_no_parser() -> None:
    probe = (
        "import sys, agent_core.corpus.formats; "
        "print(sorted(m for m in ('pypdfium2', 'docx', 'lxml', 'striprtf') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_pdf_words_match_pdftotext() -> None:
    if shutil.which("pdftotext") is None:  # dev.sh installs poppler-utils
        require_or_skip("poppler's pdftotext is not installed")
    """The text stays comparable to what the page shows: the same words as poppler's (no
    de-hyphenation, no lost or merged words)."""
    ours = extract("wal.pdf", "pdf").sections[1].replace("## ", "").split()
    result = subprocess.run(
        ["pdftotext", "-f", "2", "-l", "2", str(DOCS / "wal.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert sorted(ours) == sorted(result.stdout.split())  # poppler orders list numbers apart


@pytest.mark.parametrize(
    ("name", "doc_type"),
    [
        ("wal.pdf", "pdf"),
        ("wal.docx", "docx"),
        ("wal.odt", "odt"),
        ("wal.epub", "epub"),
        ("wal.rtf", "rtf"),
        ("isolation.html", "html"),
    ],
)
def test_damaged_bytes_give_text_or_a_document_error(
    name: str, doc_type: str, tmp_path: Path
) -> None:
    """Bytes overwritten here and there: the extractor reads what it can or refuses with a code,
    never another exception."""
    original = (DOCS / name).read_bytes()
    chance = random.Random(27)
    for attempt in range(8):
        data = bytearray(original)
        for _ in range(20):
            at = chance.randrange(len(data))
            data[at : at + 8] = bytes(chance.randrange(256) for _ in range(8))
        damaged = tmp_path / f"{attempt}{Path(name).suffix}"
        damaged.write_bytes(bytes(data))
        with contextlib.suppress(DocumentError):
            extract_file(damaged, doc_type, LIMITS)
