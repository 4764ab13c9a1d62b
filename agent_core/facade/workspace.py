"""The one front door: everything a user can do with a BriefDesk home.

`agent_core.cli` and the desktop bridge are thin callers of `Workspace`, so no orchestration
is written twice. It is assembled from one class per domain, each in its own module:

- `facade/runs.py`: create, drive, answer, cancel, take over, list and delete runs; timelines
- `facade/review.py`: proposals and decisions, remembered rules, grants, the audit log
- `facade/artifacts.py`: the artifacts watcher, the panel's states, reading what runs wrote
- `facade/corpus.py`: the corpus folder's documents, their index and reindexing
- `facade/mcp.py`: this desk's MCP servers (register, list, their tools, tiers)
- `facade/desk.py`: provider keys, long-term memory, the endpoint check, the Demo menu
- `facade/team.py`: which store, the team database's password, `db status`/`db copy`
- `facade/base.py`: what they share (the opened stores, settings, the expiry sweep)

Methods that do not drive the agent never import the Agents SDK (it costs seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agent_core.contract.views import EventView
from agent_core.facade.artifacts import ArtifactCommands
from agent_core.facade.corpus import CorpusCommands
from agent_core.facade.desk import DeskCommands
from agent_core.facade.mcp import McpCommands
from agent_core.facade.review import ReviewCommands
from agent_core.facade.runs import RunCommands
from agent_core.facade.team import team_db_url
from agent_core.home.config import Home, resolve_home_dir
from agent_core.home.logs import configure_logging
from agent_core.home.secrets import watch_secret_names
from agent_core.models.endpoint import KEY_NAME
from agent_core.storage.location import checked_db_option, parse_db_url, with_password
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.team.desks import desk_id


class Workspace(
    RunCommands, ReviewCommands, ArtifactCommands, DeskCommands, CorpusCommands, McpCommands
):
    """One home on this desk, and the store its runs live in.

    `store` holds runs, timelines, proposals, decisions and rules: the home's SQLite file, or in
    team mode a PostgreSQL database shared by several desks (`db`, $BRIEFDESK_DB or the
    `db.url` setting). `desk_store` is always the home's own file: this desk's settings, its
    corpus index and long-term memory, which stay on the desk.
    """

    def __init__(self, home: str | Path | None = None, *, db: str | None = None) -> None:
        self.desk = desk_id()  # a bad $BRIEFDESK_DESK is refused before anything is created
        self.db_option = checked_db_option(db)  # as given: the setting cannot move this store
        self.home = Home(resolve_home_dir(home))
        # A new home is made only once its team database (--db, $BRIEFDESK_DB) has answered:
        # a call refused for an unreachable or refusing server creates no home.
        team_first = None if self.home.db_path.exists() else self._team_store(db, None)
        try:
            self.home.ensure()
            configure_logging(self.home.logs)
            self.desk_store: Store = open_store(self.home.db_path)
        except BaseException:
            if team_first is not None:
                team_first.dispose()
            raise
        try:
            team = team_first or self._team_store(db, self.desk_store)
        except BaseException:
            self.desk_store.dispose()
            raise
        self.store: Store = team or self.desk_store
        # The keyring entries holding this desk's secrets: masked by value at every door,
        # whatever a run's model (names only now; read at the first mask, home/secrets.py).
        watch_secret_names([KEY_NAME, *self.mcp_secret_names()])

    def _team_store(self, explicit: str | None, desk_store: Store | None) -> Store | None:
        """The team database this home uses, opened; None when the home's file is the store."""
        url = team_db_url(explicit, desk_store)
        if url is None:
            return None
        location = parse_db_url(url)
        if location.key_name is not None:
            watch_secret_names([location.key_name])
        return open_store(with_password(location))

    def close(self) -> None:
        if self.team_mode:
            self.store.dispose()
        self.desk_store.dispose()

    def follow_events(self, follower: Callable[[list[EventView]], None]) -> Callable[[], None]:
        """Hear of this process's events as soon as they commit, on the committing thread
        (other processes' events are read with `timeline(since=...)`). Returns the unfollow."""
        return self.store.follow_events(lambda events: follower([e.to_json() for e in events]))
