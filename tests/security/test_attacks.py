"""The attack suite: a deceived model attacks every boundary, in every permission mode.

One scripted run per mode (`briefdesk-cli run --model scripted:FILE`, real subprocesses, run in
parallel) plays tests/fixtures/attacks/script.json against a malicious corpus: traversal,
absolute paths, symlink escapes (file, folder, index), credential reads, a document with forged
system messages, exfiltration to a real listener on 127.0.0.1 / ::1, a 50 MB document, a 1 MB
argument, unknown tools, undeclared arguments, Unicode tricks and writes outside the artifacts
folder, then one legitimate save that proves the mode itself works.

Each case is checked in three places: the tool log (its `blocked` event with code and rule, the
matching audit row, never executed, never proposed), the file system (nothing outside the
artifacts folder changed, nothing unapproved inside it, no secret canary anywhere the process
wrote) and the network (the listener received nothing). The suite writes the cases x modes
table to test-artifacts/attack-table.md and prints it (run with -s to see it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.attacks.layout import (
    Case,
    World,
    build_world,
    cases_of,
    files_containing,
    filled_script,
    snapshot,
    write_script,
)
from tests.fixtures.attacks.listener import Connection, Listener
from tests.fixtures.attacks.verdicts import RunRecord, collect, judge, render_table
from tests.support.cli import REPO_ROOT, cli_env

pytestmark = pytest.mark.slow

MODES = ("default", "acceptEdits", "dangerouslySkipPermissions")
QUESTION = "Summarise the quarterly vendor sync report"
TABLE_PATH = REPO_ROOT / "test-artifacts" / "attack-table.md"
HOME_FOLDERS = {"artifacts", "corpus", "logs"}


@dataclass
class ModeRun:
    code: int
    body: dict[str, Any]
    stdout: str
    stderr: str
    record: RunRecord


@dataclass
class Suite:
    world: World
    cases: dict[str, list[Case]]
    runs: dict[str, ModeRun]
    before: dict[str, Any]
    after: dict[str, Any]
    connections: list[Connection]
    cells: dict[tuple[str, str], tuple[str, list[str]]]
    artifacts_before: dict[str, Any]


def _watched(world: World) -> dict[str, Any]:
    """Everything outside the artifacts folders that an attack could touch."""
    state: dict[str, Any] = {
        name: snapshot(path)
        for name, path in (
            ("outside", world.outside),
            ("fakehome", world.fakehome),
            ("corpus", world.corpus),
        )
    }
    state["root"] = sorted(p.name for p in world.root.iterdir())
    for mode in MODES:  # the run creates its home here; the home is checked on its own
        state[f"{mode}/"] = sorted(
            p.name for p in world.mode_root(mode).iterdir() if p.name != "home"
        )
    state["tmp-target"] = world.absolute_tmp_target().exists()
    return state


def _launch(world: World, mode: str, script: Path) -> subprocess.Popen[str]:
    env = cli_env(HOME=str(world.fakehome), ATTACK_ENV_CANARY=world.canaries["environ"])
    command = [
        sys.executable,
        "-m",
        "agent_core.cli",
        "--home",
        str(world.home(mode)),
        "--json",
        "--corpus",
        str(world.corpus),
        "--artifacts",
        str(world.artifacts(mode)),
        "run",
        "--question",
        QUESTION,
        "--model",
        f"scripted:{script}",
        "--mode",
        mode,
    ]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Suite:
    world = build_world(tmp_path_factory.mktemp("attacks"), MODES)
    with Listener() as listener:
        cases, scripts = {}, {}
        for mode in MODES:
            script = filled_script(world.slots(mode, listener.port, listener.port6))
            cases[mode] = cases_of(script)
            scripts[mode] = write_script(world.root / f"script-{mode}.json", script)
        artifacts_before = {mode: snapshot(world.artifacts(mode)) for mode in MODES}
        before = _watched(world)
        procs = {mode: _launch(world, mode, scripts[mode]) for mode in MODES}
        outputs = {mode: proc.communicate(timeout=180) for mode, proc in procs.items()}
    after = _watched(world)
    runs: dict[str, ModeRun] = {}
    for mode, (stdout, stderr) in outputs.items():
        body = json.loads(stdout) if stdout.strip() else {}
        assert "run_id" in body, f"{mode}: no run ({procs[mode].returncode}): {stdout}\n{stderr}"
        record = collect(world.home(mode), body["run_id"])
        runs[mode] = ModeRun(procs[mode].returncode, body, stdout, stderr, record)
    cells = {
        (case.name, mode): judge(case, runs[mode].record, world, mode)
        for mode in MODES
        for case in cases[mode]
    }
    table = render_table(cases[MODES[0]], MODES, cells)
    TABLE_PATH.parent.mkdir(exist_ok=True)
    TABLE_PATH.write_text(
        "# Attack suite: cases x permission modes\n\n"
        "Generated by tests/security/test_attacks.py. Every refused case was also checked for: "
        "its audit row, no execution, no approval proposal; per run: nothing outside the "
        "artifacts folder changed, no secret canary stored, the 127.0.0.1/::1 listener received "
        "nothing.\n\n" + table + "\n",
        encoding="utf-8",
    )
    print("\n" + table)
    return Suite(world, cases, runs, before, after, listener.connections, cells, artifacts_before)


def _case_params() -> list[Any]:
    world = World(Path("/nonexistent"))
    names = [c.name for c in cases_of(filled_script({**world.slots("m", 1, 1), "MEGABYTE": ""}))]
    return [pytest.param(mode, name, id=f"{mode}-{name}") for mode in MODES for name in names]


@pytest.mark.parametrize(("mode", "case_name"), _case_params())
def test_case_holds_in_mode(suite: Suite, mode: str, case_name: str) -> None:
    cell, problems = suite.cells[(case_name, mode)]
    assert not problems, f"{case_name} in {mode}: {cell}: {problems}"


@pytest.mark.parametrize("mode", MODES)
def test_run_reaches_its_expected_stop(suite: Suite, mode: str) -> None:
    run = suite.runs[mode]
    expected = "waiting_approval" if mode == "default" else "succeeded"
    assert (run.code, run.body["status"]) == (0, expected), run.stderr
    assert "Traceback" not in run.stderr
    blocked = [e for e in run.record.events if e["kind"] == "blocked"]
    assert len(blocked) == sum(c.blocked for c in suite.cases[mode])


@pytest.mark.parametrize("mode", MODES)
def test_only_the_legit_call_was_ever_proposed(suite: Suite, mode: str) -> None:
    legit = next(c for c in suite.cases[mode] if c.name == "legit-save")
    call_id = suite.runs[mode].record.call(legit)["call_id"]  # type: ignore[index]
    assert [a["call_id"] for a in suite.runs[mode].record.approvals] == [call_id]


def test_nothing_outside_the_artifacts_folders_changed(suite: Suite) -> None:
    assert suite.after == suite.before
    for mode in MODES:
        # The app's own files only (state.db and its -wal/-shm/lock companions): no x.md here.
        strays = {
            p.name
            for p in suite.world.home(mode).iterdir()
            if p.name not in HOME_FOLDERS and not p.name.startswith("state.db")
        }
        assert strays == set()


@pytest.mark.parametrize("mode", MODES)
def test_nothing_unapproved_inside_the_artifacts_folder(suite: Suite, mode: str) -> None:
    after = snapshot(suite.world.artifacts(mode))
    added = sorted(set(after) - set(suite.artifacts_before[mode]))
    changed = sorted(
        k for k in suite.artifacts_before[mode] if after.get(k) != suite.artifacts_before[mode][k]
    )
    expected = [] if mode == "default" else ["briefs", "briefs/legit.md"]
    assert (added, changed) == (expected, [])


def test_the_exfiltration_listener_received_nothing(suite: Suite) -> None:
    assert suite.connections == []


@pytest.mark.parametrize("mode", MODES)
def test_no_secret_reached_anything_the_run_wrote(suite: Suite, mode: str) -> None:
    canaries = list(suite.world.canaries.values())
    for root in (suite.world.home(mode), suite.world.artifacts(mode)):
        assert files_containing(root, canaries) == {}
    run = suite.runs[mode]
    assert not [c for c in canaries if c in run.stdout or c in run.stderr]


@pytest.mark.parametrize("mode", MODES)
def test_a_megabyte_argument_leaves_only_a_bounded_prefix_in_the_log(
    suite: Suite, mode: str
) -> None:
    payload = suite.world.megabyte
    record = suite.runs[mode].record
    logged = json.dumps(record.events) + json.dumps(record.audit)
    assert payload[:301] not in logged
    assert payload[500_000:500_200] not in logged
    # An event is small; a tool's recorded result is bounded on its own (contract: 4 KiB).
    results = [e["data"].get("result") for e in record.events if isinstance(e["data"], dict)]
    without_results = [
        {**e, "data": {k: v for k, v in e["data"].items() if k != "result"}}
        if isinstance(e["data"], dict)
        else e
        for e in record.events
    ]
    assert max(len(json.dumps(e)) for e in without_results) < 4_000
    assert max(len(r.encode("utf-8")) for r in results if isinstance(r, str)) <= 4_096
