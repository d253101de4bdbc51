"""The HTTP worker process of `turnpost serve`: gunicorn's gevent worker, stopping quietly."""

from __future__ import annotations

import signal
import warnings

from gevent.monkey import MonkeyPatchWarning
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

    def init_signals(self) -> None:
        super().init_signals()
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def handle_quit(self, sig, frame) -> None:
        self.handle_exit(sig, frame)
