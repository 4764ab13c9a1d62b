"""`--model scripted:FILE`: a model fully controlled by a JSON script (drills, attack tests).

FILE is a JSON array of turns: {"call": TOOL, "args": {...}}, {"calls": [...]} or {"say": TEXT}.
A call may carry `"id": N` (an integer from 0): calls of one turn with the same N share one call
id, as a faulty model's may, and `"raw_args": TEXT` in place of `args`: the arguments string sent
exactly as written, JSON or not (a remote model's call carries a string; a script parsed whole
could not hold arguments nested deeper than the parser's bound).
The turn played is the number of turns this run already took, so a resumed run continues the
script where its checkpoint left it.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_core.contract import json_input
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.models.planned import History, PlannedCall, PlannedModel, TurnPlan


def load_script(path: Path) -> list[JsonObject]:
    try:
        turns = json_input.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # JSONDecodeError (too deep too), not UTF-8
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Cannot read script {path}: {exc}"
        ) from None
    if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Script {path} must be a JSON array of turns."
        )
    script = [turn for turn in turns if isinstance(turn, dict)]  # all of them, now typed
    for index, turn in enumerate(script):
        if not ({"call", "calls", "say"} & set(turn)):
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS, f"Script turn {index} needs 'call', 'calls' or 'say'."
            )
    return script


def _planned(call: JsonObject) -> PlannedCall:
    args = call.get("args", {})
    slot = call.get("id")
    raw = call.get("raw_args")
    # Send exactly what the script says, even if no schema would accept it.
    return PlannedCall(
        str(call.get("call")),
        args if isinstance(args, dict) else {},
        raw if isinstance(raw, str) else json.dumps(args),
        slot if isinstance(slot, int) and not isinstance(slot, bool) and slot >= 0 else None,
    )


class ScriptedModel(PlannedModel):
    def __init__(self, call_prefix: str, turns: list[JsonObject]) -> None:
        super().__init__(call_prefix)
        self.turns = turns

    def plan(self, history: History) -> TurnPlan:
        if history.steps_taken >= len(self.turns):
            return TurnPlan(say="(the script has no more turns)")
        turn = self.turns[history.steps_taken]
        if "say" in turn:
            return TurnPlan(say=str(turn["say"]))
        listed = turn.get("calls") if "calls" in turn else [turn]
        calls = listed if isinstance(listed, list) else []  # a malformed turn calls nothing
        return TurnPlan([_planned(c) for c in calls if isinstance(c, dict)])
