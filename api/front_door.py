"""What a public server needs at its door: the timeouts and caps of the HTTP side, read from the
environment, and the middleware that enforces the body's read deadline.

gunicorn's gevent worker bounds the request line and headers with its `keepalive` timeout (the
whole header block must arrive within it), but reads the body only when the app asks for it and
with no deadline at all: one byte every two seconds would hold the connection for ever. So
`BodyDeadline` reads the whole body first, within `body_timeout_seconds` in total, and answers
408 (and hangs up) when the client is slower than that.
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
from dataclasses import dataclass

import gevent

from service.settings import FromEnvironment, setting


@dataclass(frozen=True)
class FrontDoor(FromEnvironment):
    """The HTTP side's timeouts and caps (service.settings says how they are read)."""

    header_timeout_seconds: int = setting(
        10, "the request line and headers, and an idle keep-alive (whole seconds)"
    )
    body_timeout_seconds: float = setting(20.0, "the whole body, however it trickles in")
    worker_connections: int = setting(2000, "open connections per HTTP worker process")
    http_max_requests: int = setting(
        5000, "answers after which an HTTP worker is replaced (with 10% jitter; 0: never)"
    )
    stream_keepalive_seconds: float = setting(15.0, "a comment line on an idle event stream")
    stream_retry_ms: int = setting(3000, "the `retry:` an event stream tells clients first")
    streams_per_player: int = setting(8, "open event streams per player; more answer 429")
    proxy_hops: int = setting(0, "trusted reverse proxies setting X-Forwarded-For")
    rate_limits: bool = setting(True, "off turns every LIMIT_* below off (benchmarks)")
    limit_register_per_ip: str = setting("60/minute;600/hour", "sign-ups per client address")
    limit_anonymous_per_ip: str = setting(
        "300/minute", "calls without a valid token or session, per client address"
    )
    limit_sign_in_per_ip: str = setting(
        "10/minute;30/hour", "sign-in links asked by one client address"
    )
    limit_create_per_player: str = setting("30/minute;300/hour", "new games per player")
    limit_moves_per_player: str = setting(
        "300/minute", "moves, joins, resigns, settings per player"
    )
    limit_reads_per_player: str = setting("1200/minute", "GETs per player")
    hsts_seconds: int = setting(
        31536000, "Strict-Transport-Security's max-age, sent when the site is https (0: none)"
    )


class BodyDeadline:
    """WSGI middleware: the request body is read in full, within `seconds` in total, before the
    app runs; a client slower than that gets 408 and a closed connection. Bodies larger than
    `max_bytes` are left to the app, which refuses them (413) without reading them."""

    def __init__(self, app, seconds: float, max_bytes: int):
        self.app, self.seconds, self.max_bytes = app, seconds, max_bytes

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked and (not length.isdecimal() or not 0 < int(length) <= self.max_bytes):
            return self.app(environ, start_response)
        limit = int(length) if length.isdecimal() else self.max_bytes + 1
        try:
            with gevent.Timeout(self.seconds):
                body = environ["wsgi.input"].read(limit)
        except gevent.Timeout:
            payload = json.dumps(
                {
                    "code": "request/timeout",
                    "status": 408,
                    "message": f"the request body did not arrive within {self.seconds:g} seconds",
                }
            )
            start_response("408 Request Timeout", [("Content-Type", "application/json")])
            return _AnswerThenHangUp(payload.encode(), environ.get("gunicorn.socket"))
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


class _AnswerThenHangUp:
    """A response body that, once sent, stops reading from the client: gunicorn drops an app's
    `Connection: close` (a hop-by-hop header) and would otherwise wait for the rest of the
    slow body and for a next request on the same connection."""

    def __init__(self, body: bytes, client: socket.socket | None):
        self.body, self.client = body, client

    def __iter__(self):
        yield self.body

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(OSError):  # the client may be gone already
                self.client.shutdown(socket.SHUT_RD)
