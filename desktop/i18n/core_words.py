"""What agent_core hands the window, in the window's language: statuses, risk tiers, modes,
model names and the fixed sentences the core writes as an approval's reason. The codes stay as
the core made them (CLI JSON, the database); only what the window shows is translated, by
mapping the stable code to a tr() string. Free text a person or the model wrote stays as is."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from desktop.i18n import QT_TRANSLATE_NOOP

translate = QCoreApplication.translate

APPROVAL_STATUSES: dict[str, str] = {
    "pending": QT_TRANSLATE_NOOP("CoreWords", "pending"),
    "approved": QT_TRANSLATE_NOOP("CoreWords", "approved"),
    "rejected": QT_TRANSLATE_NOOP("CoreWords", "rejected"),
    "expired": QT_TRANSLATE_NOOP("CoreWords", "expired"),
    "superseded": QT_TRANSLATE_NOOP("CoreWords", "superseded"),
    "consumed": QT_TRANSLATE_NOOP("CoreWords", "consumed"),
    "cancelled": QT_TRANSLATE_NOOP("CoreWords", "cancelled"),
    "changes_requested": QT_TRANSLATE_NOOP("CoreWords", "changes_requested"),
}
# The codes are the English words (as the window always showed them); other languages translate.
RUN_STATUSES: dict[str, str] = {  # inside a sentence (theme's labels head a badge)
    "created": QT_TRANSLATE_NOOP("CoreWords", "created"),
    "running": QT_TRANSLATE_NOOP("CoreWords", "running"),
    "waiting_approval": QT_TRANSLATE_NOOP("CoreWords", "waiting_approval"),
    "waiting_input": QT_TRANSLATE_NOOP("CoreWords", "waiting_input"),
    "succeeded": QT_TRANSLATE_NOOP("CoreWords", "succeeded"),
    "failed": QT_TRANSLATE_NOOP("CoreWords", "failed"),
    "cancelled": QT_TRANSLATE_NOOP("CoreWords", "cancelled"),
    "expired": QT_TRANSLATE_NOOP("CoreWords", "expired"),
    "interrupted": QT_TRANSLATE_NOOP("CoreWords", "interrupted"),
}
RISKS: dict[str, str] = {
    "read": QT_TRANSLATE_NOOP("CoreWords", "read"),
    "plan": QT_TRANSLATE_NOOP("CoreWords", "plan"),
    "interaction": QT_TRANSLATE_NOOP("CoreWords", "interaction"),
    "memory": QT_TRANSLATE_NOOP("CoreWords", "memory"),
    "write": QT_TRANSLATE_NOOP("CoreWords", "write"),
    "network": QT_TRANSLATE_NOOP("CoreWords", "network"),
}
MODES: dict[str, str] = {
    "default": QT_TRANSLATE_NOOP("CoreWords", "default"),
    "acceptEdits": QT_TRANSLATE_NOOP("CoreWords", "acceptEdits"),
    "plan": QT_TRANSLATE_NOOP("CoreWords", "plan"),
    "dangerouslySkipPermissions": QT_TRANSLATE_NOOP("CoreWords", "dangerouslySkipPermissions"),
}
MODELS: dict[str, str] = {
    "offline": QT_TRANSLATE_NOOP("CoreWords", "offline"),
    "scripted": QT_TRANSLATE_NOOP("CoreWords", "scripted"),
    "compromised": QT_TRANSLATE_NOOP("CoreWords", "compromised"),
}
# The reasons agent_core's policy, editing and revert write, whole sentences (agent_core/tools/
# policy.py, review/editing.py, review/revert.py, runs/): translated as a whole.
REASONS: dict[str, str] = {
    "answers a request for changes: the person decides again": QT_TRANSLATE_NOOP(
        "CoreWords", "answers a request for changes: the person decides again"
    ),
    "dangerouslySkipPermissions asks for nothing": QT_TRANSLATE_NOOP(
        "CoreWords", "dangerouslySkipPermissions asks for nothing"
    ),
    "acceptEdits approves writes inside the artifacts folder": QT_TRANSLATE_NOOP(
        "CoreWords", "acceptEdits approves writes inside the artifacts folder"
    ),
    "writes a file: a person approves every write": QT_TRANSLATE_NOOP(
        "CoreWords", "writes a file: a person approves every write"
    ),
    "reaches the network: a person approves it": QT_TRANSLATE_NOOP(
        "CoreWords", "reaches the network: a person approves it"
    ),
    "a tool of an MCP server that may change something: a person approves it": QT_TRANSLATE_NOOP(
        "CoreWords", "a tool of an MCP server that may change something: a person approves it"
    ),
    "outcome unknown: the call reached its server, no answer was recorded": QT_TRANSLATE_NOOP(
        "CoreWords", "outcome unknown: the call reached its server, no answer was recorded"
    ),
    "approved as edited": QT_TRANSLATE_NOOP("CoreWords", "approved as edited"),
    "cancelled by a person": QT_TRANSLATE_NOOP("CoreWords", "cancelled by a person"),
    "cancelled while running": QT_TRANSLATE_NOOP("CoreWords", "cancelled while running"),
    "a write was rejected": QT_TRANSLATE_NOOP("CoreWords", "a write was rejected"),
}
# A checkpoint's next step (agent_core/runs/: gate, executor, progress, lifecycle); the English
# is the core's word, as the timeline always showed it.
NEXT_STEPS: dict[str, str] = {
    "model": QT_TRANSLATE_NOOP("CoreWords", "model"),
    "tools": QT_TRANSLATE_NOOP("CoreWords", "tools"),
    "answer": QT_TRANSLATE_NOOP("CoreWords", "answer"),
    "done": QT_TRANSLATE_NOOP("CoreWords", "done"),
    "continue with the answer": QT_TRANSLATE_NOOP("CoreWords", "continue with the answer"),
    "wait for an answer": QT_TRANSLATE_NOOP("CoreWords", "wait for an answer"),
}
_STEP_OF_TOOL = re.compile(r"^(revise|run|wait for approval of) (\S+)$")
_NEVER_ASK = re.compile(r"^(\w+) tools never ask$")
_WHERE = r"(this run|every run in this home)"
_RULE_OF_FILES = re.compile(rf"^(\S+) of files under (.+)/ for {_WHERE}$")
_RULE_OF_MCP = re.compile(rf"^(\S+) \((mcp:[^)]+)\) for {_WHERE}$")
_EDITED = re.compile(r"^edited by (.+?): (.*)$", re.DOTALL)
_REVERT = re.compile(
    r"^A person asked to revert approval (\S+): "
    r"(remove the file it created|put back its content)\.$"
)


def _word(table: dict[str, str], code: object) -> str:
    text = str(code or "")
    source = table.get(text)
    return translate("CoreWords", source) if source else text


def approval_status(code: object) -> str:
    return _word(APPROVAL_STATUSES, code)


def run_status(code: object) -> str:
    return _word(RUN_STATUSES, code)


def risk(code: object) -> str:
    return _word(RISKS, code)


def mode(code: object) -> str:
    return _word(MODES, code)


def model(code: object) -> str:
    return _word(MODELS, code)


def next_step(text: object) -> str:
    """A checkpoint's next step: "model", "run save_brief", "wait for approval of save_brief"."""
    said = str(text or "")
    if said in NEXT_STEPS:
        return translate("CoreWords", NEXT_STEPS[said])
    found = _STEP_OF_TOOL.match(said)
    if found is None:
        return said
    if found[1] == "revise":
        step = translate("CoreWords", "revise {tool}")
    elif found[1] == "run":
        step = translate("CoreWords", "run {tool}")
    else:
        step = translate("CoreWords", "wait for approval of {tool}")
    return step.format(tool=found[2])


