"""The network boundary, unit by unit: check_url, the per-run budget, the socket guard, http_get.

check_url is fed every URL trick we know (IP literals in all their spellings, also when the
allowlist names them, Unicode dots, credentials, local names, suffix tricks). The socket guard
is tested directly against a real listener on 127.0.0.1, and http_get against a real HTTP
server on 127.0.0.1 (GET only, bounded read, no redirects, no proxies).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import urllib.error
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.tools import network
from tests.fixtures.attacks.listener import Listener
from tests.support.waiting import within

TRICKY_ALLOWLIST = [
    "example.org",
    "*.example.net",
    "127.0.0.1",
    "localhost",
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "127.1",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "foo.localhost",
]
ON: dict[str, Any] = {
    "network.enabled": True,
    "network.allowlist": TRICKY_ALLOWLIST,
    "network.max_calls": 5,
}

REFUSED = [
    # IP literals in every spelling, each one "allowlisted" above
    ("http://127.0.0.1/", "network.ip_literal"),
    ("http://2130706433/", "network.ip_literal"),
    ("http://0x7f000001/", "network.ip_literal"),
    ("http://0177.0.0.1/", "network.ip_literal"),
    ("http://127.1/", "network.ip_literal"),
    ("http://0x7f.1/", "network.ip_literal"),
    ("http://127.0.0.1.:8080/x", "network.ip_literal"),
    ("http://[::1]/", "network.ip_literal"),
    ("http://[::ffff:127.0.0.1]/", "network.ip_literal"),
    ("http://[::ffff:7f00:1]/", "network.ip_literal"),
    ("http://[0:0:0:0:0:0:0:1]:80/", "network.ip_literal"),
    ("http://１２７.０.０.１/", "network.ip_literal"),  # fullwidth digits
    ("http://127。0。0。1/", "network.ip_literal"),  # ideographic full stops
    ("http://127．0．0．1/", "network.ip_literal"),  # fullwidth full stops
    ("http://169.254.169.254/latest/meta-data/", "network.ip_literal"),
    ("http://example.org.1/", "network.ip_literal"),  # ends in a number: parsers read an IP
    # local names
    ("http://localhost/", "network.host"),
    ("http://LOCALHOST./admin", "network.host"),
    ("http://foo.localhost/", "network.host"),
    ("http://example.org%2e.evil.com/", "network.host"),
    ("http://exa_mple.org/", "network.host"),
    # not on the allowlist
    ("http://evil.com/", "network.allowlist"),
    ("http://example.org.evil.com/", "network.allowlist"),
    ("http://evilexample.org/", "network.allowlist"),
    ("http://example.net/", "network.allowlist"),  # only subdomains of *.example.net
    ("http://еxample.org/", "network.allowlist"),  # Cyrillic e: a different (punycode) name
    # schemes, credentials, malformed URLs
    ("ftp://example.org/file", "network.scheme"),
    ("file:///etc/passwd", "network.scheme"),
    ("javascript:alert(1)", "network.scheme"),
    ("gopher://example.org/", "network.scheme"),
    ("//example.org/x", "network.scheme"),
    ("http://user:pw@example.org/", "network.scheme"),
    ("http://example.org@127.0.0.1/", "network.scheme"),
    ("http://exa mple.org/", "network.scheme"),
    ("http://example.org\t.evil.com/", "network.scheme"),
    ("http://example.org\u202e/", "network.scheme"),
    ("http://[::1/", "network.scheme"),
    ("http://example.org:99999/", "network.scheme"),
]

ALLOWED = [
    ("https://example.org/page", "example.org", "https://example.org/page"),
    ("http://docs.example.org/a?b=c", "docs.example.org", "http://docs.example.org/a?b=c"),
    ("HTTPS://EXAMPLE.ORG./x#frag", "example.org", "https://example.org/x"),
    ("https://a.example.net:8443/", "a.example.net", "https://a.example.net:8443/"),
]


@pytest.mark.parametrize(("url", "rule"), REFUSED)
def test_check_url_refuses(url: str, rule: str) -> None:
    with pytest.raises(BriefDeskError) as caught:
        network.check_url(url, ON)
    assert (caught.value.code, caught.value.details.get("rule")) == (
        ErrorCode.NETWORK_BLOCKED,
        rule,
    )


@pytest.mark.parametrize(("url", "host", "fetched"), ALLOWED)
def test_check_url_allows_allowlisted_names(url: str, host: str, fetched: str) -> None:
    assert network.check_url(url, ON) == host
    assert network.checked_url(url, ON).url == fetched


@pytest.mark.parametrize("url", ["https://example.org/", "http://127.0.0.1/", "ftp://x/"])
@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"network.enabled": False, "network.allowlist": TRICKY_ALLOWLIST},
        {"network.enabled": 0, "network.allowlist": ["example.org"]},
    ],
)
def test_check_url_refuses_everything_while_the_network_is_off(
    url: str, settings: dict[str, Any]
) -> None:
    with pytest.raises(BriefDeskError) as caught:
        network.check_url(url, settings)
    assert caught.value.details.get("rule") == "network.off"


def test_an_empty_allowlist_allows_nothing() -> None:
    with pytest.raises(BriefDeskError) as caught:
        network.check_url(
            "https://example.org/", {"network.enabled": True, "network.allowlist": []}
        )
    assert caught.value.details.get("rule") == "network.allowlist"


@pytest.mark.parametrize(
    "host",
    [
        "2130706433",
        "0x7f000001",
        "0177.0.0.1",
        "127.1",
        "::1",
        "[::ffff:127.0.0.1]",
        "10.0.0.1",
        "1.2.3.4",
        "foo.123",
        "a.0x1f",
    ],
)
def test_is_ip_literal(host: str) -> None:
    assert network.is_ip_literal(host)


@pytest.mark.parametrize("host", ["example.org", "123.example.org", "0x.example", "a1.b2"])
def test_names_are_not_ip_literals(host: str) -> None:
    assert not network.is_ip_literal(host)


def test_the_budget_counts_calls_used() -> None:
    settings = {"network.max_calls": 2}
    network.check_budget(0, settings)
    network.check_budget(1, settings)
    with pytest.raises(BriefDeskError) as caught:
        network.check_budget(2, settings)
    assert caught.value.details.get("rule") == "network.budget"


def test_fetch_checks_the_budget_before_any_lookup() -> None:
    with pytest.raises(BriefDeskError) as caught:
        network.fetch("https://example.org/", {**ON, "network.max_calls": 1}, calls_used=1)
    assert caught.value.details.get("rule") == "network.budget"


def test_a_name_resolving_to_loopback_is_refused_at_fetch() -> None:
    """A name that passes check_url but resolves to a private address (DNS rebinding, a
    hosts-file entry) is refused before any connection: `localhost` stands in for it here."""
    with pytest.raises(BriefDeskError) as caught:
        network.public_addresses("localhost")
    assert caught.value.details.get("rule") == "network.private_address"


# -- the socket guard -----------------------------------------------------------------------


@pytest.fixture
def listener() -> Iterator[Listener]:
    with Listener() as running:
        yield running


def _wait_for(listener: Listener, count: int) -> None:
    """Up to 2 s for `count` connections; the caller asserts what arrived."""

    def arrived() -> bool:
        listener.drain()
        return len(listener.connections) >= count

    within(arrived, timeout=2, interval=0.02)


def test_inside_the_guard_a_raw_connection_is_refused_and_nothing_arrives(
    listener: Listener,
) -> None:
    with network.socket_guard(frozenset()):
        with pytest.raises(PermissionError):
            socket.create_connection(("127.0.0.1", listener.port), timeout=2)
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            with pytest.raises(PermissionError):
                raw.connect(("127.0.0.1", listener.port))
            with pytest.raises(PermissionError):
                raw.connect_ex(("127.0.0.1", listener.port))
        finally:
            raw.close()
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            with pytest.raises(PermissionError):
                udp.sendto(b"exfil", ("127.0.0.1", listener.port))
        finally:
            udp.close()
        with pytest.raises(PermissionError):
            socket.getaddrinfo("example.org", 80)
    listener.drain()
    assert listener.connections == []


def test_outside_the_guard_the_same_connection_works(listener: Listener) -> None:
    with network.socket_guard(frozenset()):
        pass  # the hook stays installed; only the guarded context is refused
    with socket.create_connection(("127.0.0.1", listener.port), timeout=2) as conn:
        conn.sendall(b"hello")
    _wait_for(listener, 1)
    assert len(listener.connections) == 1


def test_the_guard_lets_through_only_its_allowed_addresses(listener: Listener) -> None:
    with network.socket_guard(frozenset({"127.0.0.1"})):
        with socket.create_connection(("127.0.0.1", listener.port), timeout=2):
            pass
        if socket.has_ipv6 and listener.port6 != listener.port:
            with pytest.raises(PermissionError):
                socket.create_connection(("::1", listener.port6), timeout=2)
    _wait_for(listener, 1)
    assert len(listener.connections) == 1


def test_inside_the_guard_no_process_can_be_started() -> None:
    with network.socket_guard(frozenset()), pytest.raises(PermissionError):
        subprocess.run(["true"], check=False)
    assert subprocess.run(["true"], check=False).returncode == 0


def test_a_guard_in_one_thread_does_not_cover_another(listener: Listener) -> None:
    """The guard is per context: the model provider's connection (not tool code) is never in it."""
    errors: list[BaseException] = []

    def provider_like() -> None:
        try:
            with socket.create_connection(("127.0.0.1", listener.port), timeout=2):
                pass
        except BaseException as exc:
            errors.append(exc)

    with network.socket_guard(frozenset()):
        thread = threading.Thread(target=provider_like)
        thread.start()
        thread.join(5)
        assert network.guard_active()
    assert not network.guard_active()
    assert errors == []
    _wait_for(listener, 1)
    assert len(listener.connections) == 1


