"""What the offline model understands in a reviewer's change request (`reject --revise`).

A person's note, not a document: the offline model follows it. It understands three simple
kinds of request, in any order and over several rounds (a later note adds to the earlier ones;
a later file name replaces an earlier one): another file name ("save it as notes/ckpt.md",
"call it short.md"), a shorter brief ("shorter", "make it brief"), and a named point to focus
on ("focus on retention"). Anything else it does not understand is ignored: the model then
proposes the same brief again, and a person decides again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A name may start with ".", "/" or "~" (".bashrc", "../x.md"): the sandbox, not this parser,
# judges it, and the model then says why it kept another (providers/refused_names.py).
_PATH_TOKEN = r"[`\"'“‘]?(?P<path>[\w.~/][\w./~-]*?)[`\"'”’]?(?=[\s,;:!?)]|\.(?:\s|$)|$)"
_NAMED = re.compile(  # a file name after these may be bare ("call it notes" -> notes.md)
    r"\b(?:call (?:it|the (?:file|brief))|name (?:it|the (?:file|brief))|rename (?:it )?(?:to|as)"
    r"|file ?name(?: (?:to|as|is|should be))?:?|use (?:the )?(?:file ?)?name)\s+" + _PATH_TOKEN,
    re.I,
)
_SAVED_AS = re.compile(  # after these it must look like a file (an extension or a folder)
    r"\b(?:save|write|put|store)(?: (?:it|this|the brief|the file))?"
    r" (?:as|to|under|in|into|at)\s+" + _PATH_TOKEN,
    re.I,
)
_FILE_LIKE = re.compile(r"/|\.[A-Za-z0-9]{1,8}$")
_NOT_NAMES = frozenset({"a", "an", "the", "it", "this", "that", "shorter", "brief", "something"})
_SHORTER = re.compile(
    r"\b(?:shorter|shorten|briefer|too long|more (?:concise|compact|brief)|concise|condense"
    r"|trim(?: it)?(?: down)?|cut (?:it )?down|(?:make|keep) it (?:brief|short|tight)"
    r"|fewer (?:points|words|lines|sentences)|less (?:text|detail))\b|更短|简短|精简|缩短",
    re.I,
)
_FOCUS = re.compile(
    r"\b(?:focus(?:ed)?(?: more)? on|concentrate on|emphasi[sz]e|more (?:about|on)"
    r"|stick to)\s+(?:the |a |an )?(?P<topic>[^.;,!?\n]{2,80})",
    re.I,
)
# "focus on retention and make it shorter": the point ends where the next request begins.
_TOPIC_END = re.compile(
    r"\s+(?:and|but|then|also)\s+(?:make|keep|save|call|name|rename|use|write|put|cut|trim)\b.*",
    re.I | re.S,
)


@dataclass(frozen=True)
class Revision:
    """What the reviewers' notes so far ask of the next proposal."""

    path: str | None = None
    """Another file name, relative to the artifacts root (the latest one asked for)."""
    shorter: int = 0
    """How many notes asked for a shorter brief (each round shortens it again)."""
    focus: tuple[str, ...] = ()
    """Points to focus on, as the reviewers named them, oldest first."""


def _file_name(note: str) -> tuple[str | None, str]:
    """The file name a note asks for, and the note without it (so "short.md" is no request
    for a shorter brief)."""
    for pattern, bare_ok in ((_SAVED_AS, False), (_NAMED, True)):
        for match in pattern.finditer(note):
            path = match.group("path").removeprefix("./").rstrip(".")
            if not path or path.lower() in _NOT_NAMES:
                continue
            if not _FILE_LIKE.search(path):
                if not bare_ok:
                    continue
                path += ".md"
            rest = note[: match.start("path")] + " " + note[match.end("path") :]
            return path, rest
    return None, note


def read_note(note: str, before: Revision | None = None) -> Revision:
    """`before` revised by one more note."""
    before = before or Revision()
    path, rest = _file_name(note)
    shorter = before.shorter + (1 if _SHORTER.search(rest) else 0)
    focus = list(before.focus)
    for match in _FOCUS.finditer(rest):
        topic = _TOPIC_END.sub("", match.group("topic")).strip(" \"'“”`")
        if topic and topic.lower() not in (f.lower() for f in focus):
            focus.append(topic)
    return Revision(path or before.path, shorter, tuple(focus))


def read_notes(notes: list[str]) -> Revision:
    """Every note of the run, oldest first."""
    revision = Revision()
    for note in notes:
        revision = read_note(note, revision)
    return revision
