"""The workload every contender of bench_peers.py runs, and how its cost is counted.

The workload: N calls of a read tool (BriefDesk's corpus search of the demo corpus, 7 hits,
about 2.2 KB of JSON), then a final answer, from a scripted model. The crash comparison's
tool appends one line to a file instead (the peers) or saves one brief per call (BriefDesk,
whose only write is `save_brief`; auto-approved by `acceptEdits`, through its ledger).

The peers' scripted models choose their turn from the conversation they are given (its newest
tool result: `calls_done`), never from a counter, so a replayed or resumed run continues
where its records left it, as a deterministic real model would. They are O(1) work apart
from that count: the model's own cost is not what is measured.

Commits are counted in the process that runs a contender: every `sqlite3` connection opened
there (SQLAlchemy's, DBOS's, LangGraph's and ours alike) gets a trace callback, and a write
transaction that ends in COMMIT (or a write statement run outside any transaction, which
SQLite commits by itself) counts once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

TREE_ENV = "BENCH_PEERS_TREE"  # a child of BriefDesk at another commit: that checkout's agent_core
REPO = Path(os.environ.get(TREE_ENV) or Path(__file__).resolve().parents[1])
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

QUERY = "checkpoint approval ledger recovery"
LIMIT = 7  # 7 hits of the demo corpus: about 2.2 KB of JSON per result
TOOL = "search_corpus"
APPEND_TOOL = "append_line"
KILL_AT_ENV = "BENCH_PEERS_KILL_AT"  # a peer's tool SIGKILLs its process at the start of call N
WORST_WINDOW_ENV = "BENCH_PEERS_WORST_WINDOW"  # folder: kill once per call after its append
WARM_ENV = "BENCH_PEERS_WARM"  # a timed run: one untimed call first, in the same process

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")


class CommitCounter:
    """Write transactions committed through every sqlite3 connection of this process."""

    def __init__(self) -> None:
        self.commits = 0
        self._open: dict[int, list[int]] = {}  # id(conn) -> [depth, writes in this transaction]

    def install(self) -> None:
        original = sqlite3.connect
        counter = self

        def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            conn: sqlite3.Connection = original(*args, **kwargs)
            state = counter._open.setdefault(id(conn), [0, 0])
            conn.set_trace_callback(lambda sql: counter.saw(state, sql))
            return conn

        # SQLAlchemy's pysqlite dialect connects through sqlite3.dbapi2: patch both names.
        sqlite3.connect = connect  # type: ignore[assignment]
        sqlite3.dbapi2.connect = connect  # type: ignore[assignment]

    def saw(self, state: list[int], sql: str) -> None:
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head.startswith("--"):  # a trigger's body: part of the statement that fired it
            return
        if head == "BEGIN" or (head == "SAVEPOINT" and state[0] == 0):
            state[0], state[1] = 1, 0
        elif head == "SAVEPOINT":
            state[0] += 1
        elif head in ("COMMIT", "END") or (head == "RELEASE" and state[0] == 1):
            if state[0] and state[1]:
                self.commits += 1
            state[0], state[1] = 0, 0
        elif head == "RELEASE":
            state[0] -= 1
        elif head == "ROLLBACK" and "TO" not in sql.upper():
            state[0], state[1] = 0, 0
        elif head in _WRITES or (head == "WITH" and any(w in sql.upper() for w in _WRITES)):
            if state[0]:
                state[1] += 1
            else:
                self.commits += 1  # autocommit: SQLite commits the statement by itself


def live_bytes(*paths: Path) -> int:
    """Bytes of the pages these SQLite databases use (their WAL folded in first; free pages
    not counted): what a run has stored, whatever its journal mode left on disk."""
    total = 0
    for path in paths:
        if not path.exists():
            continue
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            free = conn.execute("PRAGMA freelist_count").fetchone()[0]
            total += (pages - free) * conn.execute("PRAGMA page_size").fetchone()[0]
        finally:
            conn.close()
    return total


def search_body(home: Path) -> Callable[[str, int], str]:
    """BriefDesk's corpus search, on a demo home of its own: the peers' tool does the same
    work and returns the same bytes as BriefDesk's search_corpus."""
    from agent_core.corpus import index as corpus_index
    from agent_core.corpus import search as research
    from agent_core.facade.workspace import Workspace

    ws = Workspace(home)
    corpus_index.reindex(ws.desk_store, ws.home.corpus)

    def search(query: str, limit: int) -> str:
        with ws.store.read() as conn:
            hits = research.search(conn, ws.home.corpus, query, limit)
        return json.dumps({"results": hits}, ensure_ascii=False)

    return search


