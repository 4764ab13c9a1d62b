"""`briefdesk-cli corpus status|list [--failed]|reindex` and what a run may write, held to the
CLI contract (third wave: Documents), on real documents (tests/fixtures/documents)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.support.cli import CliRunner

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = REPO_ROOT / "tests" / "fixtures" / "documents"
PAGED = "pages.pdf"  # three pages of text
ENCRYPTED = "encrypted.pdf"

STATUS_KEYS = {"root", "documents", "indexed", "pending", "failed", "by_type"}
DOCUMENT_KEYS = {"path", "type", "pages", "chars", "status", "error", "hidden_removed", "ocr_pages"}


@pytest.fixture
def in_process(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    shutil.copyfile(DOCUMENTS / PAGED, folder / PAGED)
    shutil.copyfile(DOCUMENTS / ENCRYPTED, folder / "locked.pdf")
    (folder / "notes.md").write_text("# Notes\n\nA note about zebracorn herds.\n")
    return folder


def test_reindex_status_and_list_print_the_contract_json(
    in_process: CliRunner, corpus: Path
) -> None:
    cli = in_process
    status = cli("corpus", "status", "--corpus", str(corpus), check=True).body["corpus"]
    assert set(status) == STATUS_KEYS
    assert (status["documents"], status["pending"], status["indexed"]) == (3, 3, 0)

    # exit 0 although a document failed; it answers the status after reindexing
    reindexed = cli("corpus", "reindex", "--corpus", str(corpus))
    assert reindexed.code == 0, reindexed.body
    assert reindexed.body["corpus"] == {
        "root": str(corpus.resolve()),
        "documents": 3,
        "indexed": 2,
        "pending": 0,
        "failed": 1,
        "by_type": {"pdf": 2, "md": 1},
    }
    assert cli("corpus", "status", "--corpus", str(corpus)).body == {
        "api": 1,
        "corpus": reindexed.body["corpus"],
    }

    listed = cli("corpus", "list", "--corpus", str(corpus), check=True).body["documents"]
    assert all(set(d) == DOCUMENT_KEYS for d in listed)
    assert sorted(d["path"] for d in listed) == sorted(["locked.pdf", PAGED, "notes.md"])
    (failed,) = cli("corpus", "list", "--failed", "--corpus", str(corpus)).body["documents"]
    assert failed["path"] == "locked.pdf" and failed["status"] == "failed"
    assert failed["error"]["code"] == "document_encrypted" and failed["error"]["message"]
    assert (failed["type"], failed["pages"], failed["chars"]) == ("pdf", None, None)

    # --corpus anywhere on the line: before the command, between it and its flag, at the end
    for argv in (
        ("--corpus", str(corpus), "corpus", "list", "--failed"),
        ("corpus", "--corpus", str(corpus), "list", "--failed"),
        ("corpus", "list", "--corpus", str(corpus), "--failed"),
    ):
        assert cli(*argv, check=True).body["documents"] == [failed], argv


def test_without_json_a_person_reads_counts_and_a_table_of_failures(
    in_process: CliRunner, corpus: Path
) -> None:
    cli = in_process
    cli("corpus", "reindex", "--corpus", str(corpus), check=True)
    status = cli.text("corpus", "status", "--corpus", str(corpus)).stdout
    assert "3 documents, 2 indexed, 0 pending, 1 failed" in status
    assert "by type: pdf 2, md 1" in status and "{" not in status
    failed = cli.text("corpus", "list", "--failed", "--corpus", str(corpus)).stdout
    header, _rule, row = failed.splitlines()
    assert header.split() == ["path", "type", "pages", "chars", "status", "error"]
    assert row.startswith("locked.pdf") and "document_encrypted: " in row


def test_without_corpus_it_reads_the_homes_corpus_folder(in_process: CliRunner, home: Path) -> None:
    status = in_process("corpus", "reindex", check=True).body["corpus"]
    assert status["root"] == str((home / "corpus").resolve())
    assert status["documents"] == status["indexed"] > 0  # the demo corpus


@pytest.mark.parametrize("where", ["after", "before"])
def test_a_missing_corpus_folder_is_not_found_and_creates_no_home(
    in_process: CliRunner, home: Path, tmp_path: Path, where: str
) -> None:
    missing = str(tmp_path / "no-such-folder")
    for action in (["status"], ["list", "--failed"], ["reindex"]):
        argv = ["corpus", *action, "--corpus", missing]
        if where == "before":
            argv = ["--corpus", missing, "corpus", *action]
        message = in_process.refused("not_found", *argv)  # exit 2
        assert "no-such-folder" in message
        assert not home.exists()


def _files(home: Path) -> dict[str, str]:
    """Every file of the home outside what a run may write, with its content hash."""
    allowed = ("logs/", "artifacts/")
    out: dict[str, str] = {}
    for path in sorted(home.rglob("*")):
        rel = path.relative_to(home).as_posix()
        if rel.startswith("state.db") or rel.startswith(allowed) or not path.is_file():
            continue
        out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _folders(home: Path) -> set[str]:
    return {p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_dir()}


def test_a_run_changes_nothing_in_the_home_outside_its_state_logs_and_artifacts(
    cli: CliRunner, home: Path
) -> None:
    cli("corpus", "status", check=True)  # the home exists, with its demo corpus
    shutil.copyfile(DOCUMENTS / PAGED, home / "corpus" / PAGED)
    before, folders = _files(home), _folders(home)
    run = cli("run", "--question", "What does the handbook say about writer starvation?")
    assert run.code == 0, (run.body, run.stderr[-2000:])
    assert run.body["status"] in {"waiting_approval", "succeeded"}, run.body
    assert _files(home) == before
    new_folders = _folders(home) - folders
    assert all(f.split("/")[0] in ("logs", "artifacts") for f in new_folders), new_folders
    # The run indexed the PDF at its start (in state.db, not beside the document).
    listed = cli("corpus", "list", check=True).body["documents"]
    assert {d["path"]: d["status"] for d in listed}[PAGED] == "indexed"
