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
- `facade/home_stores.py`: opening a home and its store (`briefdesk-cli hook` opens only that)

Methods that do not drive the agent never import the Agents SDK (it costs seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agent_core.contract.views import EventView
from agent_core.facade.artifacts import ArtifactCommands
from agent_core.facade.corpus import CorpusCommands
from agent_core.facade.desk import DeskCommands
from agent_core.facade.home_stores import open_home_stores
from agent_core.facade.mcp import McpCommands
from agent_core.facade.review import ReviewCommands
from agent_core.facade.runs import RunCommands
from agent_core.storage.store import Store


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
        opened = open_home_stores(home, db)  # as `briefdesk-cli hook` opens it
        self._opened = opened
        self.desk = opened.desk
        self.db_option = opened.db_option
        self.home = opened.home
        self.desk_store: Store = opened.desk_store
        self.store: Store = opened.store

    def close(self) -> None:
        self._opened.close()

    def follow_events(self, follower: Callable[[list[EventView]], None]) -> Callable[[], None]:
        """Hear of this process's events as soon as they commit, on the committing thread
        (other processes' events are read with `timeline(since=...)`). Returns the unfollow."""
        return self.store.follow_events(lambda events: follower([e.to_json() for e in events]))
