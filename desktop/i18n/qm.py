"""Qt's compiled translations (.qm) written from a Qt Linguist source (.ts), in pure Python.

The package build (setup.py's build step) runs this without Qt: PySide6's `pyside6-lrelease`
would make PySide6 (about 270 MB) a build requirement of every `pip install`. The output is the
bytes `lrelease` writes by default (no -compress, unfinished translations kept, empty ones
dropped), checked byte for byte against it in tests/desktop/test_i18n_qm.py. The format, as
qttools' `src/linguist/shared/qm.cpp` writes it: a magic number, then tagged blocks (tag byte,
big-endian u32 length): the language, the hash table (elf hash of source + comment -> offset of
the message, sorted), the messages (sorted by context, source, comment), each a run of tagged
fields (translations in UTF-16BE, then comment, source and context in UTF-8, then an end tag).

Standard library only, and nothing of the app: setup.py loads this file by path.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

MAGIC = bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")
_LANGUAGE, _HASHES, _MESSAGES = 0xA7, 0x42, 0x69
_END, _TRANSLATION, _SOURCE, _CONTEXT, _COMMENT = 1, 3, 6, 7, 8
# Languages with one plural form: lrelease writes no numerus rules for them. Others need Qt's
# rules table (numerus.cpp), which this writer does not carry: it refuses them.
ONE_FORM_LANGUAGES = frozenset({"zh", "ja", "ko"})
_SKIPPED_TYPES = ("obsolete", "vanished")

Key = tuple[bytes, bytes, bytes]  # (context, source, comment) in UTF-8, lrelease's sort order


class TsError(ValueError):
    """A .ts this writer cannot compile as lrelease would (said with the file and the reason)."""


def elf_hash(data: bytes) -> int:
    """Qt's elfHash: the key of the .qm's hash table (never 0)."""
    h = 0
    for byte in data:
        h = ((h << 4) + byte) & 0xFFFFFFFF
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h or 1


def _text(element: ET.Element) -> str:
    if len(element):
        raise TsError(f"<{element[0].tag}> inside <{element.tag}> is not supported")
    return element.text or ""


def _translations(message: ET.Element) -> list[str] | None:
    """The translations lrelease keeps for `message`, or None for one it leaves out."""
    translation = message.find("translation")
    if translation is None or translation.get("type") in _SKIPPED_TYPES:
        return None
    if message.get("numerus") == "yes":
        texts = [_text(form) for form in translation.findall("numerusform")]
    else:
        texts = [_text(translation)]
    if translation.get("type") == "unfinished" and not "".join(texts[:1]):
        return None  # untranslated: the source text shows
    return texts


def _messages(root: ET.Element) -> dict[Key, list[str]]:
    """Every kept message under its key; lrelease drops a comment (disambiguation) that is not
    needed to tell a message apart from the same source without one."""
    parsed: list[tuple[str, str, str, list[str] | None]] = []
    for group in root.iter("context"):
        name = group.findtext("name") or ""
        for message in group.iter("message"):
            source = message.findtext("source") or ""
            parsed.append((name, source, message.findtext("comment") or "", _translations(message)))
    plain = {(c, s) for c, s, comment, _ in parsed if not comment}
    out: dict[Key, list[str]] = {}
    for context, source, comment, texts in parsed:
        if texts is None:
            continue
        key = (context.encode(), source.encode(), comment.encode())
        if comment and context and (context, source) not in plain:
            stripped = (key[0], key[1], b"")
            if stripped not in out:
                key = stripped
        out.setdefault(key, texts)  # a QMap keeps the first of equal keys
    return out


def _bytes_field(tag: int, data: bytes) -> bytes:
    return struct.pack(">BI", tag, len(data)) + data


def _message(key: Key, texts: list[str]) -> bytes:
    context, source, comment = key
    out = [_bytes_field(_TRANSLATION, text.encode("utf-16-be")) for text in texts]
    out += [_bytes_field(_COMMENT, comment), _bytes_field(_SOURCE, source)]
    out += [_bytes_field(_CONTEXT, context), bytes([_END])]
    return b"".join(out)


def compile_ts(ts: bytes) -> bytes:
    """The .qm of a .ts document."""
    root = ET.fromstring(ts)
    language = root.get("language") or ""
    messages = _messages(root)
    plural = any(len(texts) > 1 for texts in messages.values())
    if language.split("_")[0] not in ONE_FORM_LANGUAGES and (language or plural):
        raise TsError(f"language {language!r}: its plural rules are not known here")
    body = bytearray()
    hashes: list[tuple[int, int]] = []
    for key in sorted(messages):
        hashes.append((elf_hash(key[1] + key[2]), len(body)))
        body += _message(key, messages[key])
    out = bytearray(MAGIC)
    if language:
        out += _bytes_field(_LANGUAGE, language.encode())
    if hashes:
        table = b"".join(struct.pack(">II", h, at) for h, at in sorted(hashes))
        out += _bytes_field(_HASHES, table) + _bytes_field(_MESSAGES, bytes(body))
    return bytes(out)


def write_qm(ts: Path, qm: Path) -> Path:
    """Compile `ts` into `qm` (replaced whole: a reader never sees half a file)."""
    try:
        data = compile_ts(ts.read_bytes())
    except (TsError, ET.ParseError) as error:
        raise TsError(f"{ts}: {error}") from error
    partial = qm.with_name(qm.name + ".part")
    partial.write_bytes(data)
    partial.replace(qm)
    return qm
