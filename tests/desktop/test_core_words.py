"""What the core hands the window, in the window's words (desktop/i18n/core_words.py): every
reason agent_core's policy writes, its rule descriptions and statuses read in Chinese, read as
they always did in English, and the core's own values never change. The reasons come from the
core's real `decide`, so a sentence changed there shows up here, not as English in the window."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.runs.unknown_outcome import UNKNOWN_REASON
from agent_core.tools.policy import Mode, Rule, decide
from agent_core.tools.specs import Tier
from desktop import i18n
from desktop.i18n import build, core_words, dates
from tests.support.english_words import english_words


def policy_reasons() -> list[str]:
    """Every reason `decide` gives, for every tier and mode, with and without a rule."""
    rule = Rule("r1", "save_brief", "/home/a/artifacts/briefs", "home", None)
    found = set()
    for tier in Tier:
        for mode in Mode:
            for rules in ([], [rule]):
                for revision, artifact_write in itertools.product((1, 2), (True, False)):
                    found.add(
                        decide(
                            tier,
                            "save_brief",
                            mode=mode,
                            target="/home/a/artifacts/briefs/x.md",
                            run_id="run-1",
                            rules=rules,
                            revision=revision,
                            artifact_write=artifact_write,  # False: an MCP server's tool
                        ).reason
                    )
    found.add("edited by 王芳: writes a file: a person approves every write")
    found.add(UNKNOWN_REASON)  # an MCP write asked again after its outcome became unknown
    found.add("A person asked to revert approval ap-1: remove the file it created.")
    found.add("A person asked to revert approval ap-1: put back its content.")
    return sorted(found)


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    build.build()
    assert i18n.install_translators(qapp, "zh_CN") == "zh_CN"
    yield
    i18n.install_translators(qapp, "en")


def test_in_english_the_core_reads_as_it_always_did(qapp: QApplication) -> None:
    i18n.install_translators(qapp, "en")
    for reason in policy_reasons():
        assert core_words.reason(reason) == reason
    for run_status in RunStatus:
        assert core_words.run_status(run_status) == str(run_status)
    for approval_status in ApprovalStatus:
        assert core_words.approval_status(approval_status) == str(approval_status)
    rule = Rule("r1", "save_brief", "/a/briefs", "run", "run-1")
    assert core_words.rule(rule.tool, rule.folder, rule.scope) == rule.describe()


def test_in_chinese_every_core_reason_status_tier_and_step_is_translated(chinese: None) -> None:
    reasons = policy_reasons()
    assert len(reasons) >= 8, reasons
    for reason in reasons:
        said = core_words.reason(reason)
        assert said != reason and not english_words(said), (reason, said)
    assert core_words.reason("Shorter, please.") == "Shorter, please."  # a person's words stay
    for status in RunStatus:
        assert not english_words(core_words.run_status(status)), status
    for approval_status in ApprovalStatus:
        assert not english_words(core_words.approval_status(approval_status)), approval_status
    for tier in Tier:
        assert not english_words(core_words.risk(tier)), tier
    for step in ("model", "tools", "answer", "done", "run save_brief", "revise save_brief"):
        assert not english_words(core_words.next_step(step)), step
    assert core_words.mode("acceptEdits") == "自动接受编辑"
    assert core_words.risk("write") == "写入"


def test_dates_follow_the_windows_locale(qapp: QApplication, chinese: None) -> None:
    at = "2026-12-02T08:05:09+00:00"
    chinese_time = dates.local_time(at)
    assert chinese_time.startswith("2026/12/"), chinese_time
    assert chinese_time.endswith(":09"), chinese_time  # seconds kept (in any time zone)
    i18n.install_translators(qapp, "en")
    english = dates.local_time(at)
    assert english != chinese_time and ":09" in english, english
    assert dates.local_time(None) == "—"
