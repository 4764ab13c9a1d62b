"""fetch_url: off unless settings enable it with a domain allowlist; GET only; bounded.

Boundaries, outermost first:
- `check_url` refuses at validation, before policy, so a refused URL is never proposed for
  approval in any permission mode: network off, a scheme other than http(s), credentials in
  the URL, a malformed or local host name, any IP literal (dotted, decimal, hex, octal, short,
  IPv6, IPv4-mapped: even when "allowlisted"), a host outside the allowlist.
- `check_budget` refuses a run's fetches beyond `network.max_calls` (counted in the ledger).
- `fetch` resolves the host and refuses private, loopback, link-local and reserved addresses,
  then GETs without proxies and without following redirects, reading at most
  `network.max_bytes` (the rest is never read).
- `socket_guard` (a Python audit hook) refuses, while a tool runs, any socket connection or
  name lookup to a host or address outside the allowed set, and any process spawn. The model
  provider's own connection is not tool code and is not inside the guard. The guard is a
  context variable: it covers the tool's own code in its thread (threads it starts are not).
"""

from __future__ import annotations

import contextlib
import contextvars
import ipaddress
import re
import socket
import sys
import unicodedata
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.client import HTTPMessage
from typing import IO, TYPE_CHECKING
from urllib.parse import SplitResult, urlsplit

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.home.preferences import Settings

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from agent_core.tools.specs import ToolResult

DEFAULT_MAX_BYTES = 200_000
FETCH_TIMEOUT_S = 10.0
_DNS_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_DNS_NAME = re.compile(rf"\A(?=.{{1,253}}\Z){_DNS_LABEL}(?:\.{_DNS_LABEL})*\Z")
_NUMERIC_LABEL = re.compile(r"\A(?:0x[0-9a-f]*|[0-9]+)\Z")
# Dots that IDNA maps to "." (ideographic, fullwidth, halfwidth ideographic full stops).
_DOT_LIKE = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")
_SPAWN_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
    }
)
_ADDRESS_EVENTS = frozenset({"socket.connect", "socket.sendto", "socket.sendmsg"})
_LOOKUP_EVENTS = frozenset({"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"})

_allowed_hosts: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "briefdesk_allowed_hosts", default=None
)
_hook_installed = False


def _blocked(rule: str, message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.NETWORK_BLOCKED, message, rule=rule)


# -- validation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedUrl:
    host: str  # normalized ASCII host name (IDNA, lower case, no trailing dot)
    url: str  # the URL that will be fetched, rebuilt around `host`


def is_ip_literal(host: str) -> bool:
    """Any numeric host form a resolver or URL parser could read as an address.

    Covers dotted quads, single numbers (2130706433), hex (0x7f000001), octal (0177.0.0.1),
    short forms (127.1), IPv6 and IPv4-mapped IPv6; and, as URL parsers do, any name whose
    last label is a number.
    """
    host = host.strip("[]").lower()
    if ":" in host:
        return True
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = [label for label in host.split(".") if label]
    return bool(labels) and bool(_NUMERIC_LABEL.match(labels[-1]))


def normalize_host(raw: str) -> str:
    """NFKC, IDNA dots and punycode, lower case: the name a resolver would actually see."""
    host = unicodedata.normalize("NFKC", raw).translate(_DOT_LIKE).lower().rstrip(".")
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        raise _blocked(
            "network.host", "The host name is not a valid internationalized name."
        ) from None


def _split(url: str) -> SplitResult:
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in url):
        raise _blocked(
            "network.scheme", "URLs with spaces, control or invisible characters are refused."
        )
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises ValueError on a bad port
    except ValueError:
        raise _blocked("network.scheme", "The URL cannot be parsed.") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise _blocked("network.scheme", "Only http(s) URLs with a host name can be fetched.")
    if parts.username is not None or parts.password is not None:
        raise _blocked("network.scheme", "URLs with credentials are refused.")
    return parts


