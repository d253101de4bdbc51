"""Real network peers for tests: an SMTP server (aiosmtpd), an HTTP webhook receiver and a
TCP proxy that loses answers in front of a real Valkey, each in a thread on a free loopback
port."""

from __future__ import annotations

import contextlib
import email
import json
import socket
import threading
import time
from email.message import EmailMessage
from email.policy import default
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller

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

    def down(self) -> None:
        """The server goes away, its clients' connections with it."""
        self.controller.stop()

    def up(self) -> None:
        """A new server on the same port (a controller cannot start twice)."""
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **self.options)
        self.controller.start()

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
        return self

    def __exit__(self, *exc):
        self.controller.stop()


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
