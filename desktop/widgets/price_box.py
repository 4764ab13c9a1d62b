"""Settings' Prices group: what the remote model costs per million tokens, so a run's usage
shows a cost. Empty: not set (costs show as unknown). The core checks the numbers on save."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from desktop.i18n import QT_TRANSLATE_NOOP

PRICE_KEYS = ("openai.price_input_per_mtok", "openai.price_output_per_mtok")
LABELS = (
    QT_TRANSLATE_NOOP("PricesBox", "Input, $ per 1M tokens"),
    QT_TRANSLATE_NOOP("PricesBox", "Output, $ per 1M tokens"),
)
Price = float | str | None
"""A price as typed: a number, the text when it is none (the save says why), None: unset."""


class PricesBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Prices (for a run's cost)"))
        form = QFormLayout(self)
        self.fields: dict[str, QLineEdit] = {}
        for key, source in zip(PRICE_KEYS, LABELS, strict=True):
            label = self.tr(source)
            field = QLineEdit()
            field.setPlaceholderText(self.tr("not set: the cost shows as unknown"))
            field.setAccessibleName(label)
            field.setToolTip(
                self.tr("The setting {key}; the offline model always costs 0.").format(key=key)
            )
            form.addRow(label, field)
            self.fields[key] = field

    def page(self) -> QWidget:
        """The Settings tab that holds this box, with a word on what the prices do."""
        page = QWidget()
        layout = QVBoxLayout(page)
        intro = QLabel(
            self.tr(
                "A run's usage shows its requests and tokens; with both prices set, a remote run "
                "shows its cost too. The offline model costs nothing."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self)
        layout.addStretch(1)
        return page

    def load(self, settings: Mapping[str, object]) -> None:
        for key, field in self.fields.items():
            value = settings.get(key)
            field.setText(f"{value:g}" if isinstance(value, int | float) else "")

    def value(self, key: str) -> Price:
        text = self.fields[key].text().strip()
        if not text:
            return None
        try:
            return float(text)
        except ValueError:
            return text  # refused by the core with the setting's own words
