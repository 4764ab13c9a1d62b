"""The settings dialog: preferences land in the home's database, the API key lands in a real OS
keyring (a throwaway Secret Service) and is never shown back, and a missing keyring is a clear
message instead of a crash."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from tests.desktop.test_app_helpers import fixture_make_window  # noqa: F401  (registers the `make_window` fixture)
from tests.support.desktop import MakeWindow
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401  (registers the `secret_service_env` fixture)
)

KEY = "sk-test-" + "Zx81Qw62Er4Ty0Ui9Op3As7D"


@pytest.fixture
def keyring_backend() -> Iterator[None]:
    previous = keyring.get_keyring()
    yield
    keyring.set_keyring(previous)


def open_dialog(qtbot: QtBot, window: Any) -> Any:
    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(lambda: dialog.key_status.text() != "Checking the keyring…", timeout=15_000)
    return dialog


def test_preferences_are_saved_in_the_home_database(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    qtbot.waitUntil(lambda: bool(window.context.settings))
    dialog = open_dialog(qtbot, window)
    dialog.provider.setCurrentIndex(dialog.provider.findData("compatible"))
    assert dialog.base_url.isEnabled()
    dialog.base_url.setText("http://127.0.0.1:8080/v1")
    dialog.model_name.setText("local-model")
    dialog.mode.setCurrentIndex(dialog.mode.findData("acceptEdits"))
    dialog.ttl.setValue(120)
    dialog.reviewer.setText("dana")
    dialog.network_enabled.setChecked(True)
    dialog.allowlist.setText("Example.org, docs.python.org")
    dialog.prices.fields["openai.price_input_per_mtok"].setText("0.15")
    dialog.prices.fields["openai.price_output_per_mtok"].setText(" 0.6 ")
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        dialog.save()  # written through the bridge; the dialog closes when it is stored
    ws = Workspace(home)
    stored = ws.settings()
    ws.close()
    assert stored["model"] == "openai"
    assert stored["openai.base_url"] == "http://127.0.0.1:8080/v1"
    assert stored["openai.model"] == "local-model"
    assert stored["mode"] == "acceptEdits"
    assert stored["approval_ttl"] == 120
    assert stored["reviewer"] == "dana"
    assert stored["network.enabled"] is True
    assert stored["network.allowlist"] == ["example.org", "docs.python.org"]
    assert (stored["openai.price_input_per_mtok"], stored["openai.price_output_per_mtok"]) == (
        0.15,
        0.6,
    )
    # The window picked the new defaults up for the next run.
    assert window.context.settings["reviewer"] == "dana"
    assert window.run_form.model.currentData() == "openai"
    assert window.run_form.mode.currentData() == "acceptEdits"
    # Reopened, the dialog shows what is stored.
    again = open_dialog(qtbot, window)
    assert again.provider.currentData() == "compatible" and again.ttl.value() == 120
    assert again.prices.fields["openai.price_input_per_mtok"].text() == "0.15"
    again.prices.fields["openai.price_output_per_mtok"].setText("-1")
    again.save()  # refused by the core, in the setting's own words; nothing is stored
    qtbot.waitUntil(lambda: again.error_label.isVisible(), timeout=10_000)
    assert "non-negative number" in again.error_label.text()
    again.prices.fields["openai.price_output_per_mtok"].clear()  # empty: not set
    with qtbot.waitSignal(again.accepted, timeout=10_000):
        again.save()
    ws = Workspace(home)
    unset = ws.settings()["openai.price_output_per_mtok"]
    ws.close()
    assert unset is None


def test_api_key_goes_to_the_os_keyring_and_is_never_shown_back(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    secret_service_env: SecretServiceEnv,
    keyring_backend: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in secret_service_env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("BRIEFDESK_OPENAI_API_KEY", raising=False)
    from keyring.backends import SecretService

    keyring.set_keyring(SecretService.Keyring())
    window = make_window(home)
    dialog = open_dialog(qtbot, window)
    assert dialog.key_status.text().startswith("No key stored yet")
    assert dialog.key_field.echoMode() == QLineEdit.EchoMode.Password
    dialog.key_field.setText(KEY)
    dialog.store_key_button.click()
    qtbot.waitUntil(lambda: dialog.key_status.text().startswith("A key is stored"), timeout=15_000)
    assert dialog.key_field.text() == "", "stored: the field forgets the key"
    assert "Secret Service keyring" in dialog.key_status.text()
    lookup = subprocess.run(
        ["secret-tool", "lookup", "service", "BriefDesk", "username", "openai"],
        capture_output=True,
        text=True,
        env=child_env(secret_service_env),
        timeout=20,
    )
    assert lookup.stdout.strip() == KEY, "the key is in the Secret Service, read from outside"
    texts = [w.text() for w in dialog.findChildren(QLineEdit)] + [dialog.key_status.text()]
    assert all(KEY not in t for t in texts)
    dialog.reject()
    window.close()
    assert KEY.encode() not in (home / "state.db").read_bytes()
    for wal in home.glob("state.db*"):
        assert KEY.encode() not in wal.read_bytes()


def test_missing_keyring_is_a_clear_message(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    keyring_backend: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BRIEFDESK_OPENAI_API_KEY", raising=False)
    keyring.set_keyring(fail.Keyring())
    window = make_window(home)
    dialog = open_dialog(qtbot, window)
    assert dialog.key_status.text().startswith("The system keyring is unavailable")
    dialog.key_field.setText(KEY)
    dialog.store_key_button.click()
    qtbot.waitUntil(lambda: "not stored" in dialog.key_status.text())
    assert dialog.key_status.text().startswith("The key was not stored. The system keyring")
    assert KEY not in dialog.key_status.text()
    dialog.reject()
