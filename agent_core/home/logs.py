"""The home's log file: home/logs/briefdesk.log, rotated at 1 MB, five old files kept.

One BriefDesk file handler per process, on the root logger (so the Agents SDK's and
SQLAlchemy's warnings land there too), with secrets redacted before anything is written.
Configuring another home replaces the handler, so a process that opens many homes (tests,
scripts) never piles up handlers or open files.
"""

from __future__ import annotations

import logging
import threading
from logging.handlers import RotatingFileHandler
from pathlib import Path

from agent_core.home.secrets import install_log_redaction

LOG_FILE_NAME = "briefdesk.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 5
LOG_FORMAT = "%(asctime)s %(levelname)s %(process)d %(name)s: %(message)s"

_lock = threading.Lock()
_handler: RotatingFileHandler | None = None


def log_path(logs_dir: Path) -> Path:
    return Path(logs_dir) / LOG_FILE_NAME


def configure_logging(logs_dir: Path, *, level: int = logging.INFO) -> RotatingFileHandler:
    """Send this process's logs to `logs_dir`/briefdesk.log (idempotent per folder)."""
    global _handler
    target = log_path(logs_dir).resolve()
    with _lock:
        if _handler is not None and Path(_handler.baseFilename) == target:
            return _handler
        target.parent.mkdir(parents=True, exist_ok=True)
        # delay=True: the file is opened on the first record, so read-only commands that log
        # nothing never touch it.
        handler = RotatingFileHandler(
            target, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8", delay=True
        )
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
        root = logging.getLogger()
        if _handler is not None:
            root.removeHandler(_handler)
            _handler.close()
        root.addHandler(handler)
        if root.level == logging.NOTSET or root.level > level:
            root.setLevel(level)
        install_log_redaction(root)  # after addHandler: the filter must sit on the handler too
        _handler = handler
        return handler


def shutdown_logging() -> None:
    """Remove and close the BriefDesk handler (tests, and a clean exit)."""
    global _handler
    with _lock:
        if _handler is None:
            return
        logging.getLogger().removeHandler(_handler)
        _handler.close()
        _handler = None
