"""The app bundle (packaging/briefdesk.spec), built once per session and run as a user would:
from a temp folder, on a new home, with no checkout on the path. Both executables answer
`--version`; the CLI runs a brief from question to file; the window starts under Xvfb and quits
cleanly on `--smoke`; keyring finds the Secret Service; every library resolves; dead weight stays
out; and the user install puts exactly what its manifest says, which uninstall removes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.packaging.conftest import require_program, user_env, xvfb_run_command
from tests.packaging.flow import first_session
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401  (registers the `secret_service_env` fixture)
)

pytestmark = pytest.mark.slow
APP_ID = "org.briefdesk.BriefDesk"
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
# glibc; OpenGL/EGL (libegl1, libgl1); libxcb1; the Wayland client (libwayland-*).
HOST_LIBRARIES = {
    *("libc", "libm", "libdl", "libpthread", "librt", "libutil", "ld-linux-x86-64"),
    "libresolv",  # glibc's too: psycopg's bundled libpq resolves the team database's host
    *("libEGL", "libGL", "libGLX", "libGLdispatch", "libOpenGL", "libxcb"),
    *("libwayland-client", "libwayland-cursor", "libwayland-egl"),
}


def run(
    args: list[str], env: dict[str, str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, input=stdin, capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def test_both_executables_print_the_package_version_without_a_display(
    bundle: Path, tmp_path: Path
) -> None:
    env = user_env(tmp_path / "user")  # no DISPLAY, no WAYLAND_DISPLAY: Qt could not start
    for exe in ("briefdesk", "briefdesk-cli"):
        done = run([str(bundle / exe), "--version"], env, tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"{exe} {version('briefdesk')}\n"


def test_cli_runs_a_brief_from_question_to_file_on_a_new_home(bundle: Path, tmp_path: Path) -> None:
    brief = first_session(
        bundle / "briefdesk-cli", tmp_path / "home", tmp_path, user_env(tmp_path / "user")
    )
    assert brief.parent.parent == (tmp_path / "home" / "artifacts").resolve()
    # The bundled demo corpus was copied into the new home.
    assert len(list((tmp_path / "home" / "corpus").iterdir())) >= 8


def test_window_starts_under_xvfb_and_quits_cleanly_on_smoke(bundle: Path, tmp_path: Path) -> None:
    xvfb_run = require_program("xvfb-run", "xvfb xauth")
    env = user_env(tmp_path / "user", QT_QPA_PLATFORM="xcb")
    home = tmp_path / "home"
    done = run(
        [*xvfb_run_command(xvfb_run), str(bundle / "briefdesk"), "--smoke", "--home", str(home)],
        env,
        tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("SMOKE ")]
    report = json.loads(line.removeprefix("SMOKE "))
    assert report == {
        "painted": True,
        "store_open": True,
        "runs": 0,
        "version": version("briefdesk"),
        "language": "en",
        "menus": ["&File", "&Run", "Re&view", "&Demo", "&Help"],
    }
    assert (home / "state.db").is_file()
    assert "Traceback" not in done.stderr
    assert "Could not find the Qt platform plugin" not in done.stderr


def test_keyring_in_the_bundle_finds_the_secret_service(
    bundle: Path, tmp_path: Path, secret_service_env: SecretServiceEnv
) -> None:
    env = child_env(secret_service_env)
    env.pop("PYTHONPATH", None)
    home = tmp_path / "home"
    cli = str(bundle / "briefdesk-cli")
    stored = run([cli, "keys", "set", "openai", "--json", "--home", str(home)], env, tmp_path,
                 stdin="sk-bundle-test-7f3a9c")  # fmt: skip
    assert stored.returncode == 0, stored.stdout + stored.stderr
    status = run([cli, "keys", "status", "openai", "--json", "--home", str(home)], env, tmp_path)
    body = json.loads(status.stdout)
    assert body["stored"] is True and "SecretService" in body["backend"], body
    assert "sk-bundle-test" not in stored.stdout + status.stdout


def test_bundle_holds_what_the_app_loads_and_every_library_resolves(bundle: Path) -> None:
    internal = bundle / "_internal"
    for part in (
        "briefdesk_resources/corpus/idempotency-keys.md",
        "briefdesk_resources/scripts/compromised.json",
        "briefdesk_resources/icons/briefdesk.png",
        "agent_core/storage/migrate/migrations/env.py",
        "agent_core/storage/migrate/migrations/script.py.mako",
        "agent_core/storage/migrate/migrations/versions/0001_initial.py",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        f"share/applications/{APP_ID}.desktop",
    ):
        base = bundle if part.startswith("share/") else internal
        assert (base / part).is_file(), part
    metadata = [*internal.glob("briefdesk-*.dist-info"), *internal.glob("briefdesk*.egg-info")]
    assert metadata, "no briefdesk metadata: --version could not answer"
    assert list(internal.glob("keyring-*.dist-info/entry_points.txt"))
    names = {p.name for p in internal.rglob("*")}
    unwanted_parts = (
        *("libQt6Qml.so.6", "libQt6Quick.so.6", "libQt6Network.so.6", "libQt6Pdf.so.6"),
        *("libgtk-3.so.0", "libqgtk3.so", "libqeglfs.so", "hypothesis", "mypy"),
    )
    for unwanted in unwanted_parts:
        assert unwanted not in names, unwanted
    # Every ELF file resolves every library it needs, from the bundle or the system.
    env = {"LD_LIBRARY_PATH": f"{internal}:{internal / 'PySide6' / 'Qt' / 'lib'}"}
    unresolved, from_host = [], set()
    for path in [bundle / "briefdesk", bundle / "briefdesk-cli", *internal.rglob("*.so*")]:
        if path.is_symlink() or not path.is_file():
            continue
        out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env).stdout
        unresolved += [f"{path.name}: {ln.strip()}" for ln in out.splitlines() if "not found" in ln]
        from_host |= {
            ln.split()[0] for ln in out.splitlines() if "=> /" in ln and str(bundle) not in ln
        }
    assert unresolved == []
    # What the bundle takes from the system: exactly what the README's Install section lists.
    assert {name.split(".so")[0] for name in from_host} <= HOST_LIBRARIES
    dangling = [str(p) for p in internal.rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []


def snapshot(root: Path) -> dict[str, str]:
    """Every path under root with its kind (and a link's target): what the tree holds."""
    seen = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            seen[str(path)] = "link:" + os.readlink(path)
        elif path.is_dir():
            seen[str(path)] = "dir"
        else:
            seen[str(path)] = f"file:{path.stat().st_size}"
    return seen


def test_user_install_puts_exactly_what_its_manifest_lists_and_uninstall_removes_it(
    bundle: Path, tmp_path: Path
) -> None:
    validate = require_program("desktop-file-validate", "desktop-file-utils")
    user = tmp_path / "a user"  # a space in every path, as some people's homes have
    data = user / ".local" / "share"
    (data / "applications").mkdir(parents=True)
    (data / "applications" / "other.desktop").write_text("[Desktop Entry]\n")  # someone else's
    (user / ".local" / "bin").mkdir(parents=True)
    (user / ".local" / "bin" / "other-tool").write_text("#!/bin/sh\n")
    before = snapshot(user)
    env = user_env(user)

    for _ in range(2):  # installing again replaces the first install
        done = run(["sh", str(bundle / "install-user.sh"), str(bundle)], env, tmp_path)
        assert done.returncode == 0, done.stderr
    app = data / "briefdesk-app"
    manifest = (app / "install-manifest.txt").read_text().splitlines()
    listed = {line.split(" ", 1)[1] for line in manifest if not line.startswith("#")}
    added = set(snapshot(user)) - set(before)
    inside_app = {p for p in added if p.startswith(str(app) + "/")}
    assert added - inside_app == listed  # every new path outside the bundle, and the bundle

    desktop = data / "applications" / f"{APP_ID}.desktop"
    checked = subprocess.run([validate, str(desktop)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    entry = desktop.read_text()
    assert f'Exec="{app}/briefdesk"\n' in entry and f"TryExec={app}/briefdesk\n" in entry
    for size in ICON_SIZES:
        assert (data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    link = user / ".local" / "bin" / "briefdesk-cli"
    assert stat.S_ISLNK(link.lstat().st_mode)
    through_link = run([str(link), "--version"], env, tmp_path)
    assert through_link.stdout == f"briefdesk-cli {version('briefdesk')}\n", through_link.stderr

    removed = run(["sh", str(app / "uninstall-user.sh")], env, tmp_path)
    assert removed.returncode == 0, removed.stderr
    assert snapshot(user) == before


def test_user_install_refuses_to_replace_a_file_it_did_not_install(
    bundle: Path, tmp_path: Path
) -> None:
    user = tmp_path / "user"
    bin_dir = user / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "briefdesk").write_text("#!/bin/sh\necho pipx's briefdesk\n")  # e.g. from pipx
    before = snapshot(user)
    done = run(["sh", str(bundle / "install-user.sh"), str(bundle)], user_env(user), tmp_path)
    assert done.returncode == 1
    assert str(bin_dir / "briefdesk") in done.stderr
    assert snapshot(user) == before
