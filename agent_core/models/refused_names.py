"""A file name a reviewer asked for that BriefDesk's sandbox refuses ("save it as
../../etc/x.md", "call it .bashrc", "call it state.db").

The offline model proposes the name it was asked for; the sandbox refuses that call before
anyone is asked (a `blocked` event) and the model reads the refusal as the call's result. It
then proposes the brief again under the last name a person saw (else its own first name) and
says so, in that turn's text and in its final answer: a person decides again, and never finds
a run `succeeded` with nothing saved and no word why. The sandbox stays the only judge of a
name: the model does not guess its rules, it reads its answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent_core.contract.approvals import change_request_note
from agent_core.models.planned import PastCall

_REFUSED = re.compile(r"^Refused by BriefDesk \((?P<code>[a-z_]+)\)(?::\s*(?P<why>.*))?", re.S)
# Refusals of the name itself (not `previously_rejected`: after a rejection nothing is proposed).
_NAME_CODES = frozenset({"path_outside_scope", "write_forbidden", "invalid_arguments"})


@dataclass(frozen=True)
class RefusedName:
    path: str
    code: str
    why: str
    """The sandbox's reason, as the model was told it (a line at most)."""


def _name_of(call: PastCall) -> str | None:
    path = call.args.get("relative_path")
    return path if isinstance(path, str) else None


def refused_names(saves: list[PastCall]) -> list[RefusedName]:
    """The names of this run's save_brief calls that the sandbox refused, oldest first."""
    found: list[RefusedName] = []
    for call in saves:
        match = _REFUSED.match(call.output or "")
        name = _name_of(call)
        if match and match.group("code") in _NAME_CODES and name is not None:
            why = " ".join((match.group("why") or match.group("code")).split())[:200]
            found.append(RefusedName(name, match.group("code"), why))
    return found


def choose_name(
    asked: str | None, saves: list[PastCall], refused: list[RefusedName], default: str
) -> str:
    """The name to propose: the one asked for unless the sandbox refused it, else the latest
    name a person saw (a proposal sent back with a note), else the model's own first name."""
    names = {r.path for r in refused}
    if asked and asked not in names:
        return asked
    for call in reversed(saves):
        seen = _name_of(call)
        if seen and seen not in names and change_request_note(call.output or "") is not None:
            return seen
    return default


def retry_under(name: str, saves: list[PastCall], refused: list[RefusedName]) -> bool:
    """The last call's name was refused and `name` is still left to propose."""
    names = {r.path for r in refused}
    return bool(saves) and _name_of(saves[-1]) in names and name not in names


def refused_last(saves: list[PastCall]) -> bool:
    return bool(saves) and _REFUSED.match(saves[-1].output or "") is not None


def kept_name(refused: list[RefusedName], name: str, chinese: bool) -> str:
    """What the person is told: which name was refused, why, and which one the brief keeps."""
    last = refused[-1]
    if chinese:
        return f"BriefDesk 拒绝了文件名 {last.path}（{last.why}），简报沿用文件名 {name}。"
    return f"BriefDesk refused the file name {last.path!r} ({last.why}); the brief keeps {name}."
