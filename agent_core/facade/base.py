"""What every part of the façade shares: the home it opened, and this desk's settings.

`Workspace` (agent_core/facade/workspace.py) is assembled from one class per domain (runs,
review, artifacts, the desk's own keys and memory, team mode), each a subclass of this one, as
Anki's `Collection` gathers its managers: a caller still sees one object with one set of methods.
"""

from __future__ import annotations

from dataclasses import replace

from agent_core.contract.usage import Prices
from agent_core.facade.team import TeamStoreFacade
from agent_core.home.config import Home, default_reviewer
from agent_core.home.preferences import Settings as Settings  # handed out: the window types it
from agent_core.review.expiry import sweep_expired
from agent_core.storage.tables import settings as settings_store

MAX_REVIEWER_CHARS = 80  # a person's name, as a decision or a cancel records it


class WorkspaceBase(TeamStoreFacade):
    """The state `Workspace.__init__` opens, and the reads every domain needs."""

    home: Home
    """The home's folders: corpus, artifacts, logs and its own `state.db`."""

    def settings(self) -> Settings:
        """The stored preferences, with the reviewer always a name (null: the OS user name)."""
        with self.desk_store.read() as conn:  # preferences are this desk's own
            prefs = settings_store.get_settings(conn)
        return prefs if prefs.reviewer else replace(prefs, reviewer=default_reviewer())

    def prices(self) -> Prices:
        """This desk's model prices (a run's `usage.cost`); unset or unreadable: unknown."""
        with self.desk_store.read() as conn:
            return settings_store.get_prices(conn)

    def set_setting(self, key: str, value: object) -> Settings:
        """Validate and store one setting (`invalid_arguments` on a bad one); the new settings."""
        with self.desk_store.write() as conn:
            settings_store.set_setting(conn, key, value)
        return self.settings()

    def sweep_expired(self) -> int:
        """Expire every pending proposal past its time; their runs become `expired`."""
        return sweep_expired(self.store, self.team_desk)

    def _acting_person(self, reviewer: str | None) -> str:
        """Who acts: `reviewer` (trimmed, capped), else the reviewer setting."""
        return (reviewer or "").strip()[:MAX_REVIEWER_CHARS] or str(self.settings()["reviewer"])
