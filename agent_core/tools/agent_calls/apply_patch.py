"""Codex's `apply_patch` format, read into the files a patch writes.

```
*** Begin Patch
*** Add File: PATH        then lines "+TEXT"
*** Delete File: PATH
*** Update File: PATH     then optionally "*** Move to: PATH", then chunks:
@@ [a line to find first]
 context / -removed / +added lines   ("*** End of File" pins the chunk to the end)
*** End Patch
```

Applied the way Codex applies it (codex-rs/apply-patch): each chunk's old lines are looked for
from where the previous chunk ended, exactly, then ignoring trailing and then surrounding
whitespace; a file's text always ends with a newline afterwards. A patch that does not parse,
or a chunk whose lines are not in the file, is `invalid_arguments`: Codex would refuse it too,
so no diff is shown for a patch that would not run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.tools.agent_calls.kinds import FileChange, ReadFile

_BEGIN = "*** Begin Patch"
_END = "*** End Patch"
_ADD = "*** Add File: "
_DELETE = "*** Delete File: "
_UPDATE = "*** Update File: "
_MOVE = "*** Move to: "
_END_OF_FILE = "*** End of File"


@dataclass
class _Chunk:
    context: str | None
    """The `@@ LINE` to find before the chunk's lines (None for a bare `@@`)."""
    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    at_end: bool = False


@dataclass
class _Hunk:
    action: str
    """`add`, `delete` or `update`."""
    path: str
    added: list[str] = field(default_factory=list)
    move_to: str | None = None
    chunks: list[_Chunk] = field(default_factory=list)


def patch_changes(patch: str, cwd: str, read: ReadFile) -> list[FileChange]:
    """The files `patch` writes, each with its whole text after the patch (None: deleted), in
    the order the patch names them; relative paths are resolved against `cwd`."""
    current: dict[str, str | None] = {}

    def text_of(path: str) -> str | None:
        return current[path] if path in current else read(path)

    changes: list[str] = []
    for hunk in _parse(patch):
        path = os.path.normpath(os.path.join(cwd, hunk.path))
        if hunk.action == "add":
            after: str | None = "".join(f"{line}\n" for line in hunk.added)
        else:
            before = text_of(path)
            if before is None:
                raise _bad(f"The patch changes {hunk.path}, which does not exist.")
            after = None if hunk.action == "delete" else _updated(before, hunk.chunks, hunk.path)
        if hunk.move_to is not None:
            destination = os.path.normpath(os.path.join(cwd, hunk.move_to))
            current[destination] = after
            changes.append(destination)
            after = None
        current[path] = after
        changes.append(path)
    seen: list[str] = []
    for path in changes:
        if path not in seen:
            seen.append(path)
    return [FileChange(path, current[path]) for path in seen]


def _parse(patch: str) -> list[_Hunk]:
    lines = patch.strip().split("\n")
    if len(lines) < 2 or lines[0].strip() != _BEGIN or lines[-1].strip() != _END:
        raise _bad("A patch begins with '*** Begin Patch' and ends with '*** End Patch'.")
    hunks: list[_Hunk] = []
    for line in lines[1:-1]:
        header = line.strip()
        if header.startswith(_ADD):
            hunks.append(_Hunk("add", _path(header, _ADD)))
        elif header.startswith(_DELETE):
            hunks.append(_Hunk("delete", _path(header, _DELETE)))
        elif header.startswith(_UPDATE):
            hunks.append(_Hunk("update", _path(header, _UPDATE)))
        elif not hunks:
            raise _bad(f"A patch line outside any file: {line[:80]!r}.")
        else:
            _body_line(hunks[-1], line)
    for hunk in hunks:
        if hunk.action == "update" and not hunk.chunks and hunk.move_to is None:
            raise _bad(f"The update of {hunk.path} changes nothing.")
    return hunks


def _body_line(hunk: _Hunk, line: str) -> None:
    if hunk.action == "add":
        if not line.startswith("+"):
            raise _bad(f"A line of the new file {hunk.path} does not start with '+'.")
        hunk.added.append(line[1:])
    elif hunk.action == "delete":
        raise _bad(f"The deletion of {hunk.path} has lines under it.")
    elif line.strip().startswith(_MOVE) and not hunk.chunks:
        hunk.move_to = _path(line.strip(), _MOVE)
    elif line.rstrip() == "@@" or line.startswith("@@ "):
        hunk.chunks.append(_Chunk(line[3:] if line.startswith("@@ ") else None))
    elif line.strip() == _END_OF_FILE and hunk.chunks:
        hunk.chunks[-1].at_end = True
    else:
        if not hunk.chunks:  # Codex lets the first chunk of a file go without its "@@"
            hunk.chunks.append(_Chunk(None))
        chunk = hunk.chunks[-1]
        marker, text = (line[:1], line[1:]) if line else (" ", "")
        if marker not in (" ", "-", "+"):
            raise _bad(f"A line of the update of {hunk.path} starts with {marker!r}.")
        if marker != "+":
            chunk.old.append(text)
        if marker != "-":
            chunk.new.append(text)


def _updated(text: str, chunks: list[_Chunk], name: str) -> str:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    replacements: list[tuple[int, int, list[str]]] = []
    start = 0
    for chunk in chunks:
        if chunk.context is not None:
            found = _seek(lines, [chunk.context], start, at_end=False)
            if found is None:
                raise _bad(f"The patch's line {chunk.context[:60]!r} is not in {name}.")
            start = found + 1
        if not chunk.old:  # a pure addition goes at the end of the file
            replacements.append((len(lines), 0, chunk.new))
            continue
        old, new = chunk.old, chunk.new
        found = _seek(lines, old, start, at_end=chunk.at_end)
        if found is None and old[-1] == "":
            old, new = old[:-1], new[:-1] if new and new[-1] == "" else new
            found = _seek(lines, old, start, at_end=chunk.at_end)
        if found is None:
            raise _bad(f"A hunk of the patch does not apply to {name}: its lines are not there.")
        replacements.append((found, len(old), new))
        start = found + len(old)
    for index, length, new in sorted(replacements, reverse=True):
        lines[index : index + length] = new
    return "\n".join(lines) + "\n"


def _seek(lines: list[str], pattern: list[str], start: int, *, at_end: bool) -> int | None:
    """Where `pattern` starts in `lines` at or after `start` (at the very end first when the
    chunk is pinned there), matching exactly, then without trailing, then without surrounding
    whitespace: Codex's own leniency, so a patch it would apply is shown."""
    if len(pattern) > len(lines):
        return None
    last = len(lines) - len(pattern)
    candidates = ([last] if at_end else []) + list(range(start, last + 1))
    for normalise in (lambda s: s, str.rstrip, str.strip):
        wanted = [normalise(p) for p in pattern]
        for index in candidates:
            if [normalise(s) for s in lines[index : index + len(pattern)]] == wanted:
                return index
    return None


def _path(header: str, prefix: str) -> str:
    path = header[len(prefix) :].strip()
    if not path:
        raise _bad(f"'{prefix.strip()}' names no file.")
    return path


def _bad(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, message)
