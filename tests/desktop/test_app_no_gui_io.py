"""The GUI thread never does I/O: during a whole demo run driven from the window (Run click,
live timeline, settings dialog with the keyring status, approval and resume through the
bridge), every SQL statement, keyring call, SDK run and file opened under the home happens on
another thread. Checked by the calling thread, not by the clock."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy import event
from sqlalchemy.engine import Engine

from agent_core.home import secrets
from tests.desktop.test_app_helpers import (
    close_dialogs,
    fixture_make_window,  # noqa: F401  (registers the `make_window` fixture)
    wait_for_run,
)
from tests.support.desktop import MakeWindow
from tests.support.typed import present

_RECORDER: dict[str, Any] = {"active": False, "home": "", "calls": []}


def _audit(name: str, args: tuple[Any, ...]) -> None:
    # Audit hooks cannot be removed: this one is inert unless a test switches it on.
    if not _RECORDER["active"] or name not in (
        "open",
        "sqlite3.connect",
        "os.listdir",
        "os.scandir",
    ):
        return
    target = args[0] if args else None
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if isinstance(target, os.PathLike):
        target = os.fspath(target)
    if isinstance(target, str) and target.startswith(_RECORDER["home"]):
        _RECORDER["calls"].append((f"file:{name}", threading.get_ident()))


_AUDIT_INSTALLED = False


@pytest.fixture
def io_recorder(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    global _AUDIT_INSTALLED
    if not _AUDIT_INSTALLED:
        sys.addaudithook(_audit)
        _AUDIT_INSTALLED = True
    calls: list[tuple[str, int]] = []
    _RECORDER.update(active=True, home=str(home.resolve()), calls=calls)

    def on_sql(*_args: Any) -> None:
        calls.append(("sql", threading.get_ident()))

    event.listen(Engine, "before_cursor_execute", on_sql)
    for name in ("get_key", "set_key", "delete_key", "key_status"):
        original = getattr(secrets, name)

        def wrapper(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            calls.append((f"keyring:{_name}", threading.get_ident()))
            return _original(*args, **kwargs)

        monkeypatch.setattr(secrets, name, wrapper)
    import agents

    original_run = agents.Runner.run.__func__  # type: ignore[attr-defined]

    async def recorded_run(cls: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(("sdk:Runner.run", threading.get_ident()))
        return await original_run(cls, *args, **kwargs)

    monkeypatch.setattr(agents.Runner, "run", classmethod(recorded_run))
    try:
        yield calls
    finally:
        _RECORDER["active"] = False
        event.remove(Engine, "before_cursor_execute", on_sql)


def test_no_storage_keyring_sdk_or_home_file_io_on_the_gui_thread(
    qtbot: QtBot, home: Path, make_window: MakeWindow, io_recorder: list[tuple[str, int]]
) -> None:
    gui_thread = threading.get_ident()
    window = make_window(home)
    qtbot.mouseClick(window.run_form.run_button, Qt.MouseButton.LeftButton)
    # While the run goes: open the settings dialog, which asks the keyring for the key status.
    window.open_settings()
    dialog = window.settings_dialog
    qtbot.waitUntil(lambda: dialog.key_status.text() != "Checking the keyring…", timeout=15_000)
    dialog.reject()
    run = wait_for_run(qtbot, window, "waiting_approval")
    close_dialogs(window)
    qtbot.waitUntil(lambda: window.timeline.model.rowCount() >= 20)
    approval = run["approvals"][0]
    window.context.decide_and_resume(approval["id"], run["run_id"], approve=True)
    done = wait_for_run(qtbot, window, "succeeded")
    qtbot.waitUntil(
        lambda: any(
            present(window.timeline.model.event_at(r))["kind"] == "run_finished"
            for r in range(window.timeline.model.rowCount())
        )
    )
    window.timeline.select_row(0)  # the detail pane redacts on the GUI thread: no I/O in that
    window.close()  # closing joins the bridge, which closes the Workspace on its thread

    written = Path(present(approval["target"]))
    assert written.is_file() and done["run_id"] == run["run_id"]
    kinds = {kind for kind, _thread in io_recorder}
    assert "sql" in kinds and "sdk:Runner.run" in kinds and "keyring:key_status" in kinds
    assert "file:open" in kinds  # corpus reads and the brief's write were seen by the hook
    on_gui = sorted({kind for kind, thread in io_recorder if thread == gui_thread})
    assert on_gui == [], f"I/O on the GUI thread: {on_gui}"
    assert window.bridge.thread_ident in {thread for _kind, thread in io_recorder}
