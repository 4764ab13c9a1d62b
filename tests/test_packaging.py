"""The wheel carries everything a user needs outside a checkout: code, migrations, resources,
the window's translations compiled by the build. (Installed into a fresh venv and with pipx, and
the app bundle: tests/packaging/.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.packaging.builds import build_wheel, source_copy

REPO = Path(__file__).resolve().parents[1]
I18N = "desktop/i18n"


def test_an_installed_wheel_initialises_a_home_with_the_demo_corpus(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)  # from a copy of the sources: no build/ in the checkout
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(site)
    assert "agent_core/storage/migrate/migrations/versions/0002_memory_rules_index.py" in names
    assert "briefdesk_resources/scripts/compromised.json" in names
    assert "briefdesk_resources/icons/briefdesk.png" in names
    # Compiled by the build from the .ts (the copy, as a fresh clone, has none), and read by Qt.
    assert not list((tmp_path / "source" / I18N).glob("*.qm"))
    assert f"{I18N}/briefdesk_zh_CN.qm" in names
    assert chinese_of(site / "desktop/i18n/briefdesk_zh_CN.qm", "MainWindow", "&File") == "文件(&F)"
    # Run the CLI from the unpacked wheel, away from the checkout, with the same dependencies.
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env["PYTHONPATH"] = str(site)
    probe = (
        "import json, sys, agent_core.home.config as c, agent_core.cli.main as cli;"
        "print(json.dumps({'resources': str(c.RESOURCES_DIR)}));"
        "sys.exit(cli.main(['runs', '--json', '--home', sys.argv[1]]))"
    )
    home = tmp_path / "home"
    result = subprocess.run(
        [sys.executable, "-c", probe, str(home)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert json.loads(first)["resources"] == str(site / "briefdesk_resources")
    assert json.loads(second) == {"api": 1, "runs": []}
    shipped = sorted(p.name for p in (site / "briefdesk_resources" / "corpus").iterdir())
    assert sorted(p.name for p in (home / "corpus").iterdir()) == shipped and len(shipped) >= 8


def chinese_of(qm: Path, context: str, source: str) -> str:
    from PySide6.QtCore import QTranslator

    translator = QTranslator()
    assert translator.load(str(qm)), qm
    return translator.translate(context, source)


def test_an_editable_install_carries_the_compiled_translations(tmp_path: Path) -> None:
    """`pip install -e` (dev.sh's) builds the .qm beside the .ts, where the package reads it."""
    source = source_copy(tmp_path / "source")
    assert not list((source / I18N).glob("*.qm"))
    env = tmp_path / "env"  # no pip of its own, no dependencies: only the build is tested
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = str(env / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps"]
    installed = subprocess.run(
        [*pip, "-e", str(source)], capture_output=True, text=True, timeout=300
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    probe = "import desktop.i18n as i; print(i.qm_path('zh_CN'))"
    found = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    qm = Path(found.stdout.strip())
    assert qm == source / I18N / "briefdesk_zh_CN.qm"
    assert chinese_of(qm, "MainWindow", "&File") == "文件(&F)"


def test_every_python_package_of_the_app_is_listed_for_the_wheel() -> None:
    """pyproject names its packages one by one: a new folder left out installs a window that
    fails at its first import (the wheel tests found `desktop.widgets.inbox` missing)."""
    import tomllib

    root = Path(__file__).resolve().parents[1]
    listed = set(
        tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    on_disk = {
        ".".join(init.parent.relative_to(root).parts)
        for top in ("agent_core", "desktop")
        for init in (root / top).rglob("__init__.py")
    }
    assert on_disk - listed == set()
