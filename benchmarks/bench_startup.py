"""Cold start to first paint of `briefdesk`, against a bare QApplication + QLabel window.

Each sample is a fresh process: the time runs from spawning it to the line it prints from its
first paint event. The same run measures a bare PySide6 window, so the figure is also given as a
ratio (what BriefDesk adds on top of Qt itself), and, behind the paint, when the home is open
and the Agents SDK is imported on the bridge thread; and how soon Ctrl+Q takes the window away
while that import still runs.

    python benchmarks/bench_startup.py [--runs 7] [--platform offscreen|xcb]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BARE_WINDOW = """
import sys, time
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv)
class Label(QLabel):
    painted = False
    def paintEvent(self, event):
        super().paintEvent(event)
        if not self.painted:
            self.painted = True
            print("FIRST_PAINT {}", flush=True)
            app.quit()
label = Label("BriefDesk"); label.resize(1440, 880); label.show()
app.exec()
"""


def sample(command: list[str], env: dict[str, str], markers: tuple[str, ...]) -> dict[str, float]:
    """Seconds from spawn to each marker line (in order), measured by this parent process."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO
    )
    seen: dict[str, float] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        word = line.split(" ", 1)[0]
        if word in markers and word not in seen:
            seen[word] = time.perf_counter() - started
    proc.wait(120)
    seen["EXIT"] = time.perf_counter() - started
    missing = [m for m in markers if m not in seen]
    if missing:
        raise RuntimeError(f"{command[:3]} never printed {missing} (exit {proc.returncode})")
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--platform", default=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env.update(QT_QPA_PLATFORM=args.platform, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory(prefix="bd-bench-") as tmp:
        env["BRIEFDESK_QSETTINGS_DIR"] = str(Path(tmp) / "qsettings")
        bare, app, warm = [], [], []
        quits: list[dict[str, float]] = []
        for run in range(args.runs):
            bare.append(
                sample([sys.executable, "-c", BARE_WINDOW], env, ("FIRST_PAINT",))["FIRST_PAINT"]
            )
            home = str(Path(tmp) / f"home-{run}")  # a new home every time: the coldest case
            app_env = {**env, "BRIEFDESK_EXIT_AFTER_PAINT": "warm"}
            marks = sample(
                [sys.executable, "-m", "desktop.app", "--home", home],
                app_env,
                ("FIRST_PAINT", "HOME_OPEN", "SDK_WARM"),
            )
            app.append(marks["FIRST_PAINT"])
            warm.append(marks)
            quit_env = {**env, "BRIEFDESK_EXIT_AFTER_PAINT": "quit"}
            quits.append(
                sample(
                    [sys.executable, "-m", "desktop.app", "--home", home],
                    quit_env,
                    ("QUIT", "HIDDEN"),
                )
            )
    result = {
        "platform": args.platform,
        "runs": args.runs,
        "bare_qlabel_first_paint_ms": round(statistics.median(bare) * 1000, 1),
        "briefdesk_first_paint_ms": round(statistics.median(app) * 1000, 1),
        "ratio_first_paint_vs_bare": round(statistics.median(app) / statistics.median(bare), 2),
        "briefdesk_home_open_ms": round(statistics.median(m["HOME_OPEN"] for m in warm) * 1000, 1),
        "briefdesk_sdk_warm_ms": round(statistics.median(m["SDK_WARM"] for m in warm) * 1000, 1),
        # Ctrl+Q while the SDK import behind the paint still runs: the window goes at once,
        # the process ends once that import (which cannot be interrupted) is done.
        "quit_to_hidden_ms": round(
            statistics.median(m["HIDDEN"] - m["QUIT"] for m in quits) * 1000, 1
        ),
        "quit_to_exit_ms": round(statistics.median(m["EXIT"] - m["QUIT"] for m in quits) * 1000, 1),
    }
    print(
        f"bare QApplication+QLabel  first paint: {result['bare_qlabel_first_paint_ms']:8.1f} ms "
        f"(median of {args.runs})"
    )
    print(
        f"briefdesk main window     first paint: {result['briefdesk_first_paint_ms']:8.1f} ms "
        f"= {result['ratio_first_paint_vs_bare']:.2f}x the bare window"
    )
    print(
        f"  behind the paint: home open at {result['briefdesk_home_open_ms']:.1f} ms, "
        f"Agents SDK imported at {result['briefdesk_sdk_warm_ms']:.1f} ms"
    )
    print(
        f"  Ctrl+Q while the SDK loads: window gone after {result['quit_to_hidden_ms']:.1f} ms, "
        f"process ended after {result['quit_to_exit_ms']:.1f} ms"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
