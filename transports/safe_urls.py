"""Outgoing URLs (webhooks, chat webhooks, Web Push endpoints) that cannot be turned against the
server's own network (SSRF).

Such a URL must be https (http only where WEBHOOK_ALLOW_HTTP says so), and every address its
host resolves to must be a public one: loopback, private, link-local (cloud metadata),
shared, multicast, reserved and unspecified addresses are refused (loopback only is allowed
again by WEBHOOK_ALLOW_LOOPBACK, for development and tests). So are the IPv6 addresses that
carry an IPv4 address to somewhere else, whatever that address: 6to4 (2002::/16), Teredo
(2001::/32), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48), the IPv4-compatible
(::/96) and IPv4-translated (::ffff:0:0:0/96) forms; a router or gateway of the server's own
network could unwrap them onto an internal address. An IPv4-mapped address (::ffff:0:0/96) is
the IPv4 address it maps, and is checked as such. The check runs when the URL is set
and again at each delivery, which then connects to the very address it checked, so a DNS
answer that changes in between (rebinding) gains nothing. `post` follows no redirects, and says
of a failure only what the receiver's owner needs: never a socket error that would tell an
open port from a closed one.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from transports.phrases import Phrase, PhrasedError

DELIVERED = "delivered"
COULD_NOT_CONNECT = "could not connect"


WRAPPERS = tuple(
    ipaddress.IPv6Network(prefix)
    for prefix in (
        "2002::/16",  # 6to4: the IPv4 address in bits 16-47
        "2001::/32",  # Teredo: a server's and (inverted) a client's IPv4 address
        "64:ff9b::/96",  # NAT64, the well-known prefix (RFC 6052)
        "64:ff9b:1::/48",  # NAT64 for local use (RFC 8215)
        "::/96",  # IPv4-compatible (deprecated), and :: and ::1
        "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
    )
)
"""IPv6 prefixes whose addresses carry an IPv4 address somewhere else: never a webhook's."""


WEBHOOK = Phrase("webhook")
"""What a URL is for, in the words of its refusals (`UrlPolicy.check`'s `name`)."""


class UnsafeUrl(PhrasedError):
    """The URL may not be used as a webhook; the message says why, in a player's words."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written in the URL: the TLS server name and the Host header
    port: int
    path: str  # with the query
    address: str  # the checked address to connect to


@dataclass(frozen=True)
class UrlPolicy:
    allow_http: bool = False
    allow_loopback: bool = False

    def check(self, url: str, name: Phrase = WEBHOOK) -> Target:
        """The URL's target with a checked address, or UnsafeUrl (whose words call the URL by
        its `name`: a webhook, a push service)."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as err:
            raise UnsafeUrl(Phrase("the %(name)s URL cannot be read", name=name)) from err
        if parts.scheme != "https" and not (self.allow_http and parts.scheme == "http"):
            raise UnsafeUrl(Phrase("a %(name)s URL must start with https://", name=name))
        if not parts.hostname:
            raise UnsafeUrl(Phrase("the %(name)s URL has no host", name=name))
        if parts.username or parts.password:
            raise UnsafeUrl(
                Phrase("a %(name)s URL may not carry a user name or password", name=name)
            )
        port = port or (443 if parts.scheme == "https" else 80)
        try:
            found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as err:
            raise UnsafeUrl(
                Phrase(
                    "the %(name)s host %(host)s does not resolve", name=name, host=parts.hostname
                )
            ) from err
        addresses = [str(info[4][0]) for info in found]
        refused = [address for address in addresses if not self._allowed(address)]
        if refused or not addresses:
            raise UnsafeUrl(
                Phrase(
                    "the %(name)s host %(host)s resolves to an address that is not public "
                    "(loopback, private, link-local, reserved, or an IPv6 tunnel's)",
                    name=name,
                    host=parts.hostname,
                )
            )
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return Target(parts.scheme, parts.hostname, port, path, addresses[0])

    def _allowed(self, address: str) -> bool:
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address
        ip = ipaddress.ip_address(address.split("%")[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if ip.is_loopback:  # 127.0.0.0/8, ::1 (which ::/96 holds too)
            return self.allow_loopback
        if isinstance(ip, ipaddress.IPv6Address) and any(ip in net for net in WRAPPERS):
            return False
        return ip.is_global and not (ip.is_multicast or ip.is_reserved)


def post(
    target: Target, body: bytes, headers: dict[str, str], timeout: float
) -> tuple[int | None, str]:
    """POST to the checked address: (status, what to tell the player). No redirect is
    followed: a 3xx is the receiver's answer like any other."""
    answer = send(target, body, headers, timeout)
    return answer.status, answer.detail


@dataclass(frozen=True)
class Answer:
    status: int | None  # None when no answer came
    detail: str  # "delivered", "refused by the receiver (HTTP n)" or "could not connect"
    retry_after: float | None = None  # the answer's Retry-After, in seconds, when it had one


def send(target: Target, body: bytes, headers: dict[str, str], timeout: float) -> Answer:
    """`post`, with the answer's Retry-After (a push service's 429 or 503 says when to come
    back)."""
    connection: http.client.HTTPConnection
    if target.scheme == "https":
        connection = _PinnedHTTPS(target, timeout)
    else:
        connection = _PinnedHTTP(target, timeout)
    try:
        connection.request(
            "POST", target.path, body=body, headers={**headers, "Host": _host_header(target)}
        )
        response = connection.getresponse()
        status, retry_after = response.status, _seconds(response.getheader("Retry-After"))
    except (OSError, http.client.HTTPException, ssl.SSLError):
        return Answer(None, COULD_NOT_CONNECT)
    finally:
        connection.close()
    if 200 <= status < 300:
        return Answer(status, DELIVERED)
    return Answer(status, f"refused by the receiver (HTTP {status})", retry_after)


def _seconds(header: str | None) -> float | None:
    """A Retry-After in seconds (its date form is read as none: the caller's backoff then)."""
    if header is None or not header.strip().isdecimal():
        return None
    return float(header.strip())


def _host_header(target: Target) -> str:
    host = f"[{target.host}]" if ":" in target.host else target.host
    default = 443 if target.scheme == "https" else 80
    return host if target.port == default else f"{host}:{target.port}"


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float):
        super().__init__(target.address, target.port, timeout=timeout)

    def connect(self):
        self.sock = socket.create_connection((self.host, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """TLS to the checked address, verified against the URL's host name."""

    def __init__(self, target: Target, timeout: float):
        self.tls = ssl.create_default_context()
        super().__init__(target.address, target.port, timeout=timeout, context=self.tls)
        self.server_name = target.host

    def connect(self):
        raw = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.server_name)
