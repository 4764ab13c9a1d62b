"""What every part of the façade shares: the home it opened, and this desk's settings.

`Workspace` (agent_core/facade/workspace.py) is assembled from one class per domain (runs,
review, artifacts, the desk's own keys and memory, team mode), each a subclass of this one, as
Anki's `Collection` gathers its managers: a caller still sees one object with one set of methods.
"""

from __future__ import annotations

from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.usage import Prices
from agent_core.facade.home_stores import desk_settings
from agent_core.facade.team import TeamStoreFacade
from agent_core.home.config import Home, existing_folder
from agent_core.home.mounts import refuse_system_folder
from agent_core.home.preferences import Settings as Settings  # handed out: the window types it
from agent_core.storage.tables import settings as settings_store

MAX_REVIEWER_CHARS = 80  # a person's name, as a decision or a cancel records it


class WorkspaceBase(TeamStoreFacade):
    """The state `Workspace.__init__` opens, and the reads every domain needs."""

    home: Home
    """The home's folders: corpus, artifacts, logs and its own `state.db`."""

    def settings(self) -> Settings:
        """The stored preferences, with the reviewer always a name (null: the OS user name)."""
        return desk_settings(self.desk_store)

    def prices(self) -> Prices:
        """This desk's model prices (a run's `usage.cost`); unset or unreadable: unknown."""
        with self.desk_store.read() as conn:
            return settings_store.get_prices(conn)

    def set_setting(self, key: str, value: object) -> Settings:
        """Validate and store one setting (`invalid_arguments` on a bad one); the new settings."""
        if key == "corpus.folder":
            value = self.check_corpus_folder(value)
        with self.desk_store.write() as conn:
            settings_store.set_setting(conn, key, value)
        return self.settings()

    def default_corpus(self) -> Path:
        """The folder a run reads when it names none: the setting `corpus.folder`, else the
        home's `corpus/` (its existence is checked where it is read)."""
        folder = self.settings().corpus_folder
        return Path(folder) if folder else self.home.corpus

    def check_corpus_folder(self, raw: object) -> str | None:
        """`corpus.folder` as stored: null, or an existing folder (resolved) that is neither a
        system folder nor holds or lies in this home's store, logs or artifacts (a run would
        read its own writes there). `not_found`, `invalid_arguments`: nothing is stored."""
        try:
            parsed = Settings.parse("corpus.folder", raw)
            if not isinstance(parsed, str):
                return None
            folder = existing_folder(Path(parsed).resolve(), "corpus folder")
            refuse_system_folder(folder, "corpus folder")
        except BriefDeskError as exc:  # the error names the setting it refuses
            raise BriefDeskError(exc.code, exc.message, key="corpus.folder") from None
        if folder == self.home.corpus.resolve():
            return None  # the home's own: the default, wherever the home moves
        for own in (self.home.db_path, self.home.logs, self.home.artifacts):
            own = own.resolve()
            if own.is_relative_to(folder) or folder.is_relative_to(own):
                raise BriefDeskError(
                    ErrorCode.INVALID_ARGUMENTS,
                    f"The corpus folder {folder} holds or lies inside this home's {own.name} "
                    f"({own}): runs would read their own files. Choose another folder.",
                    key="corpus.folder",
                )
        return str(folder)

    def sweep_expired(self) -> int:
        """Expire every pending proposal past its time; their runs become `expired`."""
        from agent_core.review.expiry import sweep_expired

        return sweep_expired(self.store, self.team_desk)

    def _acting_person(self, reviewer: str | None) -> str:
        """Who acts: `reviewer` (trimmed, capped), else the reviewer setting."""
        return (reviewer or "").strip()[:MAX_REVIEWER_CHARS] or str(self.settings()["reviewer"])
