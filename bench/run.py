"""`make bench`: the API under load on loopback, in one run, against a baseline endpoint.

Starts an embedded Valkey (append-only file on, as `turnpost serve` runs it) and gunicorn with
2 sync workers serving the API plus the benchmark's baseline endpoint, then measures from
client threads in this process:
- baseline: GET /bench/baseline, one Redis round trip through the same stack;
- GET view of a running game;
- POST move (each thread plays its own games; the legal-moves read before each move is not
  timed, only the POST);
- GET view when the game's log holds 10 events and when it holds 1,000.
Figures go to bench/RESULTS.md with the machine and the date.
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.http import Conn, run_threads
from engine.rng import Rng
from store.embedded import EmbeddedValkey, free_port

HERE = Path(__file__).parent
THREADS = 8
SECONDS = 10.0
GAME = "ninedomains"


def start_api(redis_url: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "REDIS_URL": redis_url, "RATE_LIMITS": "off"}  # measure, not refuse
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "-b",
                             f"127.0.0.1:{port}", "--log-level", "warning", "bench.app:app"],
                            env=env)
    for _ in range(200):
        try:
            if Conn(port).call("GET", "/v1/catalog")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the API did not start")


def register(port: int, name: str) -> tuple[str, str]:
    _, body = Conn(port).call("POST", "/v1/players", {"name": name})
    return body["id"], body["token"]


def befriend(port: int, player: tuple[str, str], friend: tuple[str, str]) -> None:
    """`player` lets `friend` seat them without an invitation."""
    status, body = Conn(port, player[1]).call("PUT", "/v1/players/me/friends",
                                              {"friends": [friend[0]]})
    assert status == 200, body


def new_game(port, a, b) -> str:
    status, body = Conn(port, a[1]).call("POST", "/v1/games", {"game": GAME, "seats": [a[0], b[0]]})
    assert status == 201, body
    return body["id"]


def bench_baseline(port):
    def worker(i, stop_at, timings):
        c = Conn(port)
        while time.monotonic() < stop_at:
            t = time.monotonic()
            c.call("GET", "/bench/baseline")
            timings.append(time.monotonic() - t)
    return run_threads(worker, THREADS, SECONDS)


def bench_view(port, a, b):
    game = new_game(port, a, b)

    def worker(i, stop_at, timings):
        c = Conn(port, a[1])
        while time.monotonic() < stop_at:
            t = time.monotonic()
            status, _ = c.call("GET", f"/v1/games/{game}/view")
            timings.append(time.monotonic() - t)
            assert status == 200
    return run_threads(worker, THREADS, SECONDS)


def bench_moves(port):
    players = [(register(port, f"A{i}"), register(port, f"B{i}")) for i in range(THREADS)]
    for a, b in players:
        befriend(port, b, a)

    def worker(i, stop_at, timings):
        a, b = players[i]
        conns = [Conn(port, a[1]), Conn(port, b[1])]
        picker = Rng(f"bench-{i}".encode() * 4)
        game = new_game(port, a, b)
        while time.monotonic() < stop_at:
            _, summary = conns[0].call("GET", f"/v1/games/{game}")
            if summary["status"] == "finished":
                game = new_game(port, a, b)
                continue
            seat = picker.choice(summary["active_seats"])
            _, legal = conns[seat].call("GET", f"/v1/games/{game}/legal-moves")
            move = picker.choice(legal["moves"])
            t = time.monotonic()
            status, body = conns[seat].call("POST", f"/v1/games/{game}/moves", {
                "notation": move["notation"], "expected_version": legal["version"]})
            timings.append(time.monotonic() - t)
            assert status == 201, body
    return run_threads(worker, THREADS, SECONDS)


def game_with_log_of(port, events: int) -> tuple[str, str]:
    """A 3-seat game whose log reaches `events` through join/leave of its open seats, then
    starts: its history is long, its snapshot is not."""
    owner = register(port, "Owner")
    guest = register(port, "Guest")
    last = register(port, "Last")
    c = Conn(port, owner[1])
    _, g = c.call("POST", "/v1/games", {"game": "consonar", "seats": [owner[0], None, None]})
    guest_conn = Conn(port, guest[1])
    while g["version"] < events - 3:
        guest_conn.call("POST", f"/v1/games/{g['id']}/join", {})
        _, g = guest_conn.call("POST", f"/v1/games/{g['id']}/resign")
    guest_conn.call("POST", f"/v1/games/{g['id']}/join", {})
    _, g = Conn(port, last[1]).call("POST", f"/v1/games/{g['id']}/join", {})
    return g["id"], owner[1]


def bench_view_by_log_length(port) -> dict[int, dict]:
    result = {}
    for events in (10, 1000):
        game, token = game_with_log_of(port, events)

        def worker(i, stop_at, timings, game=game, token=token):
            c = Conn(port, token)
            while time.monotonic() < stop_at:
                t = time.monotonic()
                c.call("GET", f"/v1/games/{game}/view")
                timings.append(time.monotonic() - t)
        result[events] = run_threads(worker, 1, SECONDS / 2)
        result[events]["log_events"] = Conn(port, token).call("GET", f"/v1/games/{game}")[1]["version"]
    return result


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "data").start()
        port = free_port()
        api = start_api(valkey.url, port)
        try:
            a, b = register(port, "Ada"), register(port, "Bo")
            befriend(port, b, a)
            base = bench_baseline(port)
            view = bench_view(port, a, b)
            moves = bench_moves(port)
            by_length = bench_view_by_log_length(port)
        finally:
            api.terminate()
            api.wait()
            valkey.stop()
    write_results(base, view, moves, by_length)


def row(name, r, base):
    return (f"| {name} | {r['per_second']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
            f"{r['per_second'] / base['per_second']:.2f} | {r['p50_ms'] / base['p50_ms']:.2f} |")


def write_results(base, view, moves, by_length) -> None:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    short, long = by_length[10], by_length[1000]
    text = f"""# Benchmark results

`make bench` ({date.today().isoformat()}; {machine}). Loopback; gunicorn with 2 sync workers;
the embedded Valkey with its append-only file on; {THREADS} client threads in one process
on the same 2 cores, {SECONDS:.0f} s per measure. All figures below come from one run.

## The API against the baseline (one Redis round trip through the same stack)

| request | per second | p50 ms | p99 ms | throughput ratio | p50 ratio |
|---|---|---|---|---|---|
{row("baseline GET /bench/baseline", base, base)}
{row(f"GET view ({GAME})", view, base)}
{row(f"POST move ({GAME})", moves, base)}

POST move is timed alone; each client thread also reads /v1/games and /legal-moves before each
move (not timed), so its per-second figure counts moves while that reading goes on too.

## View latency and the length of the log (one client thread)

| log events | p50 ms | p99 ms |
|---|---|---|
| {short['log_events']} | {short['p50_ms']:.2f} | {short['p99_ms']:.2f} |
| {long['log_events']} | {long['p50_ms']:.2f} | {long['p99_ms']:.2f} |

Ratio of medians (1,000 / 10 events): {long['p50_ms'] / short['p50_ms']:.2f}. A view reads the
snapshot, never the log, so the length of the history should not matter.
"""
    marker = "\n## Games"
    path = HERE / "RESULTS.md"
    rest = ""
    if path.exists() and marker in path.read_text():
        rest = path.read_text()[path.read_text().index(marker):]
    path.write_text(text + rest)
    print(text)


if __name__ == "__main__":
    main()