def maybe_kill_before(call_number: int) -> None:
    """The recovery drill's crash: the process dies at the start of call N (1-based)."""
    if os.environ.get(KILL_AT_ENV) == str(call_number):
        os.kill(os.getpid(), 9)


def append_line(path: Path, line: int, key: str | None = None) -> str:
    """The crash comparison's effect: one line, synced. In the worst-window drill the process
    dies right after it, once per line, before the framework can record the step.

    With a `key`, the effect is the idempotent step the peers' docs ask for (DBOS: steps are
    at-least-once, make them idempotent; LangGraph: make side effects idempotent): the line is
    written with its key, and a step that finds its key already there does not write again."""
    if key is not None and path.exists() and _has_key(path, key):
        return json.dumps({"appended": line, "again": True})
    with path.open("a", encoding="utf-8") as f:
        f.write(f"{line}\n" if key is None else f"{line} {key}\n")
        f.flush()
        os.fsync(f.fileno())
    marks = os.environ.get(WORST_WINDOW_ENV)
    if marks:
        mark = Path(marks) / f"killed-{line}"
        if not mark.exists():
            mark.touch()
            os.kill(os.getpid(), 9)
    return json.dumps({"appended": line})


def _has_key(path: Path, key: str) -> bool:
    return any(ln.split()[1:] == [key] for ln in path.read_text(encoding="utf-8").splitlines())


def line_counts(path: Path, calls: int) -> tuple[int, int]:
    """(duplicates, lost): lines written more than once (extra copies), lines never written."""
    seen: dict[int, int] = {}
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    for raw in text.splitlines():
        number = int(raw.split()[0])  # the line's number; an idempotent step's key after it
        seen[number] = seen.get(number, 0) + 1
    duplicates = sum(n - 1 for n in seen.values() if n > 1)
    lost = sum(1 for k in range(1, calls + 1) if k not in seen)
    return duplicates, lost


def calls_done(call_ids: Iterable[str]) -> int:
    """The model's turn from the conversation it is shown: the number k of the newest result
    `call-k`, read from the newest item backwards (constant work per turn, and the same answer
    on a bounded view, whose older results are digests or folded away, as on the whole)."""
    for call_id in call_ids:
        if call_id.startswith("call-"):
            return int(call_id[5:])
    return 0


def sdk_scripted_model(calls: int, tool: str) -> Any:
    """An `agents.Model` playing N calls of `tool`, then "done"; its turn is read from its
    input (`calls_done`: replay-safe, unlike a queue of responses)."""
    from agents import Model, ModelResponse, Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    class ConversationScriptedModel(Model):
        async def get_response(  # the SDK's full signature (models/interface.py)
            self,
            system_instructions: Any,
            input: Any,
            model_settings: Any,
            tools: Any,
            output_schema: Any,
            handoffs: Any,
            tracing: Any,
            *,
            previous_response_id: Any,
            conversation_id: Any,
            prompt: Any,
        ) -> Any:
            done = calls_done(
                str(item.get("call_id"))
                for item in reversed(input)
                if isinstance(item, dict) and item.get("type") == "function_call_output"
            )
            if done < calls:
                k = done + 1
                call_id = f"call-{k}"
                output: list[Any] = [
                    ResponseFunctionToolCall(
                        type="function_call",
                        name=tool,
                        arguments=tool_args(tool, k),
                        call_id=call_id,
                        id=f"fc_{call_id}",
                        status="completed",
                    )
                ]
            else:
                output = [
                    ResponseOutputMessage(
                        type="message",
                        id="msg-done",
                        role="assistant",
                        status="completed",
                        content=[
                            ResponseOutputText(type="output_text", text="done", annotations=[])
                        ],
                    )
                ]
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError("the benchmark runs Runner.run only")

    return ConversationScriptedModel()


def tool_args(tool: str, k: int) -> str:
    """The peers' arguments of call k (the search carries k, for the recovery drill's kill)."""
    if tool == APPEND_TOOL:
        return json.dumps({"line": k})
    return json.dumps({"query": QUERY, "limit": LIMIT, "call": k})


def briefdesk_script(workdir: Path, calls: int, *, writes: bool = False) -> Path:
    """BriefDesk's scripted model file: the same N calls, then "done"."""
    if writes:
        turns: list[dict[str, Any]] = [
            {
                "call": "save_brief",
                "args": {"relative_path": f"briefs/b{k}.md", "content": f"# {k}\n"},
            }
            for k in range(1, calls + 1)
        ]
    else:
        turns = [{"call": TOOL, "args": {"query": QUERY, "limit": LIMIT}}] * calls
    turns.append({"say": "done"})
    path = workdir / f"script-{calls}-{'w' if writes else 'r'}.json"
    path.write_text(json.dumps(turns), encoding="utf-8")
    return path
