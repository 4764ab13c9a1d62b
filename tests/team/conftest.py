"""Two desks on one team database: two homes, two desk ids, one real PostgreSQL database.

Each desk is set up the way a newcomer does it (README: "Put two desks on one database"):
its home's `db.url` setting names the database, `BRIEFDESK_DESK` names the desk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import CliResult, CliRunner


@dataclass
class Desk:
    """One desk: its home, its id, and `briefdesk-cli` run as that desk."""

    name: str
    home: Path
    db_url: str
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env = {"BRIEFDESK_DESK": self.name, **self.env}
        self.cli = CliRunner(self.home)

    def __call__(self, *args: str, **kwargs: Any) -> CliResult:
        env = {**self.env, **kwargs.pop("env", {})}
        return self.cli(*args, env=env, **kwargs)

    def workspace(self) -> Any:
        """An in-process Workspace of this desk (BRIEFDESK_DESK set while it is built)."""
        import os

        from agent_core.facade.workspace import Workspace

        before = os.environ.get("BRIEFDESK_DESK")
        os.environ["BRIEFDESK_DESK"] = self.name
        try:
            return Workspace(self.home)
        finally:
            if before is None:
                os.environ.pop("BRIEFDESK_DESK", None)
            else:
                os.environ["BRIEFDESK_DESK"] = before


def make_desk(name: str, home: Path, db_url: str) -> Desk:
    from agent_core.facade.workspace import Workspace

    setup = Workspace(home)  # the home's own SQLite file keeps this desk's settings
    setup.set_setting("db.url", db_url)
    setup.close()
    return Desk(name, home, db_url)


@pytest.fixture
def two_desks(tmp_path: Path, pg_url: str) -> tuple[Desk, Desk]:
    """desk-a and desk-b: two homes on one fresh team database."""
    return (
        make_desk("desk-a", tmp_path / "desk-a", pg_url),
        make_desk("desk-b", tmp_path / "desk-b", pg_url),
    )
