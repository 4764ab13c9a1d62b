"""The `openai` provider: the real OpenAI client, any OpenAI-compatible base URL.

The key is read from the keyring (or its environment override) at call time and handed only to
the client, which sends it in the Authorization header; it never enters prompts, state or logs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from agents.items import ModelResponse
from agents.models.interface import Model
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from openai import APIError, AsyncOpenAI

from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.secrets import get_key

KEY_NAME = "openai"


class OpenAICompatModel(Model):
    def __init__(self, model_name: str, base_url: str, *, timeout: float = 60.0) -> None:
        self.model_name = model_name
        self.base_url = base_url
        self.timeout = timeout

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        key = get_key(KEY_NAME)
        client = AsyncOpenAI(
            api_key=key, base_url=self.base_url, timeout=self.timeout, max_retries=1
        )
        try:
            inner = OpenAIChatCompletionsModel(model=self.model_name, openai_client=client)
            return await inner.get_response(*args, **kwargs)
        except APIError as exc:
            # The SDK's message may echo request details; keep only what is safe and useful.
            status = getattr(exc, "status_code", None)
            raise BriefDeskError(
                ErrorCode.PROVIDER_ERROR,
                f"The model endpoint {self.base_url} answered with an error"
                + (f" (HTTP {status})" if status else "")
                + f": {type(exc).__name__}.",
            ) from None
        finally:
            await client.close()

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("BriefDesk does not stream")
