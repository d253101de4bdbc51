"""One `turnpost worker` process on an embedded Valkey of its own (no append-only file), for the
benchmarks that time what the worker does after a commit (bench/notify.py, bench/push.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from store.embedded import EmbeddedValkey


@contextmanager
def worker_on_valkey(env: Mapping[str, str]) -> Iterator[tuple[EmbeddedValkey, subprocess.Popen]]:
    """The Valkey and the worker, started with this environment besides REDIS_URL, its output
    dropped; the worker stopped, then the Valkey, on the way out."""
    with tempfile.TemporaryDirectory() as data:
        server = EmbeddedValkey(data, appendonly=False).start()
        worker = subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "worker"],
            env={**os.environ, "REDIS_URL": server.url, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield server, worker
        finally:
            worker.terminate()
            worker.wait(10)
            server.stop()
