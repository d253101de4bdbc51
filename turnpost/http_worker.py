"""The HTTP worker process of `turnpost serve`: gunicorn's gevent worker, stopping quietly and
sending an answer's headers with its body in one write."""

from __future__ import annotations

import signal
import warnings

from gevent.monkey import MonkeyPatchWarning
from gunicorn import util
from gunicorn.http import wsgi
from gunicorn.workers import ggevent


class GeventWorker(ggevent.GeventWorker):
    """gunicorn's gevent worker, which leaves Ctrl-C to the server and takes its quick quit
    as a stop.

    Ctrl-C in a terminal signals every process of the group, and the server then sends its
    workers SIGQUIT. gunicorn's quit handler exits from a greenlet of its own, which prints a
    traceback of gevent's shutdown for each worker (twice when both signals arrive); its stop
    (SIGTERM's handler) ends the worker's loop instead, and the server kills whatever still
    runs after its graceful timeout."""

    def patch(self) -> None:
        """gevent warns that ssl was imported before it patched it: the server imports redis-py
        before forking its workers, and the one module the warning names as holding unpatched
        names, redis.asyncio.connection, is never used here (the server's clients are redis-py's
        synchronous ones, which gevent's patched socket and ssl serve)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MonkeyPatchWarning)
            super().patch()

    def init_process(self) -> None:
        wsgi.Response = OneWriteResponse  # the class gunicorn's wsgi.create answers with
        super().init_process()

    def init_signals(self) -> None:
        super().init_signals()
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def handle_quit(self, sig, frame) -> None:
        self.handle_exit(sig, frame)


class OneWriteResponse(wsgi.Response):
    """gunicorn's answer, whose headers go out with the first part of the body in one write.

    gunicorn writes the headers, then each part of the body: for an API answer (one part) two
    system calls and two TCP segments, about a sixth of an API process's time on the baseline
    GET. Where anything could come between the headers and the body (no body, a body it must
    not send, a chunked one, a first part that is empty or longer than the Content-Length),
    gunicorn's own write does it."""

    headers_sent: bool  # gunicorn's, set in its __init__

    def write(self, arg: bytes) -> None:
        if (
            self.headers_sent
            or not arg
            or not isinstance(arg, bytes)
            or self.chunked
            or getattr(self, "_omits_body", True)  # HEAD, 204, 304 (gunicorn 27's name)
            or (self.response_length is not None and len(arg) > self.response_length)
        ):
            super().write(arg)
            return
        self.headers_sent = True
        self.sent += len(arg)
        util.write(self.sock, self.head() + arg)

    def send_headers(self) -> None:
        if self.headers_sent:
            return
        util.write(self.sock, self.head())
        self.headers_sent = True

    def head(self) -> bytes:
        """The status line and headers, as gunicorn's send_headers writes them."""
        lines = self.default_headers()
        lines.extend(f"{name}: {value}\r\n" for name, value in self.headers)
        return ("".join(lines) + "\r\n").encode("latin-1")
