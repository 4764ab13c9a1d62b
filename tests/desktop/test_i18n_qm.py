"""The window's translations compiled without Qt (desktop/i18n/qm.py), as lrelease would.

The package build (setup.py) writes the .qm with this pure-Python writer, so that every install
carries it without PySide6 as a build requirement. It must be what PySide6's `pyside6-lrelease`
writes, byte for byte, on the committed .ts and on every kind of message, and it must refuse
what it cannot write as lrelease would (a language with plural rules) instead of writing a .qm
that reads wrong.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator

from desktop.i18n import build
from desktop.i18n.qm import TsError, compile_ts, write_qm

COMMITTED = Path(build.__file__).resolve().parent / "briefdesk_zh_CN.ts"


def lrelease(ts: Path, qm: Path) -> bytes:
    subprocess.run(
        [build.tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True, capture_output=True
    )
    return qm.read_bytes()


def translated(qm: Path, context: str, source: str) -> str:
    translator = QTranslator()
    assert translator.load(str(qm)), qm
    return translator.translate(context, source) or ""


# What lrelease does with each kind of message: kept (finished, unfinished with a text, numerus,
# a needed and a dropped disambiguation, an empty context), left out (obsolete, vanished,
# untranslated), and the first of two equal keys.
EDGE_TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context><name>Ctx</name>
  <message><source>Open &amp;file</source><translation>打开文件(&amp;F)</translation></message>
  <message><source>Draft</source><translation type="unfinished">草稿</translation></message>
  <message><source>Empty</source><translation type="unfinished"></translation></message>
  <message><source>Gone</source><translation type="obsolete">没了</translation></message>
  <message><source>Left</source><translation type="vanished">离开</translation></message>
  <message numerus="yes"><source>%n file(s)</source>
    <translation><numerusform>%n 个文件</numerusform></translation></message>
  <message><source>Run</source><comment>verb</comment><translation>运行</translation></message>
  <message><source>Run</source><translation>一次运行</translation></message>
  <message><source>Stop</source><comment>verb</comment><translation>停止</translation></message>
  <message><source>Twice</source><translation>一</translation></message>
  <message><source>Twice</source><translation>二</translation></message>
  <message><source>  spaced 	</source><translation> 有空格 </translation></message>
</context>
<context><name></name>
  <message><source>Bare</source><comment>note</comment><translation>裸</translation></message>
</context>
<context><name>Zed</name>
  <message><source>Open &amp;file</source><translation>打开</translation></message>
</context>
</TS>
"""


def test_the_writer_is_byte_for_byte_what_lrelease_writes(tmp_path: Path) -> None:
    edge = tmp_path / "edge.ts"
    edge.write_text(EDGE_TS, encoding="utf-8")
    for ts in (COMMITTED, edge):
        assert compile_ts(ts.read_bytes()) == lrelease(ts, tmp_path / f"{ts.stem}.qm"), ts.name
    ours = write_qm(edge, tmp_path / "ours.qm")
    assert translated(ours, "Ctx", "Draft") == "草稿"  # unfinished, with a text: kept
    assert translated(ours, "Ctx", "Gone") == ""  # obsolete: left out


def test_a_language_with_plural_rules_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    """lrelease writes Russian's plural rules into its .qm; this writer does not know them."""
    ts = tmp_path / "briefdesk_ru.ts"
    ts.write_text(EDGE_TS.replace('language="zh_CN"', 'language="ru"'), encoding="utf-8")
    lrelease(ts, tmp_path / "lrelease.qm")  # a .ts lrelease compiles: the refusal is ours
    with pytest.raises(TsError, match=r"briefdesk_ru\.ts: language 'ru': its plural rules"):
        write_qm(ts, tmp_path / "briefdesk_ru.qm")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["briefdesk_ru.ts", "lrelease.qm"]