def allowlist_of(settings: Settings) -> list[str]:
    """Normalized entries: "example.org" (it and its subdomains), "*.example.org" (only these)."""
    entries = settings.get("network.allowlist") or []
    if not isinstance(entries, list | tuple):
        return []
    cleaned = (str(e).strip().lower().strip(".") for e in entries)
    return [e for e in cleaned if e and e != "*"]


def on_allowlist(host: str, allowlist: list[str]) -> bool:
    for entry in allowlist:
        if entry.startswith("*."):
            if host.endswith(entry[1:]):
                return True
        elif host == entry or host.endswith("." + entry):
            return True
    return False


def checked_url(url: str, settings: Settings) -> CheckedUrl:
    """Refuse anything the settings do not allow (see the module docstring)."""
    if not settings.get("network.enabled"):
        raise _blocked(
            "network.off",
            "The network is off. Enable it in settings with an allowlist to fetch URLs.",
        )
    parts = _split(url)
    raw_host = str(parts.hostname)
    if parts.netloc.rpartition("@")[2].startswith("[") or is_ip_literal(raw_host):
        raise _blocked(
            "network.ip_literal", "IP-literal hosts are refused; use an allowlisted domain name."
        )
    host = normalize_host(raw_host)
    if is_ip_literal(host):
        raise _blocked(
            "network.ip_literal", "IP-literal hosts are refused; use an allowlisted domain name."
        )
    if not _DNS_NAME.match(host):
        raise _blocked("network.host", "The host is not a valid DNS name.")
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        raise _blocked("network.host", "Local host names are refused.")
    if not on_allowlist(host, allowlist_of(settings)):
        raise _blocked("network.allowlist", f"{host[:100]} is not in the network allowlist.")
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    rebuilt = parts._replace(scheme=parts.scheme.lower(), netloc=netloc, fragment="").geturl()
    return CheckedUrl(host, rebuilt)


def check_url(url: str, settings: Settings) -> str:
    """Refuse anything the settings do not allow; returns the normalized host on success."""
    return checked_url(url, settings).host


def max_calls(settings: Settings) -> int:
    return _whole(settings.get("network.max_calls"), 0)


def _whole(value: object, default: int) -> int:
    """A count setting (validated on the way in: a whole number), or `default` when unset."""
    return int(value) if isinstance(value, int | float | str) and value else default


def check_budget(calls_used: int, settings: Settings) -> None:
    limit = max_calls(settings)
    if calls_used >= limit:
        raise _blocked(
            "network.budget",
            f"This run already used its {limit} fetch_url call(s) (network.max_calls).",
        )


def calls_used(conn: Connection, run_id: str, *, exclude_call: str | None = None) -> int:
    """fetch_url executions of the run recorded in the ledger (refused ones do not count)."""
    from agent_core.storage.tables import ledger

    return ledger.count_unfailed(conn, run_id, "fetch_url", exclude_call=exclude_call)


# -- the socket guard -------------------------------------------------------------------------


def _host_of(address: object) -> str:
    if isinstance(address, tuple) and address:
        return str(address[0]).lower()
    return repr(address)  # AF_UNIX paths, abstract sockets: never allowed


def _audit_hook(event: str, args: tuple[object, ...]) -> None:
    allowed = _allowed_hosts.get()
    if allowed is None:
        return
    if event in _SPAWN_EVENTS:
        raise PermissionError("BriefDesk blocked a tool from starting a process")
    if event in _ADDRESS_EVENTS:
        address = args[1] if len(args) > 1 else None
        if address is None and event == "socket.sendmsg":
            return  # a connected socket: its connect() was already checked
        host = _host_of(address)
    elif event in _LOOKUP_EVENTS:
        host = str(args[0]).lower() if args else ""
    else:
        return
    if host not in allowed:
        raise PermissionError(f"BriefDesk blocked a tool's connection to {host[:100]}")


