"""One list of stop words (issue 40, item 5), read from the code's syntax tree.

Three English lists (corpus/search.py, models/offline.py, models/sentences.py) once differed by
accident: 53, 68 and 101 words. agent_core/corpus/stop_words.py now holds the one list, cut
into named groups (function words; the words a request for a brief uses; reporting verbs;
Chinese question words), and every other module imports what it leaves out from there. An
offender, anywhere in our code (agent_core, desktop, benchmarks) but that module:

- a name that says it is a stop-word list (`STOPWORDS`, `_stop_words`, `ZH_STOP_WORDS`) bound
  to anything but an import;
- a word list of its own: a list, tuple or set of strings, a string cut with `.split()`, or a
  string of bare lowercase words bound to a name, holding MIN_SHARED or more of the stop words
  (English or Chinese) of stop_words.py. Short lists of another concept stay below it (the
  review notes' seven words that are never a name).

Each rule is proven on planted violations first (two of them are the spellings used before), so
a checker that sees nothing fails too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from agent_core.corpus import stop_words
from tests.support.code_scan import Offence, modules

REPO = Path(__file__).resolve().parents[1]
OURS = ("agent_core", "desktop", "benchmarks")
HOME = "agent_core/corpus/stop_words.py"
MIN_SHARED = 8
KNOWN = stop_words.BRIEF_STOP_WORDS | stop_words.CHINESE_QUESTION_WORDS
LIST_NAME = re.compile(r"stop_?words?", re.IGNORECASE)
WORD = re.compile(r"[a-z]+|[\u4e00-\u9fff]+")
"""A bound string of such words only (no capital, no punctuation: not prose) is a word list."""


def _words(node: ast.AST) -> list[str] | None:
    """The strings a literal word list holds, or None when `node` is not one."""
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant):
        text = node.value.value  # WORDS = "a an the ...", split where it is used
        words = text.split() if isinstance(text, str) else []
        return words if all(WORD.fullmatch(w) for w in words) else None
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
    if (  # "a an the ...".split()
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "split"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        return node.func.value.value.split()
    return None


def _named_lists(tree: ast.Module) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and LIST_NAME.search(target.id):
                found.append((node.lineno, f"binds its own {target.id}"))
    return found


def offences_in(root: Path) -> list[Offence]:
    """Every module under `root` (but stop_words.py) that keeps a stop-word list of its own."""
    found: list[Offence] = []
    for where, path in modules(root, *OURS):
        if where == HOME:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [Offence(where, line, what) for line, what in _named_lists(tree)]
        for node in ast.walk(tree):
            words = _words(node)
            shared = sorted(set(words or ()) & KNOWN)
            if len(shared) >= MIN_SHARED and isinstance(node, (ast.stmt, ast.expr)):
                shown = " ".join(shared[:6])
                found.append(Offence(where, node.lineno, f"a word list of its own ({shown} ...)"))
    return found


def test_only_stop_words_py_keeps_a_stop_word_list() -> None:
    assert [str(o) for o in offences_in(REPO)] == []


def test_the_differences_that_matter_are_named() -> None:
    """The search leaves out grammar only; the brief also the words of a request and of speech."""
    assert stop_words.SEARCH_STOP_WORDS == stop_words.FUNCTION_WORDS
    assert stop_words.BRIEF_STOP_WORDS == (
        stop_words.FUNCTION_WORDS | stop_words.REQUEST_WORDS | stop_words.REPORTING_VERBS
    )
    assert not stop_words.FUNCTION_WORDS & (stop_words.REQUEST_WORDS | stop_words.REPORTING_VERBS)
    # A person searching for "summary" or "readers" means them; the brief's question does not.
    assert {"summary", "readers", "said"}.isdisjoint(stop_words.SEARCH_STOP_WORDS)


EIGHT = '"a", "an", "and", "are", "as", "at", "the", "of"'
PLANTED = {
    "the search's old frozenset": (
        "agent_core/corpus/search.py",
        f"_STOPWORDS = frozenset([{EIGHT}])\n",
        2,  # its name, and its words
    ),
    "the sentences' old string, split where it is used": (
        "agent_core/models/sentences.py",
        '_ENGLISH = """\n    a an and are as at be by can do\n"""\n'
        "WORDS = frozenset(_ENGLISH.split())\n",
        1,
    ),
    "a list split where it is bound": (
        "agent_core/models/offline.py",
        'COMMON = frozenset("a an and are as at be by can do".split())\n',
        1,
    ),
    "an unnamed set in a function": (
        "desktop/planted.py",
        f"def keywords(text):\n    return [w for w in text.split() if w not in {{{EIGHT}}}]\n",
        1,
    ),
    "the Chinese question words": (
        "agent_core/models/planted.py",
        'ZH = "为什么 什么 如何 怎么 怎样 哪些 哪个 哪里".split()\n',
        1,
    ),
    "a name alone": ("benchmarks/planted.py", "stop_words = set()\n", 1),
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_the_checker_sees_a_planted_violation(tmp_path: Path, kind: str) -> None:
    where, code, count = PLANTED[kind]
    target = tmp_path / where
    target.parent.mkdir(parents=True)
    target.write_text("from agent_core.corpus.stop_words import SEARCH_STOP_WORDS\n", "utf-8")
    assert offences_in(tmp_path) == []
    target.write_text(code, encoding="utf-8")
    offences = offences_in(tmp_path)
    assert len(offences) == count and all(o.path == where for o in offences), offences
