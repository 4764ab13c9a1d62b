"""What the Demo menu's crash demos say before they act: which run, which question, which mode.

A demo acts for the person only in what they confirm here. It never decides a proposal that
waits for a person; when it runs in a mode that writes without asking, that mode is named here
and shown in the Mode box.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from agent_core.contract.views import RunView

translate = QCoreApplication.translate


def _after() -> str:
    return translate(
        "DemoText",
        "\n\nOpen BriefDesk again to see the interrupted run and resume it: no side effect is "
        "repeated.",
    )


def _quoted(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + "…"
    return f"“{text}”"


def crash_next(selected: RunView | None, question: str, mode_label: str) -> str:
    """The confirmation of "Crash at the next tool call"."""
    if selected is not None:
        head = translate(
            "DemoText",
            "BriefDesk resumes the selected interrupted run {question} (mode: {mode}) and kills "
            "itself (SIGKILL) at its next tool call.",
        ).format(question=_quoted(str(selected.get("question") or "")), mode=mode_label)
    else:
        head = translate(
            "DemoText",
            "BriefDesk starts the question in the box as a new run and kills itself (SIGKILL) "
            "at its first tool call.\n\nQuestion: {question}\nMode: {mode}",
        ).format(question=_quoted(question), mode=mode_label)
    return head + _after()


def crash_write(
    selected: RunView | None, question: str, mode_label: str, *, waiting: int = 0
) -> str:
    """The confirmation of "Crash after the write, before confirmation"."""
    if selected is not None:
        head = translate(
            "DemoText",
            "BriefDesk resumes the selected interrupted run {question} (mode: {mode}) and kills "
            "itself (SIGKILL) right after its brief is written, before the write is confirmed. "
            "If the write needs an approval, it waits for you as usual.",
        ).format(question=_quoted(str(selected.get("question") or "")), mode=mode_label)
    else:
        head = translate(
            "DemoText",
            "BriefDesk starts the question in the box as a new run in mode {mode} (now shown in "
            "the Mode box): the brief is written without asking anyone. Right after the write, "
            "before it is confirmed, BriefDesk kills itself (SIGKILL).\n\nQuestion: "
            "{question}\nMode: {mode}",
        ).format(question=_quoted(question), mode=mode_label)
    if waiting == 1:
        head += translate(
            "DemoText",
            "\n\n{n} proposal waiting for a person still waits for you: this demo approves "
            "nothing.",
        ).format(n=waiting)
    elif waiting:
        head += translate(
            "DemoText",
            "\n\n{n} proposals waiting for a person still wait for you: this demo approves "
            "nothing.",
        ).format(n=waiting)
    return head + _after()
