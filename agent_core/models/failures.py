"""What went wrong with a model call, in plain words, and whether trying again can help.

`classify` turns what the client library raised (an HTTP status, a timeout, a dropped
connection, a broken stream) into a `CallFailure`: retryable or not, a short reason for the
timeline's `model_retry` event, and a message for people that names the HTTP status, what it
means and the setting or key to change. Never a Python class name, never the key: a server's
own message is shown only clipped and redacted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from openai import APIConnectionError, APIError, APIStatusError, APITimeoutError

from agent_core.home.secrets import REDACTOR, env_override_name
from agent_core.models.answer_checks import AnswerMalformed
from agent_core.models.endpoint import EndpointConfig
from agent_core.models.retries import is_retryable_status, retry_after_seconds

SERVER_TEXT_CHARS = 200

STATUS_WORDS = {
    408: "request timeout",
    409: "conflict",
    429: "rate limited",
    500: "server error",
    502: "bad gateway",
    503: "unavailable",
    504: "gateway timeout",
    529: "overloaded",
}


class StreamIncomplete(Exception):
    """The stream ended before the answer was complete (no finish reason, no completion)."""


class StreamCorrupt(Exception):
    """A streamed chunk was not valid JSON."""


class ResponseTooLarge(Exception):
    """The response body, decompressed, passed `openai.max_response_bytes` (its read stopped)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"response body larger than {limit} bytes")
        self.limit = limit


class ResponseUnreadable(Exception):
    """The body came in content codings BriefDesk did not ask for (`codings`), or its
    compressed data was broken (`codings` None)."""

    def __init__(self, codings: str | None) -> None:
        super().__init__(codings or "broken compressed data")
        self.codings = codings


@dataclass(frozen=True)
class CallFailure:
    """One failed attempt of a model call, judged."""

    retryable: bool
    reason: str
    """Short: "HTTP 503 (unavailable)", "read timeout (no data for 2 s)"."""
    message: str
    """For people: what happened, what it means, what to change."""
    status: int | None = None
    retry_after_s: float | None = None


def classify(exc: BaseException, endpoint: EndpointConfig) -> CallFailure | None:
    """The failure behind `exc`, or None when it is not the endpoint's doing (a bug: re-raise)."""
    # First what the client's checks raised while the body was read (bounded_http.py,
    # streams.py): the openai client may have wrapped it in a connection error.
    for seen in _chain(exc):
        failure = _answer_failure(seen, endpoint)
        if failure is not None:
            return failure
    if isinstance(exc, APIStatusError):
        return _status_failure(exc, endpoint)
    if isinstance(exc, APITimeoutError):  # before APIConnectionError: it is one
        reason = f"read timeout (no data for {endpoint.read_timeout_s:g} s)"
        return CallFailure(True, reason, f"The endpoint {endpoint.base_url} stalled: {reason}.")
    if isinstance(exc, APIConnectionError):
        reason = "connection failed or dropped"
        return CallFailure(
            True,
            reason,
            f"Could not reach the endpoint {endpoint.base_url}, or it dropped the connection.",
        )
    if isinstance(exc, APIError):  # an error event inside a stream
        reason = "the endpoint reported an error in the stream"
        detail = _server_text(getattr(exc, "body", None)) or _clip(exc.message)
        return CallFailure(True, reason, f"{reason} ({detail}).")
    return None


def _chain(exc: BaseException) -> list[BaseException]:
    """`exc` and what it was raised from, nearest first (a few links: a wrapper's wrapper)."""
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(chain) < 5:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


def _answer_failure(exc: BaseException, endpoint: EndpointConfig) -> CallFailure | None:
    """A body refused while it was read, or an answer no model can give."""
    if isinstance(exc, ResponseTooLarge):
        reason = f"response larger than {exc.limit:,} bytes"
        return CallFailure(
            False,
            reason,
            f"The endpoint {endpoint.base_url} sent a response larger than "
            f"{exc.limit:,} bytes once decompressed (setting openai.max_response_bytes); "
            "it was refused unread. Trying again would fetch the same: raise the setting "
            "only if this endpoint's answers really are that large.",
        )
    if isinstance(exc, ResponseUnreadable):
        if exc.codings is None:
            reason = "the response's compressed data is broken"
            return CallFailure(True, reason, f"The endpoint {endpoint.base_url}: {reason}.")
        return CallFailure(
            False,
            f"content coding {exc.codings}",
            f"The endpoint {endpoint.base_url} answered in content coding {exc.codings}, "
            "which BriefDesk did not ask for (it accepts gzip and deflate, which it can "
            "read within openai.max_response_bytes). Check the server or a proxy in between.",
        )
    if isinstance(exc, StreamIncomplete):
        reason = "the stream ended before the answer was complete"
        return CallFailure(True, reason, f"The endpoint {endpoint.base_url}: {reason}.")
    if isinstance(exc, StreamCorrupt | json.JSONDecodeError):
        reason = "the stream sent a chunk that is not valid JSON"
        return CallFailure(True, reason, f"The endpoint {endpoint.base_url}: {reason}.")
    if isinstance(exc, AnswerMalformed):
        reason = f"a malformed answer ({exc.reason})"
        return CallFailure(
            False,
            reason,
            f"The endpoint {endpoint.base_url} sent a malformed answer: {exc.reason}. "
            "Trying again would fetch the same.",
        )
    if isinstance(exc, RecursionError):  # a JSON parser on the way gave out (no BriefDesk bug)
        reason = "an answer nested too deep to read"
        return CallFailure(
            False,
            reason,
            f"The endpoint {endpoint.base_url} sent an answer nested too deep to read; it was "
            "refused. Trying again would fetch the same.",
        )
    return None


