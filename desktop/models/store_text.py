"""Where the runs live, in words: the status bar's store label, a run's desk, the Settings
dialog's team database texts. Pure functions of `StoreView`, the `db status` view and the keyring
status, no Qt, no I/O."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from agent_core.contract.views import SecretStatusView, StoreView
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.plain_errors import keyring_backend_name, plain_error

DEFAULT_PORT = ":5432"
CHOSEN_BY = {
    "option": QT_TRANSLATE_NOOP("StoreText", "--db on the command line"),
    "environment": QT_TRANSLATE_NOOP("StoreText", "the BRIEFDESK_DB environment variable"),
}
translate = QCoreApplication.translate


def _chosen_by(store: StoreView) -> str | None:
    source = CHOSEN_BY.get(str(store.get("chosen_by")))
    return translate("StoreText", source) if source else None


def store_name(store: StoreView) -> str:
    """`This computer`, or `Team database HOST/DBNAME` (the port only when it is not 5432)."""
    if store.get("kind") != "postgresql":
        return translate("StoreText", "This computer")
    host = str(store.get("host") or "")
    host = host.removesuffix(DEFAULT_PORT)
    return translate("StoreText", "Team database {where}").format(
        where=f"{host}/{store.get('database')}"
    )


def store_label(store: StoreView) -> str:
    """The status bar's words: which store, and this desk's id."""
    return translate("StoreText", "{store} · desk {desk}").format(
        store=store_name(store), desk=store.get("desk")
    )


def store_tooltip(store: StoreView) -> str:
    if store.get("kind") == "postgresql":
        where = translate(
            "StoreText",
            "Runs, approvals and decisions live in the team database {url}, shared by every "
            "desk that uses it.",
        ).format(url=store.get("url"))
    else:
        where = translate(
            "StoreText", "Runs live on this computer only, in the home's database {url}."
        ).format(url=store.get("url"))
    chosen = _chosen_by(store)
    why = translate("StoreText", " Chosen by {what}.").format(what=chosen) if chosen else ""
    desk = translate("StoreText", "This desk: {desk}.").format(desk=store.get("desk"))
    return f"{where}{why}\n{desk}"


def other_desk(desk: object, this_desk: str | None) -> str | None:
    """A run's or a proposal's desk when it is another desk than this one (None: this desk,
    or a row from before team mode, which belongs to the home it is in)."""
    if not isinstance(desk, str) or not desk or desk == this_desk:
        return None
    return desk


def chosen_elsewhere(store: StoreView) -> str | None:
    """Why saving the `db.url` setting cannot move this window (None: it can)."""
    chosen = _chosen_by(store)
    if chosen is None:
        return None
    return translate(
        "StoreText",
        "This window uses the database given by {what}; the URL saved here is used when "
        "BriefDesk starts without it.",
    ).format(what=chosen)


def probe_text(found: Mapping[str, object]) -> tuple[bool, str]:
    """(reachable, words) for one Test connection (a `db status` view of the database)."""
    said_by_store = found.get("message")
    message = str(said_by_store) if said_by_store else None
    if not found.get("reachable"):
        return False, translate("StoreText", "Not reachable. {why}").format(
            why=plain_error("storage_unavailable", message)
        )
    revision = found.get("revision")
    said = translate("StoreText", "Reachable.")
    if revision:
        said += translate("StoreText", " Schema revision {n}.").format(n=revision)
    if message:
        return True, f"{said} {plain_error(None, message)}"
    return True, said + translate("StoreText", " Up to date.")


def password_text(status: SecretStatusView) -> str:
    """Whether the database password is in the keyring, and what libpq would use instead."""
    backend = str(status.get("backend", ""))
    where = (
        translate("StoreText", "an environment variable")
        if backend == "environment"
        else keyring_backend_name(backend)
    )
    if status.get("stored"):
        said = translate("StoreText", "A password for this database is stored in {where}.")
    else:
        said = translate("StoreText", "No password stored for this database yet ({where}).")
    said = said.format(where=where)
    override = status.get("overridden_by")
    if override:
        said += translate(
            "StoreText", " {name} is set in the environment: it is used instead of the keyring."
        ).format(name=override)
    return said
