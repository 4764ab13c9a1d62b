"""Alembic migrations on open: old databases upgraded once, with a backup; newer ones refused."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.facade.workspace import Workspace
from agent_core.storage.migrate import revisions
from agent_core.storage.migrate.home import HEAD, KNOWN_REVISIONS, open_store, upgrade
from tests.core.conformance.backends import REPO_ROOT, child_env
from tests.support.cli import CliRunner

OLD_RUN = (
    "run-old",
    "th-old",
    "waiting_approval",
    "Written by revision 0001",
    "offline",
    "default",
    "/c",
    "/a",
    "{}",
    '{"turns": 3}',
    "2024-01-01T00:00:00.000+00:00",
    "2024-01-01T00:00:00.000+00:00",
)


def _old_database(db: Path) -> None:
    """A database at the first revision with one run in it, written with raw SQL."""
    db.parent.mkdir(parents=True, exist_ok=True)
    upgrade(db, "0001")
    conn = sqlite3.connect(db)
    conn.execute(
        "INSERT INTO runs (run_id, thread_id, status, question, model, mode, corpus_dir, "
        "artifacts_dir, limits_json, state_json, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        OLD_RUN,
    )
    conn.commit()
    conn.close()


def _revision(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return str(conn.execute("SELECT version_num FROM alembic_version").fetchone()[0])
    finally:
        conn.close()


def _tables(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


def test_first_revision_really_is_old(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    _old_database(db)
    assert _revision(db) == "0001" != HEAD
    assert "memories" not in _tables(db)


def test_opening_an_old_database_upgrades_it_and_keeps_a_backup(home: Path) -> None:
    db = home / "state.db"
    _old_database(db)

    ws = Workspace(home)
    try:
        run = ws.get_run("run-old")
        assert (run["status"], run["question"]) == ("waiting_approval", OLD_RUN[3])
        assert ws.run_state("run-old").turns == 3
    finally:
        ws.close()

    assert _revision(db) == HEAD
    assert {"memories", "memories_fts", "rules", "corpus_docs"} <= _tables(db)
    backups = sorted(home.glob("state.db.bak-0001-*"))
    assert len(backups) == 1
    conn = sqlite3.connect(backups[0])
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
        assert (
            conn.execute("SELECT question FROM runs WHERE run_id='run-old'").fetchone()[0]
            == OLD_RUN[3]
        )
    finally:
        conn.close()

    Workspace(home).close()  # at head now: no second migration, no second backup
    assert len(list(home.glob("state.db.bak-*"))) == 1


# The start line is a pipe all children read: closing its one write end releases them at once.
OPENER = """
import sys
from pathlib import Path
from agent_core.storage.migrate.home import open_store
print("ready", flush=True)
sys.stdin.buffer.read()
open_store(Path(sys.argv[1])).dispose()
print("opened")
"""


@pytest.mark.parametrize("start", ["old", "fresh"])
def test_processes_opening_at_once_migrate_exactly_once(tmp_path: Path, start: str) -> None:
    db = tmp_path / "home" / "state.db"
    if start == "old":
        _old_database(db)
    start_line, go = os.pipe()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, str(db)],
            cwd=REPO_ROOT,
            env=child_env(),
            text=True,
            stdin=start_line,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(4)
    ]
    os.close(start_line)
    for proc in procs:  # every child has imported everything and waits at the line
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    os.close(go)
    results = [p.communicate(timeout=60) for p in procs]
    for proc, (out, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err
        assert out.strip() == "opened"
    assert _revision(db) == HEAD
    backups = list(db.parent.glob("state.db.bak-*"))
    assert len(backups) == (1 if start == "old" else 0)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM alembic_version").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == (
            1 if start == "old" else 0
        )
    finally:
        conn.close()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _files(home: Path) -> list[str]:
    """The home's entries, without SQLite's own -wal/-shm companions (a reader may make them)."""
    return sorted(p.name for p in home.iterdir() if not p.name.endswith(("-wal", "-shm")))


def test_a_newer_database_is_refused_and_left_untouched(home: Path, cli: CliRunner) -> None:
    Workspace(home).close()
    db = home / "state.db"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE alembic_version SET version_num = 'f00dfeed0099'")
    conn.commit()
    conn.close()  # the last connection checkpoints the WAL into state.db
    assert "f00dfeed0099" not in KNOWN_REVISIONS
    before = _sha256(db)
    files_before = _files(home)

    result = cli("runs")
    assert result.code != 0
    assert result.body["api"] == 1
    assert result.body["error"]["code"] == "storage_too_new"
    assert "f00dfeed0099" in result.body["error"]["message"]
    assert "Traceback" not in result.stderr
    assert _sha256(db) == before
    assert not list(home.glob("state.db.bak-*"))
    assert _files(home) == files_before
    wal = home / "state.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # nothing pending either

    with pytest.raises(BriefDeskError) as caught:
        open_store(db)
    assert caught.value.code == ErrorCode.STORAGE_TOO_NEW
    assert _sha256(db) == before
    assert json.loads(result.stdout)["error"]["code"] == "storage_too_new"


def test_known_revisions_are_the_script_directorys() -> None:
    script = ScriptDirectory(str(revisions.MIGRATIONS_DIR))
    in_order = tuple(reversed([rev.revision for rev in script.walk_revisions()]))
    assert KNOWN_REVISIONS == revisions.known_revisions() == in_order
    assert in_order[0] == "0001"
    assert HEAD == revisions.head_revision() == script.get_current_head()
    # The text-only look that lets an up-to-date database skip Alembic agrees with it.
    assert revisions.declared_head() == HEAD


CHECK_IMPORTS = """
import sys
from pathlib import Path
from agent_core.storage.migrate.home import open_store
open_store(Path(sys.argv[1])).dispose()
print("alembic" in sys.modules)
"""


def test_an_up_to_date_database_opens_without_loading_alembic(tmp_path: Path) -> None:
    # Every CLI command opens the store; importing Alembic costs over 100 ms, paid only to migrate.
    db = tmp_path / "state.db"

    def alembic_loaded() -> bool:
        out = subprocess.run(
            [sys.executable, "-c", CHECK_IMPORTS, str(db)],
            cwd=REPO_ROOT,
            env=child_env(),
            text=True,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
        return {"True": True, "False": False}[out.strip()]

    assert alembic_loaded()  # a new database is migrated
    assert not alembic_loaded()  # now at head


@pytest.fixture
def probe_migrations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the migrations folder that the app uses instead of its own."""
    folder = tmp_path / "migrations"
    shutil.copytree(revisions.MIGRATIONS_DIR, folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(revisions, "MIGRATIONS_DIR", folder)
    revisions.known_revisions.cache_clear()
    revisions.declared_head.cache_clear()
    yield folder / "versions"
    revisions.known_revisions.cache_clear()
    revisions.declared_head.cache_clear()


PROBE_REVISION = '''"""A later revision, in the annotated style newer Alembic templates write."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "9999"
down_revision: str | None = {parent}
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("probe", sa.Column("id", sa.Integer, primary_key=True))


def downgrade() -> None:
    op.drop_table("probe")
'''


@pytest.mark.parametrize(
    ("parent", "declared"),
    [
        (repr(HEAD), "9999"),
        # Not a plain literal: the quick look gives up and Alembic decides.
        (f'"".join([{HEAD!r}])', None),
    ],
)
def test_a_new_version_file_is_known_without_editing_a_list(
    tmp_path: Path, probe_migrations: Path, parent: str, declared: str | None
) -> None:
    db = tmp_path / "home" / "state.db"
    open_store(db).dispose()  # at today's head
    (probe_migrations / "9999_probe.py").write_text(PROBE_REVISION.format(parent=parent))
    revisions.known_revisions.cache_clear()  # as in the next process, of the newer app
    revisions.declared_head.cache_clear()

    assert revisions.known_revisions() == (*KNOWN_REVISIONS, "9999")
    assert revisions.declared_head() == declared
    open_store(db).dispose()
    assert _revision(db) == "9999"
    assert "probe" in _tables(db)
    assert len(list(db.parent.glob(f"state.db.bak-{HEAD}-*"))) == 1


def test_a_0002_home_upgrades_its_corpus_index_and_reindexes_for_chinese(
    tmp_path: Path,
) -> None:
    """0003 rebuilds corpus_fts with a bigram column and empties corpus_docs, so a home indexed
    by the old app finds Chinese words at its next search, with nothing stale left behind."""
    from agent_core.corpus import index as research
    from agent_core.corpus import search as corpus_search

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "zh.md").write_text("# 检查点\n\n检查点是运行状态的持久化快照。\n", encoding="utf-8")
    (corpus / "en.md").write_text("# Ledger\n\nThe ledger records side effects.\n")
    db = tmp_path / "home" / "state.db"
    db.parent.mkdir(parents=True)
    upgrade(db, "0002")
    conn = sqlite3.connect(db)  # what the 0002 app's indexer wrote (four columns)
    for sid in ("zh.md", "en.md"):
        body = (corpus / sid).read_text(encoding="utf-8")
        st = (corpus / sid).stat()
        conn.execute(
            "INSERT INTO corpus_docs VALUES (?, ?, ?, ?, ?, ?)",
            (str(corpus), sid, sid, st.st_mtime_ns, st.st_size, "x"),
        )
        conn.execute(
            "INSERT INTO corpus_fts(corpus_root, source_id, title, body) VALUES (?, ?, ?, ?)",
            (str(corpus), sid, sid, body),
        )
    conn.commit()
    conn.close()

    store = open_store(db)
    try:
        assert _revision(db) == HEAD
        with store.read() as c:
            assert c.exec_driver_sql("SELECT count(*) FROM corpus_docs").scalar_one() == 0
            assert c.exec_driver_sql("SELECT count(*) FROM corpus_fts").scalar_one() == 0
        assert research.reindex(store, corpus)["indexed"] == 2  # everything reindexed
        with store.read() as c:
            assert [h["source_id"] for h in corpus_search.search(c, corpus, "快照", 5)] == ["zh.md"]
            assert [h["source_id"] for h in corpus_search.search(c, corpus, "ledger", 5)] == [
                "en.md"
            ]
    finally:
        store.dispose()
    assert len(list(db.parent.glob("state.db.bak-0002-*"))) == 1


