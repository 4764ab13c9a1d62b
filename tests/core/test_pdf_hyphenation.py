"""Words a PDF hyphenates at a line's end are read whole (issue 41, item 3), on a PDF made by
LibreOffice with its own hyphenation (hyphen-en-us) in a narrow, justified column: a word the
typesetter broke ("coor-" / "dinator") is indexed, found and quoted as "coordinator"; a compound
the author wrote ("well-known") keeps its hyphen when a line ends at it. Poppler's own text of
the PDF (`pdftotext -raw`) says where the lines break; the source text says how each word is
spelt."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from agent_core.corpus import search as corpus_search
from agent_core.corpus.formats import ExtractLimits, extract_file
from agent_core.models.offline import key_terms
from tests.eval.harness import CorpusStores, offline_brief
from tests.support.ci import require_or_skip
from tests.support.office import soffice_convert

PARAGRAPHS = (
    "The replication coordinator acknowledges every transaction only after the secondary "
    "databases have durably recorded it. Administrators investigating inconsistencies should "
    "compare checksums, because interleaved acknowledgements succeeded intermittently.",
    "A well-known weakness is the write-ahead journal filling its partition: a long-running "
    "reader holds back the checkpoint, and a read-only replica cannot truncate anything. The "
    "coordinator therefore monitors long-running readers continuously and reports stragglers.",
    "Acknowledgements are idempotent, so a retransmitted acknowledgement never duplicates a "
    "committed transaction; the self-describing journal header records the coordinator's epoch "
    "and its cross-checked sequence number.",
)
QUESTION = "When does the replication coordinator acknowledge a transaction?"
_FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:meta><dc:title>Replication coordinator</dc:title></office:meta>
 <office:styles><style:default-style style:family="paragraph">
  <style:paragraph-properties fo:text-align="justify" fo:margin-bottom="0.2cm"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt"
   fo:language="en" fo:country="US" fo:hyphenate="true"
   fo:hyphenation-remain-char-count="2" fo:hyphenation-push-char-count="2"/>
 </style:default-style></office:styles>
 <office:automatic-styles><style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="6cm" fo:page-height="29cm" fo:margin-top="0.8cm"
   fo:margin-bottom="0.8cm" fo:margin-left="0.8cm" fo:margin-right="0.8cm"/>
 </style:page-layout></office:automatic-styles>
 <office:master-styles>
  <style:master-page style:name="Standard" style:page-layout-name="pm1"/>
 </office:master-styles>
 <office:body><office:text>{body}</office:text></office:body>
</office:document>
"""


@dataclass(frozen=True)
class Made:
    pdf: Path
    breaks: tuple[tuple[str, str], ...]
    """(left, right) of each word the PDF's lines break at a hyphen, as poppler reads them."""


@pytest.fixture(scope="session")
def made(request: pytest.FixtureRequest) -> Made:
    soffice, pdftotext = shutil.which("soffice"), shutil.which("pdftotext")
    if soffice is None or pdftotext is None or not Path("/usr/share/hyphen").is_dir():
        require_or_skip("LibreOffice, poppler-utils and hyphen-en-us make the hyphenated PDF")
    assert soffice is not None and pdftotext is not None
    source = _FODT.format(body="".join(f"<text:p>{p}</text:p>" for p in PARAGRAPHS))
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    folder = Path(request.config.cache.mkdir("hyphenated-pdf")) / digest
    pdf = folder / "replication.pdf"
    if not pdf.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            source_file = str(Path(tmp) / "replication.fodt")
            Path(source_file).write_text(source, encoding="utf-8")
            soffice_convert("pdf", [Path(source_file)], Path(tmp), timeout=180)
            shutil.move(Path(tmp) / "replication.pdf", pdf)
    lines = subprocess.run(
        [pdftotext, "-raw", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    breaks = tuple(re.findall(r"([A-Za-z]+)-\n([a-z]+)", lines))
    return Made(pdf, breaks)


def _spelt(left: str, right: str) -> str:
    """The word as the source spells it: with the hyphen only where the author wrote one."""
    compound = f"{left}-{right}"
    return compound if compound in " ".join(PARAGRAPHS) else left + right


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusStores]:
    opened = CorpusStores(tmp_path_factory.mktemp("hyphenated"))
    yield opened
    opened.dispose()


def test_hyphenated_words_are_read_as_the_source_spells_them(made: Made) -> None:
    spelt = [_spelt(left, right) for left, right in made.breaks]
    # The column is narrow enough that LibreOffice breaks words of both kinds.
    assert len([w for w in spelt if "-" not in w]) >= 3, made.breaks
    assert [w for w in spelt if "-" in w], made.breaks
    document = extract_file(made.pdf, "pdf", ExtractLimits())
    text = " ".join(" ".join(document.sections).split())
    assert [w for w in spelt if not re.search(rf"\b{re.escape(w)}\b", text)] == [], text
    for left, right in made.breaks:
        assert f"{left} {right}" not in text
    for paragraph in PARAGRAPHS:  # sentences whole, across the lines and their hyphens
        for sentence in re.split(r"(?<=\.) ", paragraph):
            assert sentence in text


def test_a_broken_word_is_found_and_quoted_whole(made: Made, stores: CorpusStores) -> None:
    corpus = made.pdf.parent
    store = stores(corpus)
    brief = offline_brief(QUESTION, corpus, store)
    broken = {_spelt(left, right) for left, right in made.breaks}
    assert "coordinator" in broken or "acknowledgements" in broken, made.breaks
    with store.read() as conn:
        for word in sorted(w for w in broken if "-" not in w):
            hits = corpus_search.search(conn, corpus.resolve(), word, 3)
            assert [h["source_id"] for h in hits] == ["replication.pdf"], word
        hits = corpus_search.search(conn, corpus.resolve(), " ".join(key_terms(QUESTION)), 3)
        assert hits and hits[0]["source_id"] == "replication.pdf"
    answer = brief.split("## Answer\n\n")[1].split("\n\n")[0]
    assert PARAGRAPHS[0].split(". ")[0] + "." in answer, brief
    quoted = [w for w in broken if w in brief]
    assert quoted, (made.breaks, brief)
    misspelt = [f"{a} {b}" if "-" in _spelt(a, b) else f"{a}-{b}" for a, b in made.breaks]
    assert not [w for w in misspelt if w in brief or w.replace("-", " ") in brief], brief