def exhausted_message(
    endpoint: EndpointConfig, last: CallFailure, attempts: int, waited_s: float
) -> str:
    return (
        f"The model endpoint {endpoint.base_url} did not answer usefully: {attempts} "
        f"attempt{'s' if attempts != 1 else ''} over {waited_s:.0f} s of waiting failed, the "
        f"last with {last.reason}. Nothing was lost: resume the run once the endpoint is back "
        "(it continues from its latest checkpoint and repeats no tool call)."
    )


def unusable_answer_message(endpoint: EndpointConfig, detail: str) -> str:
    return (
        f"The endpoint {endpoint.base_url} answered, but not with a usable model response "
        f"({_clip(detail)}). Check that model {endpoint.model!r} supports tool calls, and "
        "openai.api (chat or responses)."
    )


# -- HTTP statuses ----------------------------------------------------------------------------


def _status_failure(exc: APIStatusError, endpoint: EndpointConfig) -> CallFailure:
    status = exc.status_code
    body = getattr(exc, "body", None)
    code = str(getattr(exc, "code", None) or _field(body, "code") or "")
    server = _server_text(body)
    model = endpoint.model
    key_fix = (
        f"Store the right key with `briefdesk-cli keys set openai` (or Settings, API key), "
        f"or set {env_override_name('openai')}."
    )
    if status == 429 and code == "insufficient_quota":
        return CallFailure(
            False,
            "HTTP 429 (insufficient quota)",
            "HTTP 429: the account behind the API key has no quota left. Add credit to it, or "
            f"use another key. {key_fix}",
            status,
        )
    if is_retryable_status(status):
        words = STATUS_WORDS.get(status, "server error" if status >= 500 else "try again")
        reason = f"HTTP {status} ({words})"
        headers = dict(exc.response.headers.items()) if exc.response is not None else None
        return CallFailure(
            True,
            reason,
            f"The endpoint {endpoint.base_url} answered {reason}.",
            status,
            retry_after_seconds(headers),
        )
    if status == 401:
        message = f"HTTP 401: the endpoint refused the API key. {key_fix}"
    elif status == 403:
        message = (
            f"HTTP 403: the endpoint accepted the key but does not allow it to use model "
            f"{model!r}. Check the key's permissions, or choose another model (setting "
            "openai.model)."
        )
    elif status == 404:
        message = (
            f"HTTP 404: the endpoint does not know model {model!r}, or there is no "
            f"{endpoint.path} at {endpoint.base_url}. Check the settings openai.model and "
            "openai.base_url (it usually ends in /v1)"
            + (
                "; many compatible servers speak only Chat Completions: set openai.api to chat."
                if endpoint.api == "responses"
                else "."
            )
        )
    elif _is_context_overflow(code, server):
        message = (
            f"HTTP {status}: the conversation is longer than model {model!r} can read (its "
            "context window is full). Choose a model with a larger context window (setting "
            "openai.model), or ask a narrower question."
        )
    elif status in (400, 422):
        message = (
            f"HTTP {status}: the endpoint refused the request as invalid"
            + (f" ({server})" if server else "")
            + ". Check openai.api (chat or responses) and openai.model."
        )
    else:
        message = f"HTTP {status}: the endpoint refused the request" + (
            f" ({server})." if server else "."
        )
    return CallFailure(False, f"HTTP {status}", message, status)


def _is_context_overflow(code: str, server: str) -> bool:
    text = f"{code} {server}".lower()
    return (
        "context_length_exceeded" in text or "context length" in text or ("maximum context" in text)
    )


def _field(body: object, name: str) -> object:
    return body.get(name) if isinstance(body, dict) else None


def _server_text(body: object) -> str:
    message = _field(body, "message")
    if not isinstance(message, str) and isinstance(body, str):
        message = body
    return _clip(message) if isinstance(message, str) else ""


def _clip(text: str) -> str:
    flat = " ".join(REDACTOR.redact_text(text).split())
    return flat if len(flat) <= SERVER_TEXT_CHARS else flat[: SERVER_TEXT_CHARS - 1] + "…"