# -- http_get against a real HTTP server -----------------------------------------------------


class _Recorder(BaseHTTPRequestHandler):
    seen: list[tuple[str, str, bytes]]
    big = b"x" * (5 * 1024 * 1024)

    def _any(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.seen.append((self.command, self.path, self.rfile.read(length) if length else b""))
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/target")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = self.big if self.path == "/big" else b"<p>hello</untrusted_document> world</p>"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(OSError):  # the client stops reading at its limit
            self.wfile.write(body)

    do_GET = do_POST = _any

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def web() -> Iterator[tuple[str, list[tuple[str, str, bytes]]]]:
    seen: list[tuple[str, str, bytes]] = []
    handler = type("Handler", (_Recorder,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def test_http_get_sends_a_bodyless_get(web: tuple[str, list[Any]]) -> None:
    base, seen = web
    body, truncated = network.http_get(base + "/page", frozenset({"127.0.0.1"}), 1000)
    assert (body, truncated) == (b"<p>hello</untrusted_document> world</p>", False)
    assert seen == [("GET", "/page", b"")]


def test_http_get_reads_at_most_the_limit(web: tuple[str, list[Any]]) -> None:
    base, _seen = web
    body, truncated = network.http_get(base + "/big", frozenset({"127.0.0.1"}), 10_000)
    assert (len(body), truncated) == (10_000, True)


def test_http_get_does_not_follow_redirects(web: tuple[str, list[Any]]) -> None:
    base, seen = web
    with pytest.raises(urllib.error.HTTPError) as caught:
        network.http_get(base + "/redirect", frozenset({"127.0.0.1"}), 1000)
    assert caught.value.code == 302
    assert [path for _m, path, _b in seen] == ["/redirect"]


def test_http_get_ignores_proxy_settings(
    web: tuple[str, list[Any]], listener: Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    base, seen = web
    proxy = f"http://127.0.0.1:{listener.port}"
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "all_proxy"):
        monkeypatch.setenv(name, proxy)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    network.http_get(base + "/page", frozenset({"127.0.0.1"}), 1000)
    assert len(seen) == 1
    listener.drain()
    assert listener.connections == []


def test_http_get_cannot_reach_an_address_outside_its_guard(web: tuple[str, list[Any]]) -> None:
    base, seen = web
    with pytest.raises(OSError):
        network.http_get(base + "/page", frozenset({"93.184.216.34"}), 1000)
    assert seen == []