def _guard_fork_exec() -> None:
    """multiprocessing's `spawn` starts its child through `_posixsubprocess.fork_exec`, which
    raises no audit event on Python 3.11: wrapped once, it refuses inside a guard too (callers
    look the attribute up at call time, so subprocess and multiprocessing both meet it)."""
    try:
        import _posixsubprocess
    except ImportError:  # not a POSIX system: the audit events are all there is
        return
    original = _posixsubprocess.fork_exec

    def fork_exec(*args: object) -> int:
        if _allowed_hosts.get() is not None:
            raise PermissionError("BriefDesk blocked a tool from starting a process")
        return original(*args)  # type: ignore[arg-type]

    setattr(_posixsubprocess, "fork_exec", fork_exec)  # noqa: B010


@contextlib.contextmanager
def socket_guard(allowed: frozenset[str]) -> Iterator[None]:
    """While inside, this context's code may reach only `allowed` hosts/addresses, and may not
    start processes. Nested guards narrow to the innermost one."""
    global _hook_installed
    if not _hook_installed:
        sys.addaudithook(_audit_hook)  # process-wide and permanent; inert outside a guard
        _guard_fork_exec()
        _hook_installed = True
    token = _allowed_hosts.set(frozenset(a.lower() for a in allowed))
    try:
        yield
    finally:
        _allowed_hosts.reset(token)


def guard_active() -> bool:
    return _allowed_hosts.get() is not None


# -- fetching ---------------------------------------------------------------------------------


def public_addresses(host: str) -> frozenset[str]:
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    addresses = {str(info[4][0]).split("%")[0] for info in infos}
    for address in addresses:
        ip = ipaddress.ip_address(address)
        mapped = getattr(ip, "ipv4_mapped", None)
        for candidate in (ip, mapped) if mapped else (ip,):
            if not candidate.is_global or candidate.is_multicast:
                raise _blocked(
                    "network.private_address", f"{host} resolves to a non-public address; refused."
                )
    return frozenset(addresses)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        return None  # the 3xx surfaces as an error: the model may fetch the new URL, checked


def http_get(url: str, allowed: frozenset[str], limit: int) -> tuple[bytes, bool]:
    """GET `url` inside the socket guard: (at most `limit` bytes, truncated)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())
    request = urllib.request.Request(url, method="GET", headers={"User-Agent": "BriefDesk"})
    with socket_guard(allowed), opener.open(request, timeout=FETCH_TIMEOUT_S) as response:
        body = response.read(limit + 1)
    return body[:limit], len(body) > limit


def fetch(url: str, settings: Settings, *, calls_used: int = 0) -> ToolResult:
    from agent_core.corpus.reading import wrap_untrusted
    from agent_core.tools.specs import ToolResult

    check_budget(calls_used, settings)
    target = checked_url(url, settings)
    limit = _whole(settings.get("network.max_bytes"), DEFAULT_MAX_BYTES)
    try:
        addresses = public_addresses(target.host)
        body, truncated = http_get(target.url, addresses | {target.host}, limit)
    except BriefDeskError:
        raise
    except urllib.error.HTTPError as exc:
        what = (
            "redirected (redirects are not followed)"
            if 300 <= exc.code < 400
            else f"answered HTTP {exc.code}"
        )
        return ToolResult(
            ToolOutcomeStatus.PROVIDER_ERROR,
            f"Fetch failed: the server {what}.",
            {"url": target.url},
        )
    except OSError as exc:
        return ToolResult(
            ToolOutcomeStatus.PROVIDER_ERROR,
            f"Fetch failed: {type(exc).__name__}",
            {"url": target.url},
        )
    text = body.decode("utf-8", "replace")
    outcome = ToolOutcomeStatus.DEGRADED if truncated else ToolOutcomeStatus.SUCCESS
    return ToolResult(
        outcome,
        wrap_untrusted(target.url, text),
        {"url": target.url, "bytes": len(body), "truncated": truncated},
    )
