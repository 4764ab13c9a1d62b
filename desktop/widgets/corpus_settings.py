"""Settings ▸ Corpus: the folder runs read when they name none (the setting `corpus.folder`).

Empty means the home's `corpus/`. The folder is checked by the façade when Settings saves
(`Workspace.check_corpus_folder`: it must exist, be no system folder and keep away from the
home's store, logs and artifacts); a refused one is said here and nothing is stored.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

KEY = "corpus.folder"


class CorpusFolderPage(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder = QLineEdit()
        self.folder.setPlaceholderText(self.tr("The home's corpus folder"))
        self.folder.setClearButtonEnabled(True)
        self.choose_button = QPushButton(self.tr("Choose…"))
        self.choose_button.clicked.connect(self.choose)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(self.choose_button)
        form = QFormLayout()
        form.addRow(self.tr("Corpus folder"), row)
        about = QLabel(
            self.tr(
                "Runs read the documents of this folder unless they name another one, and the "
                "Corpus tab lists them. Leave it empty for the home's corpus folder."
            )
        )
        about.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(about)
        layout.addStretch(1)

    def load(self, stored: object) -> None:
        self.folder.setText(stored if isinstance(stored, str) else "")

    def value(self) -> str | None:
        return self.folder.text().strip() or None

    def refused(self, said: str) -> str:
        """Why the folder was refused, naming it (a translated sentence may not)."""
        folder = self.folder.text().strip()
        if folder in said:
            return said
        return self.tr("Corpus folder {folder}: {why}").format(folder=folder, why=said)

    def choose(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self, self.tr("Choose the corpus folder"), self.folder.text().strip()
        )
        if chosen:
            self.folder.setText(chosen)
