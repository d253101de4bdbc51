"""Real network peers for tests: an SMTP server (aiosmtpd), an HTTP webhook receiver and a
TCP proxy that loses answers in front of a real Valkey, each in a thread on a free loopback
port."""

from __future__ import annotations

import base64
import contextlib
import email
import json
import os
import socket
import threading
import time
from email.message import EmailMessage
from email.policy import default
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from py_vapid.jwt import decode

from store.embedded import free_port


class SmtpInbox:
    """An SMTP server that keeps every message it accepts."""

    def __init__(self, **controller_options):
        self.messages: list[tuple[list[str], EmailMessage, float]] = []
        self.peers: list[tuple[str, int]] = []
        """The client address and port of each message: one per connection."""
        self.changed = threading.Condition()
        self.port = free_port()
        self.options = controller_options
        self.controller = Controller(
            self, hostname="127.0.0.1", port=self.port, **controller_options
        )
        self.running = False

    def down(self) -> None:
        """The server goes away, its clients' connections with it."""
        self.controller.stop()
        self.running = False

    def up(self) -> None:
        """A new server on the same port (a controller cannot start twice)."""
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **self.options)
        self.controller.start()
        self.running = True

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(
            envelope.original_content or envelope.content, policy=default
        )
        with self.changed:
            self.messages.append((list(envelope.rcpt_tos), message, time.time()))
            self.peers.append(tuple(session.peer))
            self.changed.notify_all()
        return "250 OK"

    def wait_for(self, predicate, timeout: float = 20.0) -> EmailMessage:
        """The first message for which predicate(message, recipients) holds, waiting for it."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for recipients, message, _ in self.messages:
                    if predicate(message, recipients):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        "no such email arrived; got: "
                        + ", ".join(f"{r} {m['Subject']!r}" for r, m, _ in self.messages)
                    )
                self.changed.wait(left)

    def to(self, address: str) -> list[EmailMessage]:
        with self.changed:
            return [m for r, m, _ in self.messages if address in r]

    def __enter__(self):
        self.controller.start()
        self.running = True
        return self

    def __exit__(self, *exc):
        if self.running:  # a test may leave it down()
            self.down()


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def html_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


class WebhookReceiver:
    """An HTTP server that records each POST and answers with the next status it was given
    (then 200), after `delay` seconds, with a Location header when `location` is given."""

    def __init__(
        self, statuses: list[int] | None = None, delay: float = 0.0, location: str | None = None
    ):
        self.statuses = list(statuses or [])
        self.requests: list[dict] = []
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.changed:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.requests.append(
                        {
                            "headers": dict(self.headers),
                            "body": body,
                            "json": json.loads(body),
                            "status": status,
                            "at": time.time(),
                        }
                    )
                    receiver.changed.notify_all()
                time.sleep(delay)
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def wait_count(self, count: int, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self.changed:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.requests)} webhook calls, not {count}")
                self.changed.wait(left)
            return list(self.requests)

    def wait_until(self, enough, timeout: float = 60.0) -> list[dict]:
        """The calls received once `enough(calls)` holds."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not enough(self.requests):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.requests)} webhook calls, not enough")
                self.changed.wait(left)
            return list(self.requests)

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


