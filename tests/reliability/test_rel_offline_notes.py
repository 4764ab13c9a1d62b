"""The offline model and what a person tells it (issue 24, item 7), through `briefdesk-cli`
subprocesses on a real home:

- a change request naming a file the sandbox refuses ("call it .bashrc", "save it as
  ../../etc/x.md") never ends the run `succeeded` with nothing saved and no word: the refused
  call is `blocked`, the model proposes the brief again under the name the person saw, and says
  which name was refused and why (in that turn and in its final answer);
- long-term memory holds only what the person said about the audience ("for a non-technical
  manager", "写给产品经理"), never a topic of the question ("... for side effects"), and a
  topic remembered by an older version is not stamped on later briefs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_core.models.audience import audience_of
from tests.support.cli import CliRunner

QUESTION = "How do checkpoints make agent runs durable?"


def _events(cli: CliRunner, run_id: str, kind: str) -> list[dict[str, Any]]:
    events = cli("timeline", run_id, check=True).body["events"]
    return [e for e in events if e["kind"] == kind]


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


# -- a file name the sandbox refuses ---------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "refused", "code"),
    [
        ("call it .bashrc", ".bashrc", "write_forbidden"),
        ("save it as ../../etc/x.md, shorter", "../../etc/x.md", "path_outside_scope"),
        ("save it as notes/.bashrc", "notes/.bashrc", "write_forbidden"),  # was `succeeded`
    ],
)
def test_a_refused_file_name_is_said_and_the_brief_comes_back_under_the_old_name(
    cli: CliRunner, home: Path, note: str, refused: str, code: str
) -> None:
    run = cli("run", "--question", QUESTION, check=True).body
    [first] = run["approvals"]
    cli("approvals", "reject", first["id"], "--reviewer", "bob", "--reason", note, "--revise",
        check=True)  # fmt: skip

    resumed = cli("resume", run["run_id"], check=True).body

    # Never `succeeded` with nothing saved: a person decides the brief again, same name.
    assert resumed["status"] == "waiting_approval", resumed
    [again] = resumed["approvals"]
    assert again["target"] == first["target"] and again["id"] != first["id"]
    if "shorter" in note:  # the rest of the note still counts
        assert len(again["args"]["content"]) < len(first["args"]["content"])
    [blocked] = _events(cli, run["run_id"], "blocked")
    assert (blocked["tool"], blocked["data"]["code"]) == ("save_brief", code)
    said = [t for e in _events(cli, run["run_id"], "model_turn") if (t := e["data"]["text"])]
    assert len(said) == 1 and refused in said[0], said
    assert first["args"]["relative_path"] in said[0]

    cli("approvals", "approve", again["id"], "--reviewer", "bob", check=True)
    done = cli("resume", run["run_id"], check=True).body
    assert done["status"] == "succeeded"
    assert refused in done["output"] and first["args"]["relative_path"] in done["output"]
    assert _files(home / "artifacts") == [Path(first["target"])]


# -- the audience: only what the person said about it ----------------------------------------

SAID = [
    ("Explain checkpoints for a non-technical manager.", "non-technical manager"),
    ("How should approvals work, for executives?", "executives"),
    ("Write a brief on idempotency keys for a non-technical audience.", "non-technical audience"),
    ("What is a side-effect ledger, for product managers on my team?", "product managers"),
    ("写给产品经理：检查点如何让智能体的运行在崩溃后恢复？", "产品经理"),
    ("请给产品经理看的简报：什么是幂等键？", "产品经理"),
    ("面向新入职的工程师，解释检查点。", "新入职的工程师"),
]
TOPICS = [
    "How do idempotency keys protect against duplicates for side effects?",
    "What should a ledger record for side effects?",
    "Is WAL mode good for readers and writers?",
    "How do I look for the person who approved a write?",
    "Is this safe for users to run?",
    "检查点对副作用有什么用？",
    "面向对象的设计如何影响检查点？",
    "为副作用设计幂等键有哪些要点？",
    "给我解释一下幂等键",
]


@pytest.mark.parametrize(("question", "audience"), SAID)
def test_what_the_person_says_about_the_audience_is_the_audience(
    question: str, audience: str
) -> None:
    assert audience_of(question) == audience


@pytest.mark.parametrize("question", TOPICS)
def test_a_topic_of_the_question_is_no_audience(question: str) -> None:
    assert audience_of(question) is None


def _memories(cli: CliRunner) -> list[str]:
    return [m["value"] for m in cli("memory", "list", check=True).body["memories"]]


def test_memory_keeps_a_said_audience_and_never_a_topic(cli: CliRunner) -> None:
    for topic in ("How do idempotency keys protect against duplicates for side effects?",
                  "检查点对副作用有什么用？"):  # fmt: skip
        run = cli("run", "--question", topic, check=True).body
        assert "remember_audience" not in json.dumps(_events(cli, run["run_id"], "model_turn"))
        content = run["approvals"][0]["args"]["content"]
        assert "_Audience:" not in content and "_读者：" not in content
    assert _memories(cli) == []

    zh = cli("run", "--question", "写给产品经理：什么是幂等键，它应该如何生成？", check=True).body
    assert _memories(cli) == ["产品经理"]
    assert "_读者：产品经理_" in zh["approvals"][0]["args"]["content"]
    cli("run", "--question", "Explain checkpoints for a non-technical manager.", check=True)
    assert _memories(cli) == ["non-technical manager"]  # one audience: the newest replaces it
    later = cli("run", "--question", "什么是幂等键，它应该如何生成？", check=True).body
    assert "_读者：non-technical manager_" in later["approvals"][0]["args"]["content"]


def test_a_topic_remembered_by_an_older_version_is_not_stamped_on_later_briefs(
    cli: CliRunner, tmp_path: Path
) -> None:
    """A model (here a scripted one, as the old offline one did) stored a topic as audience."""
    script = tmp_path / "remember.json"
    script.write_text(
        json.dumps([{"call": "remember_audience", "args": {"audience": "side effects"}},
                    {"say": "ok"}]),
        encoding="utf-8",
    )  # fmt: skip
    cli("run", "--question", "q", "--model", f"scripted:{script}", check=True)
    assert _memories(cli) == ["side effects"]

    for question in (QUESTION, "检查点如何让智能体的运行在崩溃后恢复？"):
        content = cli("run", "--question", question, check=True).body["approvals"][0]["args"]
        assert "side effects" not in content["content"].split("\n\n")[1], content
        assert "_Audience:" not in content["content"] and "_读者：" not in content["content"]
