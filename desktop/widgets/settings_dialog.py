"""Preferences (stored in the home's database) and the API key (stored in the OS keyring);
on a tab of its own, the team database (desktop/widgets/team_settings.py).

Every read and write goes through the bridge. The key field is a password field that is never
filled back: the dialog shows only whether a key is stored, and in which backend. Presets fill
the endpoint (OpenAI, Ollama, LM Studio, vLLM); "Test connection" makes one small request to the
endpoint as the dialog shows it, in a worker thread behind the bridge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypedDict, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.presets import PRESETS as PROVIDER_PRESETS
from agent_core.contract.presets import Preset
from agent_core.contract.views import SecretStatusView
from desktop import theme
from desktop.jobs import AsyncJob, Job
from desktop.models.plain_errors import plain_exception
from desktop.widgets.appearance_box import AppearanceBox
from desktop.widgets.corpus_settings import CorpusFolderPage
from desktop.widgets.guarded_submit import OnError, submit_async_while_open, submit_while_open
from desktop.widgets.mcp_settings import McpServersPage
from desktop.widgets.price_box import Price, PricesBox
from desktop.widgets.settings_words import APIS, MODES, PROVIDERS, TEAM_INTRO, describe_key_status
from desktop.widgets.team_settings import TeamDatabaseBox, prepare_store
from desktop.widgets.whole_label import WholeLabel
from desktop.widgets.window_fit import WholeScroll, fit_dialog

if TYPE_CHECKING:
    from agent_core.facade.base import Settings  # what `settings()` returns
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge

KEY_NAME = "openai"
T = TypeVar("T")

# The dialog's values by public setting key (the keys have dots: the functional form).
SettingsValues = TypedDict(
    "SettingsValues",
    {
        "model": str,
        "openai.base_url": str,
        "openai.model": str,
        "openai.api": str,
        "openai.stream": bool,
        "openai.price_input_per_mtok": Price,
        "openai.price_output_per_mtok": Price,
        "mode": str,
        "approval_ttl": int,
        "reviewer": object,
        "network.enabled": bool,
        "network.allowlist": list[str],
        "ui.theme": str,
        "ui.language": str,
        "ui.notifications": bool,
        "corpus.folder": str | None,
    },
)
OPENAI_URL = "https://api.openai.com/v1"
OK_COLOUR, ERROR_COLOUR = "#2e9d4f", "#d64545"


class SettingsDialog(QDialog):
    saved = Signal(object)  # the settings after saving
    store_changed = Signal()  # the `db.url` setting was saved with another value
    corpus_folder_changed = Signal()  # the `corpus.folder` setting was saved with another value

    def __init__(
        self, bridge: Bridge, settings: Mapping[str, object], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.initial: dict[str, object] = dict(settings)
        self.setWindowTitle(self.tr("BriefDesk settings"))
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        general = QWidget()
        general_layout = QVBoxLayout(general)
        general_layout.addWidget(self._model_group())
        general_layout.addWidget(self._key_group())
        general_layout.addWidget(self._permissions_group())
        general_layout.addWidget(self._network_group())
        self.appearance = AppearanceBox()
        general_layout.addWidget(self.appearance)
        # A tab of its own: the dialog keeps fitting a laptop's screen.
        stored_url = settings.get("db.url")
        self.team_box = TeamDatabaseBox(bridge, stored_url if isinstance(stored_url, str) else None)
        self.team_box.texts_changed.connect(self._fit)
        team = QWidget()
        team_layout = QVBoxLayout(team)
        intro = QLabel(self.tr(TEAM_INTRO))
        intro.setWordWrap(True)
        team_layout.addWidget(intro)
        team_layout.addWidget(self.team_box)
        team_layout.addStretch(1)
        self.tabs = QTabWidget()
        self.general_scroll = WholeScroll(general)  # scrolls only on a small screen
        self.tabs.addTab(self.general_scroll, self.tr("General"))
        self.team_page = team
        self.tabs.addTab(team, self.tr("Team database"))
        self.corpus_page = CorpusFolderPage()
        self.tabs.addTab(self.corpus_page, self.tr("Corpus"))
        self.prices = PricesBox()  # a tab of its own too: General stays as tall as it was
        self.tabs.addTab(self.prices.page(), self.tr("Prices"))
        self.tabs.addTab(McpServersPage(bridge), self.tr("MCP servers"))
        self.tabs.currentChanged.connect(lambda _index: self._fit())
        layout.addWidget(self.tabs)
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {theme.text_colour(ERROR_COLOUR)};")
        self.error_label.setVisible(False)
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.rejected.connect(self.appearance.revert)  # a theme tried, then cancelled
        layout.addWidget(self.buttons)
        self._load(settings)
        self.refresh_key_status()

    # -- groups ---------------------------------------------------------------------------------

    def _model_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("Model"))
        form = QFormLayout(box)
        self.preset = QComboBox()
        self.preset.addItem(self.tr("Choose a preset…"), None)
        for preset in PROVIDER_PRESETS:
            # the product's name stays; the core's "(local)" is said in the window's words
            label = preset.label.replace(" (local)", self.tr(" (local)"))
            self.preset.addItem(label, preset.key)
        self.preset.activated.connect(self._preset_chosen)
        form.addRow(self.tr("Preset"), self.preset)
        self.provider = QComboBox()
        for key, label in PROVIDERS:
            self.provider.addItem(self.tr(label), key)
        self.provider.currentIndexChanged.connect(self._provider_changed)
        form.addRow(self.tr("Provider"), self.provider)
        self.base_url = QLineEdit()
        self.base_url.setPlaceholderText("http://localhost:8000/v1")
        form.addRow(self.tr("Base URL"), self.base_url)
        self.model_name = QLineEdit()
        self.model_name.setPlaceholderText("gpt-4o-mini")
        form.addRow(self.tr("Model name"), self.model_name)
        self.api = QComboBox()
        for key, label in APIS:
            self.api.addItem(self.tr(label), key)
        form.addRow("API", self.api)
        self.stream = QCheckBox(
            self.tr("Stream the model's text into the timeline as it is written")
        )
        form.addRow(self.stream)
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        # A row of its own, the whole width: beside the button, in a nested row, the wrapped
        # message got one line's height and its end was cut off.
        self.test_result = WholeLabel()
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("", self.test_button)
        form.addRow(self.test_result)
        return box

    def _key_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("API key (kept in the system keyring, never in files)"))
        form = QFormLayout(box)
        row = QHBoxLayout()
        self.key_field = QLineEdit()
        self.key_field.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_field.setPlaceholderText(self.tr("Paste a new key to store it"))
        row.addWidget(self.key_field, 1)
        self.store_key_button = QPushButton(self.tr("Store key"))
        self.store_key_button.clicked.connect(self.store_key)
        row.addWidget(self.store_key_button)
        self.delete_key_button = QPushButton(self.tr("Remove"))
        self.delete_key_button.clicked.connect(self.delete_key)
        row.addWidget(self.delete_key_button)
        form.addRow(self.tr("OpenAI key"), row)
        self.key_status = QLabel(self.tr("Checking the keyring…"))
        self.key_status.setWordWrap(True)
        form.addRow("", self.key_status)
        return box

    def _permissions_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("Approvals"))
        form = QFormLayout(box)
        self.mode = QComboBox()
        for key, label in MODES:
            self.mode.addItem(self.tr(label), key)
        form.addRow(self.tr("Permission mode"), self.mode)
        self.ttl = QSpinBox()
        self.ttl.setRange(1, 30 * 24 * 3600)
        self.ttl.setSuffix(self.tr(" s"))
        self.ttl.setToolTip(self.tr("A pending approval expires after this many seconds"))
        form.addRow(self.tr("Approval expires after"), self.ttl)
        self.reviewer = QLineEdit()
        form.addRow(self.tr("Reviewer name"), self.reviewer)
        return box

    def _network_group(self) -> QGroupBox:
        box = QGroupBox(self.tr("Network"))
        form = QFormLayout(box)
        self.network_enabled = QCheckBox(
            self.tr("Let fetch_url reach the domains below (no mode enables it)")
        )
        form.addRow(self.network_enabled)
        self.allowlist = QLineEdit()
        self.allowlist.setPlaceholderText(self.tr("example.org, docs.python.org"))
        form.addRow(self.tr("Allowed domains"), self.allowlist)
        return box

    # -- values ---------------------------------------------------------------------------------

    def _load(self, s: Mapping[str, object]) -> None:
        base_url = str(s.get("openai.base_url") or OPENAI_URL)
        provider = "offline"
        if s.get("model") == "openai":
            provider = "openai" if base_url.rstrip("/") == OPENAI_URL else "compatible"
        self.provider.setCurrentIndex(max(0, self.provider.findData(provider)))
        self.base_url.setText(base_url)
        self.model_name.setText(str(s.get("openai.model") or ""))
        self.api.setCurrentIndex(max(0, self.api.findData(s.get("openai.api", "chat"))))
        self.stream.setChecked(bool(s.get("openai.stream", True)))
        self.mode.setCurrentIndex(max(0, self.mode.findData(s.get("mode", "default"))))
        ttl = s.get("approval_ttl")
        self.ttl.setValue(int(ttl) if isinstance(ttl, int | float) and ttl else 3600)
        self.reviewer.setText(str(s.get("reviewer") or ""))
        self.network_enabled.setChecked(bool(s.get("network.enabled")))
        allowed = s.get("network.allowlist")
        self.allowlist.setText(
            ", ".join(map(str, allowed)) if isinstance(allowed, list | tuple) else ""
        )
        self.appearance.load(s.get("ui.theme"))
        self.appearance.load_language(s.get("ui.language"))
        self.appearance.load_notifications(s.get("ui.notifications", True))
        self.prices.load(s)
        self.corpus_page.load(s.get("corpus.folder"))
        self._provider_changed()

    def _provider_changed(self, *_args: object) -> None:
        provider = self.provider.currentData()
        self.base_url.setEnabled(provider == "compatible")
        for widget in (self.model_name, self.api, self.stream, self.test_button):
            widget.setEnabled(provider != "offline")
        if provider == "openai":
            self.base_url.setText(OPENAI_URL)

    def _preset_chosen(self, index: int) -> None:
        preset = next((p for p in PROVIDER_PRESETS if p.key == self.preset.itemData(index)), None)
        if preset is not None:
            self.apply_preset(preset)

    def apply_preset(self, preset: Preset) -> None:
        """Fill the endpoint fields; the person still saves (or edits the model name first)."""
        provider = "openai" if preset.base_url.rstrip("/") == OPENAI_URL else "compatible"
        self.provider.setCurrentIndex(self.provider.findData(provider))
        self.base_url.setText(preset.base_url)
        self.model_name.setText(preset.model)
        self.api.setCurrentIndex(self.api.findData(preset.api))
        self.test_result.setText(
            self.tr("This server needs an API key: store it below.")
            if preset.needs_key
            else self.tr(
                "This server usually needs no API key. Set the model name to one it serves."
            )
        )
        self.test_result.setStyleSheet("")

    def values(self) -> SettingsValues:
        provider = self.provider.currentData()
        allowlist = [d.strip().lower() for d in self.allowlist.text().split(",") if d.strip()]
        values: SettingsValues = {
            "model": "offline" if provider == "offline" else "openai",
            "openai.base_url": OPENAI_URL
            if provider == "openai"
            else self.base_url.text().strip() or OPENAI_URL,
            "openai.model": self.model_name.text().strip()
            or str(self.initial.get("openai.model") or ""),
            "openai.api": self.api.currentData(),
            "openai.stream": self.stream.isChecked(),
            "openai.price_input_per_mtok": self.prices.value("openai.price_input_per_mtok"),
            "openai.price_output_per_mtok": self.prices.value("openai.price_output_per_mtok"),
            "mode": self.mode.currentData(),
            "approval_ttl": self.ttl.value(),
            "reviewer": self.reviewer.text().strip() or self.initial.get("reviewer"),
            "network.enabled": self.network_enabled.isChecked(),
            "network.allowlist": allowlist,
            "ui.theme": self.appearance.value(),
            "ui.language": str(self.appearance.language.currentData()),
            "ui.notifications": self.appearance.notifications.isChecked(),
            "corpus.folder": self.corpus_page.value(),
        }
        return values

    def changed_values(self) -> dict[str, object]:
        return {k: v for k, v in self.values().items() if self.initial.get(k) != v}

    # -- actions (all through the bridge) -------------------------------------------------------

    def _submit(self, job: Job[T], on_done: Callable[[T], None], on_error: OnError) -> None:
        """`bridge.submit`, whose answer is dropped once the dialog is gone (closed before the
        keyring or the server answered: Qt may have deleted its widgets already)."""
        submit_while_open(self.bridge, self, lambda: True, job, on_done, on_error)

    def _submit_async(
        self, job: AsyncJob[T], on_done: Callable[[T], None], on_error: OnError
    ) -> None:
        submit_async_while_open(self.bridge, self, lambda: True, job, on_done, on_error)

    def save(self) -> None:
        team = self.team_box
        problem = team.problem()
        if problem is not None:  # e.g. a password in the URL: nothing is stored
            self.show_team()
            self.show_error(problem)
            return
        changes = self.changed_values()
        url, password, store_changed = team.url(), team.password(), team.url_changed()
        if store_changed:
            changes["db.url"] = url or None
        if not changes and not password:
            self.accept()
            return
        self.buttons.setEnabled(False)
        self.error_label.setVisible(False)

        folder_changed = "corpus.folder" in changes

        async def write(ws: Workspace) -> Settings | None:
            if folder_changed:  # a refused folder (missing, a file, the home's): nothing stored
                changes["corpus.folder"] = ws.check_corpus_folder(changes["corpus.folder"])
            # The database first: when it cannot be reached, no setting is stored either.
            await prepare_store(ws, url, password, reach=store_changed)
            result: Settings | None = None
            for key, value in changes.items():
                result = ws.set_setting(key, value)
            return result

        self._submit_async(
            write,
            on_done=lambda settings: self._saved(settings, store_changed, folder_changed),
            on_error=lambda exc: self._save_failed(exc, team=store_changed or bool(password)),
        )

    def show_team(self) -> None:
        """Bring the Team database tab forward."""
        self.tabs.setCurrentWidget(self.team_page)

    def _saved(
        self, settings: Settings | None, store_changed: bool = False, folder_changed: bool = False
    ) -> None:
        self.buttons.setEnabled(True)
        self.team_box.password_field.clear()
        if settings is not None:
            self.saved.emit(settings)
        if store_changed:
            self.store_changed.emit()
        if folder_changed:
            self.corpus_folder_changed.emit()
        self.accept()

    def _save_failed(self, exc: Exception, *, team: bool = False) -> None:
        self.buttons.setEnabled(True)
        said = plain_exception(exc)
        if isinstance(exc, BriefDeskError) and exc.details.get("key") == "corpus.folder":
            self.tabs.setCurrentWidget(self.corpus_page)  # where the folder can be mended
            said = self.corpus_page.refused(said)
        elif team:  # the team database refused: show its tab, where it can be mended
            self.show_team()
        self.show_error(said)

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(True)
        self._fit()

    def _fit(self) -> None:
        """Grow (never shrink) so every wrapped message shows whole: a long keyring message
        is never clipped, and nothing else is squeezed to make room for it."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        needed = max(layout.totalHeightForWidth(self.width()), self.sizeHint().height())
        tabs = getattr(self, "tabs", None)  # None while the dialog is still being built
        page = tabs.currentWidget() if tabs is not None else None  # its labels' height for width
        page_layout = page.layout() if page is not None else None
        if page is not None and page_layout is not None:
            page_layout.activate()
            short = page_layout.totalHeightForWidth(page.width()) - page.height()
            needed = max(needed, self.height() + short)
        if needed > self.height():
            self.resize(self.width(), needed)
            fit_dialog(self, self.parentWidget(), centre=False)  # yet never past the screen

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        fit_dialog(self, self.parentWidget())  # whole on the screen, its title bar too
        theme.retint(self)  # its coloured messages readable in the theme in use

    def test_connection(self) -> None:
        """One small request to the endpoint as shown (not yet saved), off the GUI thread."""
        values = self.values()
        self.test_button.setEnabled(False)
        self.test_result.setStyleSheet("")
        self.test_result.setText(self.tr("Asking {url}…").format(url=values["openai.base_url"]))
        self._submit_async(
            lambda ws: ws.providers_check_async(
                base_url=values["openai.base_url"],
                model=values["openai.model"],
                api=values["openai.api"],
            ),
            on_done=self._tested,
            on_error=self._test_failed,
        )

    def _tested(self, result: Mapping[str, object]) -> None:
        self.test_button.setEnabled(True)
        ok = bool(result.get("ok"))
        said = self.tr("Connected. ") if ok else self.tr("Failed. ")
        self.test_result.setText(said + str(result["message"]))
        self.test_result.setStyleSheet(f"color: {OK_COLOUR if ok else ERROR_COLOUR};")
        self._fit()
        self.general_scroll.keep_in_view(self.test_result)  # the answer, whole, on screen

    def _test_failed(self, exc: Exception) -> None:
        self.test_button.setEnabled(True)
        self.test_result.setText(plain_exception(exc))
        self.test_result.setStyleSheet(f"color: {ERROR_COLOUR};")
        self._fit()
        self.general_scroll.keep_in_view(self.test_result)

    def refresh_key_status(self) -> None:
        self._submit(
            lambda ws: ws.key_status(KEY_NAME),
            on_done=self._show_key_status,
            on_error=self._key_failed,
        )

    def store_key(self) -> None:
        key = self.key_field.text()
        if not key.strip():
            self.key_status.setText(self.tr("Paste a key first."))
            return
        # The field keeps the key until the keyring has it: a failed store loses nothing typed.
        self.store_key_button.setEnabled(False)
        self.key_status.setStyleSheet("")
        self.key_status.setText(self.tr("Storing the key…"))
        self._submit(
            lambda ws: ws.set_key(KEY_NAME, key),
            on_done=self._key_stored,
            on_error=lambda exc: self._key_failed(exc, self.tr("The key was not stored")),
        )

    def _key_stored(self, status: SecretStatusView) -> None:
        self.key_field.clear()  # stored: the dialog no longer needs to hold it
        self._show_key_status(status)

    def delete_key(self) -> None:
        self._submit(
            lambda ws: ws.delete_key(KEY_NAME),
            on_done=self._show_key_status,
            on_error=lambda exc: self._key_failed(exc, self.tr("The key was not removed")),
        )

    def _show_key_status(self, status: SecretStatusView) -> None:
        self.store_key_button.setEnabled(True)
        self.key_status.setText(describe_key_status(status))
        self.key_status.setStyleSheet("")
        self._fit()

    def _key_failed(self, exc: Exception, what: str | None = None) -> None:
        self.store_key_button.setEnabled(True)
        reason = plain_exception(exc)
        self.key_status.setText(f"{what}. {reason}" if what else reason)
        self.key_status.setStyleSheet(f"color: {theme.text_colour(ERROR_COLOUR)};")
        self._fit()
