"""Opening a file or folder with the system's program, and saying so when none is there.

On Linux `QDesktopServices.openUrl` hands the URL to xdg-open and answers true once xdg-open
has started, whatever it then finds: with no viewer installed it prints "no method available"
to the log and nothing opens, so the person clicks in vain. The app therefore installs
`SystemOpener` as the handler of file URLs (`install()`, from desktop.app): it runs xdg-open
on a thread of its own (xdg-open may wait for the program it starts, and the GUI thread never
waits) and brings its exit status back over a queued signal, so a failure is said in the
window that asked (`open_with_system`). Elsewhere (macOS, Windows), and wherever another
handler is installed, Qt's own answer stands.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices

Failed = Callable[[str], None]  # told the reason in the program's own words, maybe ""


class SystemOpener(QObject):
    """The file-URL handler: xdg-open off the GUI thread, failures told to who asked."""

    failed = Signal(str, str)  # path, reason (emitted by the opening thread: queued here)
    finished = Signal(str)  # path: opened

    def __init__(self, opener: str) -> None:
        super().__init__()
        self._opener = opener
        self._asking: dict[str, list[tuple[QObject, Failed]]] = {}
        self.failed.connect(self._tell)
        self.finished.connect(self._forget)

    def ask(self, path: str, owner: QObject, on_failed: Failed) -> None:
        self._asking.setdefault(path, []).append((owner, on_failed))

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        path = url.toLocalFile()

        def run() -> None:
            try:
                done = subprocess.run(
                    [self._opener, path], capture_output=True, text=True, errors="replace"
                )
            except OSError as exc:
                self.failed.emit(path, str(exc))
                return
            if done.returncode != 0:
                self.failed.emit(path, _last_line(done.stderr))
            else:
                self.finished.emit(path)

        threading.Thread(target=run, name="briefdesk-xdg-open", daemon=True).start()

    @Slot(str)
    def _forget(self, path: str) -> None:
        self._asking.pop(path, None)

    @Slot(str, str)
    def _tell(self, path: str, reason: str) -> None:
        for owner, on_failed in self._asking.pop(path, []):
            if shiboken6.isValid(owner):  # a window closed meanwhile is told nothing
                on_failed(reason)


_opener: SystemOpener | None = None


def install() -> None:
    """Make file URLs open through `SystemOpener` (Linux with xdg-open; else nothing to do)."""
    global _opener
    program = shutil.which("xdg-open") if sys.platform.startswith("linux") else None
    if program is not None and _opener is None:
        _opener = SystemOpener(program)
        QDesktopServices.setUrlHandler("file", _opener, "open")  # type: ignore[arg-type]


def open_with_system(path: str, owner: QObject, on_failed: Failed) -> None:
    """Open `path` (a file or a folder) with the system's program; `on_failed(reason)` runs on
    the GUI thread if none opened it, unless `owner` is gone by then."""
    if _opener is not None:
        _opener.ask(path, owner, on_failed)
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(path)):
        on_failed("")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def no_viewer_text(reason: str) -> str:
    """What the window says when no program opened the file, and what to do about it."""
    said = QCoreApplication.translate(
        "SystemOpen",
        "No program on this system opened it. Install a viewer for this kind of file (or "
        "choose a default application for it in your desktop's settings), then try again.",
    )
    return said + (f" ({reason})" if reason else "")
