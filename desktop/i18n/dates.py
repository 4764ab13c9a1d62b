"""Dates and times in the window's locale (QLocale's default, which install_translators sets):
`2026/12/2 19:09:06` in Chinese, `12/2/26 7:09:06 PM` in English. The core keeps ISO-8601."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QDateTime, QLocale


def parse_time(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _qt(moment: datetime) -> QDateTime:
    return QDateTime.fromMSecsSinceEpoch(int(moment.timestamp() * 1000))  # local time


def with_seconds(moment: datetime) -> str:
    locale = QLocale()
    short = QLocale.FormatType.ShortFormat
    time_format = locale.timeFormat(short)
    if ":ss" not in time_format:
        time_format = time_format.replace("mm", "mm:ss", 1)
    return locale.toString(_qt(moment), f"{locale.dateFormat(short)} {time_format}")


def local_time(value: str | None) -> str:
    """An ISO time from the core, in this machine's zone and the window's locale; — for none."""
    return with_seconds(parse_time(value)) if value else "—"


def short_time(moment: datetime) -> str:
    """Date and minutes, for lists (the runs)."""
    return QLocale().toString(_qt(moment), QLocale.FormatType.ShortFormat)
