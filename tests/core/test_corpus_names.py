"""A corpus file whose name could show as another is listed as failed, never read (issue 39).

The third break-in found files named with control, bidi or zero-width characters skipped
without a word: `corpus list` did not show them, so a person could not tell the corpus held
a file it never read. Now each is listed as failed with `document_name_refused`, counted in
`corpus status`, and nothing of it reaches the index (read from state.db, as an outsider).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace

HOSTILE = {
    "a bidi override": "invoice\u202etxt.md",
    "a zero-width space": "brief\u200b.md",
    "a control character": "bell\x07.md",
    "a newline": "two\nlines.md",
}
SECRET_WORD = "zanzibarquokka"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "plain.md").write_text("# Plain\n\nA document with an ordinary name.\n")
    for name in HOSTILE.values():
        (folder / name).write_text(f"# Hidden\n\n{SECRET_WORD} is in this file.\n")
    (folder / "sub\u200d").mkdir()  # a hostile folder name: its files are refused too
    (folder / "sub\u200d" / "inner.md").write_text(f"{SECRET_WORD}\n")
    return folder


def _listed(ws: Workspace, corpus: Path) -> dict[str, Any]:
    return {doc["path"]: doc for doc in ws.corpus_documents(str(corpus))}


def test_files_with_hostile_names_are_listed_as_failed_and_never_indexed(
    ws: Workspace, home: Path, corpus: Path
) -> None:
    status = ws.reindex_corpus(str(corpus))
    refused = [*HOSTILE.values(), "sub\u200d/inner.md"]
    assert (status["documents"], status["indexed"], status["failed"]) == (6, 1, 5)
    assert ws.corpus_status(str(corpus)) == status

    listed = _listed(ws, corpus)
    assert sorted(listed) == sorted(["plain.md", *refused])
    assert listed["plain.md"]["status"] == "indexed"
    for name in refused:
        assert listed[name]["status"] == "failed", name
        assert listed[name]["error"]["code"] == "document_name_refused", name
        assert "Rename the file" in listed[name]["error"]["message"]
    failed = ws.corpus_documents(str(corpus), failed_only=True)
    assert sorted(doc["path"] for doc in failed) == sorted(refused)

    with sqlite3.connect(home / "state.db") as db:
        names = {row[0] for row in db.execute("SELECT source_id FROM corpus_docs")}
        pages = db.execute(
            "SELECT count(*) FROM corpus_pages WHERE body LIKE ?", (f"%{SECRET_WORD}%",)
        ).fetchone()
    assert names == {"plain.md"}
    assert pages == (0,)
