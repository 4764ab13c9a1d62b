"""What bench_corpus.py indexes and searches: real PDFs made from the SQLite documentation
Debian ships (public domain; LibreOffice converts, qpdf joins the long one; cached in
benchmarks/.cache/, git-ignored), Markdown documents cut from the same text, with queries drawn from
its words; and the comparison of our page text with pdftotext's."""

from __future__ import annotations

import os
import random
import re
import shutil
import statistics
import subprocess
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_core.storage.store import Store

CACHE = Path(__file__).resolve().parent / ".cache" / "corpus"
SQLITE_DOCS = Path("/usr/share/doc/sqlite3")
WORD = re.compile(r"[^\W_]+")
# Long, text-heavy pages, joined into the long PDF (the rest of the docs make the short ones).
LONG_SOURCES = (
    "fts5", "pragma", "fileformat2", "atomiccommit", "optoverview", "lang_expr",
    "wal", "queryplanner", "datatype3", "howtocorrupt", "lockingv3", "vtab",
)  # fmt: skip


def pages_of(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    found = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    return int(found.group(1)) if found else 0


def convert(htmls: list[Path], outdir: Path) -> None:
    if not htmls:  # soffice given no file waits forever instead of failing
        raise SystemExit(
            f"no SQLite documentation in {SQLITE_DOCS}: install Debian's sqlite3-doc"
            " (./dev.sh bench does, as root)"
        )
    outdir.mkdir(parents=True, exist_ok=True)
    profile = Path(f"/tmp/lo-bench-profile-{os.getpid()}")
    try:
        subprocess.run(
            ["soffice", "--headless", f"-env:UserInstallation=file://{profile}",
             "--convert-to", "pdf", "--outdir", str(outdir), *map(str, htmls)],
            check=True, capture_output=True, timeout=1800,
        )  # fmt: skip
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def build_pdfs(shorts: int, long_pages: int) -> Path:
    """The corpus folder of PDFs for these sizes, built once and cached."""
    out = CACHE / f"pdf-{shorts}-{long_pages}"
    corpus = out / "corpus"
    if (out / "done").exists():
        return corpus
    shutil.rmtree(out, ignore_errors=True)
    candidates = sorted(
        p
        for p in SQLITE_DOCS.glob("*.html")
        if 12_000 < p.stat().st_size < 60_000
        and p.stem not in LONG_SOURCES
        and "crossref" not in p.stem
    )
    picked = random.Random(27).sample(candidates, min(shorts, len(candidates)))
    convert(picked, corpus)
    longs = [SQLITE_DOCS / f"{name}.html" for name in LONG_SOURCES]
    convert([p for p in longs if p.exists()], out / "long-parts")
    parts = sorted((out / "long-parts").glob("*.pdf"))
    joined: list[str] = []
    total = 0
    while total < long_pages:
        for part in parts:
            joined.append(str(part))
            total += pages_of(part)
            if total >= long_pages:
                break
    long_pdf = corpus / f"sqlite-handbook-{long_pages}p.pdf"
    subprocess.run(["qpdf", "--empty", "--pages", *joined, "--", str(long_pdf)], check=True)
    (out / "done").write_text("")
    return corpus


# -- the Markdown corpus and its queries ----------------------------------------------------


def sqlite_paragraphs() -> list[str]:
    """The documentation's text, a paragraph (or heading) at a time, in page order."""
    from lxml import html

    out: list[str] = []
    for path in sorted(SQLITE_DOCS.glob("*.html")):
        root = html.parse(str(path)).getroot()
        for bad in list(root.iter("script", "style")):
            bad.drop_tree()
        for el in root.iter("h1", "h2", "h3", "p", "li", "pre", "dd"):
            text = " ".join(el.text_content().split())
            if el.tag.startswith("h") and 3 < len(text) < 120:
                out.append(f"## {text}")
            elif len(text) > 60:
                out.append(text)
    return out


def build_text_corpus(root: Path, paragraphs: list[str], count: int) -> int:
    """`count` Markdown files of 2-8 KB, each a run of paragraphs from a random place."""
    rng = random.Random(27)
    total = 0
    for i in range(count):
        target = rng.randint(2000, 8000)
        at = rng.randrange(len(paragraphs))
        body: list[str] = []
        size = 0
        while size < target:
            body.append(paragraphs[at % len(paragraphs)])
            size += len(body[-1].encode()) + 2
            at += 1
        first = next((p[3:] for p in body if p.startswith("## ")), body[0][:60])
        text = f"# {first} ({i})\n\n" + "\n\n".join(body) + "\n"
        folder = root / f"{i // 100:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        total += (folder / f"{i:05d}.md").write_bytes(text.encode())
    return total


def make_queries(paragraphs: list[str], n: int = 200) -> list[str]:
    rng = random.Random(13)
    vocab = Counter(w for p in paragraphs for w in re.findall(r"\b[a-z]{3,}\b", p.lower()))
    ranked = [w for w, _ in vocab.most_common()]
    common, middle = ranked[:60], ranked[300:3000]
    rare = [w for w, c in vocab.items() if 2 <= c <= 5]
    queries = [rng.choice(common) for _ in range(n * 3 // 20)]
    queries += [rng.choice(middle) for _ in range(n * 3 // 20)]
    queries += [rng.choice(rare) for _ in range(n * 3 // 20)]
    queries += [" ".join(rng.sample(middle + common, rng.randint(2, 3))) for _ in range(n // 5)]
    misses = [f"zq{rng.randrange(10**6)}x{c}" for c in "abcdefghij"][: n // 20]
    while len(queries) < n - len(misses):  # question-like runs of words from the text
        words = rng.choice(paragraphs).split()
        if len(words) > 10:
            start = rng.randrange(len(words) - 8)
            run = [w.strip(".,;:()\"'") for w in words[start : start + rng.randint(4, 8)]]
            if all(w.isalpha() for w in run):  # prose, not a list of file names
                queries.append(" ".join(run))
    return queries + misses


# -- our page text against pdftotext's ------------------------------------------------------


def word_share(ours: str, theirs: str) -> tuple[float, float]:
    """(share of their words found in ours, share of ours found in theirs), as multisets."""
    a, b = Counter(WORD.findall(ours.lower())), Counter(WORD.findall(theirs.lower()))
    common = sum((a & b).values())
    return common / max(1, sum(b.values())), common / max(1, sum(a.values()))


def pdftotext_page(pdf: Path, page: int) -> str:
    return subprocess.run(
        ["pdftotext", "-q", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def text_quality(store: Store, root: Path, pdfs: list[Path]) -> dict[str, float]:
    """Word shares on four pages of the long PDF and the first page with text of four others
    (a page that is only the docs' banner image has no words to compare)."""
    from agent_core.storage.tables import corpus as corpus_table

    longest = max(pdfs, key=pages_of)
    n = pages_of(longest)
    sample = [(longest, p, pdftotext_page(longest, p)) for p in sorted({1, n // 3, 2 * n // 3, n})]
    for pdf in sorted(set(pdfs) - {longest}):
        page = next(
            (p for p in range(1, min(4, pages_of(pdf)) + 1)
             if len(WORD.findall(pdftotext_page(pdf, p))) >= 50),
            None,
        )  # fmt: skip
        if page is not None and len(sample) < 8:
            sample.append((pdf, page, pdftotext_page(pdf, page)))
    found, extra = [], []
    for pdf, page, theirs in sample:
        with store.read() as conn:
            texts = corpus_table.page_texts(conn, str(root), pdf.name, page, page)
        f, e = word_share(texts[0][1] if texts else "", theirs)
        found.append(f)
        extra.append(e)
    return {
        "pages": len(sample),
        "theirs_in_ours": round(statistics.mean(found), 4),
        "theirs_in_ours_min": round(min(found), 4),
        "ours_in_theirs": round(statistics.mean(extra), 4),
        "ours_in_theirs_min": round(min(extra), 4),
    }
