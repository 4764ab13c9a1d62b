"""fetch_url: off unless settings enable it with a domain allowlist; GET only; bounded.

Two boundaries: `check_url` refuses at validation (so a disabled network is never proposed
for approval), and `socket_guard` refuses any socket connection a tool opens to an address
that is not the allowed host's, at the socket level (a Python audit hook), while a tool runs.
The model provider's own connection is not tool code and is not inside the guard.
"""

from __future__ import annotations

import contextlib
import contextvars
import ipaddress
import socket
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.statuses import ToolOutcomeStatus

_allowed_addresses: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "briefdesk_allowed_addresses", default=None
)
_hook_installed = False


def _blocked(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.NETWORK_BLOCKED, message)


def _looks_like_ip(host: str) -> bool:
    """Any numeric host form (dotted, decimal, hex, octal, IPv6, IPv4-mapped) counts."""
    if host.startswith("[") or ":" in host:
        return True
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.split(".")
    return all(label and (label.isdigit() or label.lower().startswith("0x")) for label in labels)


def check_url(url: str, settings: dict[str, Any]) -> str:
    """Refuse anything the settings do not allow; returns the host on success."""
    if not settings.get("network.enabled"):
        raise _blocked("The network is off. Enable it in settings with an allowlist to fetch URLs.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _blocked("Only http(s) URLs with a host name can be fetched.")
    if parts.username or parts.password:
        raise _blocked("URLs with credentials are refused.")
    host = parts.hostname.lower().rstrip(".")
    if _looks_like_ip(host):
        raise _blocked("IP-literal hosts are refused; use an allowlisted domain name.")
    allow = [d.lower().lstrip(".") for d in settings.get("network.allowlist") or []]
    if not any(host == d or host.endswith("." + d) for d in allow):
        raise _blocked(f"{host} is not in the network allowlist.")
    return host


def _audit_hook(event: str, args: tuple[Any, ...]) -> None:
    if event != "socket.connect":
        return
    allowed = _allowed_addresses.get()
    if allowed is None:
        return
    address = args[1]
    host = address[0] if isinstance(address, tuple) else str(address)
    if host not in allowed:
        raise PermissionError(f"BriefDesk blocked a tool's connection to {host}")


@contextlib.contextmanager
def socket_guard(allowed: frozenset[str]) -> Iterator[None]:
    global _hook_installed
    if not _hook_installed:
        sys.addaudithook(_audit_hook)
        _hook_installed = True
    token = _allowed_addresses.set(allowed)
    try:
        yield
    finally:
        _allowed_addresses.reset(token)


def _public_addresses(host: str) -> frozenset[str]:
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    addresses = {str(info[4][0]) for info in infos}
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved:
            raise _blocked(f"{host} resolves to a private or loopback address; refused.")
    return frozenset(addresses)


def fetch(url: str, settings: dict[str, Any]):  # type: ignore[no-untyped-def]
    from agent_core.tools.bodies import ToolResult

    host = check_url(url, settings)
    limit = int(settings.get("network.max_bytes") or 200_000)
    try:
        addresses = _public_addresses(host)
        with socket_guard(addresses):
            request = urllib.request.Request(url, method="GET", headers={"User-Agent": "BriefDesk"})
            with urllib.request.urlopen(request, timeout=10) as response:
                body = response.read(limit + 1)
    except BriefDeskError:
        raise
    except OSError as exc:
        return ToolResult(ToolOutcomeStatus.PROVIDER_ERROR, f"Fetch failed: {type(exc).__name__}", {"url": url})
    truncated = len(body) > limit
    text = body[:limit].decode("utf-8", "replace")
    wrapped = f"<untrusted_document source_id={url!r}>\n{text}\n</untrusted_document>"
    outcome = ToolOutcomeStatus.DEGRADED if truncated else ToolOutcomeStatus.SUCCESS
    return ToolResult(outcome, wrapped, {"url": url, "bytes": len(body[:limit])})
