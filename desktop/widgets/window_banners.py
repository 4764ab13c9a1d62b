"""The main window's banners about the home as a whole: runs that a dead process interrupted,
files nobody approved that appeared while no run watched, and a team database that is away.

Each is a banner under its own key (shown again, it replaces itself); closing one remembers
what it said, so the same news does not come back until something changes.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from agent_core.contract.events import EventKind
from agent_core.contract.views import EventView
from desktop.context import AppContext
from desktop.models.event_text import cut_words
from desktop.models.plain_errors import storage_banner
from desktop.models.visible_text import visible_line
from desktop.widgets.banner import BannerArea

translate = QCoreApplication.translate


class WindowBanners:
    """Keeps the home-level banners in step with the runs and events the window receives."""

    def __init__(
        self,
        banners: BannerArea,
        context: AppContext,
        *,
        select_run: Callable[[str | None], None],
        resume_interrupted: Callable[[str], None],
        show_whole_folder: Callable[[], None],
    ) -> None:
        self.banners = banners
        self.context = context
        self._select_run = select_run
        self._resume_interrupted = resume_interrupted
        self._show_whole_folder = show_whole_folder
        self.dismissed_interrupted: frozenset[str] = frozenset()
        self.home_strays = 0  # files nobody approved, seen while no run watched (since dismissed)

    def offer_recovery(self) -> None:
        interrupted = self.context.interrupted_runs()
        ids = frozenset(r["run_id"] for r in interrupted)
        if not ids:
            self.banners.hide_banner("interrupted")
            return
        current = self.banners.banner("interrupted")
        if ids == self.dismissed_interrupted or (
            current is not None and current.property("ids") == sorted(ids)
        ):
            return
        newest = interrupted[0]
        question = visible_line(cut_words(str(newest.get("question", "")), 80))
        if len(ids) > 1:
            head = translate(
                "WindowBanners",
                "{n} runs were interrupted when their process died. Newest: “{question}”. ",
            ).format(n=len(ids), question=question)
        else:
            head = translate(
                "WindowBanners", "“{question}” was interrupted when its process died. "
            ).format(question=question)
        text = head + translate(
            "WindowBanners",
            "Resume continues from its last checkpoint without repeating a side effect.",
        )
        newest_id = newest["run_id"]
        banner = self.banners.show_banner(
            "interrupted",
            "recovery",
            text,
            [
                (translate("WindowBanners", "Resume"), lambda: self._resume_interrupted(newest_id)),
                (translate("WindowBanners", "Show"), lambda: self._select_run(newest_id)),
            ],
        )
        banner.setProperty("ids", sorted(ids))
        banner.closed.connect(lambda: setattr(self, "dismissed_interrupted", ids))

    def flag_home_events(self, events: list[EventView]) -> None:
        """A file nobody approved appeared while no run watched: say so at the home's level (the
        event has no run), not on whichever run happens to be selected."""
        strays = [
            e for e in events if e["run_id"] is None and e["kind"] == EventKind.ARTIFACT_UNEXPECTED
        ]
        if not strays:
            return
        self.home_strays += sum(_count(e) for e in strays)
        path = visible_line(str(strays[-1]["data"].get("path") or ""))
        if self.home_strays == 1:
            text = translate(
                "WindowBanners", "A file nobody approved appeared in the artifacts folder: {path}"
            ).format(path=path)
        else:
            text = translate(
                "WindowBanners",
                "{n} files nobody approved appeared in the artifacts folder while no run was "
                "watching it. Latest: {path}",
            ).format(n=self.home_strays, path=path)
        banner = self.banners.show_banner(
            "home-strays",
            "warning",
            text,
            [(translate("WindowBanners", "Show the folder"), self._show_whole_folder)],
        )
        banner.closed.connect(lambda: setattr(self, "home_strays", 0))

    def storage_lost(self, code: str, message: str) -> None:
        """The team database cannot be used: a banner until it answers (not closable: it
        goes by itself, and nothing else in the window works meanwhile)."""
        self.banners.show_banner("storage", "error", storage_banner(code, message), closable=False)

    def storage_back(self) -> None:
        self.banners.hide_banner("storage")


def _count(event: EventView) -> int:
    count = event["data"].get("count")
    return count if isinstance(count, int) and count else 1
