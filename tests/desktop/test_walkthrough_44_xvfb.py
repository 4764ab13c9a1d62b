"""Issue 44 items 2, 4, 6 and 7 in a real window, read through AT-SPI as a screen reader reads it,
at 1024x700 and 1280x800, in English and in Chinese.

Two app sessions per case on real X servers (Xvfb + openbox), real clicks and keys (xdotool), a
private session bus with the accessibility bus, a PATH that has no xdg-open and keyring's
failing backend. The first session runs at 1024x700 in one language, the second at 1280x800 in
the other (the cases swap them), and each walks the same way:

- item 2: the Files panel's Revert… is whole; the timeline's Kind, Tool and Outcome cells hold
  their words and the Summary keeps its room (timeline_columns.SUMMARY_ROOM);
- item 4: opening the run's file with no system viewer says so, and what to do;
- item 6: Settings says the keyring cannot be used and how to do without it;
- item 7: its MCP page says only a remote model uses a server, and a server added there with a
  granted folder (the first session: and the network, no sandbox) is listed so (issue 39:
  folders, network, sandbox in the servers table) and reaches `mcp list` so. Ctrl+Q saves the
  window's size;
- the second session opens grown to the larger screen (a size saved at 1024 px stays clipped).

Whole means the part's extents hold its text at the app's font (measured here with Qt's font
metrics at the same size: both processes take their fonts from fontconfig at 96 dpi).
Screenshots go to test-artifacts/walkthrough-44/.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from desktop.widgets.timeline_columns import SUMMARY_ROOM
from tests.desktop.test_app_helpers import DEMO_QUESTION, REPO_ROOT, app_env
from tests.desktop.test_approval_buttons_atspi import (
    accessibility_bus,
    need_accessibility_parts,
    read,
)
from tests.desktop.test_real_input_xvfb import wait_for
from tests.support.cli import CliRunner
from tests.support.xscreen import XScreen, x_screen

pytestmark = pytest.mark.xvfb

SHOTS = REPO_ROOT / "test-artifacts" / "walkthrough-44"
SMALL, LARGE = (1024, 700), (1280, 800)
KIND_ICON = 16 + 4  # the kind's badge and its spacing, left of the kind's words
CELL_MARGINS = 6  # a cell's text margins, both sides
Part = dict[str, object]


@dataclass(frozen=True)
class Words:
    """What one language's window says, for the same walk."""

    code: str
    env: dict[str, str] = field(default_factory=dict)
    args: tuple[str, ...] = ()
    revert: str = "Revert…"
    columns: tuple[str, str, str, str] = ("Kind", "Tool", "Summary", "Outcome")
    open: str = "Open"
    no_viewer: tuple[str, str] = ("No program on this system opened it", "Install a viewer")
    keyring: tuple[str, str] = ("The system keyring is unavailable", "Start or unlock")
    mcp_tab: str = "MCP servers"
    remote_only: tuple[str, str] = ("MCP servers are used only by a remote", "offline model")
    add_server: str = "Add an MCP server"
    fields: tuple[str, str, str] = ("Server name", "Command line", "Granted folders")
    network_box: str = "It may reach the network"
    no_sandbox_box: str = "Run it without a sandbox (unconfined)"
    add: str = "Add"
    # the servers table's network and sandbox cells: opened up, then confined (the defaults)
    listed: tuple[tuple[str, str], tuple[str, str]] = (
        ("allowed", "unconfined"),
        ("loopback only", "sandboxed"),
    )


ENGLISH = Words("en", args=("--lang", "en"))
CHINESE = Words(
    "zh",
    env={"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"},
    revert="撤销…",
    columns=("类型", "工具", "摘要", "结果"),
    open="打开",
    no_viewer=("本系统没有程序打开它", "请安装可查看此类文件的程序"),
    keyring=("无法使用系统密钥环", "启动或解锁"),
    mcp_tab="MCP 服务器",
    remote_only=("MCP 服务器只由远程", "离线模型"),
    add_server="添加 MCP 服务器",
    fields=("服务器名称", "命令行", "授权文件夹"),
    network_box="允许访问网络",
    no_sandbox_box="不使用沙箱运行（不受限制）",
    add="添加",
    listed=(("允许", "不受限制"), ("仅本地回环", "在沙箱中")),
)


def without_xdg_open(tmp: Path) -> str:
    """A PATH holding every program of /usr/bin but xdg-open: no system viewer at all."""
    folder = tmp / "no-viewer-bin"
    folder.mkdir(exist_ok=True)
    for program in Path("/usr/bin").iterdir():
        if program.name != "xdg-open" and not (folder / program.name).exists():
            (folder / program.name).symlink_to(program)
    return str(folder)