class PushService:
    """A Web Push service on loopback, as a browser's vendor runs one: it takes a POST to a
    subscription's endpoint, checks the VAPID JWT (RFC 8292: the `vapid t=,k=` header, the
    signature against the key the browser subscribed with, the audience, the expiry, the
    subject) and decrypts the body (RFC 8291, aes128gcm) with the subscription's private key,
    as the browser would. Each POST answers the next status given (then 201), with a Location
    header when `location` is given; from the POST numbered `hold_from` (0 is the first) on,
    the answers wait until `release` is set."""

    def __init__(
        self,
        statuses: list[int] | None = None,
        retry_after: str | None = None,
        location: str | None = None,
    ):
        self.statuses = list(statuses or [])
        self.retry_after = retry_after
        self.requests: list[dict] = []
        self.browsers: dict[str, PushBrowser] = {}
        self.application_server_key: str | None = None
        """The public key the browsers subscribed with (what the server's API gave them)."""
        self.changed = threading.Condition()
        self.hold_from: int | None = None
        self.release = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                name = self.path.rsplit("/", 1)[-1]
                record = {"path": self.path, "headers": dict(self.headers), "at": time.time()}
                record.update(service.check(name, self.headers, body))
                with service.changed:
                    status = service.statuses.pop(0) if service.statuses else 201
                    record["status"] = status
                    held = service.hold_from is not None and len(service.requests) >= (
                        service.hold_from
                    )
                    service.requests.append(record)
                    service.changed.notify_all()
                if held:
                    service.release.wait(60)
                self.send_response(status)
                if service.retry_after and status in (429, 503):
                    self.send_header("Retry-After", service.retry_after)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"

    def browser(self, name: str) -> PushBrowser:
        """A browser's subscription to this service (its keys made here, as a browser makes
        them): `subscription` is what pushManager.subscribe answers."""
        made = PushBrowser(f"{self.origin}/push/{name}")
        self.browsers[name] = made
        return made

    def check(self, name: str, headers, body: bytes) -> dict:
        """What a push service and its browser make of a POST: the VAPID claims, or why they
        were refused; the decrypted JSON, or why it could not be read."""
        found: dict = {"problems": []}
        auth = headers.get("Authorization", "")
        try:
            scheme, params = auth.split(" ", 1)
            fields = dict(part.split("=", 1) for part in params.split(","))
            assert scheme == "vapid", f"scheme {scheme!r}"
            assert Vapid02.verify(auth), "the JWT's signature does not verify"
            claims = decode(fields["t"], fields["k"])
            found["claims"] = claims
            found["vapid_key"] = fields["k"]
            if fields["k"] != self.application_server_key:
                found["problems"].append("signed with another key than the browser subscribed with")
            if claims.get("aud") != self.origin:
                found["problems"].append(f"audience {claims.get('aud')!r}")
            if not time.time() < claims.get("exp", 0) <= time.time() + 24 * 3600:
                found["problems"].append(f"expiry {claims.get('exp')!r}")
            if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
                found["problems"].append(f"subject {claims.get('sub')!r}")
        except Exception as err:  # the header itself is wrong
            found["problems"].append(f"VAPID: {type(err).__name__}: {err}")
        if headers.get("Content-Encoding") != "aes128gcm":
            found["problems"].append(f"Content-Encoding {headers.get('Content-Encoding')!r}")
        if not headers.get("TTL", "").isdigit():
            found["problems"].append("no TTL")
        browser = self.browsers.get(name)
        if browser is None:
            found["problems"].append(f"no subscription {name}")
            return found
        try:
            plain = http_ece.decrypt(
                body,
                private_key=browser.private_key,
                auth_secret=browser.auth_secret,
                version="aes128gcm",
            )
            found["json"] = json.loads(plain)
        except Exception as err:
            found["problems"].append(f"decrypt: {type(err).__name__}: {err}")
        found["browser"] = name
        return found

    def wait_count(self, count: int, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self.changed:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.requests)} push messages, not {count}")
                self.changed.wait(left)
            return list(self.requests)

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class PushBrowser:
    """The keys a browser makes when it subscribes: a P-256 key pair and 16 secret bytes."""

    def __init__(self, endpoint: str):
        def b64url(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth_secret)},
        }


class CuttingProxy:
    """A TCP proxy on loopback in front of a real server (Valkey), forwarding both ways until
    it is told to lose an answer: `cut_after(marker, down)` lets the next request holding
    `marker` reach the server, keeps its answer from the client, and then drops every
    connection and refuses new ones for `down` seconds, as a server killed right after it ran a
    command does. `down(seconds)` refuses connections (and drops the open ones) at once."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        self.marker: bytes | None = None
        self.marker_down = 0.0
        self.down_until = 0.0
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_after(self, marker: bytes, down: float) -> None:
        with self.lock:
            self.marker, self.marker_down = marker, down

    def down(self, seconds: float) -> None:
        with self.lock:
            self.down_until = time.monotonic() + seconds
            self._drop_all()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if time.monotonic() < self.down_until:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            held = threading.Event()
            with self.lock:
                self.pairs.append((client, upstream, held))
            threading.Thread(target=self._up, args=(client, upstream, held), daemon=True).start()
            threading.Thread(target=self._back, args=(upstream, client, held), daemon=True).start()

    def _up(self, client: socket.socket, upstream: socket.socket, held: threading.Event) -> None:
        try:
            while data := client.recv(65536):
                cut = False
                with self.lock:
                    if self.marker is not None and self.marker in data:
                        self.marker, cut = None, True
                        held.set()  # its answer is not forwarded
                upstream.sendall(data)
                if cut:
                    time.sleep(0.2)  # the server runs it
                    with self.lock:
                        self.cuts += 1
                        self.down_until = time.monotonic() + self.marker_down
                        self._drop_all()
                    return
        except OSError:
            pass

    def _back(self, upstream: socket.socket, client: socket.socket, held: threading.Event) -> None:
        try:
            while data := upstream.recv(65536):
                if not held.is_set():
                    client.sendall(data)
        except OSError:
            pass

    def _drop_all(self) -> None:
        for pair in self.pairs:
            for sock in pair[:2]:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
        self.pairs = []

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            self._drop_all()
