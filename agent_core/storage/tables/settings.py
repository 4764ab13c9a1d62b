"""Preferences stored in the home's database (never keys: those live in the OS keyring).

One row per public key, the value as JSON; `home.preferences.Settings` validates both ways.
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, select

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.usage import Prices
from agent_core.home.preferences import MODES, Settings, json_value
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.schema import settings

__all__ = ["MODES", "get_prices", "get_settings", "set_setting"]
PRICE_KEYS = ("openai.price_input_per_mtok", "openai.price_output_per_mtok")


def get_settings(conn: Connection) -> Settings:
    """The stored settings over the defaults; a bad stored value is `storage_corrupt`."""
    rows = conn.execute(select(settings.c.key, settings.c.value_json))
    return Settings.from_stored({row.key: row.value_json for row in rows})


def get_db_url(conn: Connection) -> str | None:
    """Only the `db.url` setting: the store must open even when another stored value is bad
    (`settings set` is how a person replaces it)."""
    raw = conn.execute(select(settings.c.value_json).where(settings.c.key == "db.url")).scalar()
    if raw is None:
        return None
    return Settings.from_stored({"db.url": raw}).db_url


def get_prices(conn: Connection) -> Prices:
    """Only the two prices: a run's usage shows even when another stored value is bad (a bad
    price itself reads as unset, so costs show as unknown, never as a wrong number)."""
    query = select(settings.c.key, settings.c.value_json).where(settings.c.key.in_(PRICE_KEYS))
    try:
        prefs = Settings.from_stored({row.key: row.value_json for row in conn.execute(query)})
    except BriefDeskError:
        return Prices()
    return Prices(prefs.openai_price_input_per_mtok, prefs.openai_price_output_per_mtok)


def set_setting(conn: Connection, key: str, value: object) -> object:
    """Validate (`invalid_arguments`) and store one value; returns it as JSON shows it."""
    stored = json_value(key, Settings.parse(key, value))
    stmt = insert_for(conn, settings).values(key=key, value_json=json.dumps(stored))
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["key"], set_={"value_json": stmt.excluded.value_json}
        )
    )
    return stored
