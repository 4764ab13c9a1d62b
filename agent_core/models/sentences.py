"""Sentences of a corpus document, the terms they are compared by, and the ones we never echo.

Shared by the offline model's keyword step and its brief writer. English words are lowered,
stripped of stop words (corpus/stop_words.py) and lightly stemmed; Chinese and Japanese text (no
spaces between words) is compared by character bigrams, the same unit the search index uses
(storage/cjk_text.py).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from agent_core.corpus.pages import PAGE_LINE
from agent_core.corpus.stop_words import BRIEF_STOP_WORDS, CHINESE_QUESTION_WORDS
from agent_core.storage.cjk_text import CJK_RUN, KANA, bigrams

# Chinese question words cut a run into its keywords; the longest first ("为什么", not "什么").
_ZH_SPLIT = re.compile(
    "|".join(sorted(map(re.escape, CHINESE_QUESTION_WORDS), key=len, reverse=True))
)
_KANA_ONLY = re.compile("^[\u3041-\u309f]+$")  # hiragana: particles and endings in Japanese
_SCRIPT_PART = re.compile(
    "[\u3041-\u309f]+|[\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f]+|[^\u3041-\u309f"
    "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f]+"
)
_LATIN_WORD = re.compile(r"[a-z][a-z0-9]+")

_END = ".!?。！？"
_CLOSERS = "\"'”’」』）)"
# Latin: a terminal mark, spaces, then a capital, digit or quote. CJK: after 。！？ (and any
# closing quote), with or without a space.
_SPLIT = re.compile(
    rf"(?<=[.!?][{_CLOSERS}])\s+(?=[A-Z0-9\"'“(])|(?<=[.!?])\s+(?=[A-Z0-9\"'“(])"
    rf"|(?<=[。！？])(?![{_CLOSERS}。！？])\s*|(?<=[。！？][{_CLOSERS}])\s*"
)
_LIST_MARK = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
# Code and markup a PDF's lines glue to the prose around them ("... serialises it: <event
# run="r-17"> ... </event> Consumers must ..."): a run of tags (with the short text between
# them) or a JSON-like object is cut out, and the prose on each side stands alone.
_TAG = r"<[/!?]?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>"
_CODE_RUN = re.compile(rf"{_TAG}(?:[^<>]{{0,160}}?{_TAG})*|\{{[^{{}}]*[\"']\s*:[^{{}}]*\}}")
# A table's cells run into one line ("Field Meaning actor The run and the approver. outcome
# Succeeded, ..."): a word that only opens a sentence, capitalised after a lower-case word,
# and a lower-case word after a full stop, mark where a row's cells meet.
_CELL_SEAM = re.compile(
    r"(?<=[a-z0-9)])\s+(?=(?:The|This|These|Those|Each|Every|It|Its|An)\s)"
    r"|(?<=[a-z]{3}[.!?])\s+(?=[a-z])"
)
_CODE_CHARS = frozenset("{}<>=;|\\$")


@dataclass(frozen=True)
class Sentence:
    """One sentence of one document, as the brief writer ranks it."""

    source_id: str
    doc_rank: int  # the document's place in the order it was read (0 = first)
    position: int  # the sentence's place in its document
    text: str
    heading: str  # the nearest heading above it ("" before any)
    lead: bool  # the first sentence of a paragraph (its topic sentence, more often than not)
    page: int | None = None  # the page it is on, in a paged document (PDF)


def is_cjk_text(text: str) -> bool:
    """True when the text is written mainly in Chinese or Japanese characters."""
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return cjk > 0 and cjk >= latin


def _stem(word: str) -> str:
    """A light, deterministic English stemmer: enough for "checkpoints" ~ "checkpoint"."""
    if word.endswith("'s"):
        word = word[:-2]
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    if word.endswith("ility") and len(word) > 7:
        word = word[:-5] + "le"  # durability ~ durable
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word[:6]


def cjk_keywords(text: str) -> list[str]:
    """Runs of CJK text cut at question words and particles (Chinese) or at hiragana
    (Japanese: particles and verb endings), so what is left is mostly content words."""
    out: list[str] = []
    for run in CJK_RUN.findall(text):
        if KANA.search(run):
            parts = [p for p in _SCRIPT_PART.findall(run) if not _KANA_ONLY.match(p)]
        else:
            parts = _ZH_SPLIT.split(run)
        out.extend(p for p in parts if p)
    return out


def terms(text: str) -> list[str]:
    """The terms a sentence or question is compared by, in order (repeats kept)."""
    lowered = text.lower()
    out = [
        _stem(w)
        for w in _LATIN_WORD.findall(CJK_RUN.sub(" ", lowered.replace("-", " ")))
        if w not in BRIEF_STOP_WORDS
    ]
    for keyword in cjk_keywords(text):
        out.extend(bigrams(keyword))
    return out


def split_sentences(body: str) -> list[tuple[str, str, bool]]:
    """(sentence, heading, lead) of prose: paragraphs and list items, never headings, quotes,
    tables or code (quotes carry other voices; code is not prose). `lead` marks the first
    sentence of a paragraph (not of a list item)."""
    chunks: list[tuple[str, str, bool]] = []
    heading = ""
    current: list[str] = []
    in_code = False
    in_item = False

    def flush() -> None:
        if current:
            chunks.append((" ".join(current), heading, not in_item))
            current.clear()

    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code or not stripped or stripped.startswith((">", "|")):
            flush()
            continue
        if stripped.startswith("#"):
            flush()
            heading = stripped.lstrip("#").strip()
            continue
        if _LIST_MARK.match(stripped):
            flush()
            in_item = True
            stripped = _LIST_MARK.sub("", stripped)
        elif not current:
            in_item = False
        current.append(stripped)
    flush()
    out: list[tuple[str, str, bool]] = []
    for chunk, under, paragraph in chunks:
        pieces = [
            sentence.strip()
            for prose in _CODE_RUN.split(chunk)
            for part in _SPLIT.split(prose)
            for sentence in _CELL_SEAM.split(part)
        ]
        for i, sentence in enumerate(pieces):
            if _looks_like_a_sentence(sentence):
                out.append((sentence, under, paragraph and i == 0))
    return out


_CONTINUATION = re.compile(r"^[a-z]{2,}\b(?![(.])")  # "interfere with ...": not "fsync() ..."


def _looks_like_a_sentence(text: str) -> bool:
    if not text or text.rstrip(_CLOSERS)[-1:] not in _END:
        return False  # a fragment, or the lead-in of a list ("...as follows:")
    if _CONTINUATION.match(text):
        return False  # the tail of a sentence cut by a page or column break
    if sum(1 for ch in text if ch in _CODE_CHARS) >= 3:
        return False  # code or markup, not prose
    if is_cjk_text(text):
        return 8 <= len(text) <= 200
    return 40 <= len(text) <= 400


def page_segments(body: str) -> list[tuple[int | None, str]]:
    """(page, text) of a document as read_document hands it: the text after each `[page N]`
    line belongs to page N; a document without such lines is one segment of no page."""
    marks = list(PAGE_LINE.finditer(body))
    if not marks:
        return [(None, body)]
    out: list[tuple[int | None, str]] = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        out.append((int(mark.group(1)), body[mark.end() : end]))
    return out


_FIRST_END = re.compile(rf"[.!?][{_CLOSERS}]*(?=\s|$)|[。！？][{_CLOSERS}]*")


def _join_across_pages(segments: list[tuple[int | None, str]]) -> list[tuple[int | None, str]]:
    """A sentence a page break cuts ("... that would" / "interfere with ...") is kept whole,
    on the page where it starts: the next page's opening paragraph, when it continues one
    (it starts in lower case and this page's text does not end a sentence), moves back."""
    out = [list(pair) for pair in segments]
    for here, there in itertools.pairwise(out):
        head, tail = str(here[1]).rstrip(), str(there[1]).lstrip()
        if not head or not tail or head[-1] in _END + _CLOSERS:
            continue
        cjk = bool(CJK_RUN.match(head[-1]) and CJK_RUN.match(tail[0]))  # "更正是一" / "条新的"
        if not cjk and not _CONTINUATION.match(tail):
            continue
        ends = _FIRST_END.search(tail)
        cut = ends.end() if ends else len(tail)
        if "\n\n" in tail[:cut]:
            continue  # no sentence end in its first paragraph: not one cut sentence
        here[1] = head + ("" if cjk else " ") + " ".join(tail[:cut].split()) + "\n"
        there[1] = "\n" + tail[cut:]
    return [(page if isinstance(page, int) else None, str(text)) for page, text in out]


def document_sentences(source_id: str, doc_rank: int, body: str) -> list[Sentence]:
    """Every prose sentence of `body`, with the page it is on (paged documents: the page it
    starts on)."""
    out: list[Sentence] = []
    for page, text in _join_across_pages(page_segments(body)):
        for sentence, heading, lead in split_sentences(text):
            out.append(Sentence(source_id, doc_rank, len(out), sentence, heading, lead, page))
    return out
