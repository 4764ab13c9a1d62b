"""Content-addressed blobs: sha256 digests, stored once, verified on every read."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from agent_core import RUNTIME_VERSION
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage.tables.blobs import get_blob, put_blob
from agent_core.storage.tables.checkpoints import Checkpoint, save_state_string
from tests.core.conformance.backends import StorageBackend, insert_run, sqlite_backend


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[StorageBackend]:
    opened = sqlite_backend(tmp_path / "home")
    yield opened
    opened.close()


def test_a_blob_is_addressed_by_its_sha256_and_stored_once(backend: StorageBackend) -> None:
    body = b"a large body " * 1000
    with backend.store.write() as conn:
        first = put_blob(conn, body, run_id="run-a")
        second = put_blob(conn, body, run_id="run-a")
    assert first == second == hashlib.sha256(body).hexdigest()
    assert backend.rows("SELECT digest, size FROM blobs") == [(first, len(body))]
    with backend.store.read() as conn:
        assert get_blob(conn, first) == body


def _corrupt(backend: StorageBackend, digest: str) -> None:
    changed = backend.execute(
        "UPDATE blobs SET data = CAST(substr(data, 1, length(data) - 1) || 'X' AS BLOB) "
        "WHERE digest = :d",
        d=digest,
    )
    assert changed == 1


def test_a_blob_whose_bytes_changed_is_refused_as_storage_corrupt(backend: StorageBackend) -> None:
    with backend.store.write() as conn:
        digest = put_blob(conn, b"evidence " * 500)
    _corrupt(backend, digest)
    with backend.store.read() as conn:
        size = conn.execute(
            text("SELECT length(data) FROM blobs WHERE digest=:d"), {"d": digest}
        ).scalar()
        assert size == len(b"evidence " * 500)  # same length, one byte different
        with pytest.raises(BriefDeskError) as caught:
            get_blob(conn, digest)
    assert caught.value.code == ErrorCode.STORAGE_CORRUPT


def test_a_missing_blob_is_not_found(backend: StorageBackend) -> None:
    with backend.store.read() as conn, pytest.raises(BriefDeskError) as caught:
        get_blob(conn, "0" * 64)
    assert caught.value.code == ErrorCode.NOT_FOUND


def test_a_corrupt_run_state_is_never_resumed(backend: StorageBackend) -> None:
    insert_run(backend, "run-a")
    with backend.store.write() as conn:
        digest = save_state_string(conn, "run-a", '{"$schemaVersion": "1", "history": []}')
        backend.checkpoints.save(
            conn,
            Checkpoint(
                run_id="run-a",
                boundary="A",
                next_step="run a tool",
                run_state={},
                budgets={},
                runtime_version=RUNTIME_VERSION,
                state_digest=digest,
            ),
        )
    _corrupt(backend, digest)
    with pytest.raises(BriefDeskError) as caught:
        backend.checkpoints.resume("run-a", RUNTIME_VERSION)
    assert caught.value.code == ErrorCode.STORAGE_CORRUPT
