"""The Settings dialog's "Team database" section: the PostgreSQL URL (never with a password),
the password (into the OS keyring only), and a Test connection that runs off the GUI thread.

Every check that reaches the network or the keyring goes through the bridge and, there, into a
worker thread (`asyncio.to_thread`): the GUI thread and the bridge's loop never wait on a
server or a D-Bus call. The URL's form is checked on the spot (a pure check, no I/O), so a
password typed into the URL is refused before anything is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypedDict, TypeVar

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.facade.workspace import Workspace
from desktop import i18n, theme
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.jobs import AsyncJob, Job
from desktop.models import store_text
from desktop.models.plain_errors import plain_error, plain_exception
from desktop.widgets.guarded_submit import OnError, submit_async_while_open, submit_while_open

if TYPE_CHECKING:
    from agent_core.contract.views import SecretStatusView, StoreView
    from desktop.bridge import Bridge

OK_COLOUR, ERROR_COLOUR, MUTED_STYLE = "#2e9d4f", "#d64545", "color: palette(placeholder-text);"
URL_HINT = QT_TRANSLATE_NOOP(
    "TeamDatabaseBox", "postgresql://desk@db.example.org/team (empty: this computer)"
)


def url_problem(text: str) -> str | None:
    """Why `text` cannot be the `db.url` setting, in plain words (None: it can)."""
    try:
        Workspace.check_db_url(text)
    except BriefDeskError as exc:
        # the core's words in English; in another language the code's sentence
        return exc.message if i18n.active() == "en" else plain_error(exc.code, exc.message)
    return None


StoreStatus = Mapping[str, object]  # Workspace.probe_store: the `db status` of one database
T = TypeVar("T")


class PendingStore(TypedDict):
    """What Save has to do for the section."""

    url: str
    password: str
    changed: bool


async def probe(
    ws: Workspace, url: str, password: str | None, *, open_it: bool = False
) -> StoreStatus:
    return dict(await asyncio.to_thread(ws.probe_store, url, password, open_it=open_it))


async def prepare_store(ws: Workspace, url: str, password: str, *, reach: bool) -> None:
    """Before `db.url` is saved. With `reach`, the new database must answer with these
    credentials: a window that could not open its store could not even show this dialog again
    to mend it. Then a typed password goes to the keyring. Nothing is stored when the database
    cannot be reached."""
    if not url:
        return
    if reach:  # opened as the next window will open it (an empty database is initialised)
        found = await probe(ws, url, password or None, open_it=True)
        if not found["reachable"]:
            raise BriefDeskError(ErrorCode.STORAGE_UNAVAILABLE, str(found["message"]))
    if password:
        await asyncio.to_thread(ws.set_db_password, url, password)


class TeamDatabaseBox(QGroupBox):
    """The section; the dialog reads `url()` / `password()` and saves through `choose_store`."""

    problem_changed = Signal(object)  # the URL's problem in words, or None
    texts_changed = Signal()  # a message changed: the dialog may need to grow

    def __init__(self, bridge: Bridge, stored_url: str | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("Where runs, proposals and decisions live"))
        self.bridge = bridge
        self.initial_url = (stored_url or "").strip()
        self.store: StoreView | None = None
        form = QFormLayout(self)
        self.current = QLabel(self.tr("Checking…"))
        self.current.setWordWrap(True)
        form.addRow(self.tr("This window"), self.current)
        self.url_field = QLineEdit(self.initial_url)
        self.url_field.setPlaceholderText(self.tr(URL_HINT))
        self.url_field.setClearButtonEnabled(True)
        self.url_field.textChanged.connect(self._url_edited)
        self.url_field.editingFinished.connect(self.refresh_password_status)
        form.addRow(self.tr("PostgreSQL URL"), self.url_field)
        self.url_error = QLabel("")
        self.url_error.setWordWrap(True)
        self.url_error.setVisible(False)
        form.addRow("", self.url_error)
        row = QHBoxLayout()
        self.password_field = QLineEdit()
        self.password_field.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_field.setPlaceholderText(
            self.tr("Kept in the system keyring, never in files")
        )
        row.addWidget(self.password_field, 1)
        self.store_password_button = QPushButton(self.tr("Store password"))
        self.store_password_button.clicked.connect(self.store_password)
        row.addWidget(self.store_password_button)
        form.addRow(self.tr("Password"), row)
        self.password_status = QLabel("")
        self.password_status.setWordWrap(True)
        self.password_status.setVisible(False)
        form.addRow("", self.password_status)
        test_row = QHBoxLayout()
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)
        form.addRow("", test_row)
        self.test_result = QLabel("")  # its own row: a refusal takes a few lines, all shown
        self.test_result.setWordWrap(True)
        self.test_result.setVisible(False)
        form.addRow("", self.test_result)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet(MUTED_STYLE)
        form.addRow(self.note)
        self._url_edited(self.initial_url)
        self._submit(lambda ws: ws.store_view(), self._show_store, lambda _exc: None)
        self.refresh_password_status()

    # -- values ---------------------------------------------------------------------------------

    def url(self) -> str:
        return self.url_field.text().strip()

    def password(self) -> str:
        return self.password_field.text()

    def url_changed(self) -> bool:
        return self.url() != self.initial_url

    def problem(self) -> str | None:
        return url_problem(self.url())

    def _url_edited(self, _text: str) -> None:
        problem = self.problem()
        self._say(self.url_error, problem or "", ERROR_COLOUR)
        has_url = bool(self.url()) and problem is None
        self.test_button.setEnabled(has_url)
        self.store_password_button.setEnabled(has_url)
        self.password_field.setEnabled(bool(self.url()))
        self._say(self.test_result, "")  # it was about another URL
        self._explain()
        self.problem_changed.emit(problem)

    def _say(self, label: QLabel, text: str, colour: str | None = None) -> None:
        """Show `text` in `label` (hidden while empty, so no blank row is left)."""
        label.setText(text)
        label.setStyleSheet(f"color: {theme.text_colour(colour)};" if colour else "")
        label.setVisible(bool(text))
        self.texts_changed.emit()

    def _show_store(self, store: StoreView) -> None:
        self.store = store
        self.current.setText(store_text.store_label(store))
        self.current.setToolTip(store_text.store_tooltip(store))
        self._explain()
        self.texts_changed.emit()

    def _explain(self) -> None:
        """What Save will do with the URL as it stands."""
        elsewhere = store_text.chosen_elsewhere(self.store) if self.store else None
        if elsewhere:
            self.note.setText(elsewhere)
        elif not self.url_changed():
            self.note.setText(
                self.tr(
                    "Empty: runs live on this computer only. A team database lets every desk "
                    "that uses it see every run and proposal."
                )
                if not self.url()
                else self.tr(
                    "Saved. Every desk that uses this database sees every run and proposal."
                )
            )
        elif self.url():
            self.note.setText(
                self.tr(
                    "Save checks that the database can be reached, then the window reconnects to "
                    "it (runs on this computer stay in its home, unchanged)."
                )
            )
        else:
            self.note.setText(
                self.tr("Save reconnects the window to this computer's own database.")
            )

    # -- actions (through the bridge, blocking parts in a worker thread) ------------------------

    def _submit(self, job: Job[T], on_done: Callable[[T], None], on_error: OnError) -> None:
        """`bridge.submit`; an answer that arrives once the dialog is gone is dropped."""
        submit_while_open(self.bridge, self, lambda: True, job, on_done, on_error)

    def _submit_async(
        self, job: AsyncJob[T], on_done: Callable[[T], None], on_error: OnError
    ) -> None:
        submit_async_while_open(self.bridge, self, lambda: True, job, on_done, on_error)

    def refresh_password_status(self) -> None:
        url = self.url()
        if not url or self.problem() is not None:
            self._say(self.password_status, "")
            return
        self._submit_async(
            lambda ws: asyncio.to_thread(ws.db_password_status, url),
            on_done=lambda status: self._show_password_status(url, status),
            on_error=lambda exc: self._password_failed(exc, None),
        )

    def store_password(self) -> None:
        url, password = self.url(), self.password()
        if not password:
            self._say(self.password_status, self.tr("Type the password first."), ERROR_COLOUR)
            return
        self.store_password_button.setEnabled(False)
        self._say(self.password_status, self.tr("Storing the password…"))
        self._submit_async(
            lambda ws: asyncio.to_thread(ws.set_db_password, url, password),
            on_done=self._password_stored,
            on_error=lambda exc: self._password_failed(exc, self.tr("The password was not stored")),
        )

    def _password_stored(self, status: SecretStatusView) -> None:
        self.password_field.clear()  # in the keyring now: the dialog no longer holds it
        self._show_password_status(self.url(), status)

    def _usable(self) -> bool:
        return bool(self.url()) and self.problem() is None

    def _show_password_status(self, url: str, status: SecretStatusView) -> None:
        self.store_password_button.setEnabled(self._usable())
        if url == self.url():  # else the URL changed meanwhile: that was another database's
            self._say(self.password_status, store_text.password_text(status))

    def _password_failed(self, exc: Exception, what: str | None) -> None:
        self.store_password_button.setEnabled(self._usable())
        reason = plain_exception(exc)
        self._say(self.password_status, f"{what}. {reason}" if what else reason, ERROR_COLOUR)

    def test_connection(self) -> None:
        url, password = self.url(), self.password() or None
        if not self._usable():
            return
        self.test_button.setEnabled(False)
        self._say(self.test_result, self.tr("Connecting…"))
        self._submit_async(
            lambda ws: probe(ws, url, password),
            on_done=lambda found: self._tested(url, found),
            on_error=self._test_failed,
        )

    def _tested(self, url: str, found: StoreStatus) -> None:
        self.test_button.setEnabled(self._usable())
        if url == self.url():
            ok, words = store_text.probe_text(found)
            self._say(self.test_result, words, OK_COLOUR if ok else ERROR_COLOUR)

    def _test_failed(self, exc: Exception) -> None:
        self.test_button.setEnabled(self._usable())
        self._say(self.test_result, plain_exception(exc), ERROR_COLOUR)

    def pending(self) -> PendingStore:
        """What Save has to do for this section."""
        return {"url": self.url(), "password": self.password(), "changed": self.url_changed()}
