"""The `briefs` suite's corpus: documents as people make them, made by the tools they use.

- `audit-event-spec.pdf`: LibreOffice (FODT source -> `soffice --convert-to pdf`), small pages
  with a running header ("Audit Event Specification v2 — page N") and a footer of the page
  number, optional hyphens (U+00AD, what a word processor's hyphenation leaves), a paragraph
  that runs over a page break, an XML example between two prose paragraphs and a table.
- `audit-event-spec.zh.pdf`: the same by LibreOffice in Chinese ("审计事件规范 — 第 N 页").
- `retention-notes.docx`: pandoc from Markdown, prose beside a JSON example and a table.
- `incident-review.odt`: pandoc, an unrelated document that shares some words.

Built once per digest of this file's sources into a cache folder (the pytest cache in tests,
`run_eval.py` passes its own); needs soffice and pandoc.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support.office import soffice_convert

SHY = "\u00ad"
HEADER = "Audit Event Specification v2 — page"
FOOTER_ZH = "审计事件规范 — 第"
# Pieces of the page furniture and of the code that no brief may quote.
FURNITURE = ("Audit Event Specification v2", "Internal draft", "审计事件规范 — 第")
CODE = ('<event run="r-17"', "</event>", '"retention_days"', "| actor |")

_FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:meta><dc:title>{title}</dc:title></office:meta>
 <office:styles>
  <style:default-style style:family="paragraph">
   <style:paragraph-properties fo:margin-bottom="0.12cm"/>
   <style:text-properties style:font-name="Liberation Serif" fo:font-size="10pt"
    fo:language="en" fo:country="US" style:font-name-asian="Noto Sans CJK SC"
    style:font-size-asian="10pt" style:language-asian="zh" style:country-asian="CN"/>
  </style:default-style>
  <style:style style:name="Heading" style:family="paragraph">
   <style:paragraph-properties fo:margin-top="0.3cm" fo:margin-bottom="0.15cm"
    fo:keep-with-next="always"/>
   <style:text-properties fo:font-size="13pt" fo:font-weight="bold"
    style:font-size-asian="13pt" style:font-weight-asian="bold"/>
  </style:style>
  <style:style style:name="Code" style:family="paragraph">
   <style:paragraph-properties fo:margin-bottom="0cm" fo:margin-left="0.4cm"/>
   <style:text-properties style:font-name="Liberation Mono" fo:font-family="Liberation Mono"
    fo:font-size="8pt"/>
  </style:style>
  <style:style style:name="Running" style:family="paragraph">
   <style:text-properties fo:font-size="8pt" fo:color="#555555" style:font-size-asian="8pt"/>
  </style:style>
 </office:styles>
 <office:automatic-styles>
  <style:page-layout style:name="pm1">
   <style:page-layout-properties fo:page-width="10.5cm" fo:page-height="14.8cm"
    fo:margin-top="0.8cm" fo:margin-bottom="0.8cm" fo:margin-left="1cm" fo:margin-right="1cm"/>
   <style:header-style><style:header-footer-properties fo:min-height="0.5cm"
    fo:margin-bottom="0.3cm"/></style:header-style>
   <style:footer-style><style:header-footer-properties fo:min-height="0.5cm"
    fo:margin-top="0.3cm"/></style:footer-style>
  </style:page-layout>
 </office:automatic-styles>
 <office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">
  <style:header><text:p text:style-name="Running">{header}</text:p></style:header>
  <style:footer><text:p text:style-name="Running">{footer}</text:p></style:footer>
 </style:master-page></office:master-styles>
 <office:body><office:text>{body}</office:text></office:body>
</office:document>
"""
_PAGE = '<text:page-number text:select-page="current">1</text:page-number>'


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _h(text: str) -> str:
    return f'<text:h text:style-name="Heading" text:outline-level="1">{text}</text:h>'


def _p(text: str) -> str:
    return f"<text:p>{_escape(text)}</text:p>"


_TWO_SPACES = '<text:s text:c="2"/>'


def _code(lines: list[str]) -> str:
    return "".join(
        f'<text:p text:style-name="Code">{_escape(line).replace("  ", _TWO_SPACES)}</text:p>'
        for line in lines
    )


def _table(rows: list[list[str]]) -> str:
    cells = "".join(
        "<table:table-row>"
        + "".join(
            f'<table:table-cell office:value-type="string">{_p(c)}</table:table-cell>' for c in r
        )
        + "</table:table-row>"
        for r in rows
    )
    return (
        f'<table:table table:name="T1"><table:table-column table:number-columns-repeated='
        f'"{len(rows[0])}"/>{cells}</table:table>'
    )


def _hyphenable(text: str) -> str:
    """Optional hyphens in long words, as a word processor's hyphenation leaves them."""
    words = []
    for word in text.split(" "):
        core = word.rstrip(".,;:")
        if len(core) >= 9 and core.isalpha():
            word = core[:4] + SHY + core[4:] + word[len(core) :]
        words.append(word)
    return " ".join(words)


