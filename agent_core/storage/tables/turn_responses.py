"""A run's latest model response (`turn_responses`), for a resume after a kill mid-turn.

Only for models that do not replay exactly (a remote endpoint): asked again, they would propose
other calls. The response is written in the transaction that records its turn and read back
when the same input is sent again, so the resumed turn is the same turn. One row per run.
"""

from __future__ import annotations

from sqlalchemy import Connection, bindparam, select

from agent_core.home.clock import now_iso
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import turn_responses

_RECORDED = Prepared(
    select(turn_responses.c.response_json).where(
        turn_responses.c.run_id == bindparam("run_id"),
        turn_responses.c.input_digest == bindparam("digest"),
    )
)


def remember_response(conn: Connection, run_id: str, input_digest: str, response: str) -> None:
    """The run's latest response (`response`: its JSON) to the input of `input_digest`."""
    values = {
        "run_id": run_id,
        "input_digest": input_digest,
        "response_json": response,
        "created_at": now_iso(),
    }
    statement = insert_for(conn, turn_responses).values(values)
    conn.execute(
        statement.on_conflict_do_update(
            index_elements=[turn_responses.c.run_id],
            set_={k: statement.excluded[k] for k in values if k != "run_id"},
        )
    )


def recorded_response(conn: Connection, run_id: str, input_digest: str) -> str | None:
    """The JSON of the response the run's model gave to this very input, if it was its last."""
    found = _RECORDED.scalar(conn, run_id=run_id, digest=input_digest)
    return None if found is None else str(found)
