"""What a model endpoint is and what a model call reports while it runs (no network, no SDK).

`EndpointConfig` is read from the settings (`openai.base_url`, `openai.model`, `openai.api`,
`openai.stream`, `openai.read_timeout`, `openai.max_response_bytes`). A model call tells its
`CallObserver` about each retry (`RetryNotice`) and each batch of streamed text (`TextDelta`);
the run driver turns them into `model_retry` and `model_delta` timeline events. Light on
purpose: the CLI's `providers check` imports it without the Agents SDK. The presets the Settings
dialog offers are vocabulary: `agent_core.contract.presets`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.presets import OpenAIApi
from agent_core.home.preferences import Settings
from agent_core.home.secrets import get_key

KEY_NAME = "openai"
OFFICIAL_HOST = "api.openai.com"
NO_KEY_PLACEHOLDER = "none"
"""Sent as the key to a server other than OpenAI's when no key is stored (such servers, e.g. a
local Ollama, ignore it; the client library refuses to send a request without any key)."""
CONNECT_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class EndpointConfig:
    """One OpenAI-protocol endpoint, as the settings name it."""

    base_url: str
    model: str
    api: OpenAIApi = "chat"
    stream: bool = True
    read_timeout_s: float = 120.0
    """Seconds without a byte from the endpoint before an attempt is abandoned (and retried)."""
    connect_timeout_s: float = CONNECT_TIMEOUT_S
    max_response_bytes: int = 16 << 20
    """Bytes of one response body at most, decompressed (a gzip bomb stops here)."""

    @classmethod
    def from_settings(cls, settings: Settings) -> EndpointConfig:
        return cls(
            base_url=settings.openai_base_url,
            model=settings.openai_model,
            api=settings.openai_api,
            stream=settings.openai_stream,
            read_timeout_s=settings.openai_read_timeout,
            max_response_bytes=settings.openai_max_response_bytes,
        )

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).hostname or self.base_url

    @property
    def needs_key(self) -> bool:
        """OpenAI's own API always needs a key; other servers (Ollama, vLLM...) may not."""
        return self.host == OFFICIAL_HOST

    @property
    def path(self) -> str:
        return "/chat/completions" if self.api == "chat" else "/responses"


def api_key_for(endpoint: EndpointConfig) -> str:
    """The stored key; for a server that may need none, a placeholder when none is stored.

    Blocking (the keyring): call it in a worker thread from async code.
    """
    try:
        return get_key(KEY_NAME)
    except BriefDeskError as exc:
        missing = exc.code in (ErrorCode.KEY_MISSING, ErrorCode.KEYRING_UNAVAILABLE)
        if endpoint.needs_key or not missing:
            raise
        return NO_KEY_PLACEHOLDER


def provider_error(message: str, *, retryable: bool) -> BriefDeskError:
    error = BriefDeskError(ErrorCode.PROVIDER_ERROR, message)
    error.retryable = retryable
    return error


@dataclass(frozen=True)
class RetryNotice:
    """A model call failed and will be tried again after `wait_s` seconds."""

    attempt: int
    """The number of the attempt that failed (1 = the first)."""
    wait_s: float
    reason: str
    """Short, for people: "HTTP 429 (rate limited)", "read timeout (no data for 2 s)"."""
    status: int | None = None


@dataclass(frozen=True)
class TextDelta:
    """Text the model wrote since the previous delta of the same attempt."""

    attempt: int
    text: str


class CallObserver(Protocol):
    """Told what a model call does while it runs (the run driver records it)."""

    def retrying(self, notice: RetryNotice) -> None: ...

    def streamed(self, delta: TextDelta) -> None: ...

    async def wait(self, seconds: float) -> None:
        """Sleep before a retry; may raise to stop the run (a cancel request)."""
        ...
