"""`providers check` and the Settings dialog's "Test connection": one small request, plainly told.

Imports the openai client (well under a second), never the Agents SDK. One attempt, no retry:
a person is waiting for the answer, and the message says whether trying later may help.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypedDict

from agent_core.contract.errors import BriefDeskError
from agent_core.models.endpoint import EndpointConfig, api_key_for

CHECK_PROMPT = "Reply with the single word OK."
CHECK_READ_TIMEOUT_S = 30.0


class ProviderCheckView(TypedDict):
    """What `providers check` prints under "provider"."""

    model: str
    base_url: str
    ok: bool
    message: str
    """For people: what answered, or what failed and what to change."""


@dataclass(frozen=True)
class CheckResult:
    model: str
    base_url: str
    ok: bool
    message: str

    def to_json(self) -> ProviderCheckView:
        return ProviderCheckView(
            model=self.model, base_url=self.base_url, ok=self.ok, message=self.message
        )


def check_endpoint(endpoint: EndpointConfig) -> CheckResult:
    """Blocking (the keyring, then HTTP): run it in a worker thread from async code."""

    def result(ok: bool, message: str) -> CheckResult:
        return CheckResult(endpoint.model, endpoint.base_url, ok, message)

    try:
        key = api_key_for(endpoint)
    except BriefDeskError as exc:
        return result(False, exc.message)
    from openai import OpenAI, Timeout

    from agent_core.models.bounded_http import BoundedClient
    from agent_core.models.failures import classify

    timeout = Timeout(
        min(endpoint.read_timeout_s, CHECK_READ_TIMEOUT_S), connect=endpoint.connect_timeout_s
    )
    client = OpenAI(
        api_key=key,
        base_url=endpoint.base_url,
        timeout=timeout,
        max_retries=0,
        # A hostile endpoint's gzip bomb is refused here too (openai.max_response_bytes).
        http_client=BoundedClient(max_response_bytes=endpoint.max_response_bytes, timeout=timeout),
    )
    started = time.monotonic()
    try:
        if endpoint.api == "chat":
            client.chat.completions.create(
                model=endpoint.model, messages=[{"role": "user", "content": CHECK_PROMPT}]
            )
        else:
            client.responses.create(model=endpoint.model, input=CHECK_PROMPT)
    except Exception as exc:
        failure = classify(exc, endpoint)
        if failure is None:
            raise
        later = " This may pass if you try again later." if failure.retryable else ""
        return result(False, failure.message + later)
    finally:
        client.close()
    api = "Chat Completions" if endpoint.api == "chat" else "Responses"
    return result(
        True,
        f"The endpoint answered with model {endpoint.model!r} through the {api} API in "
        f"{time.monotonic() - started:.1f} s.",
    )
