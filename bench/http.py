"""A small keep-alive HTTP load generator: threads in this process, each with its own
connection, timing every request with a monotonic clock."""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time


class Conn:
    def __init__(self, port: int, token: str | None = None):
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, body=None, headers=None, parse: bool = True):
        """(status, the answer's JSON); with `parse` False, the answer's bytes, read whole but
        not parsed: a timed read then spends none of the machine's CPU on the client's JSON."""
        data = None if body is None else json.dumps(body)
        self.c.request(method, path, body=data, headers={**self.headers, **(headers or {})})
        r = self.c.getresponse()
        raw = r.read()
        if not parse:
            return r.status, raw
        return r.status, (json.loads(raw) if raw else None)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_threads(worker, threads: int, seconds: float) -> dict:
    """Run `worker(stop_at, timings)` in each thread; returns throughput and latencies."""
    timings: list[list[float]] = [[] for _ in range(threads)]
    stop_at = time.monotonic() + seconds
    pool = [threading.Thread(target=worker, args=(i, stop_at, timings[i])) for i in range(threads)]
    started = time.monotonic()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    elapsed = time.monotonic() - started
    flat = [x for t in timings for x in t]
    return {
        "requests": len(flat),
        "per_second": len(flat) / elapsed,
        "p50_ms": statistics.median(flat) * 1000,
        "p99_ms": percentile(flat, 0.99) * 1000,
    }
