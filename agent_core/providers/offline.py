"""The embedded default model: deterministic, offline, and a real research workflow.

search -> read the best documents -> remember the audience (when the question names one) ->
propose save_brief("briefs/<slug>.md") with an extractive, cited brief -> answer.
It never follows instructions found in documents and never quotes them: sentences that
address the assistant or give it instructions are left out of the brief.
"""

from __future__ import annotations

import json
import re

from agent_core.providers.planned import History, PlannedCall, PlannedModel, TurnPlan

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "should",
        "so",
        "that",
        "the",
        "their",
        "them",
        "there",
        "these",
        "this",
        "to",
        "us",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
        "about",
        "into",
        "over",
        "under",
        "write",
        "brief",
        "briefs",
        "summary",
        "summarize",
        "explain",
        "tell",
        "please",
        "give",
        "make",
        "need",
        "want",
        "who",
        "whom",
        "audience",
        "readers",
        "reader",
    ]
)
READ_LIMIT = 3
SENTENCES_PER_DOC = 3
_AUDIENCE = re.compile(
    r"\bfor (?:an? |the |our )?([a-z][a-z -]{2,40}?)(?: audience| readers|[.?!,]|$)", re.I
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
# Sentences that speak to the model, or tell it to do something, are data we refuse to echo.
_INSTRUCTION = re.compile(
    r"\b(assistant|system update|system prompt|ignore (?:the|all|any|previous|prior)|"
    r"you must|do not mention|disregard|api key|environment variables?|exfiltrat|"
    r"send (?:it|them|the)|call fetch_url|fetch_url|authorized_keys|/proc/|\.ssh)\b",
    re.I,
)
_IMPERATIVE_START = re.compile(
    r"^(ignore|read|put|send|call|save|delete|run|execute|forget|reveal|print|upload|post|"
    r"copy|email|open|download|disable)\b",
    re.I,
)


def key_terms(question: str) -> list[str]:
    words = re.findall(r"[a-z][a-z0-9-]{2,}", question.lower())
    seen: list[str] = []
    for w in words:
        if w not in STOPWORDS and w not in seen:
            seen.append(w)
    return seen[:8] or words[:4]


def audience_of(question: str) -> str | None:
    match = _AUDIENCE.search(question)
    if not match:
        return None
    audience = match.group(1).strip().lower()
    return audience if audience and audience not in STOPWORDS else None


def slug(question: str) -> str:
    words = key_terms(question)[:6] or ["brief"]
    return "-".join(words)[:60].strip("-") or "brief"


def is_instruction(sentence: str) -> bool:
    text = sentence.strip().strip("\"'“”>*- ")
    return bool(_INSTRUCTION.search(text) or _IMPERATIVE_START.match(text))


def document_body(wrapped: str) -> str:
    match = re.search(r"<untrusted_document[^>]*>\n(.*)\n</untrusted_document>", wrapped, re.S)
    return match.group(1) if match else ""


def sentences_of(body: str) -> list[str]:
    prose: list[str] = []
    in_code = False
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_code = not in_code
            continue
        # Headings, quotes and code are never lifted into a brief: quotes carry other voices.
        if in_code or not stripped or stripped.startswith(("#", ">", "|")):
            prose.append("\n")
            continue
        prose.append(stripped.lstrip("-*0123456789. ").strip())
    text = " ".join(prose)
    out: list[str] = []
    for chunk in text.split("\n"):
        out.extend(s.strip() for s in _SENTENCE_SPLIT.split(chunk) if s.strip())
    return [s for s in out if 40 <= len(s) <= 400 and s[-1] in ".!?"]


def pick_sentences(body: str, terms: list[str], limit: int) -> list[str]:
    scored = []
    for index, sentence in enumerate(sentences_of(body)):
        if is_instruction(sentence):
            continue
        lowered = sentence.lower()
        score = sum(1 for t in terms if t in lowered)
        scored.append((-score, index, sentence))
    best = sorted(scored)[:limit]
    return [s for _score, _i, s in sorted(best, key=lambda x: x[1])]


def remembered_audience(notes: list[str]) -> str | None:
    """The audience from long-term memory, as the runner hands it in a developer note."""
    for note in notes:
        match = re.search(r"briefs are for ([a-z][a-z -]{1,78})\.", note, re.I)
        if match:
            return match.group(1).strip().lower()
    return None


def compose_brief(question: str, docs: list[tuple[str, str, str]], audience: str | None) -> str:
    """docs: (source_id, title, body) of documents actually read."""
    terms = key_terms(question)
    lines = [f"# Brief: {question.strip()}", ""]
    if audience:
        lines += [f"_Audience: {audience}_", ""]
    lines += ["## Key points", ""]
    cited: list[tuple[str, str]] = []
    for source_id, title, body in docs:
        picked = pick_sentences(body, terms, SENTENCES_PER_DOC)
        if not picked:
            continue
        cited.append((source_id, title))
        lines += [f"- {s} [{source_id}]" for s in picked]
    if not cited:
        lines.append("- The corpus holds nothing on this question.")
    lines += ["", "## Sources", ""]
    lines += [f"- [{sid}] {title}" for sid, title in cited]
    return "\n".join(lines) + "\n"


def _search_hits(output: str) -> list[dict[str, str]]:
    try:
        data = json.loads(output)
    except json.JSONDecodeError:
        return []
    return [r for r in data.get("results", []) if isinstance(r, dict)]


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
        audience = audience_of(question)
        if audience is None:
            audience = remembered_audience(history.notes)
        elif not history.outputs("remember_audience"):
            return TurnPlan([PlannedCall("remember_audience", {"audience": audience})])
        saves = history.outputs("save_brief")
        if not saves:
            titles = {h.get("source_id"): h.get("title", "") for h in hits}
            docs = [
                (
                    c.args.get("path", ""),
                    str(titles.get(c.args.get("path"), "")),
                    document_body(c.output or ""),
                )
                for c in reads
                if c.output and c.output.startswith("<untrusted_document")
            ]
            content = compose_brief(question, docs, audience)
            return TurnPlan(
                [
                    PlannedCall(
                        "save_brief",
                        {"relative_path": f"briefs/{slug(question)}.md", "content": content},
                    )
                ]
            )
        return TurnPlan(say=self._final_answer(saves[-1].output or ""))

    @staticmethod
    def _final_answer(save_output: str) -> str:
        try:
            data = json.loads(save_output)
        except json.JSONDecodeError:
            data = {}
        if data.get("saved"):
            return f"The brief is saved at {data.get('path')} ({data.get('bytes')} bytes)."
        return "The brief was not saved: " + (data.get("message") or save_output)[:300]
