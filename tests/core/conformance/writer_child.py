"""A writer process for the conformance suite: `python -m tests.core.conformance.writer_child`.

Usage: writer_child BACKEND HOME counter OWN_RUN SHARED_RUN COUNT
       writer_child BACKEND HOME checkpoints RUN_ID

It opens its backend, prints `ready`, waits for a `go` line on stdin (so the parent can start
several children at the same instant), then writes:

- counter: COUNT transactions, each reading the shared run's counter, appending an event to
  its own run and writing counter + 1 back: a lost update or a lock error shows at once;
- checkpoints: forever, one checkpoint (with its RunState blob and its event) per
  transaction, printing each committed sequence number only after the commit returns.
"""

from __future__ import annotations

import json
import sys
import traceback
from dataclasses import replace
from pathlib import Path

from agent_core import RUNTIME_VERSION
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.checkpoints import Checkpoint, save_state_string
from agent_core.storage.tables.timeline import append_event
from tests.core.conformance.backends import BACKEND_FACTORIES, StorageBackend


def _counter(backend: StorageBackend, own_run: str, shared_run: str, count: int) -> None:
    for i in range(count):
        with backend.store.write() as conn:
            row = run_rows.get_run_row(conn, shared_run)
            shared = json.loads(row.state_json)
            append_event(conn, own_run, "model_turn", data={"turn": i + 1, "writer": own_run})
            shared["counter"] = int(shared["counter"]) + 1
            run_rows.update_run(conn, row, replace(row, state_json=json.dumps(shared)))
    print(f"done {count}", flush=True)


def _checkpoints(backend: StorageBackend, run_id: str) -> None:
    n = 0
    while True:
        n += 1
        with backend.store.write() as conn:
            digest = save_state_string(conn, run_id, json.dumps({"state": n, "pad": "x" * 2000}))
            cp = backend.checkpoints.save(
                conn,
                Checkpoint(
                    run_id=run_id,
                    boundary="A" if n % 2 else "B",
                    next_step="model",
                    run_state={"n": n},
                    budgets={},
                    runtime_version=RUNTIME_VERSION,
                    call_id=f"call-{n}",
                    state_digest=digest,
                ),
            )
            append_event(conn, run_id, "checkpoint_saved", data={"sequence": cp.sequence})
        print(cp.sequence, flush=True)


def main(argv: list[str]) -> int:
    backend_name, home, mode, *rest = argv
    backend = BACKEND_FACTORIES[backend_name](Path(home))
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        if mode == "counter":
            _counter(backend, rest[0], rest[1], int(rest[2]))
        elif mode == "checkpoints":
            _checkpoints(backend, rest[0])
        else:
            raise SystemExit(f"unknown mode {mode}")
    except Exception:
        traceback.print_exc()
        return 3
    finally:
        backend.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
