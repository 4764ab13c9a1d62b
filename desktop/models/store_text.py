"""Where the runs live, in words: the status bar's store label, a run's desk, the Settings
dialog's team database texts. Pure functions of `StoreView`, the `db status` view and the keyring
status, no Qt, no I/O."""

from __future__ import annotations

from collections.abc import Mapping

from agent_core.contract.views import SecretStatusView, StoreView
from desktop.models.plain_errors import keyring_backend_name, plain_error

DEFAULT_PORT = ":5432"
CHOSEN_BY = {
    "option": "--db on the command line",
    "environment": "the BRIEFDESK_DB environment variable",
}


def store_name(store: StoreView) -> str:
    """`This computer`, or `Team database HOST/DBNAME` (the port only when it is not 5432)."""
    if store.get("kind") != "postgresql":
        return "This computer"
    host = str(store.get("host") or "")
    host = host.removesuffix(DEFAULT_PORT)
    return f"Team database {host}/{store.get('database')}"


def store_label(store: StoreView) -> str:
    """The status bar's words: which store, and this desk's id."""
    return f"{store_name(store)} · desk {store.get('desk')}"


def store_tooltip(store: StoreView) -> str:
    if store.get("kind") == "postgresql":
        where = (
            f"Runs, approvals and decisions live in the team database {store.get('url')}, "
            "shared by every desk that uses it."
        )
    else:
        where = f"Runs live on this computer only, in the home's database {store.get('url')}."
    chosen = CHOSEN_BY.get(str(store.get("chosen_by")))
    why = f" Chosen by {chosen}." if chosen else ""
    return f"{where}{why}\nThis desk: {store.get('desk')}."


def other_desk(desk: object, this_desk: str | None) -> str | None:
    """A run's or a proposal's desk when it is another desk than this one (None: this desk,
    or a row from before team mode, which belongs to the home it is in)."""
    if not isinstance(desk, str) or not desk or desk == this_desk:
        return None
    return desk


def chosen_elsewhere(store: StoreView) -> str | None:
    """Why saving the `db.url` setting cannot move this window (None: it can)."""
    chosen = CHOSEN_BY.get(str(store.get("chosen_by")))
    if chosen is None:
        return None
    return (
        f"This window uses the database given by {chosen}; the URL saved here is used when "
        "BriefDesk starts without it."
    )


def probe_text(found: Mapping[str, object]) -> tuple[bool, str]:
    """(reachable, words) for one Test connection (a `db status` view of the database)."""
    said_by_store = found.get("message")
    message = str(said_by_store) if said_by_store else None
    if not found.get("reachable"):
        return False, "Not reachable. " + plain_error("storage_unavailable", message)
    revision = found.get("revision")
    said = "Reachable." + (f" Schema revision {revision}." if revision else "")
    if message:
        return True, f"{said} {plain_error(None, message)}"
    return True, f"{said} Up to date."


def password_text(status: SecretStatusView) -> str:
    """Whether the database password is in the keyring, and what libpq would use instead."""
    backend = str(status.get("backend", ""))
    where = "an environment variable" if backend == "environment" else keyring_backend_name(backend)
    if status.get("stored"):
        said = f"A password for this database is stored in {where}."
    else:
        said = f"No password stored for this database yet ({where})."
    override = status.get("overridden_by")
    if override:
        said += f" {override} is set in the environment: it is used instead of the keyring."
    return said
