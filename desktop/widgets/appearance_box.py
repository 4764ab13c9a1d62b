"""Settings' Appearance group: the `ui.theme` choice (as the system, light or dark), shown at
once while the dialog is open and put back when it is cancelled. BRIEFDESK_THEME, when set,
wins: the choice is then stored but says it waits. Also `ui.notifications`: desktop
notifications when a decision waits (desktop.notifications), and `ui.language`, which applies
at the next start (desktop.i18n)."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QWidget

from desktop import theme


class AppearanceBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Appearance"))
        self.initial = "system"
        self.theme = QComboBox()
        for key, label in theme.THEME_CHOICES:
            self.theme.addItem(theme.words(label), key)
        self.theme.setAccessibleName(self.tr("Theme"))
        forced = os.environ.get(theme.THEME_ENV, "").lower()
        if forced in ("dark", "light"):
            self.theme.setToolTip(
                self.tr("{name} is set: it wins over this choice while it is set.").format(
                    name=f"{theme.THEME_ENV}={forced}"
                )
            )
        self.theme.currentIndexChanged.connect(lambda _index: theme.apply_choice(self.value()))
        self.notifications = QCheckBox(self.tr("Notify me when a decision waits"))
        self.notifications.setChecked(True)
        self.notifications.setToolTip(
            self.tr(
                "A desktop notification when a proposal or a question waits and BriefDesk is not "
                "the active window, and a reminder shortly before a proposal expires. It only "
                "opens the proposal: nothing is decided from a notification."
            )
        )
        self.language = QComboBox()
        # each language in its own words; only "System" is in the window's language
        for key, label in (
            ("system", self.tr("System")),
            ("en", "English"),
            ("zh_CN", "中文（简体）"),
        ):
            self.language.addItem(label, key)
        self.language.setAccessibleName(self.tr("Language"))
        self.language.setToolTip(self.tr("The window's language changes at the next start."))
        form = QFormLayout(self)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", QLabel(self.tr("The language applies the next time BriefDesk starts.")))
        form.addRow("", self.notifications)

    def load(self, value: object) -> None:
        self.initial = value if isinstance(value, str) else "system"
        self.theme.blockSignals(True)  # the theme in use already: nothing to apply
        self.theme.setCurrentIndex(max(0, self.theme.findData(self.initial)))
        self.theme.blockSignals(False)

    def load_language(self, value: object) -> None:
        self.language.setCurrentIndex(max(0, self.language.findData(value or "system")))

    def load_notifications(self, value: object) -> None:
        self.notifications.setChecked(value is not False)

    def value(self) -> str:
        return str(self.theme.currentData())

    def revert(self) -> None:
        """Cancelled: the theme the dialog opened with."""
        theme.apply_choice(self.initial)
