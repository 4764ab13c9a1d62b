"""A shell command as a reviewer reads it: the command with its risky words marked (rm, sudo,
`curl … | sh`, `>`, `git push --force`…) and what it names: the files and folders it may touch
(resolved against its folder, those outside the folder said so) and the addresses it reaches.

Pure text work on the command as the agent sent it (no I/O, no shell): a command can change
anything its user can, so this is a reading aid, never a verdict.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass
from html import escape

from desktop.models.visible_text import visible_block

RISKY = re.compile(
    "|".join(
        (
            r"\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b",  # download | sh
            r"\bgit\s+push\b[^;&|\n]*?(?:--force(?:-with-lease)?|\s-f)\b",
            r"\bgit\s+(?:reset\s+--hard|clean)\b",
            r"\b(?:sudo|su|doas|rm|rmdir|shred|dd|mkfs(?:\.\w+)?|chmod|chown|eval)\b",
            r"\b(?:kill|killall|pkill|shutdown|reboot)\b",
            r"--no-verify\b",
            r"(?<![0-9&<>])>>?(?!&)",  # a redirect that writes a file (not 2>&1)
        )
    )
)
MARK = "background: #ffd8d3; color: #8a1c10; font-weight: bold; border-radius: 2px;"
OPERATORS = {"&&", "||", "|", ";", "&", "(", ")", ";;", "|&"}
REDIRECTS = {">", ">>", "<", "&>", "&>>", ">|"}
FILE_COMMANDS = {
    "rm", "rmdir", "mv", "cp", "touch", "mkdir", "chmod", "chown", "tee", "ln", "truncate",
    "shred", "install", "rsync", "cat", "sed", "unzip", "tar",
}  # fmt: skip


@dataclass(frozen=True)
class Touched:
    """What a command names: paths (absolute, normalised) and network addresses."""

    inside: list[str]
    outside: list[str]
    addresses: list[str]


def marked_html(command: str) -> str:
    """The command as escaped HTML, each risky word in a marked span."""
    text = visible_block(command)
    spans = _merged([m.span() for m in RISKY.finditer(text)])
    out, at = [], 0
    for start, end in spans:
        out.append(escape(text[at:start]))
        out.append(f'<span style="{MARK}">{escape(text[start:end])}</span>')
        at = end
    out.append(escape(text[at:]))
    return "".join(out).replace("\n", "<br>")


def risky_words(command: str) -> list[str]:
    """The marked words, in order (what the dialog lists and tests read)."""
    text = visible_block(command)
    return [text[a:b] for a, b in _merged([m.span() for m in RISKY.finditer(text)])]


def touched(command: str, cwd: str) -> Touched:
    """The files and folders the command names and the addresses it reaches."""
    inside: list[str] = []
    outside: list[str] = []
    addresses: list[str] = []
    folder = posixpath.normpath(cwd or "/")
    for word in _paths_named(command):
        if "://" in word:
            addresses.append(word)
            continue
        path = posixpath.normpath(posixpath.join(folder, posixpath.expanduser(word)))
        mine = path == folder or path.startswith(folder.rstrip("/") + "/")
        target = inside if mine else outside
        if path not in target:
            target.append(path)
    return Touched(inside, outside, addresses)


def _paths_named(command: str) -> list[str]:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:  # an unclosed quote: read it word by word
        words = command.split()
    named: list[str] = []
    command_word, verb, after_redirect = True, "", False
    for word in words:
        if word in OPERATORS:
            command_word, after_redirect = True, False
            continue
        if word in REDIRECTS or re.fullmatch(r"\d?>>?|&>>?", word):
            after_redirect = True
            continue
        if after_redirect:
            named.append(word)
            after_redirect = False
            continue
        if "://" in word:
            named.append(word)
            continue
        if command_word:
            command_word, verb = False, posixpath.basename(word)
            if verb in ("sudo", "doas", "env", "nohup", "time"):
                command_word = True  # the command they run comes next
            continue
        if word.startswith("-") or "=" in word:
            continue
        if verb in FILE_COMMANDS or "/" in word or word.startswith(("~", ".")):
            named.append(word)
    return named


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
