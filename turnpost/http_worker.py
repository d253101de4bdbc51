"""The HTTP worker process of `turnpost serve`: gunicorn's gevent worker, stopping quietly,
sending an answer's headers with its body in one write, reading its settings once, and letting
redis-py look at its connections without a turn of gevent's loop."""

from __future__ import annotations

import select
import signal
import warnings
from typing import Any

from gevent.monkey import MonkeyPatchWarning, get_original
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.workers import ggevent
from redis._parsers import hiredis


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
        hiredis.select = SelectForRedis()

    def init_process(self) -> None:
        wsgi.Response = OneWriteResponse  # the class gunicorn's wsgi.create answers with
        self.cfg = SettledConfig(self.cfg)  # type: ignore[has-type]  # gunicorn is untyped
        super().init_process()

    def init_signals(self) -> None:
        super().init_signals()
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def handle_quit(self, sig, frame) -> None:
        self.handle_exit(sig, frame)


class SettledConfig:
    """gunicorn's settings as one worker reads them: each read once, then kept.

    gunicorn reads a setting through Config.__getattr__ (a failed attribute lookup, then the
    Setting's own): about 1.5 µs, 23 times for every request (its parser, the WSGI environ,
    the keep-alive loop), some 35 µs of a baseline GET's 1 ms. A worker's settings never
    change once it is forked (the server reads its configuration, and a reload starts new
    workers), so each value read is kept as a plain attribute of this stand-in."""

    def __init__(self, config: Config) -> None:
        self._config = config

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._config, name)
        setattr(self, name, value)
        return value


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


class SelectForRedis:
    """The `select` module as redis-py's hiredis parser sees it in a gevent worker: the same,
    but for a `poll` that does not wait (timeout 0) on the operating system's own poll().

    Before every command redis-py asks whether the connection the pool hands out has anything
    to read (`can_read`: data left over, or a connection the server closed), and the token
    cache asks it of its tracking connection before every authenticated request. It asks with
    `select.poll()` and a timeout of 0, which gevent's patched module answers by starting a
    watcher and switching to its loop and back: about 40 µs of CPU each time, a tenth of a
    baseline GET. A poll of timeout 0 never waits, so the system's answers it just as well and
    blocks no other greenlet; any poll that may wait still goes to gevent's. It stands as
    `select` in redis-py 8.1's private module redis._parsers.hiredis, whose connections
    check themselves with it (tests/api/test_http_worker.py fails should that change)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(select, name)  # the constants, and whatever else redis-py reads

    class poll:  # select.poll's name, as redis-py calls it
        def __init__(self) -> None:
            self.registered: list[tuple[Any, int]] = []

        def register(self, fd: Any, eventmask: int) -> None:
            self.registered.append((fd, eventmask))

        def poll(self, timeout: float | None = None) -> list[tuple[int, int]]:
            poller = SYSTEM_POLL() if timeout == 0 else select.poll()
            for fd, eventmask in self.registered:
                poller.register(fd, eventmask)
            return poller.poll(timeout)


SYSTEM_POLL = get_original("select", "poll")
"""The operating system's poll, whether or not gevent has patched `select` yet."""
