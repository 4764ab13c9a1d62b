"""Conversation threads: the messages one thread needs to continue.

A new thread inherits nothing.
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, delete, insert, select

from agent_core.contract.json_types import JsonObject
from agent_core.home.door import mask_incoming
from agent_core.storage.schema import session_items


def load_items(
    conn: Connection, thread_id: str, *, exclude_run: str | None = None
) -> list[JsonObject]:
    query = select(session_items.c.item_json).where(session_items.c.thread_id == thread_id)
    if exclude_run is not None:
        query = query.where(session_items.c.run_id != exclude_run)
    rows = conn.execute(query.order_by(session_items.c.id))
    return [json.loads(r[0]) for r in rows]


def replace_run_items(
    conn: Connection, thread_id: str, run_id: str, items: list[JsonObject]
) -> None:
    conn.execute(delete(session_items).where(session_items.c.run_id == run_id))
    items = mask_incoming(items)  # what a later run of the thread is sent: no key in it
    if items:  # one executemany: a long run ends with many items
        conn.execute(
            insert(session_items),
            [
                {
                    "thread_id": thread_id,
                    "run_id": run_id,
                    "item_json": json.dumps(item, ensure_ascii=False),
                }
                for item in items
            ],
        )


# A run's own conversation is staged under a thread id of its own while it runs, so a later
# run of the thread sees only finished runs (as before), while a resume of this one rebuilds
# its conversation from these rows instead of replaying it. `publish_staged` hands the rows to
# the thread when the run finishes. The thread's earlier items the run started with are staged
# apart ("inherited"): the run saw them, the thread has them already.
def _staged_tag(run_id: str, *, inherited: bool = False) -> str:
    return f"~{run_id}:inherited" if inherited else f"~{run_id}"


def stage_items(
    conn: Connection, run_id: str, items: list[JsonObject], *, inherited: bool = False
) -> None:
    """Append `items` to the run's staged conversation (masked as every stored item is)."""
    if not items:
        return
    tag = _staged_tag(run_id, inherited=inherited)
    conn.execute(
        insert(session_items),
        [
            {"thread_id": tag, "run_id": run_id, "item_json": json.dumps(item, ensure_ascii=False)}
            for item in mask_incoming(items)
        ],
    )


def load_staged(conn: Connection, run_id: str) -> tuple[list[JsonObject], list[JsonObject]]:
    """The run's staged conversation: (the thread's items it started with, its own items)."""
    inherited_tag = _staged_tag(run_id, inherited=True)
    rows = conn.execute(
        select(session_items.c.thread_id, session_items.c.item_json)
        .where(session_items.c.thread_id.in_([inherited_tag, _staged_tag(run_id)]))
        .order_by(session_items.c.id)
    )
    inherited: list[JsonObject] = []
    own: list[JsonObject] = []
    for tag, item_json in rows:
        (inherited if tag == inherited_tag else own).append(json.loads(item_json))
    return inherited, own


def publish_staged(conn: Connection, thread_id: str, run_id: str) -> None:
    """The finished run's own items become the thread's (the inherited copy goes)."""
    conn.execute(
        delete(session_items).where(
            session_items.c.thread_id.in_([_staged_tag(run_id, inherited=True), thread_id]),
            session_items.c.run_id == run_id,
        )
    )
    conn.execute(
        session_items.update()
        .where(session_items.c.thread_id == _staged_tag(run_id))
        .values(thread_id=thread_id)
    )
