"""agent_core never imports Qt or desktop; the quick CLI commands never import the Agents SDK."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import agent_core
from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import now_iso
from agent_core.storage.migrate.home import open_store
from agent_core.storage.tables import runs as run_rows
from tests.core.conformance.backends import REPO_ROOT, child_env

# Run by Alembic only (it reads `context.config`, which exists only inside a migration).
NOT_IMPORTABLE = {"agent_core.storage.migrate.migrations.env"}

IMPORT_ALL_WITHOUT_QT = """
import importlib, json, pkgutil, sys
import importlib.abc

BLOCKED = ("PySide6", "shiboken6", "desktop")

class QtBlocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"agent_core must not import {name}")
        return None

sys.meta_path.insert(0, QtBlocker())
for name in BLOCKED:  # a blocker that misses its target would prove nothing
    try:
        importlib.import_module(name)
    except ImportError as exc:
        if "must not import" not in str(exc):
            raise SystemExit(f"{name} failed for another reason: {exc}")
    else:
        raise SystemExit(f"the blocker let {name} through")

import agent_core
from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import now_iso
skip = set(json.loads(sys.argv[1]))
done = []
for info in pkgutil.walk_packages(agent_core.__path__, "agent_core."):
    if info.name in skip:
        continue
    importlib.import_module(info.name)
    done.append(info.name)
leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print(json.dumps({"imported": done, "leaked": leaked}))
"""


def _all_modules() -> set[str]:
    root = Path(agent_core.__file__).parent
    names = set()
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names - {"agent_core"} - NOT_IMPORTABLE


def test_every_agent_core_module_imports_with_qt_and_desktop_blocked() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_WITHOUT_QT, json.dumps(sorted(NOT_IMPORTABLE))],
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=REPO_ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["leaked"] == []
    assert set(report["imported"]) == _all_modules()
    assert {"agent_core.runs.driver", "agent_core.facade.workspace", "agent_core.cli.main"} <= set(
        report["imported"]
    )


QUICK_COMMANDS = """
import json, sys
import agent_core.cli.main as cli
home, run_id = sys.argv[1], sys.argv[2]
codes = {}
for args in (["runs"], ["timeline", run_id], ["approvals", "list"], ["audit"],
             ["memory", "list"], ["settings", "get"], ["rules", "list"]):
    codes[" ".join(args)] = cli.main(["--home", home, "--json", *args])
print(json.dumps({"codes": codes, "agents": "agents" in sys.modules}))
"""


def test_runs_and_timeline_do_not_import_the_agents_sdk(home: Path) -> None:
    store = open_store(home / "state.db")
    with store.write() as conn:
        run_rows.insert_run(
            conn,
            run_rows.RunRow(
                run_id="run-quick",
                thread_id="th-quick",
                status=RunStatus.SUCCEEDED,
                question="q",
                model="offline",
                mode="default",
                corpus_dir=str(home),
                artifacts_dir=str(home),
                limits_json="{}",
                state_json="{}",
                created_at=now_iso(),
                updated_at=now_iso(),
            ),
        )
    store.dispose()
    proc = subprocess.run(
        [sys.executable, "-c", QUICK_COMMANDS, str(home), "run-quick"],
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(report["codes"].values()) == {0}, proc.stdout
    assert report["agents"] is False
    first = json.loads(proc.stdout.splitlines()[0])
    assert [r["run_id"] for r in first["runs"]] == ["run-quick"]
