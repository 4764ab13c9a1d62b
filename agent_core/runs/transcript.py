"""A run's conversation, kept by BriefDesk, so the SDK runs one model turn at a time.

Why: the SDK re-prepares its whole history every turn, and its RunState holds all of it. One
`Runner.run` over a long run grew per call, and a resume after a kill either parsed the whole
RunState or (embedded models: reads run without a pause, so no RunState) replayed every turn.
Now the driver runs the SDK for one turn per `Runner.run`, on `model_input()`: a bounded view
of this transcript (the newest items in full, older results as digest lines, the oldest folded
into one note). The transcript is staged in the store with the run's next checkpoint (the
session table, under the run's own tag), so a resume rebuilds exactly the view a live run
would have sent, and continues from the latest checkpoint without asking the model again for
anything but the turn the kill interrupted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from sqlalchemy import Connection

from agent_core.contract.json_types import JsonObject
from agent_core.home.door import mask_json_text
from agent_core.models.views import digest_line, fold_note
from agent_core.storage.tables import sessions

if TYPE_CHECKING:  # the SDK is imported where a run is driven, not where this is imported
    from agents import RunState
    from agents.items import RunItem, TResponseInputItem
    from agents.run_error_handlers import (
        RunErrorHandlerInput,
        RunErrorHandlerResult,
        RunErrorHandlers,
    )

WINDOW_ITEMS = 16
"""The newest items of the run the model sees in full (cut at a turn's start)."""
DIGEST_ITEMS = 32
"""Before them, items whose tool results the model sees as digest lines."""
_OUTPUT = "function_call_output"


def _plain(items: Iterable[object]) -> list[JsonObject]:
    """Items as the JSON they are stored as (what a resume reads back), keys masked."""
    # Masked as one JSON text (fast at any size), as the RunState is.
    return cast(
        "list[JsonObject]", json.loads(mask_json_text(json.dumps(list(items), default=str)))
    )


def _turn_start(items: Sequence[JsonObject], index: int) -> int:
    """The first turn boundary at or after `index` (else the last one before it): a model
    output item right after a tool result. A view never starts inside a turn."""

    def boundary(j: int) -> bool:
        return items[j].get("type") != _OUTPUT and (j == 0 or items[j - 1].get("type") == _OUTPUT)

    index = max(0, index)
    for j in range(index, len(items)):
        if boundary(j):
            return j
    for j in range(min(index, len(items) - 1), -1, -1):
        if boundary(j):
            return j
    return 0


class Transcript:
    """The first input (the thread's earlier items, remembered notes, the question) and the
    run's own items since, with the part not yet stored."""

    def __init__(
        self,
        inherited: list[JsonObject],
        own: list[JsonObject],
        *,
        unsaved_inherited: bool = False,
        unsaved: int = 0,
    ) -> None:
        self.inherited = inherited
        self.own = own
        self._unsaved_inherited = unsaved_inherited
        self._unsaved_from = len(own) - unsaved
        self._head_len: int | None = None
        self._digests: dict[int, str] = {}  # item index -> its digest line (items never change)

    @staticmethod
    def start(first_input: list[JsonObject], inherited_count: int) -> Transcript:
        """A run that has stored nothing yet: its first input, all of it still to store."""
        first = _plain(first_input)
        return Transcript(
            first[:inherited_count],
            first[inherited_count:],
            unsaved_inherited=True,
            unsaved=len(first) - inherited_count,
        )

    @staticmethod
    def load(conn: Connection, run_id: str) -> Transcript | None:
        """The run's stored transcript; None when it stored none (a run of an older version)."""
        inherited, own = sessions.load_staged(conn, run_id)
        return Transcript(inherited, own) if inherited or own else None

    def add_turn(self, new_items: Iterable[RunItem]) -> None:
        """The items one `Runner.run` added (the model's output, the tools' results)."""
        # An approval request is the SDK's own bookkeeping of a pause, never model input.
        turn = (i.to_input_item() for i in new_items if i.type != "tool_approval_item")
        self.own.extend(_plain(turn))

    def full(self) -> list[TResponseInputItem]:
        """The whole conversation, as the model would see it with no bound."""
        return cast("list[TResponseInputItem]", [*self.inherited, *self.own])

    def model_input(self) -> list[TResponseInputItem]:
        """The bounded view the model is sent: a pure function of the transcript, so a
        resume sends the same view a live run would have."""
        own = self.own
        if len(own) <= WINDOW_ITEMS + DIGEST_ITEMS:
            return self.full()
        window = _turn_start(own, len(own) - WINDOW_ITEMS)
        digested = _turn_start(own, window - DIGEST_ITEMS)
        # The question and the notes the run began with stay in view.
        head = min(self._head(), digested)
        view: list[JsonObject] = [*self.inherited, *own[:head]]
        if digested > head:
            view.append(cast("JsonObject", fold_note(digested)))
        for index in range(max(head, digested), window):
            item = own[index]
            output = item.get("output")
            if item.get("type") == _OUTPUT and isinstance(output, str):
                line = self._digests.get(index)
                if line is None:
                    line = self._digests[index] = digest_line(output)
                item = {**item, "output": line}
            view.append(item)
        view += own[window:]
        return cast("list[TResponseInputItem]", view)

    def _head(self) -> int:
        """How many of the run's own first items are its first input (notes, the question):
        the items before the model's first output."""
        if self._head_len is None:
            self._head_len = next(
                (j for j, i in enumerate(self.own) if i.get("role") not in ("user", "developer")),
                len(self.own),
            )
        return self._head_len

    def has_unstaged(self) -> bool:
        return self._unsaved_inherited or self._unsaved_from < len(self.own)

    def stage(self, conn: Connection, run_id: str, *, state_saved: bool) -> bool:
        """Store what is not stored yet, in the caller's transaction. True when a RunState
        saved before these turns is now out of date (unless this transaction saves a newer
        one, `state_saved`): the caller clears it, so a resume continues after them, not
        from that pause (the caller knows whether the run has one, with no read)."""
        if self._unsaved_inherited:
            sessions.stage_items(conn, run_id, self.inherited, inherited=True)
            self._unsaved_inherited = False
        fresh = self.own[self._unsaved_from :]
        if not fresh:
            return False
        sessions.stage_items(conn, run_id, fresh)
        self._unsaved_from = len(self.own)
        return not state_saved


def first_items(
    agent_input: list[TResponseInputItem] | None, state: RunState[None] | None, question: str
) -> list[JsonObject]:
    """The first input of a run that stored no conversation: the one it is given, or (a
    RunState saved by an older version) the one that state began with."""
    first: object = agent_input
    if state is not None:
        first = state._original_input  # the SDK keeps it there (no public accessor)
    if isinstance(first, str):
        first = [{"role": "user", "content": first}]
    if not first:
        first = [{"role": "user", "content": question}]
    return cast("list[JsonObject]", first)


class OneTurn:
    """The SDK's max-turns handler that ends a `Runner.run` after its one turn (its tools
    done), as a result rather than an error; `ended()` tells that from a final answer."""

    def __init__(self) -> None:
        self._ended = False
        self.handlers: RunErrorHandlers[None] = {"max_turns": self._end_turn}

    def _end_turn(self, _data: RunErrorHandlerInput[None]) -> RunErrorHandlerResult:
        from agents.run_error_handlers import RunErrorHandlerResult

        self._ended = True
        return RunErrorHandlerResult(final_output="", include_in_history=False)

    def ended(self) -> bool:
        ended, self._ended = self._ended, False
        return ended
