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
