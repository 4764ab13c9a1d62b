"""Issue 26 item 7: every label reads at WCAG AA (4.5:1) in both themes, and Settings has a
Theme choice (As the system, Light, Dark) stored as `ui.theme` and applied at once, while
BRIEFDESK_THEME, when set, still wins."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from desktop import theme
from tests.support.desktop import MakeWindow, open_workspace, started_bridge

HEX_COLOUR = re.compile(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})")


@pytest.fixture
def app() -> Iterator[QApplication]:
    """The test's QApplication, its style and palette (and the theme choice) put back after."""
    instance = QApplication.instance()
    assert isinstance(instance, QApplication)
    style, palette = instance.style().name(), instance.palette()
    yield instance
    theme.apply_choice("system")
    instance.setStyle(style)
    instance.setPalette(palette)


def weak_labels(root: QWidget) -> list[tuple[str, str, str, float]]:
    """Every label under `root` whose text colour (its palette's, after its style sheet was
    applied, and any colour its style sheet names) is under 4.5:1 on its background."""
    weak = []
    for label in root.findChildren(QLabel):
        label.ensurePolished()
        background = label.palette().color(label.backgroundRole())
        colours = [label.palette().color(label.foregroundRole())]
        colours += [QColor(c) for c in HEX_COLOUR.findall(label.styleSheet())]
        if "palette(placeholder-text)" in label.styleSheet():
            colours.append(label.palette().color(QPalette.ColorRole.PlaceholderText))
        for colour in colours:
            ratio = theme.contrast_ratio(colour, background)
            if ratio < theme.AA_CONTRAST:
                weak.append((label.text()[:40], colour.name(), background.name(), round(ratio, 2)))
    return weak


def test_the_contrast_ratio_is_wcag_relative_luminance() -> None:
    assert theme.contrast_ratio(QColor("black"), QColor("white")) == pytest.approx(21.0)
    assert theme.contrast_ratio(QColor("#777777"), QColor("white")) == pytest.approx(4.48, 0.01)
    lifted = theme.readable("#57606a", QColor("#1f2227"))  # the old dark labels: 2.5:1
    assert theme.contrast_ratio(lifted, QColor("#1f2227")) >= 4.5


@pytest.mark.parametrize("name", ["light", "dark"])
def test_every_label_reads_at_aa_in_both_themes(
    qtbot: QtBot,
    app: QApplication,
    home: Path,
    make_window: MakeWindow,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
) -> None:
    monkeypatch.setenv(theme.THEME_ENV, name)
    theme.apply_theme(app)
    assert theme.is_dark(app.palette()) == (name == "dark")
    palette = app.palette()
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.PlaceholderText):
        for ground in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
            ratio = theme.contrast_ratio(palette.color(role), palette.color(ground))
            assert ratio >= theme.AA_CONTRAST, (name, role, ground, ratio)
    with open_workspace(home) as ws:
        ws.start_run("How do checkpoints make agent runs durable?")  # a pending approval
    window = make_window(home)
    qtbot.waitUntil(lambda: "1 pending" in window.approvals_label.text(), timeout=10_000)
    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(lambda: dialog.key_status.text() != "Checking the keyring…", timeout=15_000)
    dialog.show_error("The team database refused the password.")  # a coloured message
    assert weak_labels(window) == []
    assert weak_labels(dialog) == []
    dialog.reject()


def palette_is_dark(app: QApplication) -> bool:
    return theme.is_dark(app.palette())


def test_settings_theme_choice_applies_at_once_and_is_stored(
    qtbot: QtBot, app: QApplication, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop.widgets.settings_dialog import SettingsDialog

    monkeypatch.delenv(theme.THEME_ENV, raising=False)
    theme.apply_theme(app)
    with started_bridge(qtbot, home) as bridge:
        with open_workspace(home) as ws:
            settings = dict(ws.settings())
        assert settings["ui.theme"] == "system"
        dialog = SettingsDialog(bridge, settings)
        qtbot.addWidget(dialog)
        dialog.show()
        combo = dialog.appearance.theme
        assert [combo.itemData(i) for i in range(combo.count())] == ["system", "light", "dark"]
        combo.setCurrentIndex(combo.findData("dark"))
        assert palette_is_dark(app)  # at once, before saving
        label = QLabel("a message", dialog)
        label.setStyleSheet("color: #57606a;")  # 2.5:1 on the dark window
        combo.setCurrentIndex(combo.findData("light"))
        combo.setCurrentIndex(combo.findData("dark"))  # switched back: retinted on the way
        assert weak_labels(dialog) == []
        with qtbot.waitSignal(dialog.accepted, timeout=10_000):
            dialog.save()
        with open_workspace(home) as ws:
            assert ws.settings()["ui.theme"] == "dark"

        # Cancelled, a theme tried is put back.
        again = SettingsDialog(bridge, {**settings, "ui.theme": "dark"})
        qtbot.addWidget(again)
        again.show()
        again.appearance.theme.setCurrentIndex(again.appearance.theme.findData("light"))
        assert not palette_is_dark(app)
        again.reject()
        assert palette_is_dark(app)

        # BRIEFDESK_THEME, when set, wins over the choice.
        monkeypatch.setenv(theme.THEME_ENV, "light")
        theme.apply_choice("light")
        theme.apply_choice("dark")
        assert not palette_is_dark(app)


def test_the_window_follows_the_stored_theme(
    qtbot: QtBot,
    app: QApplication,
    home: Path,
    make_window: MakeWindow,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(theme.THEME_ENV, raising=False)
    with open_workspace(home) as ws:
        ws.set_setting("ui.theme", "dark")
    theme.apply_theme(app)
    window = make_window(home)
    qtbot.waitUntil(lambda: window.context.settings.get("ui.theme") == "dark", timeout=10_000)
    qtbot.waitUntil(lambda: palette_is_dark(app), timeout=5_000)
    window.context.set_settings({**window.context.settings, "ui.theme": "light"})
    assert not palette_is_dark(app)
