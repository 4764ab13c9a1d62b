"""Peak memory per process of the indexer and of pdftotext (bench_corpus.py, issue 43 item 5).

- pdftotext runs `parallel` processes at once (the indexer's worker count), each under
  `/usr/bin/time -f %M` (Debian `time`): its peak resident size, exact. Not `os.wait4` of
  pdftotext itself: Linux counts in a child's ru_maxrss the parent's pages it held before
  exec, so every process "peaked" at this benchmark's own 45 MB.
- The indexer runs in a child interpreter of its own (`INDEX_ONCE`: a fresh home, `reindex`,
  then its own VmHWM), from this tree or another (a worktree of an older commit, first on
  sys.path): a thread here reads VmHWM of every process under it every 2 ms (workers and
  Tesseract; VmHWM only grows, so a late read still holds the peak).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

MB = 1024  # /proc and GNU time count KiB
TIME = "/usr/bin/time"

INDEX_ONCE = """
import json, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from agent_core.corpus.index import reindex
from agent_core.facade.workspace import Workspace
from agent_core.home.preferences import Settings

ws = Workspace(Path(tempfile.mkdtemp(dir=sys.argv[3], prefix="home-")))
started = time.perf_counter()
status = reindex(ws.desk_store, Path(sys.argv[2]), Settings(corpus_ocr=sys.argv[4]))
wall = time.perf_counter() - started
ws.close()
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"wall": wall, "indexed": status["indexed"], "parent_kb": hwm}))
"""


@dataclass
class Peaks:
    """One run's wall time and the peak resident MB of each kind of process in it."""

    wall: float
    by_kind: dict[str, list[float]] = field(default_factory=dict)


def pdftotext_parallel(pdfs: list[Path], scratch: Path, parallel: int) -> Peaks:
    """Every PDF through pdftotext, `parallel` at once; each process's own peak."""
    waiting, running = deque(pdfs), dict[int, tuple[subprocess.Popen[bytes], Path]]()
    free = [scratch / f"slot-{n}" for n in range(parallel)]
    peaks: list[float] = []
    started = time.perf_counter()
    while waiting or running:
        while waiting and free:
            slot = free.pop()
            command = ["pdftotext", "-q", str(waiting.popleft()), f"{slot}.txt"]
            child = subprocess.Popen([TIME, "-f", "%M", "-o", f"{slot}.kb", *command])
            running[child.pid] = (child, slot)
        pid, status = os.wait()  # the first to finish, whichever it is
        if pid not in running:
            continue
        child, slot = running.pop(pid)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise RuntimeError(f"pdftotext failed ({child.returncode})")
        peaks.append(int(Path(f"{slot}.kb").read_text().split()[-1]) / MB)
        free.append(slot)
    return Peaks(time.perf_counter() - started, {"pdftotext": peaks})


def _descendants(root: int) -> list[int]:
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(kid) for kid in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def _kind(pid: int) -> str | None:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return None
    if "resource_tracker" in cmdline:
        return None
    if "spawn_main" in cmdline:
        return "worker"
    return "tesseract" if "tesseract" in cmdline else None


def _hwm_kb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines() if "VmHWM" in line), 0)


def index_in_child(tree: Path, corpus: Path, scratch: Path, ocr: str) -> Peaks:
    """One fresh reindex of `corpus` by the code of `tree`, in a child interpreter."""
    child = subprocess.Popen(
        [sys.executable, "-c", INDEX_ONCE, str(tree), str(corpus), str(scratch), ocr],
        stdout=subprocess.PIPE,
        text=True,
    )
    seen: dict[int, tuple[str, int]] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid in _descendants(child.pid)[1:]:
                # Read each time: Tesseract shows the worker's command line until its exec.
                kind = _kind(pid)
                if kind is not None:
                    was_kind, was_kb = seen.get(pid, (kind, 0))
                    seen[pid] = (kind, max(was_kb if was_kind == kind else 0, _hwm_kb(pid)))
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = child.communicate()
    done.set()
    sampler.join()
    if child.returncode != 0:
        raise RuntimeError(f"the indexing child failed ({child.returncode})")
    report = json.loads(out.strip().splitlines()[-1])
    peaks = Peaks(report["wall"], {"parent": [report["parent_kb"] / MB]})
    for kind, kb in seen.values():
        peaks.by_kind.setdefault(kind, []).append(kb / MB)
    return peaks


def summary(runs: list[Peaks]) -> dict[str, object]:
    """Medians over rounds with their ranges: wall, and per kind the largest process's peak,
    the median process's peak and how many processes there were."""

    def spread(values: list[float]) -> list[float]:
        return [round(statistics.median(values), 2), round(min(values), 2), round(max(values), 2)]

    out: dict[str, object] = {"wall_s": spread([run.wall for run in runs])}
    kinds = sorted({kind for run in runs for kind in run.by_kind})
    for kind in kinds:
        per_run = [run.by_kind.get(kind, [0.0]) for run in runs]
        out[kind] = {
            "largest_mb": spread([max(values) for values in per_run]),
            "median_mb": spread([statistics.median(values) for values in per_run]),
            "processes": spread([float(len(values)) for values in per_run]),
        }
    return out
