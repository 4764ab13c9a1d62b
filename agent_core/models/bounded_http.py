"""The HTTP client of model calls: no response body is held past `openai.max_response_bytes`.

The openai client reads a whole body (`aread`, then JSON) or joins SSE lines as they come; a
gzip bomb (1 MB on the wire) once made that 2.1 GiB. Here every body is inflated by us, in
bounded pieces, and counted as it is read: past the limit the read stops with
`ResponseTooLarge`, having held at most the limit (plus one piece). Only the content codings we
can inflate that way are asked for (`Accept-Encoding: gzip, deflate`); a body in any other
coding is refused, not handed to a decoder we do not bound.

The bound sits in `send`, the one door every request of the client goes through (redirects and
proxies included), rather than in a transport that environment proxies would bypass. The async
client (a run's) also checks each model answer there as it is read (streams.py): what the
Agents SDK's public models then read is bounded and checked, with no SDK internals overridden.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import httpx2
from openai import DefaultAsyncHttpxClient, DefaultHttpxClient

from agent_core.contract.presets import OpenAIApi
from agent_core.models.failures import ResponseTooLarge, ResponseUnreadable
from agent_core.models.streams import (
    CheckedEvents,
    as_events,
    check_json_answer,
    is_json,
    model_api_of,
)

if TYPE_CHECKING:
    from httpx2._client import UseClientDefault
    from httpx2._types import AuthTypes

ACCEPTED = "gzip, deflate"
PIECE_BYTES = 1 << 16
"""The most one step of inflating may produce: a tiny input never becomes a huge buffer."""
MAX_CODINGS = 3


class _Inflater:
    """One content coding (gzip or deflate), inflated in pieces of at most PIECE_BYTES."""

    def __init__(self, coding: str) -> None:
        self._gzip = coding in ("gzip", "x-gzip")
        self._unzip = zlib.decompressobj(16 + zlib.MAX_WBITS if self._gzip else zlib.MAX_WBITS)
        self._first = True

    def feed(self, data: bytes) -> Iterator[bytes]:
        first, self._first = self._first, False
        try:
            piece = self._unzip.decompress(data, PIECE_BYTES)
        except zlib.error:
            if self._gzip or not first:
                raise ResponseUnreadable(None) from None
            # "deflate" is often sent raw, without its zlib header (as httpx also allows).
            self._unzip = zlib.decompressobj(-zlib.MAX_WBITS)
            yield from self.feed(data)
            return
        while piece:
            yield piece
            piece = self._unzip.decompress(self._unzip.unconsumed_tail, PIECE_BYTES)

    def flush(self) -> Iterator[bytes]:
        try:
            rest = self._unzip.flush()
        except zlib.error:
            raise ResponseUnreadable(None) from None
        if rest:
            yield rest


class BoundedBody(httpx2.SyncByteStream, httpx2.AsyncByteStream):
    """A response body, inflated and counted as it is read; refused past `limit` bytes."""

    def __init__(
        self, raw: httpx2.SyncByteStream | httpx2.AsyncByteStream, codings: list[str], limit: int
    ) -> None:
        self._raw = raw
        self._inflaters = [_Inflater(c) for c in reversed(codings)]  # the last applied first
        self._limit = limit
        self._read = 0

    def _counted(self, pieces: Iterator[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            self._read += len(piece)
            if self._read > self._limit:
                raise ResponseTooLarge(self._limit)
            yield piece

    def _inflate(self, data: bytes) -> Iterator[bytes]:
        pieces: Iterator[bytes] = iter((data,))
        for inflater in self._inflaters:
            pieces = _through(inflater, pieces)
        return self._counted(pieces)

    def _rest(self) -> Iterator[bytes]:
        pieces: Iterator[bytes] = iter(())
        for inflater in self._inflaters:
            pieces = _chain(_through(inflater, pieces), inflater.flush())
        return self._counted(pieces)

    def __iter__(self) -> Iterator[bytes]:
        assert isinstance(self._raw, httpx2.SyncByteStream)
        for raw in self._raw:
            yield from self._inflate(raw)
        yield from self._rest()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        assert isinstance(self._raw, httpx2.AsyncByteStream)
        async for raw in self._raw:
            for piece in self._inflate(raw):
                yield piece
        for piece in self._rest():
            yield piece

    def close(self) -> None:
        if isinstance(self._raw, httpx2.SyncByteStream):
            self._raw.close()

    async def aclose(self) -> None:
        if isinstance(self._raw, httpx2.AsyncByteStream):
            await self._raw.aclose()


def _through(inflater: _Inflater, pieces: Iterator[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield from inflater.feed(piece)


def _chain(first: Iterator[bytes], second: Iterator[bytes]) -> Iterator[bytes]:
    yield from first
    yield from second


class BoundedAsyncClient(DefaultAsyncHttpxClient):
    """The openai client's own httpx client (its defaults), with every body bounded."""

    def __init__(self, *, max_response_bytes: int, timeout: httpx2.Timeout) -> None:
        super().__init__(timeout=timeout)
        self.max_response_bytes = max_response_bytes

    async def send(
        self,
        request: httpx2.Request,
        *,
        stream: bool = False,
        auth: AuthTypes | UseClientDefault | None = httpx2.USE_CLIENT_DEFAULT,
        follow_redirects: bool | UseClientDefault = httpx2.USE_CLIENT_DEFAULT,
    ) -> httpx2.Response:
        request.headers["Accept-Encoding"] = ACCEPTED
        response = await super().send(
            request, stream=True, auth=auth, follow_redirects=follow_redirects
        )
        try:
            bound(response, self.max_response_bytes)
            api = model_api_of(request) if response.is_success else None
            if api is not None and stream:  # the caller reads it as events: check them
                response = await _checked_events(response, api)
            if not stream:
                await response.aread()
                if api is not None:
                    check_json_answer(response.content)
        except BaseException:
            await response.aclose()
            raise
        return response


