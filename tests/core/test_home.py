"""The home folder: state.db, artifacts/, corpus/, logs/; new homes; --home and BRIEFDESK_HOME."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from agent_core.facade.workspace import Workspace
from agent_core.home.config import DEMO_CORPUS_DIR
from tests.core.conformance.backends import REPO_ROOT, child_env
from tests.support.cli import cli_command

LAYOUT = ("artifacts", "corpus", "logs")


def _demo_docs() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in DEMO_CORPUS_DIR.iterdir() if p.is_file()}


def _assert_layout(root: Path) -> None:
    assert (root / "state.db").is_file()
    assert (root / "state.db").read_bytes()[:16] == b"SQLite format 3\x00"
    for name in LAYOUT:
        assert (root / name).is_dir(), name


def test_a_missing_folder_becomes_a_home_with_the_demo_corpus(home: Path) -> None:
    assert not home.exists()
    Workspace(home).close()
    _assert_layout(home)
    docs = _demo_docs()
    assert len(docs) >= 3
    assert {p.name: p.read_bytes() for p in (home / "corpus").iterdir()} == docs


def test_a_non_empty_folder_without_state_db_is_initialised_keeping_its_files(
    home: Path,
) -> None:
    demo = _demo_docs()
    clashing = sorted(demo)[0]
    (home / "corpus").mkdir(parents=True)
    (home / "notes.txt").write_text("mine\n")
    (home / "corpus" / clashing).write_text("my own version\n")
    (home / "corpus" / "extra.md").write_text("# Extra\n")

    Workspace(home).close()

    _assert_layout(home)
    assert (home / "notes.txt").read_text() == "mine\n"
    assert (home / "corpus" / clashing).read_text() == "my own version\n"  # kept, not replaced
    assert (home / "corpus" / "extra.md").read_text() == "# Extra\n"
    for name, data in demo.items():
        if name != clashing:
            assert (home / "corpus" / name).read_bytes() == data


def test_an_existing_home_is_not_seeded_again(home: Path) -> None:
    Workspace(home).close()
    removed = sorted((home / "corpus").iterdir())[0]
    removed.unlink()
    Workspace(home).close()
    assert not removed.exists()  # a home with state.db is the user's: no demo files come back


def _cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli_command(*args),
        capture_output=True,
        text=True,
        env=child_env(**env),
        cwd=REPO_ROOT,
        timeout=60,
    )


def test_briefdesk_home_env_var_selects_and_creates_the_home(tmp_path: Path) -> None:
    target = tmp_path / "from-env"
    proc = _cli(["runs", "--json"], BRIEFDESK_HOME=str(target))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"api": 1, "runs": []}
    _assert_layout(target)
    assert sorted(p.name for p in (target / "corpus").iterdir()) == sorted(_demo_docs())


def test_home_flag_wins_over_the_env_var(tmp_path: Path) -> None:
    from_env, from_flag = tmp_path / "from-env", tmp_path / "from-flag"
    proc = _cli(["runs", "--json", "--home", str(from_flag)], BRIEFDESK_HOME=str(from_env))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"api": 1, "runs": []}
    _assert_layout(from_flag)
    assert not from_env.exists()
