"""The window's language (desktop.i18n): the committed Chinese translation covers every string
that goes through tr(); `--lang`, the `ui.language` mirror and the locale choose it; the real
window and approval dialog read in Chinese and back in English; the CLI's JSON never changes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot

from desktop import i18n
from desktop.app import build_window, parse_args, start_language
from desktop.i18n import build
from desktop.widgets.approval_dialog import ApprovalDialog
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow, open_workspace, started_bridge

QUESTION = "How do checkpoints make agent runs durable?"
COMMITTED = i18n.HERE / "briefdesk_zh_CN.ts"


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(ts).getroot()
    found = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found[(name, message.findtext("source") or "")] = message
    return found


def finished(message: ET.Element) -> bool:
    translation = message.find("translation")
    if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
        return False
    forms = translation.findall("numerusform")
    texts = [f.text for f in forms] if forms else [translation.text]
    return all((text or "").strip() for text in texts)


def test_every_tr_string_has_a_finished_chinese_translation(tmp_path: Path) -> None:
    extracted = tmp_path / "extracted.ts"
    build.update(extracted, "zh_CN")  # what desktop/ asks to translate today
    wanted = messages(extracted)
    assert len(wanted) > 100, "lupdate found the tr() strings"
    have = messages(COMMITTED)
    missing = [key for key in wanted if key not in have or not finished(have[key])]
    assert not missing, (
        "strings without a finished zh_CN translation (python -m desktop.i18n.build --update, "
        f"then translate them in {COMMITTED.name}): {missing}"
    )


@pytest.fixture
def qm() -> Path:
    built = build.build()
    assert i18n.qm_path("zh_CN") in built
    return i18n.qm_path("zh_CN")


@pytest.fixture
def language(qapp: QApplication, qm: Path, tmp_path: Path) -> Iterator[Any]:
    """start_language as main() calls it; English again afterwards, for the other tests."""
    ini = tmp_path / "mirror.ini"
    yield lambda lang, mirror=None: start_language(qapp, lang, mirror_settings(ini, mirror))
    i18n.install_translators(qapp, "en")


def mirror_settings(ini: Path, value: str | None) -> QSettings:
    settings = QSettings(str(ini), QSettings.Format.IniFormat)
    settings.remove(i18n.QSETTINGS_KEY)
    if value is not None:
        settings.setValue(i18n.QSETTINGS_KEY, value)
    return settings


def test_the_locale_the_mirror_and_lang_choose_in_that_order(
    language: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert language(None) == "zh_CN"  # `system` (nothing saved) follows LANG
    assert language(None, "system") == "zh_CN"
    assert language(None, "en") == "en"  # the setting wins over the locale
    assert language(parse_args(["--lang", "zh_CN"]).lang, "en") == "zh_CN"  # --lang wins
    assert language(parse_args(["--lang", "en"]).lang, "zh_CN") == "en"
    monkeypatch.setenv("LC_MESSAGES", "en_GB.UTF-8")  # before LANG, as gettext reads them
    assert language(None, "system") == "en"
    monkeypatch.setenv("LC_ALL", "zh_TW.UTF-8")
    assert i18n.resolve("system") == "zh_CN"


def menu_titles(window: Any) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def test_lang_zh_cn_gives_chinese_menus_and_en_gives_english_back(
    qtbot: QtBot, home: Path, tmp_path: Path, language: Any
) -> None:
    settings = QSettings(str(tmp_path / "BriefDesk.ini"), QSettings.Format.IniFormat)
    assert language(parse_args(["--lang", "zh_CN"]).lang) == "zh_CN"
    window = build_window(home, settings)
    qtbot.addWidget(window)
    assert menu_titles(window) == [
        "文件(&F)", "运行(&R)", "审阅(&V)", "演示(&D)", "帮助(&H)"
    ]  # fmt: skip
    assert window.settings_action.text() == "设置(&S)…"
    assert window.inbox_action.text() == "待办(&I)"
    assert window.state_label.text() in ("正在打开主目录…", "未选择运行")  # the status bar
    window.close()
    assert language(parse_args(["--lang", "en"]).lang) == "en"
    english = build_window(home, settings)
    qtbot.addWidget(english)
    assert menu_titles(english) == ["&File", "&Run", "Re&view", "&Demo", "&Help"]


def test_the_approval_dialog_reads_in_chinese(
    qtbot: QtBot, home: Path, language: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_workspace(home) as ws:
        run = ws.start_run(QUESTION, artifacts=home / "artifacts-zh")
    assert run["status"] == "waiting_approval", run
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert language(None, "system") == "zh_CN"
    with started_bridge(qtbot, home) as bridge:
        dialog = ApprovalDialog(bridge, run["approvals"][0]["id"], "alice")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
        names = {b.accessibleName() or b.text() for b in dialog.findChildren(QPushButton)}
        texts = {b.text() for b in dialog.findChildren(QPushButton)}
        assert {"修改(&E)…", "拒绝(&R)…", "要求修改(&H)…", "关闭"} <= texts, texts
        assert any(t.startswith("批准") for t in texts), texts
        assert "Approve" not in " ".join(names | texts)
        dialog.close()


def test_cli_json_is_the_same_in_chinese(home: Path) -> None:
    cli = CliRunner(home)
    cli("settings", "set", "ui.language", "zh_CN", check=True)
    english = cli("settings", "get", env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    chinese = cli("settings", "get", env={"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8"})
    assert english.code == chinese.code == 0, chinese.stdout
    assert english.body == chinese.body
    assert "zh_CN" in chinese.stdout  # the setting is there, its key and value as stored
    refused = cli("timeline", "no-such-run", env={"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8"})
    assert refused.body == cli("timeline", "no-such-run").body
    assert refused.body["error"]["code"] == "not_found", refused.body


def test_settings_language_is_stored_and_mirrored_for_the_next_start(
    qtbot: QtBot, home: Path, make_window: MakeWindow, language: Any
) -> None:
    window = make_window(home)
    qtbot.waitUntil(lambda: bool(window.context.settings))
    window.settings_action.trigger()
    dialog = window.settings_dialog
    combo = dialog.appearance.language
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "System",
        "English",
        "中文（简体）",
    ]
    assert combo.currentData() == "system"
    combo.setCurrentIndex(combo.findData("zh_CN"))
    with qtbot.waitSignal(dialog.accepted, timeout=15_000):
        dialog.save()
    with open_workspace(home) as ws:
        assert ws.settings()["ui.language"] == "zh_CN"
    assert window.qsettings.value(i18n.QSETTINGS_KEY) == "zh_CN"
    # The next start reads the mirror before the window exists (main's own path).
    app = QApplication.instance()
    assert app is not None
    assert start_language(app, None, window.qsettings) == "zh_CN"
