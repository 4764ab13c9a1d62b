"""The words a brief is framed in, in English or in Chinese (chosen by the question's script).

Only the frame is localised (title, headings, the notes under open questions); the points are
the documents' own sentences. A Japanese question (it has kana) keeps the English frame.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agent_core.corpus.stop_words import BRIEF_STOP_WORDS
from agent_core.models.sentences import cjk_keywords, is_cjk_text, terms
from agent_core.storage.cjk_text import CJK_RUN, KANA

_WORD = re.compile(r"[a-z][a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class BriefText:
    title: Callable[[str], str]
    audience: Callable[[str], str]
    answer_heading: str
    key_points_heading: str
    open_heading: str
    sources_heading: str
    nothing_found: str
    not_mentioned: Callable[[str], str]
    one_source: str
    not_read: Callable[[str, str], str]
    nothing_open: str


ENGLISH = BriefText(
    title=lambda q: f"# Brief: {q.strip()}",
    audience=lambda a: f"_Audience: {a}_",
    answer_heading="## Answer",
    key_points_heading="## Key points",
    open_heading="## Open questions",
    sources_heading="## Sources",
    nothing_found="The corpus holds nothing on this question.",
    not_mentioned=lambda w: (
        f"What do other sources say about “{w}”? The documents read do not mention it."
    ),
    one_source="Does a second source confirm these points? Every one comes from one document.",
    not_read=lambda sid, title: (
        f"Does `{sid}` ({title}) add to this? The search found it; it was not read for this brief."
    ),
    nothing_open="What lies beyond the documents read? They cover every word of the question; "
    "nothing else was checked.",
)

CHINESE = BriefText(
    title=lambda q: f"# 简报：{q.strip()}",
    audience=lambda a: f"_读者：{a}_",
    answer_heading="## 回答",
    key_points_heading="## 要点",
    open_heading="## 尚待解答",
    sources_heading="## 来源",
    nothing_found="语料库中没有与这个问题相关的内容。",
    not_mentioned=lambda w: f"其他资料怎么说“{w}”？所读文档没有提到它。",
    one_source="有没有第二个来源能印证这些要点？它们都来自同一份文档。",
    not_read=lambda sid, title: f"`{sid}`（{title}）能补充什么？搜索找到了它，本简报没有读取。",
    nothing_open="所读文档之外还有什么？问题中的每个关键词它们都涵盖了，文档之外的内容未经核实。",
)


def question_words(question: str, audience: str | None = None) -> list[str]:
    """The question's content words as the reader wrote them (one per stem), without the
    words naming its audience."""
    skip = set(terms(audience or ""))
    latin = CJK_RUN.sub(" ", question.lower())
    words = [w for w in _WORD.findall(latin) if w not in BRIEF_STOP_WORDS and len(w) > 2]
    out: list[str] = []
    seen: set[str] = set()
    for word in words + cjk_keywords(question):
        stems = set(terms(word))
        if stems and not stems & skip and not stems <= seen:
            out.append(word)
            seen |= stems
    return out


def is_chinese(question: str) -> bool:
    return is_cjk_text(question) and not KANA.search(question)


def text_for(question: str) -> BriefText:
    return CHINESE if is_chinese(question) else ENGLISH
