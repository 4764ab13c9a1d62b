"""agent_core imports on an OS without O_NOFOLLOW, O_DIRECTORY and fcntl (Windows), and there
the sandbox refuses with `sandbox_unsupported` instead of running without its guarantees.
The migration lock is a real cross-process lock (filelock) that times out as storage_locked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import agent_core
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage.migrate import home as migrate

REPO_ROOT = Path(__file__).resolve().parents[2]

# One child for every check: it imports the Agents SDK (runner imports it), which costs seconds.
WITHOUT_POSIX_EXTRAS = """
import os, sys
del os.O_NOFOLLOW, os.O_DIRECTORY
# The Agents SDK (via mcp) imports fcntl when sys.platform is not win32, which we cannot fake
# here: load it first, as its Windows branch would. Everything first-party comes after the block.
import agents
sys.modules["fcntl"] = None  # `import fcntl` now raises ImportError, as on Windows
try:
    import fcntl
except ImportError:
    pass
else:
    raise SystemExit("the fcntl blocker let it through")

import importlib, json, pkgutil, warnings
from pathlib import Path

warnings.simplefilter("ignore")  # filelock warns that only a soft lock is left
import agent_core
from agent_core.contract.errors import BriefDeskError

imported, failed = [], {}
for info in pkgutil.walk_packages(agent_core.__path__, "agent_core."):
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        failed[info.name] = f"{type(exc).__name__}: {exc}"
    else:
        imported.append(info.name)

def code_of(call):
    try:
        call()
    except BriefDeskError as exc:
        return {"code": exc.code, "message": exc.message}
    return None

from agent_core.storage.migrate.home import open_store
from agent_core.home import sandbox
from agent_core.facade.workspace import Workspace

tmp = Path(sys.argv[1])
(tmp / "corpus").mkdir()
(tmp / "corpus" / "a.txt").write_text("hello")
# Runs migrations/env.py inside Alembic, under the migration lock, without fcntl.
open_store(tmp / "store" / "state.db").dispose()
workspace = Workspace(tmp / "home")
report = {
    "imported": imported,
    "failed": failed,
    "read": code_of(lambda: sandbox.read_text_nofollow(tmp / "corpus", "a.txt", max_bytes=10)),
    "write": code_of(lambda: sandbox.atomic_write_nofollow(tmp / "corpus", "b.txt", b"x")),
    "run": code_of(lambda: workspace.create_run("Is this portable?")),
    "drive": code_of(lambda: workspace.drive("run-made-elsewhere")),  # refused before lookup
    "lock": sys.modules["filelock"].FileLock.__name__,
}
workspace.close()
print(json.dumps(report))
"""


def _child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _all_modules() -> set[str]:
    root = Path(agent_core.__file__).parent
    names = set()
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names - {"agent_core"}


def test_agent_core_imports_without_posix_extras_and_the_sandbox_refuses(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT_POSIX_EXTRAS, str(tmp_path)],
        capture_output=True,
        text=True,
        env=_child_env(),
        cwd=REPO_ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])

    env_module = "agent_core.storage.migrate.migrations.env"
    # env.py reads `context.config`, which exists only while Alembic runs it (open_store did).
    assert report["failed"].keys() <= {env_module}, report["failed"]
    if report["failed"]:
        assert "alembic.context" in report["failed"][env_module]
    assert set(report["imported"]) | set(report["failed"]) == _all_modules()

    assert report["lock"] == "SoftFileLock"  # filelock too saw no fcntl, and upgrading still worked
    for entry_point in ("read", "write", "run", "drive"):
        refusal = report[entry_point]
        assert refusal is not None, f"{entry_point} did not refuse"
        assert refusal["code"] == "sandbox_unsupported"
        assert "os.O_NOFOLLOW" in refusal["message"]
        assert "os.O_DIRECTORY" in refusal["message"]


HOLD_LOCK = """
import sys
from filelock import FileLock

with FileLock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_migration_lock_is_exclusive_and_times_out_as_storage_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_path = tmp_path / "state.db"
    lock_path = db_path.with_name(db_path.name + ".migrate.lock")  # the path upgrade() locks
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(migrate, "MIGRATE_LOCK_TIMEOUT_S", 0.3)
        with pytest.raises(BriefDeskError) as raised, migrate._exclusive_lock(lock_path):
            pass
        assert raised.value.code == ErrorCode.STORAGE_LOCKED
    finally:
        holder.communicate("\n", timeout=30)
    with migrate._exclusive_lock(lock_path):  # released by the other process: ours now
        pass
