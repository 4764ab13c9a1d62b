"""Character n-grams for scripts written without spaces (Chinese, Japanese; Korean too).

FTS5's unicode61 tokenizer splits on spaces and punctuation, so a Chinese paragraph becomes one
long token and no two-character word inside it can be found; the trigram tokenizer misses every
two-character word, which most Chinese words are. The corpus index therefore keeps, in a column
of its own (`corpus_fts.cjk`, migration 0003), each run of these characters as overlapping
bigrams plus single characters, and a query is turned into the same bigrams (a one-character
query into that character). No segmentation dictionary is needed, and nothing here depends on
a language being guessed right.
"""

from __future__ import annotations

import re

# Hiragana, katakana (without the middle dot ・), CJK ideographs (ext. A, unified,
# compatibility), the iteration mark 々, Hangul syllables and half-width katakana.
CJK_CHARS = (
    "\u3005\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3\uff66-\uff9f"
)
CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
KANA = re.compile("[\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_GLUED_WORD = re.compile(r"\w+")  # what unicode61 would keep as one token
_LATIN_PART = re.compile(f"[^{CJK_CHARS}_]+")


def has_cjk(text: str) -> bool:
    return CJK_RUN.search(text) is not None


def bigrams(run: str) -> list[str]:
    """Overlapping pairs of a run of CJK characters; a single character stands for itself."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def index_terms(text: str) -> str:
    """What the `cjk` column holds for `text`: space-separated grams of its CJK runs.

    Each CJK character is indexed alone and in a pair with the next one (so one- and
    two-character queries both match, and a longer word matches as its pairs). Latin letters
    or digits glued to CJK text ("API密钥") would otherwise be hidden inside one unicode61
    token of the body column; they are indexed here as words of their own.
    """
    if not has_cjk(text):
        return ""  # most documents: no word-by-word look needed
    out: list[str] = []
    for token in _GLUED_WORD.findall(text):
        if not has_cjk(token):
            continue  # the body column already finds it
        for run in CJK_RUN.findall(token):
            out.extend(run)
            if len(run) > 1:
                out.extend(bigrams(run))
        out.extend(part.lower() for part in _LATIN_PART.findall(token))
    return " ".join(out)


def query_grams(text: str) -> list[str]:
    """The grams a query's CJK runs are searched by, in order, without repeats."""
    seen: list[str] = []
    for run in CJK_RUN.findall(text):
        for gram in bigrams(run):
            if gram not in seen:
                seen.append(gram)
    return seen
