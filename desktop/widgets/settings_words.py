"""The Settings dialog's fixed words: providers, APIs, permission modes, the team database's
introduction and the key's status. Marked for lupdate in the dialog's context, translated where
the dialog shows them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from agent_core.contract.views import SecretStatusView
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.plain_errors import keyring_backend_name

PROVIDERS = (
    ("offline", QT_TRANSLATE_NOOP("SettingsDialog", "Offline (built in, no network)")),
    ("openai", QT_TRANSLATE_NOOP("SettingsDialog", "OpenAI")),
    ("compatible", QT_TRANSLATE_NOOP("SettingsDialog", "OpenAI-compatible endpoint")),
)
APIS = (
    ("chat", QT_TRANSLATE_NOOP("SettingsDialog", "Chat Completions (most compatible servers)")),
    ("responses", QT_TRANSLATE_NOOP("SettingsDialog", "Responses (OpenAI)")),
)
MODES = (
    ("default", QT_TRANSLATE_NOOP("SettingsDialog", "Default: ask before every write")),
    (
        "acceptEdits",
        QT_TRANSLATE_NOOP("SettingsDialog", "Accept edits: writes inside the artifacts folder run"),
    ),
    (
        "dangerouslySkipPermissions",
        QT_TRANSLATE_NOOP("SettingsDialog", "Skip permissions (dangerous)"),
    ),
)

TEAM_INTRO = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "Several desks can share one PostgreSQL database: each desk then sees every run and "
    "proposal of the team, and a reviewer decides from any desk. The corpus, long-term memory "
    "and these settings stay on this computer; the database password stays in the system "
    "keyring, never in a file.",
)


def describe_key_status(status: SecretStatusView) -> str:
    where = keyring_backend_name(str(status.get("backend", "")))
    if status.get("stored"):
        said = QCoreApplication.translate("SettingsDialog", "A key is stored in {where}.")
    else:
        said = QCoreApplication.translate("SettingsDialog", "No key stored yet ({where}).")
    return said.format(where=where)
