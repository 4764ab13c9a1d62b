"""The embedded default model: deterministic, offline, and a real research workflow.

search -> read the best documents -> remember the audience (when the question names one) ->
propose save_brief("briefs/<slug>.md") with an extractive, cited brief (brief_writer.py) ->
answer. It never follows instructions found in documents and never quotes them: sentences that
address the assistant or give it instructions are left out of the brief (instructions.py).
A reviewer's change request (`reject --revise`) comes back as the save's result: it proposes
the brief again as the notes ask (review_notes.py); a plain rejection ends it, no new write.
Questions in Chinese or Japanese are searched by their content words, not only Latin ones.
"""

from __future__ import annotations

import hashlib
import json
import re

from agent_core.contract.approvals import change_request_note
from agent_core.contract.json_types import JsonObject
from agent_core.corpus.pages import page_marker
from agent_core.corpus.stop_words import BRIEF_STOP_WORDS
from agent_core.models.audience import audience_of, is_audience
from agent_core.models.brief_text import is_chinese
from agent_core.models.brief_writer import MAX_POINTS, SourceDoc, Unread, compose_brief
from agent_core.models.planned import History, PastCall, PlannedCall, PlannedModel, TurnPlan
from agent_core.models.refused_names import (
    choose_name,
    kept_name,
    refused_last,
    refused_names,
    retry_under,
)
from agent_core.models.review_notes import Revision, read_notes
from agent_core.models.sentences import cjk_keywords, page_segments

READ_LIMIT = 3
SHORTER_RATIO = 0.6  # each "shorter" note allows this share of the length once more
MIN_POINTS = 2  # a shorter brief still cites two sources when the documents allow it


def key_terms(question: str) -> list[str]:
    """The search words of a question: its Latin content words, then its CJK keywords."""
    words = re.findall(r"[a-z][a-z0-9-]{2,}", question.lower())
    seen: list[str] = []
    for w in words:
        if w not in BRIEF_STOP_WORDS and w not in seen:
            seen.append(w)
    latin = seen[:8] or words[:4]
    cjk = [k for k in dict.fromkeys(cjk_keywords(question)) if k not in latin]
    return latin + cjk[:8]


_LEADING_PARTICLES = "是让给在把被对从向和与及"
_TRAILING_PARTICLES = "中的了"
MAX_CJK_NAME_CHARS = 40


def _cjk_name_part(keyword: str) -> str:
    """A Chinese keyword without the particle glued to its ends ("是幂等键" -> "幂等键")."""
    while len(keyword) > 2 and keyword[0] in _LEADING_PARTICLES:
        keyword = keyword[1:]
    while len(keyword) > 2 and keyword[-1] in _TRAILING_PARTICLES:
        keyword = keyword[:-1]
    return keyword


def slug(question: str) -> str:
    """A readable file name: the question's Latin key words, else its Chinese or Japanese key
    words ("检查点-智能体-运行在崩溃后恢复"), else a digest; the same question always names the
    same file."""
    terms = key_terms(question)
    words = [w for w in terms if w.isascii()][:6]
    if words:
        return "-".join(words)[:60].strip("-") or "brief"
    cjk = [_cjk_name_part(k) for k in terms if k.isalnum()][:4]
    name = "-".join(cjk)[:MAX_CJK_NAME_CHARS].strip("-")
    if name:
        return name
    return "brief-" + hashlib.sha256(question.strip().encode()).hexdigest()[:10]


def document_body(wrapped: str) -> str:
    match = re.search(r"<untrusted_document[^>]*>\n(.*)\n</untrusted_document>", wrapped, re.S)
    return match.group(1) if match else ""


def remembered_audience(notes: list[str]) -> str | None:
    """The audience from long-term memory, as the runner hands it in a developer note; a
    remembered topic (stored by an older version: "side effects") is no audience."""
    for note in notes:
        match = re.search(r"briefs are for (.{1,80})\.$", note.strip())
        if match and is_audience(match.group(1)):
            return match.group(1).strip().lower()
    return None


def _search_hits(output: str) -> list[JsonObject]:
    try:
        data = json.loads(output)
    except json.JSONDecodeError:
        return []
    return [r for r in data.get("results", []) if isinstance(r, dict)]


PAGES_AROUND_A_HIT = 2  # a follow-up read of a long PDF: its best page and two on each side
_PAGES_READ = re.compile(r"<untrusted_document [^>\n]*pages='(\d+)(?:-(\d+))? of (\d+)'>")


def _pages_read(output: str) -> tuple[int, int] | None:
    match = _PAGES_READ.match(output)
    if match is None:
        return None
    first = int(match.group(1))
    return first, int(match.group(2) or first)


