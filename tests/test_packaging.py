"""The wheel carries everything a user needs outside a checkout: code, migrations, resources.
(Installed into a fresh venv and with pipx, and the app bundle: tests/packaging/.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.packaging.builds import build_wheel

REPO = Path(__file__).resolve().parents[1]


def test_an_installed_wheel_initialises_a_home_with_the_demo_corpus(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)  # from a copy of the sources: no build/ in the checkout
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(site)
    assert "agent_core/storage/migrate/migrations/versions/0002_memory_rules_index.py" in names
    assert "briefdesk_resources/scripts/compromised.json" in names
    assert "briefdesk_resources/icons/briefdesk.png" in names
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