EN_BODY = "".join(
    [
        _h("Purpose"),
        _p(
            _hyphenable(
                "This specification defines the audit events that an agent runtime writes for "
                "every action it takes. An audit event is written before the result of the "
                "action is shown to anyone, so the log never lags behind the screen."
            )
        ),
        _h("What an event records"),
        _p(
            _hyphenable(
                "Every audit event records the actor, the action, the target, the time and the "
                "outcome of the action. The actor is the run identifier together with the person "
                "who approved the action, when one did. The outcome is one of succeeded, failed, "
                "denied or unknown, and an unknown outcome is resolved later by a second event "
                "that refers to the first one. Arguments are stored as a hash and a short "
                "summary, because full documents and secrets do not belong in an audit trail."
            )
        ),
        _h("Example event"),
        _p("The following example shows one event as the runtime serialises it:"),
        _code(
            [
                '<event run="r-17" action="save_brief">',
                "  <target>briefs/wal.md</target>",
                "  <outcome>succeeded</outcome>",
                "</event>",
            ]
        ),
        _p(
            "Consumers must ignore elements they do not recognise. A new element is added only "
            "with a new schema version, never by changing the meaning of an old one."
        ),
        _h("Fields"),
        _table(
            [
                ["Field", "Meaning"],
                ["actor", "The run and the approver."],
                ["outcome", "Succeeded, failed, denied or unknown."],
            ]
        ),
        _h("Retention"),
        _p(
            _hyphenable(
                "Retention of audit events follows the organisation's records policy: events "
                "are kept for at least one year and are never edited in place. A correction is "
                "a new event that names the event it corrects, so the original stays readable "
                "for every later investigation of the incident."
            )
        ),
        _h("Tamper evidence"),
        _p(
            _hyphenable(
                "Each event carries the hash of the event before it, so a removed or altered "
                "event breaks the chain where it happened. Verification walks the chain from "
                "the newest event back to the first one and reports the first broken link."
            )
        ),
    ]
)

ZH_BODY = "".join(
    [
        _h("目的"),
        _p(
            "本规范定义了智能体运行时为其执行的每个操作写入的审计事件。审计事件在操作结果展示给任何人之前写入，"
            "因此日志永远不会落后于屏幕。"
        ),
        _h("事件记录的内容"),
        _p(
            "每个审计事件都记录执行者、操作、目标、时间和结果。执行者是运行标识以及批准该操作的人。"
            "结果是成功、失败、拒绝或未知之一，未知的结果稍后由引用第一个事件的第二个事件来解决。"
            "参数以哈希和简短摘要的形式保存，因为完整文档和密钥不属于审计记录。"
        ),
        _h("示例事件"),
        _p("下面的示例展示了运行时序列化后的一个事件："),
        _code(['<event run="r-17" action="save_brief">', "</event>"]),
        _p("使用方必须忽略它们不认识的元素。新元素只能随新的模式版本加入。"),
        _h("保留"),
        _p(
            "审计事件至少保存一年，并且从不就地修改。更正是一条新的事件，它指明所更正的事件，"
            "因此原始事件在之后的每次调查中仍然可读。每个事件都带有前一个事件的哈希，"
            "因此被删除或被修改的事件会在发生的位置打断链条。"
        ),
    ]
)

DOCX_MD = """# Retention notes

These notes explain how long each kind of record is kept. Audit events are kept for at least
one year, while debug logs are deleted after thirty days because they may hold personal data.

The retention job reads its settings from a small file:

```json
{"retention_days": 365, "debug_days": 30, "legal_hold": false}
```

A legal hold suspends every deletion until the hold is lifted by the records officer.

| Record | Kept for |
|--------|----------|
| actor | one year |
| debug log | thirty days |

Deleting a record early needs the approval of two people, and the deletion itself is written
to the audit trail as an event of its own.
"""

ODT_MD = """# Incident review of the March outage

The outage began when a configuration change disabled the cache for twenty minutes. Requests
piled up behind the database, and the queue of pending jobs grew to forty thousand entries.

The team restored service by rolling back the change. The review found that the change had no
second reviewer, and it recommends that every configuration change be approved by a person
who did not write it.
"""

SOURCES = "\n".join([EN_BODY, ZH_BODY, DOCX_MD, ODT_MD, _FODT])


def build(cache: Path) -> Path:
    """The corpus folder under `cache`, made once per digest of the sources."""
    digest = hashlib.sha256(SOURCES.encode()).hexdigest()[:12]
    folder = cache / f"briefs-{digest}"
    if (folder / ".complete").exists():
        return folder
    soffice, pandoc = shutil.which("soffice"), shutil.which("pandoc")
    if soffice is None or pandoc is None:
        raise RuntimeError("the briefs corpus needs soffice (LibreOffice) and pandoc")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sources = {
            "audit-event-spec": (
                "Audit Event Specification",
                f"{HEADER} {_PAGE}",
                f"Internal draft · {_PAGE}",
                EN_BODY,
            ),
            "audit-event-spec.zh": (
                "审计事件规范",
                f"{FOOTER_ZH} {_PAGE} 页",
                _PAGE,
                ZH_BODY,
            ),
        }
        for name, (title, header, footer, body) in sources.items():
            (work / f"{name}.fodt").write_text(
                _FODT.format(title=title, header=header, footer=footer, body=body),
                encoding="utf-8",
            )
        soffice_convert("pdf", [work / f"{name}.fodt" for name in sources], folder, timeout=180)
        for name, text, target in (
            ("retention", DOCX_MD, "retention-notes.docx"),
            ("incident", ODT_MD, "incident-review.odt"),
        ):
            (work / f"{name}.md").write_text(text, encoding="utf-8")
            subprocess.run(
                [pandoc, str(work / f"{name}.md"), "-f", "gfm", "-o", str(folder / target)],
                check=True,
                capture_output=True,
                timeout=60,
            )
    (folder / ".complete").write_text(digest)
    return folder
