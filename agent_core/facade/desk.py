"""The façade's desk: what stays on this computer whatever store the runs use. The provider
keys in the OS keyring, long-term memory, the model endpoint's check, and the Demo menu's
crash drills and scripted models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from agent_core.contract.views import MemoryView, SecretStatusView
from agent_core.facade.base import WorkspaceBase
from agent_core.storage.tables import memory

if TYPE_CHECKING:
    from agent_core.models.check import ProviderCheckView

JsonLike = TypeVar("JsonLike")


class DeskCommands(WorkspaceBase):
    """Mixed into `Workspace`: keys, memory, the endpoint check and the demo's switches."""

    # -- long-term memory (always the desk's own file) ------------------------------------

    def memories(self) -> list[MemoryView]:
        """Every unexpired memory, oldest first."""
        with self.desk_store.read() as conn:
            return memory.list_all(conn)

    def delete_user_memory(self, user: str) -> int:
        """Forget everything remembered about `user`; how many memories went."""
        with self.desk_store.write() as conn:
            return memory.delete_user(conn, user)

    # -- secrets: provider keys in the OS keyring -----------------------------------------

    @staticmethod
    def redact(value: JsonLike) -> JsonLike:
        """A copy of a JSON-like value with known keys and key-shaped strings masked (no I/O)."""
        from agent_core.home.secrets import REDACTOR

        redacted: JsonLike = REDACTOR.redact_json(value)  # the same shape, strings masked
        return redacted

    @staticmethod
    def key_status(name: str) -> SecretStatusView:
        """Whether a key for provider `name` is available and from where; never the key."""
        from agent_core.home import secrets

        return _secret_view(secrets.key_status(name))

    @staticmethod
    def set_key(name: str, secret: str) -> SecretStatusView:
        """Store the key for provider `name` in the OS keyring; returns its new status."""
        from agent_core.home import secrets

        return _secret_view(secrets.set_key(name, secret))

    @staticmethod
    def delete_key(name: str) -> SecretStatusView:
        """Remove the keyring entry for provider `name` (idempotent); returns its new status."""
        from agent_core.home import secrets

        return _secret_view(secrets.delete_key(name))

    # -- the model endpoint ---------------------------------------------------------------

    def providers_check(self) -> ProviderCheckView:
        """One small request to the configured endpoint (`providers check`); blocking."""
        from agent_core.models.check import check_endpoint
        from agent_core.models.endpoint import EndpointConfig

        return check_endpoint(EndpointConfig.from_settings(self.settings())).to_json()

    async def providers_check_async(
        self,
        *,
        base_url: str | None = None,
        model: str | None = None,
        api: str | None = None,
    ) -> ProviderCheckView:
        """The same for the bridge's loop (the keyring and HTTP run in a worker thread), with
        the Settings dialog's values not yet saved (each validated as `settings set` would)."""
        import asyncio

        from agent_core.models.check import check_endpoint
        from agent_core.models.endpoint import EndpointConfig

        settings = self.settings()
        for key, value in (("openai.base_url", base_url), ("openai.model", model)):
            if value is not None:
                settings = settings.with_value(key, value)
        if api is not None:
            settings = settings.with_value("openai.api", api)
        endpoint = EndpointConfig.from_settings(settings)
        return (await asyncio.to_thread(check_endpoint, endpoint)).to_json()

    # -- the Demo menu --------------------------------------------------------------------

    @staticmethod
    def arm_crash(point: str | None) -> None:
        """Arm crash injection in this process (None disarms): the Demo menu's SIGKILL drills."""
        from agent_core.home import crash

        crash.arm(point)

    @staticmethod
    def scripted_model(script: str) -> str:
        """The model spec that replays a shipped script, e.g. "compromised" (the attack demo)."""
        from agent_core.contract.model_spec import ModelSpec
        from agent_core.home.config import SCRIPTS_DIR

        return ModelSpec.scripted(SCRIPTS_DIR / f"{script}.json").text


def _secret_view(status: Mapping[str, object]) -> SecretStatusView:
    """The keyring's answer as the contract shows it (name, stored, backend; never the key)."""
    return SecretStatusView(
        name=str(status["name"]), stored=bool(status["stored"]), backend=str(status["backend"])
    )