async def _checked_events(response: httpx2.Response, api: OpenAIApi) -> httpx2.Response:
    """`response`, its events checked as they are read; one JSON answer (a server that ignores
    `stream: true`), read within the bound, is given as the events that say the same."""
    if not is_json(response.headers):
        response.stream = CheckedEvents(response.stream, api)
        return response
    events = as_events(api, await response.aread())
    headers = response.headers.copy()
    headers["content-type"] = "text/event-stream"
    return httpx2.Response(
        response.status_code,
        headers=headers,
        stream=CheckedEvents(httpx2.ByteStream(events), api),
        request=response.request,
        extensions=response.extensions,
    )


class BoundedClient(DefaultHttpxClient):
    """The same, blocking: `providers check` answers a person and uses no event loop."""

    def __init__(self, *, max_response_bytes: int, timeout: httpx2.Timeout) -> None:
        super().__init__(timeout=timeout)
        self.max_response_bytes = max_response_bytes

    def send(
        self,
        request: httpx2.Request,
        *,
        stream: bool = False,
        auth: AuthTypes | UseClientDefault | None = httpx2.USE_CLIENT_DEFAULT,
        follow_redirects: bool | UseClientDefault = httpx2.USE_CLIENT_DEFAULT,
    ) -> httpx2.Response:
        request.headers["Accept-Encoding"] = ACCEPTED
        response = super().send(request, stream=True, auth=auth, follow_redirects=follow_redirects)
        try:
            bound(response, self.max_response_bytes)
            if not stream:
                response.read()
        except BaseException:
            response.close()
            raise
        return response


def bound(response: httpx2.Response, limit: int) -> None:
    """Make `response` read its body through a BoundedBody (before anything read it)."""
    codings = [
        c.strip().lower()
        for c in response.headers.get_list("content-encoding", split_commas=True)
        if c.strip().lower() not in ("", "identity")
    ]
    unknown = [c for c in codings if c not in ("gzip", "x-gzip", "deflate")]
    if unknown or len(codings) > MAX_CODINGS:
        raise ResponseUnreadable(", ".join(unknown or codings))
    response.stream = BoundedBody(response.stream, codings, limit)
    # Inflated here: the client must not inflate it again, nor trust the length on the wire.
    for header in ("content-encoding", "content-length"):
        if header in response.headers:
            del response.headers[header]