@contextmanager
def app(
    screen: XScreen, bus: dict[str, str], home: Path, tmp: Path, *args: str, **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    full = app_env(
        **screen.env(),
        **{k: bus[k] for k in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")},
        QT_ACCESSIBILITY="1",
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        BRIEFDESK_QSETTINGS_DIR=str(tmp / "qsettings"),
        **env,
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop.app", "--home", str(home), *args],
        env=full,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)


def box(part: object) -> tuple[int, int, int, int]:
    assert isinstance(part, dict), part
    x, y, width, height = (int(str(part[k])) for k in ("x", "y", "width", "height"))
    return x, y, width, height


def click(screen: XScreen, part: object) -> None:
    x, y, width, height = box(part)
    screen.xdotool("mousemove", "--sync", str(x + width // 2), str(y + height // 2), "click", "1")


def text_width(text: str) -> int:
    """What `text` needs at the app's font (the theme's 10 pt at least), in pixels."""
    font = QFont(QApplication.font())
    font.setPointSizeF(max(font.pointSizeF(), 10))
    return QFontMetrics(font).horizontalAdvance(text)


def shown(screen: XScreen, title: str) -> list[str]:
    """The visible windows whose title matches `title` now (none is an answer too)."""
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", title],
        capture_output=True,
        text=True,
        env={**os.environ, "DISPLAY": screen.display},
        timeout=10,
    )
    return found.stdout.split()


def says(bus: dict[str, str], words: str, timeout: float = 90) -> str:
    found = read(bus, "saying", words, timeout=timeout)
    assert isinstance(found, dict), found
    return " ".join(str(found[k] or "") for k in ("name", "description", "text"))


def type_into(screen: XScreen, bus: dict[str, str], name: str, text: str) -> None:
    click(screen, read(bus, "field", name))
    screen.xdotool("type", "--delay", "5", text)


def assert_whole(bus: dict[str, str], words: Words, screen: XScreen) -> None:
    """Revert… shows all its words inside the screen; the timeline's short columns hold every
    word they show, and its Summary keeps its room."""
    width_px = screen.size[0]
    screen.screenshot(SHOTS / f"xvfb-{width_px}-{words.code}-whole.png")
    button = read(bus, "find", words.revert)
    x, _y, width, _h = box(button)
    assert width >= text_width(words.revert) + 8, (button, text_width(words.revert))
    assert x >= 0 and x + width <= width_px, button
    parts = read(bus, "texts", "BriefDesk")
    assert isinstance(parts, list)
    (SHOTS / f"xvfb-{width_px}-{words.code}-parts.json").write_text(json.dumps(parts, indent=1))
    headers = {str(p["name"]): p for p in parts if "header" in str(p["role"])}
    kind, tool, summary, outcome = (headers[name] for name in words.columns)
    x, _y, width, _h = box(summary)
    assert width >= SUMMARY_ROOM and x >= 0 and x + width <= width_px, summary
    cells = [p for p in parts if p["role"] == "table cell" and p["name"]]
    for header, room in ((kind, KIND_ICON), (tool, 0), (outcome, 0)):
        column_x, _y, _w, _h = box(header)
        shown = [c for c in cells if box(c)[0] == column_x]
        assert shown, ("no cell read under", header)
        for cell in shown:
            needs = text_width(str(cell["name"])) + room + CELL_MARGINS
            assert box(cell)[2] >= needs, ("clipped", cell, needs)


def walk(
    screen: XScreen,
    bus: dict[str, str],
    words: Words,
    file: str,
    granted: Path,
    proc: subprocess.Popen[bytes],
    opened_up: bool,
) -> None:
    """Items 2, 4, 6 and 7 in one app session, which ends with Ctrl+Q (the size is saved).
    The server it adds may reach the network and runs unconfined if `opened_up`."""
    main = screen.wait_window("^BriefDesk$")
    file_part = read(bus, "find", file)  # the run, selected on start, lists its file
    assert_whole(bus, words, screen)
    tag = f"{screen.size[0]}-{words.code}"
    # Item 4: the run's file, opened with no system viewer, says so in the window.
    click(screen, file_part)
    click(screen, read(bus, "find", words.open))
    said, fix = words.no_viewer
    assert fix in says(bus, said, timeout=15)
    screen.screenshot(SHOTS / f"xvfb-{tag}-no-viewer.png")
    viewer = screen.wait_window(re.escape(f"{file} — BriefDesk"))  # its text, shown read-only
    screen.xdotool("windowactivate", "--sync", viewer)
    screen.xdotool("key", "Escape")
    wait_for("the viewer to close", lambda: viewer not in shown(screen, re.escape(file)))
    # Item 6: Settings with no usable keyring gives the fix.
    screen.xdotool("windowactivate", "--sync", main)
    screen.xdotool("key", "ctrl+comma")
    said, fix = words.keyring
    keyring = says(bus, said)
    assert "BRIEFDESK_OPENAI_API_KEY" in keyring and fix in keyring, keyring
    screen.screenshot(SHOTS / f"xvfb-{tag}-keyring.png")
    # Item 7: the MCP page says who uses its servers; a server added with a granted folder, the
    # network and no sandbox is listed so.
    click(screen, read(bus, "find", words.mcp_tab))
    said, detail = words.remote_only
    assert detail in says(bus, said)
    click(screen, read(bus, "find", words.add_server))  # the Add… button's name
    name_field, command_field, folders_field = words.fields
    type_into(screen, bus, name_field, f"clock-{words.code}")
    type_into(screen, bus, command_field, "uvx mcp-server-time")
    type_into(screen, bus, folders_field, str(granted))
    if opened_up:
        click(screen, read(bus, "find", words.network_box))
        click(screen, read(bus, "find", words.no_sandbox_box))
    screen.screenshot(SHOTS / f"xvfb-{tag}-mcp-add.png")
    click(screen, read(bus, "find", words.add))
    _x, row_y, _w, _h = box(read(bus, "find", f"clock-{words.code}"))
    for listed in (str(granted), *words.listed[0 if opened_up else 1]):
        _x, y, _w, _h = box(read(bus, "find", listed))
        assert abs(y - row_y) <= 2, (listed, "is not on the server's row")
    screen.screenshot(SHOTS / f"xvfb-{tag}-mcp-listed.png")
    screen.xdotool("key", "Escape")  # the settings, unsaved: the server is stored
    screen.xdotool("windowactivate", "--sync", main)
    screen.xdotool("key", "ctrl+q")
    wait_for("the app to quit", lambda: proc.poll() is not None)


@pytest.mark.parametrize(
    ("small", "large"),
    [(CHINESE, ENGLISH), (ENGLISH, CHINESE)],
    ids=["zh-1024-en-1280", "en-1024-zh-1280"],
)
def test_whole_and_said_in_the_window_at_both_sizes(
    tmp_path: Path, home: Path, qapp: QApplication, small: Words, large: Words
) -> None:
    need_accessibility_parts()
    cli = CliRunner(home)
    run = cli("run", "--question", DEMO_QUESTION, check=True).body
    cli("approvals", "approve", run["approvals"][0]["id"], "--reviewer", "eve", check=True)
    assert cli("resume", run["run_id"], check=True).body["status"] == "succeeded"
    folder = Path(run["artifacts"])
    [name] = [f.relative_to(folder).as_posix() for f in folder.rglob("*.md")]
    settings = tmp_path / "qsettings" / "BriefDesk.ini"
    # keyring's own failing backend: what headless Linux with no Secret Service falls to
    bare = {
        "PATH": without_xdg_open(tmp_path),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    grown = (0, 0)
    for words, size in ((small, SMALL), (large, LARGE)):
        with (
            x_screen(tmp_path / f"screen-{size[0]}", size) as screen,
            accessibility_bus(screen) as bus,
            app(screen, bus, home, tmp_path, *words.args, **bare, **words.env) as proc,
        ):
            if size == LARGE:
                _x, _y, *opened = screen.geometry(screen.wait_window("^BriefDesk$"))
                grown = (opened[0], opened[1])
            granted = tmp_path / f"granted-{words.code}"  # each server's row has its own
            granted.mkdir()
            walk(screen, bus, words, name, granted, proc, opened_up=size == SMALL)
        assert settings.exists(), "Ctrl+Q saved the window's size"
    assert grown[0] >= 1200 and grown[1] >= 720, ("still the 1024 px size", grown)
    servers = cli("mcp", "list", check=True).body["servers"]
    assert [s["name"] for s in servers] == sorted(f"clock-{w.code}" for w in (small, large))
    for server in servers:
        assert server["roots"] == [str(tmp_path / server["name"].replace("clock", "granted"))]
        opened_up = server["name"] == f"clock-{small.code}"
        assert (server["network"], server["sandbox"]) == (opened_up, not opened_up), server
