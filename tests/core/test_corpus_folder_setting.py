"""The setting `corpus.folder` (issue 41, item 6): the folder a run reads when it names none,
and the one `corpus status` / `list` / `reindex` look at without `--corpus`. A folder that is
missing, a file, relative, a system folder or the home's own store, logs or artifacts is refused
with a stable code and nothing is stored; null (or the home's `corpus/`) is the default again."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.facade.workspace import Workspace
from tests.support.cli import CliRunner


def test_the_corpus_folder_setting_is_checked_and_read_by_runs_and_corpus_commands(
    ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(ws.home.root, capsys)
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "notes.md").write_text("# Lighthouse notes\n\nThe fog signal fails in the cold.\n")
    (tmp_path / "a-file.txt").write_text("not a folder")
    refusals = {
        str(tmp_path / "missing"): "not_found",
        str(tmp_path / "a-file.txt"): "invalid_arguments",
        "papers": "invalid_arguments",  # relative: whose working folder?
        "/proc": "invalid_arguments",
        str(ws.home.root): "invalid_arguments",  # holds state.db, logs, artifacts
        str(ws.home.artifacts / "sub"): "not_found",
        str(ws.home.artifacts): "invalid_arguments",  # runs would read their own briefs
    }
    for value, code in refusals.items():
        refused = cli("settings", "set", "corpus.folder", value)
        assert refused.code != 0 and refused.body["error"]["code"] == code, value
        assert "Traceback" not in refused.body["error"]["message"]
    assert ws.settings()["corpus.folder"] is None  # nothing stored
    assert cli("corpus", "status", check=True).body["corpus"]["root"] == str(ws.home.corpus)

    cli("settings", "set", "corpus.folder", str(papers), check=True)
    assert ws.settings()["corpus.folder"] == str(papers.resolve())
    status = cli("corpus", "reindex", check=True).body["corpus"]
    assert (status["root"], status["documents"]) == (str(papers.resolve()), 1)
    listed = cli("corpus", "list", check=True).body["documents"]
    assert [d["path"] for d in listed] == ["notes.md"]
    run_id = ws.create_run("What fails in the cold?")
    assert ws.get_run(run_id)["corpus"] == str(papers.resolve())  # the run keeps it
    assert ws.get_run(ws.create_run("Again", corpus=str(ws.home.corpus)))["corpus"] == str(
        ws.home.corpus
    )

    cli("settings", "set", "corpus.folder", str(ws.home.corpus), check=True)  # the default
    assert ws.settings()["corpus.folder"] is None
    cli("settings", "set", "corpus.folder", str(papers), check=True)
    cli("settings", "set", "corpus.folder", "null", check=True)
    assert ws.default_corpus() == ws.home.corpus
    assert ws.get_run(run_id)["corpus"] == str(papers.resolve())
