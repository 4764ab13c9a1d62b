"""The schema revisions this app knows, shared by a home's SQLite file and a team's database.

The migrations folder is the one list: Alembic's ScriptDirectory reads it when a database must
be upgraded, and a text-only look (`declared_head`) recognises an up-to-date database without
importing Alembic (~125 ms, too much for every CLI command).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from sqlalchemy import Connection

MIGRATIONS_DIR = Path(__file__).with_name("migrations")


@functools.cache
def known_revisions() -> tuple[str, ...]:
    """The migrations folder's revisions, oldest first, as Alembic's ScriptDirectory reads them."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS_DIR))
    script.get_current_head()  # raises on several heads: the history must stay one line
    return tuple(reversed([s.revision for s in script.walk_revisions()]))


def head_revision() -> str:
    return known_revisions()[-1]


# `revision = "0002"` / `down_revision: str | None = "0001"` at the start of a line.
_DECLARATION = re.compile(r"^(revision|down_revision)\b[^=\n]*=(.*)$", re.MULTILINE)


@functools.cache
def declared_head() -> str | None:
    """The head as the version files declare it, read as text (well under 1 ms), not by Alembic.

    Used only to recognise an up-to-date database, so that it never pays for the Alembic
    import; every other decision asks `known_revisions()`. Anything not plainly declared once
    (a merge, a computed value, several heads) gives None, and the caller asks Alembic.
    tests/core/test_storage_migrations.py checks that this agrees with ScriptDirectory.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        if path.name.startswith((".#", "__init__")):  # what ScriptDirectory skips too
            continue
        found = _DECLARATION.findall(path.read_text(encoding="utf-8"))
        if sorted(name for name, _ in found) != ["down_revision", "revision"]:
            return None
        try:
            declared = {name: ast.literal_eval(value.strip()) for name, value in found}
        except (ValueError, SyntaxError):
            return None
        revision, parent = declared["revision"], declared["down_revision"]
        if not isinstance(revision, str) or not (parent is None or isinstance(parent, str)):
            return None
        revisions.add(revision)
        if parent is not None:
            parents.add(parent)
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def run_migrations(conn: Connection, target: str) -> None:
    """Alembic's upgrade to `target` on an open connection (the caller holds the lock)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, target)
