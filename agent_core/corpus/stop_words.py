"""The words left out when text is turned into the terms it is searched or compared by: one list
for the whole core, cut into the groups whose use differs.

- FUNCTION_WORDS: English grammar words. Nearly every document has them, so a search for one
  matches the whole corpus (and bm25 is computed for each match) while ranking nothing; in a
  sentence they say nothing of its topic. Left out everywhere.
- REQUEST_WORDS: the words a question uses to ask for a brief and to name its readers
  ("summarize", "explain", "brief", "audience"). Noise in the offline model's keywords and in the
  brief writer's comparison of a sentence with the question, but words like any other in a
  search: a model (or a person) searching for "summary" or "readers" means them.
- REPORTING_VERBS: "say", "says", "said": the frame of quoted speech in a document or a question
  ("what does it say about ..."), never its topic. Left out where the brief is written.
- CHINESE_QUESTION_WORDS: question words and particles of Chinese; they separate the keywords of
  a run of characters written without spaces.

SEARCH_STOP_WORDS and BRIEF_STOP_WORDS are what the search (corpus/search.py) and the offline
model's brief (models/offline.py, models/sentences.py, models/brief_text.py) leave out.
tests/test_house_stop_words.py holds every other module to importing them from here.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FUNCTION_WORDS = _words(
    """
    a about all also an and any are as at be been but by can could do does each for from had has
    have how i if in into is it its may me might more most must my no not of on one or other our
    over own should so some such than that the their them then there these they this to two under
    us very was we what when where which who whom why will with would you your
    """
)
REQUEST_WORDS = _words(
    """
    write brief briefs summary summarize summarise explain tell please give make need want
    audience readers reader
    """
)
REPORTING_VERBS = _words("say says said")

SEARCH_STOP_WORDS = FUNCTION_WORDS
BRIEF_STOP_WORDS = FUNCTION_WORDS | REQUEST_WORDS | REPORTING_VERBS

CHINESE_QUESTION_WORDS = _words(
    """
    为什么 什么 如何 怎么 怎样 哪些 哪个 哪里 是否 应该 应当 可以 能否 需要 请问 一个 这个 那个
    这些 那些 我们 你们 他们 以及 或者 并且 因为 所以 关于 简报 总结 介绍 的 了 吗 呢 吧 啊 么 它
    """
)
