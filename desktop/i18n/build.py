"""Build the .qm files from the committed .ts sources (`python -m desktop.i18n.build`), in pure
Python (qm.py). The package build runs the same writer (setup.py), so the wheel, an install from
the sdist and an editable install carry them; dev.sh runs this again so a checkout's .qm follows
a changed .ts without a reinstall, and the bundle's spec before it collects them. `--update` first
re-extracts the strings with pyside6-lupdate (a developer's step: it needs PySide6)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from desktop.i18n.qm import write_qm

HERE = Path(__file__).resolve().parent
DESKTOP = HERE.parent
TRANSLATED = ("zh_CN",)  # English is the source text


def tool(name: str) -> str:
    """pyside6-lupdate (pyside6-lrelease for the test that compares): beside this Python first
    (a venv), else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed (it comes with PySide6)")
    return found


def sources() -> list[str]:
    return sorted(str(p) for p in DESKTOP.rglob("*.py") if "__pycache__" not in p.parts)


def update(ts: Path, language: str, *options: str) -> None:
    """Re-extract every tr() string of desktop/ into `ts` (translations already there stay)."""
    target = ["-target-language", language, "-ts", str(ts)]
    subprocess.run(
        [
            tool("pyside6-lupdate"),
            *sources(),
            "-no-obsolete",
            "-locations",
            "none",
            *options,
            *target,
        ],
        check=True,
        capture_output=True,
    )


def build() -> list[Path]:
    return [write_qm(ts, ts.with_suffix(".qm")) for ts in sorted(HERE.glob("briefdesk_*.ts"))]


def main(argv: list[str]) -> int:
    if "--update" in argv:
        for language in TRANSLATED:
            update(HERE / f"briefdesk_{language}.ts", language)
    for qm in build():
        print(f"built {qm.relative_to(DESKTOP.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
