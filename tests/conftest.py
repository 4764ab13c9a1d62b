"""Shared fixtures. Real parts only: a real SQLite home, real subprocesses, real Qt offscreen."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# pytest-qt needs a platform before any QApplication exists; tests that want a real window
# start Xvfb themselves and pass DISPLAY to a subprocess.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.pop("BRIEFDESK_CRASH_AT", None)
os.environ.pop("BRIEFDESK_HOME", None)
# The window's language follows the locale (desktop.i18n, `ui.language` = system); the tests
# read English texts, so a Chinese test machine's locale does not switch the windows they start
# (tests/desktop/test_i18n.py sets the locale it tests itself).
for _name in ("LC_ALL", "LC_MESSAGES", "LANG"):
    if os.environ.get(_name, "").lower().startswith("zh"):
        os.environ[_name] = "C.UTF-8"

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from agent_core.home import clock  # noqa: E402
from agent_core.home.clock import ManualClock  # noqa: E402
from tests.support.cli import CliRunner  # noqa: E402
from tests.support.store_backends import STORE_BACKENDS, StoreBackend  # noqa: E402
from tests.support.store_backends import store_backend as store_backend_named  # noqa: E402

if TYPE_CHECKING:  # imported lazily at run time: the fixtures open them only when asked
    from agent_core.facade.workspace import Workspace
    from tests.support.pg import PgServer


@pytest.fixture(scope="session", autouse=True)
def _no_garbage_collection_in_background_threads() -> Iterator[None]:
    """As the app does (desktop/gui_thread_gc.py): the cycle collector would run in whichever
    thread allocates (a bridge, a watcher's scan) and free a Qt object there, which can crash
    the whole test process; it runs on the main thread, between tests, instead."""
    thresholds = gc.get_threshold()
    gc.disable()
    yield
    gc.enable()
    gc.set_threshold(*thresholds)


@pytest.fixture(autouse=True)
def _collect_garbage_between_tests() -> Iterator[None]:
    from desktop.gui_thread_gc import collect_due

    thresholds = gc.get_threshold()
    yield
    collect_due(thresholds)  # what the automatic collector would have done by now


@pytest.fixture
def manual_clock() -> Iterator[ManualClock]:
    """The core's clock, stopped: it moves only by `manual_clock.advance(seconds)`, so expiry,
    TTL and lease tests move time instead of sleeping through it."""
    with clock.use(ManualClock()) as stopped:
        assert isinstance(stopped, ManualClock)
        yield stopped


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A fresh, not yet initialised home folder."""
    return tmp_path / "home"


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    from agent_core.facade.workspace import Workspace

    workspace = Workspace(home)
    yield workspace
    workspace.close()


@pytest.fixture
def cli(home: Path) -> CliRunner:
    """Runs `briefdesk-cli` in a real subprocess on the test's home."""
    return CliRunner(home)


@pytest.fixture(scope="session")
def pg_server() -> PgServer:
    """The session's real PostgreSQL server (tests/support/pg.py)."""
    from tests.support import pg

    return pg.server()


@pytest.fixture
def pg_url(pg_server: object) -> Iterator[str]:
    """A fresh team database (migrated), as a `postgresql://` URL without a password; dropped
    afterwards (each copy of the template takes several MB of the cluster's folder)."""
    url: str = pg_server.create_database()  # type: ignore[attr-defined]
    yield url
    pg_server.drop_database(url)  # type: ignore[attr-defined]


@pytest.fixture(params=STORE_BACKENDS)
def store_backend(request: pytest.FixtureRequest) -> Iterator[StoreBackend]:
    """The store a test's homes use, once per backend (issue 14: the race, the crash drills
    and the lifecycle tests run on both). `store_backend.prepare(home)` points a home at a
    fresh team database for PostgreSQL (tests/support/store_backends.py); the test's
    databases are dropped afterwards."""
    backend = store_backend_named(request.param)
    yield backend
    backend.drop_databases()


@pytest.fixture
def backend_home(tmp_path: Path, store_backend: StoreBackend) -> Path:
    """A home on `store_backend`. A module whose `home` fixture returns it runs its tests of
    `home`, `ws` and `cli` on SQLite and on PostgreSQL."""
    return store_backend.prepare(tmp_path / "home")
