"""Cut one page of the SQLite documentation Debian ships down to the sections an eval case needs.

Used by make_documents_corpus.sh (stdlib only, so the system python3 runs it too):

    python3 sqlite_doc_trim.py SRC.html OUT.html --keep "2.1." "3. How" [--page] [--inject TEXT]
        [--after N] [--hidden TEXT]

The page's body is split at its headings; a section is kept when its heading (tags stripped,
spaces collapsed) starts with one of the `--keep` prefixes. Images are dropped (the converters
would not find them). By default the output is a plain document (title and kept sections), the
input of pandoc and LibreOffice; `--page` keeps the page's own navigation bar, scripts and footer
around them instead: the HTML of the corpus, so boilerplate removal is tested on the real thing.
`--inject` adds a visible paragraph after the N-th kept section (a hostile document), `--hidden`
a paragraph a browser does not show (display:none).
"""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

_HEADING = re.compile(r"(?=<h[1-6][\s>])", re.I)
_TAG = re.compile(r"<[^>]+>")
_FOOTER = re.compile(r'<p align="center"><small><i>This page last modified', re.I)


def heading_text(chunk: str) -> str:
    end = re.search(r"</h[1-6]>", chunk, re.I)
    inner = chunk[: end.start()] if end else chunk[:200]
    return " ".join(html.unescape(_TAG.sub(" ", inner)).split())


def split_page(page: str) -> tuple[str, list[str], str]:
    """(what precedes the first heading, the sections, the footer and what follows)."""
    footer_at = _FOOTER.search(page)
    end = footer_at.start() if footer_at else page.lower().rfind("</body>")
    parts = _HEADING.split(page[:end])
    return parts[0], parts[1:], page[end:]


def clean(chunk: str) -> str:
    chunk = re.sub(r"<img\b[^>]*>", "", chunk, flags=re.I)
    # A code block's wrapper div would reach Markdown as raw HTML: keep its <pre> only.
    chunk = re.sub(r'<div class="?codeblock"?>(.*?)</div>', r"\1", chunk, flags=re.I | re.S)
    return re.sub(r'<a name="?[^">]*"?>\s*</a>', "", chunk, flags=re.I)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--keep", nargs="+", required=True)
    parser.add_argument("--title")
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--inject")
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--hidden")
    args = parser.parse_args()
    page = args.source.read_text(encoding="utf-8")
    head, sections, tail = split_page(page)
    kept = [clean(s) for s in sections if heading_text(s).startswith(tuple(args.keep))]
    missing = [k for k in args.keep if not any(heading_text(s).startswith(k) for s in kept)]
    if missing:
        raise SystemExit(f"{args.source.name}: no section starts with {missing}")
    if args.inject:
        kept.insert(args.after, f"<p>{html.escape(args.inject)}</p>\n")
    if args.hidden:
        kept.insert(1, f'<div style="display:none"><p>{html.escape(args.hidden)}</p></div>\n')
    found = re.search(r"<title>(.*?)</title>", page, re.S | re.I)
    title = args.title or html.unescape(found.group(1).strip() if found else args.source.stem)
    if args.page:
        out = head + "".join(kept) + tail
    else:
        own_title = heading_text(kept[0]) == title  # the page's first heading is its title
        out = (
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n'
            f"<title>{html.escape(title)}</title></head>\n<body>\n"
            + ("" if own_title else f"<h1>{html.escape(title)}</h1>\n")
            + "".join(kept)
            + "</body></html>\n"
        )
    args.out.write_text(out, encoding="utf-8")


if __name__ == "__main__":
    main()
