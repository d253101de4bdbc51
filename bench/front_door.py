"""The front door under idle and slow connections (a benchmark, not a test).

Starts `turnpost serve` as shipped (gevent workers, the default timeouts; rate limits off so
that one address may make all the calls), then measures paced reads (a view and an inbox,
100 requests/s from 4 threads) twice: unloaded, and with 1,000 idle event streams and 200
slow-body connections open (a byte every 2 s; each is cut at the body deadline and opened
again at once, so 200 stay open). The goal: the loaded p99 within twice the unloaded p99.

    .venv/bin/python -m bench.front_door [--streams 1000] [--slow 200] [--seconds 20]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime

from bench.http import Conn, percentile
from store.embedded import free_port

PACE_SECONDS = 0.04  # per thread: 4 threads -> 100 requests/s
THREADS = 4


def start_server(data: str, port: int, streams_per_player: int, log) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update({"RATE_LIMITS": "off", "STREAMS_PER_PLAYER": str(streams_per_player)})
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "turnpost.cli",
            "serve",
            "--no-worker",
            "--port",
            str(port),
            "--data",
            data,
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    for _ in range(600):
        try:
            if Conn(port).call("GET", "/v1/catalog")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("turnpost serve did not start")


def stop_server(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def setup_games(port: int, pairs: int) -> list[tuple[str, str]]:
    """(token, game id) for both players of `pairs` Nine Domains games."""
    seated = []
    for i in range(pairs):
        a = Conn(port).call("POST", "/v1/players", {"name": f"A{i}"})[1]
        b = Conn(port).call("POST", "/v1/players", {"name": f"B{i}"})[1]
        Conn(port, b["token"]).call("PUT", "/v1/players/me/friends", {"friends": [a["id"]]})
        game = Conn(port, a["token"]).call(
            "POST", "/v1/games", {"game": "ninedomains", "seats": [a["id"], b["id"]]}
        )[1]
        seated += [(a["token"], game["id"]), (b["token"], game["id"])]
    return seated


def measure(port: int, seated: list[tuple[str, str]], seconds: float) -> dict:
    timings: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def worker(index: int) -> None:
        token, game_id = seated[index]
        conn = Conn(port, token)
        paths = [f"/v1/games/{game_id}/view", "/v1/games?awaiting=me"]
        n = 0
        next_at = time.monotonic()
        while time.monotonic() < stop_at:
            started = time.monotonic()
            status, _ = conn.call("GET", paths[n % 2])
            took = time.monotonic() - started
            with lock:
                timings.append(took)
                errors[0] += status != 200
            n += 1
            next_at += PACE_SECONDS
            time.sleep(max(0.0, next_at - time.monotonic()))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "requests": len(timings),
        "errors": errors[0],
        "p50_ms": percentile(timings, 0.50) * 1000,
        "p99_ms": percentile(timings, 0.99) * 1000,
        "max_ms": max(timings) * 1000,
    }


def open_streams(port: int, seated: list[tuple[str, str]], count: int) -> list[socket.socket]:
    streams = []
    for i in range(count):
        token, game_id = seated[i % len(seated)]
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(
            (
                f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: bench\r\n"
                f"Authorization: Bearer {token}\r\nLast-Event-ID: 2\r\n\r\n"
            ).encode()
        )
        streams.append(sock)
    for sock in streams:
        head = sock.recv(4096)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"a stream did not open: {head[:200]!r}")
    return streams


def readable(sock: socket.socket) -> bool:
    """Whether the server sent something (or closed); poll, as select stops at fd 1024."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


class SlowBodies:
    """`count` connections that each send a request body one byte every 2 seconds; one that
    the server cuts (408) is replaced at once."""

    def __init__(self, port: int, count: int):
        self.port, self.count = port, count
        self.socks = [self._open() for _ in range(count)]
        self.cut = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle)
        self.thread.start()

    def _open(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.sendall(
            b"POST /v1/players HTTP/1.1\r\nHost: bench\r\nContent-Type: "
            b"application/json\r\nContent-Length: 100000\r\n\r\n{"
        )
        return sock

    def _trickle(self) -> None:
        while not self.stop.wait(2):
            for sock in [s for s in self.socks if readable(s)]:
                self.socks[self.socks.index(sock)] = self._open()
                sock.close()
                self.cut += 1
            for sock in self.socks:
                with contextlib.suppress(OSError):
                    sock.send(b" ")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryFile() as log:
        server = start_server(data, port, streams_per_player=args.streams, log=log)
        try:
            seated = setup_games(port, 100)
            measure(port, seated, 3)  # warm up
            unloaded = measure(port, seated, args.seconds)
            streams = open_streams(port, seated[THREADS:], args.streams)
            slow = SlowBodies(port, args.slow)
            time.sleep(3)
            loaded = measure(port, seated, args.seconds)
            slow.close()
            still_open = sum(1 for sock in streams if not readable(sock) or sock.recv(4096))
            for sock in streams:
                sock.close()
        except Exception:
            log.seek(0)
            print(log.read().decode(errors="replace")[-3000:], file=sys.stderr)
            raise
        finally:
            stop_server(server)
    ratio = loaded["p99_ms"] / unloaded["p99_ms"]
    print(f"unloaded: {fmt(unloaded)}")
    print(
        f"loaded ({args.streams} idle streams, {args.slow} slow bodies, {slow.cut} cut at "
        f"the body deadline and replaced): {fmt(loaded)}"
    )
    print(f"streams still open at the end: {still_open}/{args.streams}")
    print(f"p99 loaded / unloaded: {ratio:.2f} ({'within' if ratio <= 2 else 'BEYOND'} 2x)")
    print(f"run at {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.2f}")


def fmt(r: dict) -> str:
    return (
        f"{r['requests']} requests, {r['errors']} errors, p50 {r['p50_ms']:.1f} ms, "
        f"p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