def rule_scope(scope: str) -> str:
    if scope == "run":
        return translate("CoreWords", "this run")
    return translate("CoreWords", "every run in this home")


def rule(tool: str, folder: str, scope: str) -> str:
    """`Rule.describe` in the window's words: "write_file of files under out/ for this run"."""
    return translate("CoreWords", "{tool} of files under {folder}/ for {where}").format(
        tool=tool, folder=folder, where=rule_scope(scope)
    )


def described_rule(text: str) -> str:
    """`Rule.describe`'s words (the core's, from `describe_rule_for` or a rule's view) in the
    window's: files under a folder, or an MCP server's tool, for this run or every run."""
    scope = "run" if text.endswith(" for this run") else "home"
    if found := _RULE_OF_FILES.match(text):
        return rule(found[1], found[2], scope)
    if found := _RULE_OF_MCP.match(text):
        return translate("CoreWords", "{tool} ({what}) for {where}").format(
            tool=found[1], what=found[2], where=rule_scope(scope)
        )
    return text


def reason(text: object) -> str:
    """An approval's or a decision's reason: the core's fixed sentences translated, with what
    they quote (a tool, a folder, a reviewer's note) kept; anything else as written."""
    said = str(text or "")
    if said in REASONS:
        return translate("CoreWords", REASONS[said])
    if found := _NEVER_ASK.match(said):
        return translate("CoreWords", "{tier} tools never ask").format(tier=risk(found[1]))
    if said.startswith("remembered: "):
        return translate("CoreWords", "remembered: {rule}").format(
            rule=described_rule(said.removeprefix("remembered: "))
        )
    if found := _EDITED.match(said):
        return translate("CoreWords", "edited by {reviewer}: {reason}").format(
            reviewer=found[1], reason=reason(found[2])
        )
    if found := _REVERT.match(said):
        if found[2].startswith("remove"):
            what = translate(
                "CoreWords", "A person asked to revert approval {id}: remove the file it created."
            )
        else:
            what = translate(
                "CoreWords", "A person asked to revert approval {id}: put back its content."
            )
        return what.format(id=found[1])
    return said
