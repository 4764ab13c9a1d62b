"""The `backend` fixture: one per factory in BACKEND_FACTORIES (SQLite and PostgreSQL), on a fresh
home."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.core.conformance.backends import BACKEND_FACTORIES, StorageBackend


@pytest.fixture(params=sorted(BACKEND_FACTORIES))
def backend_factory(request: pytest.FixtureRequest) -> Callable[[Path], StorageBackend]:
    return BACKEND_FACTORIES[request.param]


@pytest.fixture
def backend(
    backend_factory: Callable[[Path], StorageBackend], tmp_path: Path
) -> Iterator[StorageBackend]:
    opened = backend_factory(tmp_path / "home")
    yield opened
    opened.close()