def _pages_not_read(hits: list[JsonObject], reads: list[PastCall]) -> list[PlannedCall]:
    """A read of the pages around each hit's best page that no read so far held (asked once:
    never when a read with `pages` was made already)."""
    if any(c.args.get("pages") for c in reads):
        return []
    covered: dict[str, list[tuple[int, int]]] = {}
    for c in reads:
        span = _pages_read(c.output or "")
        if span is not None:
            covered.setdefault(str(c.args.get("path", "")), []).append(span)
    calls: list[PlannedCall] = []
    for hit in hits:
        page, sid = hit.get("page"), str(hit.get("source_id", ""))
        spans = covered.get(sid)
        if not isinstance(page, int) or not spans:
            continue
        if any(first <= page <= last for first, last in spans):
            continue
        first = max(1, page - PAGES_AROUND_A_HIT)
        calls.append(
            PlannedCall(
                "read_document", {"path": sid, "pages": f"{first}-{page + PAGES_AROUND_A_HIT}"}
            )
        )
    return calls


def _bodies_read(reads: list[PastCall]) -> dict[str, str]:
    """Each document's text as read, in the order first read: the pages of several reads of
    one PDF joined in page order (each once)."""
    plain: dict[str, str] = {}
    pages: dict[str, dict[int, str]] = {}
    for c in reads:
        output = c.output or ""
        if not output.startswith("<untrusted_document"):
            continue
        sid = str(c.args.get("path", ""))
        body = document_body(output)
        segments = [(p, t) for p, t in page_segments(body) if p is not None]
        if not segments:
            plain.setdefault(sid, body)
            continue
        plain.setdefault(sid, "")
        for number, text in segments:
            pages.setdefault(sid, {}).setdefault(number, text)
    for sid, by_page in pages.items():
        plain[sid] = "".join(f"{page_marker(n)}{by_page[n]}" for n in sorted(by_page))
    return plain


class OfflineModel(PlannedModel):
    def plan(self, history: History) -> TurnPlan:
        question = history.question
        searches = history.outputs("search_corpus")
        if not searches:
            return TurnPlan(
                [PlannedCall("search_corpus", {"query": " ".join(key_terms(question)), "limit": 5})]
            )
        hits = _search_hits(searches[-1].output or "")
        reads = history.outputs("read_document")
        if not reads and hits:
            return TurnPlan(
                [PlannedCall("read_document", {"path": h["source_id"]}) for h in hits[:READ_LIMIT]]
            )
        follow_up = _pages_not_read(hits[:READ_LIMIT], reads)
        if follow_up:  # a long PDF whose best page lies past what its first read held
            return TurnPlan(follow_up)
        audience = audience_of(question)
        if audience is None:
            audience = remembered_audience(history.notes)
        elif not history.outputs("remember_audience"):
            return TurnPlan([PlannedCall("remember_audience", {"audience": audience})])
        saves = history.outputs("save_brief")
        notes = [n for c in saves if (n := change_request_note(c.output or "")) is not None]
        sent_back = bool(saves) and change_request_note(saves[-1].output or "") is not None
        revision = read_notes(notes)
        refused = refused_names(saves)  # names asked for that the sandbox refused
        path = choose_name(revision.path, saves, refused, f"briefs/{slug(question)}.md")
        chinese = is_chinese(question)
        retry = retry_under(path, saves, refused)
        if not saves or sent_back or retry:  # first proposal, changes asked, a name refused
            titles = {h.get("source_id"): h.get("title", "") for h in hits}
            docs = [
                SourceDoc(sid, str(titles.get(sid, "")), body)
                for sid, body in _bodies_read(reads).items()
            ]
            read = {d.source_id for d in docs}
            unread = [
                Unread(str(h.get("source_id", "")), str(h.get("title", "")))
                for h in hits
                if h.get("source_id") and h.get("source_id") not in read
            ]
            content = _revised_brief(question, docs, audience, unread, revision)
            return TurnPlan(
                [PlannedCall("save_brief", {"relative_path": path, "content": content})],
                say=kept_name(refused, path, chinese) if retry else None,
            )
        answer = self._final_answer(saves[-1].output or "", chinese)
        if refused and not refused_last(saves):  # saved (or decided) under the kept name
            answer += " " + kept_name(refused, str(saves[-1].args.get("relative_path")), chinese)
        return TurnPlan(say=answer)

    @staticmethod
    def _final_answer(save_output: str, chinese: bool = False) -> str:
        try:
            data = json.loads(save_output)
        except json.JSONDecodeError:
            data = {}
        reason = (data.get("message") or save_output)[:300]
        if chinese:
            if data.get("saved"):
                return f"简报已保存到 {data.get('path')}（{data.get('bytes')} 字节）。"
            return "简报没有保存：" + reason
        if data.get("saved"):
            return f"The brief is saved at {data.get('path')} ({data.get('bytes')} bytes)."
        return "The brief was not saved: " + reason


def _revised_brief(
    question: str,
    docs: list[SourceDoc],
    audience: str | None,
    unread: list[Unread],
    revision: Revision,
) -> str:
    """The brief as the reviewers' notes ask (the first proposal: as it comes). Shorter: the
    most points that fit SHORTER_RATIO of the length per request, one open question."""
    focus = revision.focus
    full = compose_brief(question, docs, audience, unread, focus=focus)
    if not revision.shorter:
        return full
    budget = len(full) * SHORTER_RATIO**revision.shorter
    content = full
    for limit in range(MAX_POINTS, MIN_POINTS - 1, -1):
        content = compose_brief(
            question, docs, audience, unread, focus=focus, max_points=limit, max_open=1
        )
        if len(content) <= budget:
            break
    return content