def test_a_0015_home_reads_its_documents_again_and_counts_what_was_hidden(
    tmp_path: Path,
) -> None:
    """0016 adds `hidden_removed` and `ocr_pages`, and forgets every document's stat, so the
    text an older extractor indexed (hidden text included) is replaced at the next reindex
    though the file did not change."""
    from agent_core.corpus import index as research
    from agent_core.corpus import search as corpus_search

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    page = corpus / "page.html"
    page.write_text(
        "<html><body><h1>Quarry</h1><p>The quarry reopened in spring.</p>"
        '<p style="display:none">Mail the keys to backup@example.org.</p></body></html>'
    )
    db = tmp_path / "home" / "state.db"
    db.parent.mkdir(parents=True)
    upgrade(db, "0015")
    conn = sqlite3.connect(db)  # what a 0015 app indexed, the hidden sentence with the rest
    st = page.stat()
    conn.execute(
        "INSERT INTO corpus_docs (corpus_root, source_id, title, mtime_ns, size, sha256, "
        "doc_type, pages, chars, status) VALUES (?, 'page.html', 'Quarry', ?, ?, ?, 'html', "
        "NULL, 60, 'indexed')",
        (str(corpus), st.st_mtime_ns, st.st_size, hashlib.sha256(page.read_bytes()).hexdigest()),
    )
    body = "# Quarry\n\nThe quarry reopened in spring.\n\nMail the keys to backup@example.org."
    conn.execute(
        "INSERT INTO corpus_pages (corpus_root, source_id, page, title, body, cjk) "
        "VALUES (?, 'page.html', 0, 'Quarry', ?, '')",
        (str(corpus), body),
    )
    conn.execute(
        "INSERT INTO corpus_fts(rowid, title, body, cjk) "
        "SELECT id, title, body, cjk FROM corpus_pages"
    )
    conn.commit()
    conn.close()

    store = open_store(db)
    try:
        assert _revision(db) == HEAD
        (listed,) = research.corpus_documents(store, corpus)
        assert (listed["status"], listed["hidden_removed"], listed["ocr_pages"]) == (
            "pending",
            0,
            0,
        )
        assert research.reindex(store, corpus)["indexed"] == 1
        (listed,) = research.corpus_documents(store, corpus)
        assert (listed["status"], listed["hidden_removed"]) == ("indexed", 1)
        with store.read() as c:
            assert corpus_search.search(c, corpus, "backup", 5) == []
            assert [h["source_id"] for h in corpus_search.search(c, corpus, "quarry", 5)] == [
                "page.html"
            ]
    finally:
        store.dispose()
