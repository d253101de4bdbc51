"""`make bench`: what a request costs on the production path, against a baseline request of the
same stack and against boardgame.io, in one run.

turnpost as it is served: an embedded Valkey with its append-only file on, gunicorn with 2
gevent worker processes (as `turnpost serve`) serving the API plus one benchmark-only endpoint,
and a `turnpost worker` (the outbox consumer, the clock and RQ) that sends real email to an
SMTP server in this process. Every player has an email address and every game a clock, so a
move pays for what production pays: its deadlines, its outbox entry, its turn email.

Measured from client threads in this process, each alone for SECONDS:
- baseline: GET /bench/baseline, one Redis GET through the same Flask + smorest stack;
- the floor of a move: POST /bench/append, a move's body through a schema and appended to a
  Redis stream, nothing else: what any POST that writes costs on this stack;
- GET view, GET legal-moves at The Nine Domains' opening (504 moves), GET summary, the inbox
  (each answer read whole, not parsed: the client's JSON would take the server's cores);
- POST move alone: the games' moves are computed ahead by the engine from the game's own
  start (read from Redis, as an operator can), so no read is made between two moves.
Each measure starts once the worker has settled (no outbox entry, no job): it pays for its
own requests' consequences, not for the setup's. Server CPU per request comes from /proc: the
API's processes, the worker and Valkey, each and together, and this process's own (client
threads and the SMTP server).

Then boardgame.io 0.50.2 (bench/boardgameio, from the npm registry) with its in-memory and its
FlatFile storage: a two-player game played over socket.io by two clients per match, as many
matches at once as turnpost has client threads, each move timed until both clients have it.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from aiosmtpd.controller import Controller

from bench.http import Conn, run_threads
from bench.results import replace_section
from engine import match as runner
from engine import registry
from engine.rng import Rng
from store.connection import connect
from store.embedded import EmbeddedValkey, free_port
from store.games import GameStore
from store.outbox import OutboxStore
from store.players import PlayerStore
from workers.queue import queue

HERE = Path(__file__).parent
PEER = HERE / "boardgameio"
THREADS = 8
SECONDS = 10.0
GAME = "ninedomains"
CLOCK = {"per_move_seconds": 86400, "on_timeout": "auto"}
GAMES_AHEAD = 200  # per thread: more than it can play in SECONDS


# ------------------------------------------------------------------------------ turnpost


class MailSink:
    """A real SMTP server that counts what it receives."""

    def __init__(self):
        self.received = 0

    async def handle_DATA(self, server, session, envelope):
        self.received += 1
        return "250 OK"


def start_turnpost(redis_url: str, smtp_port: int, port: int) -> list[subprocess.Popen]:
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "RATE_LIMITS": "off",  # measure, not refuse
        "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
        "EMAIL_DELAY_SECONDS": "0",
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    api = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-k",
            "gevent",
            "-w",
            "2",
            "--worker-connections",
            "1000",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "bench.app:app",
        ],
        env=env,
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "turnpost.cli", "worker"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(400):
        try:
            if Conn(port).call("GET", "/v1/catalog")[0] == 200:
                return [api, worker]
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the API did not start")


def register(port: int, name: str, client) -> tuple[str, str]:
    """A player with an address, confirmed as its owner would confirm it by the emailed link
    (on `client`, the server's Redis): the benches measure the emails that come after."""
    email = f"{name.lower()}@example.org"
    _, body = Conn(port).call("POST", "/v1/players", {"name": name, "email": email})
    PlayerStore(client).confirm_email(body["id"], email)
    return body["id"], body["token"]


def befriend(port: int, player: tuple[str, str], friend: tuple[str, str]) -> None:
    """`player` lets `friend` seat them without an invitation."""
    status, body = Conn(port, player[1]).call(
        "PUT", "/v1/players/me/friends", {"friends": [friend[0]]}
    )
    assert status == 200, body


def new_game(port, a, b) -> dict:
    status, body = Conn(port, a[1]).call(
        "POST", "/v1/games", {"game": GAME, "seats": [a[0], b[0]], "time_control": CLOCK}
    )
    assert status == 201, body
    return body


def moves_ahead(store: GameStore, game_id: str, seed: bytes) -> list[tuple[int, str]]:
    """The whole game's moves (seat, notation), played by the engine from the game's start as
    the server holds it; random legal moves."""
    snap = store.snapshot(game_id)
    game = registry.GAMES[snap["game"]]
    match, version = snap["match"], snap["version"]
    secret = bytes.fromhex(snap["secret_seed"])
    picker = Rng(hashlib.sha256(seed).digest())
    moves = []
    while match["outcome"] is None:
        seat = picker.choice(sorted(runner.active_seats(game, match)))
        action = picker.choice(game.legal_actions(match["state"], seat))
        moves.append((seat, game.format(action)))
        version += 1
        match, _ = runner.act(game, match, seat, action, secret, version)
    return moves


def process_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) of these processes and their children so far."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        for each in [pid, *children(pid)]:
            try:
                fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(c) for c in found] + [g for c in found for g in children(int(c))]


def settled(client, quiet_seconds: float = 0.5, at_most_seconds: float = 120.0) -> None:
    """Wait until the worker has nothing left to do (no outbox entry waiting, no job queued or
    running) for `quiet_seconds`: a measure pays for its own requests' consequences, not for
    those of the setup before it (creating 1,600 games queues their emails)."""
    outbox, jobs = OutboxStore(client), queue(client)
    quiet_since = None
    give_up = time.monotonic() + at_most_seconds
    while time.monotonic() < give_up:
        busy = outbox.backlog()["waiting"] or jobs.count or jobs.started_job_registry.count
        now = time.monotonic()
        quiet_since = None if busy else (quiet_since or now)
        if quiet_since is not None and now - quiet_since >= quiet_seconds:
            return
        time.sleep(0.05)
    raise RuntimeError("the worker did not settle")


def measured(fn, client, api: list[int], worker: list[int], valkey: list[int]) -> dict:
    """fn's requests, with the CPU per request of each part: the API processes, the worker,
    Valkey, all three, and this process (the client threads and the SMTP server)."""
    parts = {"api": api, "worker": worker, "valkey": valkey}
    settled(client)
    before = {name: process_cpu(pids) for name, pids in parts.items()}
    here = time.process_time()
    result = fn()
    for name, pids in parts.items():
        result[f"{name}_cpu_ms"] = (process_cpu(pids) - before[name]) * 1000 / result["requests"]
    result["all_cpu_ms"] = sum(result[f"{name}_cpu_ms"] for name in parts)
    result["bench_cpu_ms"] = (time.process_time() - here) * 1000 / result["requests"]
    return result


def timed_calls(port, calls: list[tuple[str, str]], method: str = "GET", body=None, status=200):
    """Each thread repeats its (token, path) call, `body` as JSON if any, and expects `status`."""

    def run():
        def worker(i, stop_at, timings):
            token, path = calls[i % len(calls)]
            c = Conn(port, token)
            while time.monotonic() < stop_at:
                t = time.monotonic()
                answered, raw = c.call(method, path, body, parse=False)
                timings.append(time.monotonic() - t)
                assert answered == status and raw, (path, answered)

        return run_threads(worker, THREADS, SECONDS)

    return run


def timed_moves(port, games: list[list[tuple[dict, list, tuple, tuple]]]):
    def run():
        def worker(i, stop_at, timings):
            for game, moves, a, b in games[i]:
                conns = [Conn(port, a[1]), Conn(port, b[1])]
                version = game["version"]
                for seat, notation in moves:
                    if time.monotonic() >= stop_at:
                        return
                    t = time.monotonic()
                    status, body = conns[seat].call(
                        "POST",
                        f"/v1/games/{game['id']}/moves",
                        {"notation": notation, "expected_version": version},
                    )
                    timings.append(time.monotonic() - t)
                    assert status == 201, body
                    version = body["version"]
            raise RuntimeError("a thread ran out of games: raise GAMES_AHEAD")

        return run_threads(worker, THREADS, SECONDS)

    return run


def bench_turnpost() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "data").start()
        sink = MailSink()
        smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
        smtp.start()
        port = free_port()
        processes = start_turnpost(valkey.url, smtp.port, port)
        client = connect(valkey.url)
        store = GameStore(client)
        parts = client, [processes[0].pid], [processes[1].pid], [valkey.process.pid]
        try:
            a, b = register(port, "Ada", client), register(port, "Bo", client)
            befriend(port, b, a)
            opening = new_game(port, a, b)["id"]
            running = new_game(port, a, b)["id"]
            for seat, notation in moves_ahead(store, running, b"running")[:3]:
                player = (a, b)[seat]
                version = Conn(port, player[1]).call("GET", f"/v1/games/{running}")[1]["version"]
                Conn(port, player[1]).call(
                    "POST",
                    f"/v1/games/{running}/moves",
                    {"notation": notation, "expected_version": version},
                )
            results = {"baseline": measured(timed_calls(port, [("", "/bench/baseline")]), *parts)}
            move = {"notation": "a move", "expected_version": 7}
            floor = timed_calls(port, [("", "/bench/append")], "POST", move, 201)
            results["floor"] = measured(floor, *parts)
            for name, path in [
                ("view", f"/v1/games/{running}/view"),
                ("legal-moves at the opening", f"/v1/games/{opening}/legal-moves"),
                ("summary", f"/v1/games/{running}"),
                ("inbox", "/v1/games?awaiting=me"),
            ]:
                results[name] = measured(timed_calls(port, [(a[1], path)]), *parts)
            games = []
            for i in range(THREADS):
                x, y = register(port, f"A{i}", client), register(port, f"B{i}", client)
                befriend(port, y, x)
                ahead = []
                for j in range(GAMES_AHEAD):
                    game = new_game(port, x, y)
                    ahead.append((game, moves_ahead(store, game["id"], f"{i}-{j}".encode()), x, y))
                games.append(ahead)
            emailed = sink.received
            results["move"] = measured(timed_moves(port, games), *parts)
            results["move"]["emails"] = sink.received - emailed
            results["memory"] = memory_per_game(port, store, valkey.url)
            results["emails"] = sink.received
        finally:
            for p in processes:
                p.terminate()
            for p in processes:
                p.wait()
            smtp.stop()
            valkey.stop()
    return results


def memory_per_game(port, store: GameStore, redis_url: str) -> dict:
    """Redis bytes per active game: 200 new games between two email players, each a few moves
    in, with their clocks, lists, outbox entries and mail state; the used memory before and
    after, per game (the workers have carried out every consequence by then)."""
    client = connect(redis_url)
    x, y = register(port, "MemA", client), register(port, "MemB", client)
    befriend(port, y, x)
    settled(client)
    before = client.info("memory")["used_memory"]
    count = 200
    for i in range(count):
        game = new_game(port, x, y)
        version = game["version"]
        for seat, notation in moves_ahead(store, game["id"], f"mem{i}".encode())[:4]:
            _, body = Conn(port, (x, y)[seat][1]).call(
                "POST",
                f"/v1/games/{game['id']}/moves",
                {"notation": notation, "expected_version": version},
            )
            version = body["version"]
    settled(client)
    after = client.info("memory")["used_memory"]
    return {
        "games": count,
        "bytes_per_game": (after - before) / count,
        "families": key_families(client),
    }


def key_families(client) -> list[tuple[str, int, int]]:
    """(key family, keys, bytes) of every key, largest first: where the memory is."""
    families: dict[str, list[int]] = {}
    for key in client.scan_iter(count=1000):
        name = key.decode()
        parts = [p for p in name.split(":") if not p.startswith("{")]
        family = ":".join(part if i < 2 else "*" for i, part in enumerate(parts[:4]))
        if name.startswith("tp:game:"):
            family = "tp:game:" + ":".join(parts[3:]) if len(parts) > 3 else "tp:game (log)"
        if name.startswith("tp:player:"):
            family = "tp:player:" + ":".join(parts[2:3]) if len(parts) > 2 else "tp:player"
        entry = families.setdefault(family, [0, 0])
        entry[0] += 1
        entry[1] += client.memory_usage(key, samples=0) or 0
    return sorted(((f, n, b) for f, (n, b) in families.items()), key=lambda x: -x[2])


# ------------------------------------------------------------------------------ boardgame.io


def bench_boardgameio() -> dict:
    subprocess.run(
        ["npm", "ci", "--prefix", str(PEER), "--no-audit", "--no-fund", "--loglevel=error"],
        check=True,
    )
    results = {}
    for storage in ("memory", "flatfile"):
        with tempfile.TemporaryDirectory() as tmp:
            port, lobby = free_port(), free_port()
            server = subprocess.Popen(
                ["node", "server.js", str(port), str(lobby), storage, tmp],
                cwd=PEER,
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                assert server.stdout is not None
                ready = threading.Event()
                threading.Thread(
                    target=announce_ready, args=(server.stdout, ready), daemon=True
                ).start()
                if not ready.wait(60):
                    raise RuntimeError("boardgame.io did not start")
                time.sleep(0.5)
                before = process_cpu([server.pid])
                drive = subprocess.run(
                    ["node", "drive.js", str(port), str(lobby), str(THREADS), str(SECONDS)],
                    cwd=PEER,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                result = json.loads(drive.stdout.strip().splitlines()[-1])
                result["cpu_ms"] = (process_cpu([server.pid]) - before) * 1000 / result["moves"]
                results[storage] = result
            finally:
                server.terminate()
                server.wait()
    return results


def announce_ready(lines, ready: threading.Event) -> None:
    for line in lines:
        if line.startswith("ready"):
            ready.set()


# ------------------------------------------------------------------------------ report


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    started = datetime.now(UTC)
    load_before = load()
    turnpost = bench_turnpost()
    peer = bench_boardgameio()
    write_results(turnpost, peer, started, load_before, load())


def write_results(
    t: dict, peer: dict, started: datetime, load_before: str, load_after: str
) -> None:
    base = t["baseline"]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"

    def row(name, r, target=""):
        return (
            f"| {name} | {r['per_second']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
            f"{r['api_cpu_ms']:.2f} | {r['all_cpu_ms']:.2f} | "
            f"**{r['per_second'] / base['per_second']:.2f}** | {target} |"
        )

    def parts_row(name, r):
        return (
            f"| {name} | {r['api_cpu_ms']:.2f} | {r['worker_cpu_ms']:.2f} | "
            f"{r['valkey_cpu_ms']:.2f} | {r['all_cpu_ms']:.2f} | {r['bench_cpu_ms']:.2f} |"
        )

    move = t["move"]
    families = "\n".join(
        f"| `{f}` | {n} | {b / 1024:.0f} |" for f, n, b in t["memory"]["families"][:10]
    )
    mem, ff = peer["memory"], peer["flatfile"]
    text = f"""
## The request path against a baseline and against boardgame.io (`make bench`: `python -m bench.run`)

{started:%Y-%m-%d %H:%M} UTC; {machine}; load average {load_before} before and {load_after}
after (the machine is shared). turnpost as served: gunicorn, 2 gevent workers, the embedded
Valkey with its append-only file on, a `turnpost worker` sending real email (an SMTP server
in the benchmark: {t["emails"]} emails received); every player has an email address and every
game a clock ({CLOCK["per_move_seconds"]} s, `auto`). {THREADS} client threads, {SECONDS:.0f} s per
measure, each request alone. POST move: The Nine Domains, moves computed ahead by the engine,
so nothing but the POST is made; a timed GET's answer is read whole but not parsed (the client
shares the machine's two cores; before 2026-11-26 17:10 it parsed every answer, 1.4 ms of its
CPU for each 42 KB legal-moves answer). Each measure starts once the worker has settled (no
outbox entry, no job; before 2026-11-26 18:20 the POST measure began 2 s after creating its
1,600 games, while their emails still went out). CPU per request from /proc: the API
processes, and the API with the worker and Valkey. All figures below come from this one run.

| request | per second | p50 ms | p99 ms | API CPU ms | all CPU ms | ratio to the baseline | target |
|---|---|---|---|---|---|---|---|
{row("baseline: one Redis GET through the same stack", base)}
{row("the floor of a move: a POST with one append, nothing else", t["floor"])}
{row("GET view (The Nine Domains)", t["view"], "0.8")}
{row("GET legal-moves at The Nine Domains' opening (504 moves)", t["legal-moves at the opening"], "0.4")}
{row("GET summary", t["summary"])}
{row("GET the inbox (`/v1/games?awaiting=me`)", t["inbox"], "0.7")}
{row("POST move (email players, a clock)", move, "0.5")}

Where the CPU went, per request (ms): the API processes, the worker (outbox, clock and
email jobs), Valkey, and the benchmark's own process (its client threads and the SMTP server).
During the POST move measure the worker sent {move["emails"]} emails for {move["requests"]}
moves (the others were held back by the throttle, one turn email per player and game in
five minutes, or sent after the measure).

| request | API | worker | Valkey | all three | benchmark process |
|---|---|---|---|---|---|
{parts_row("baseline", base)}
{parts_row("the floor of a move", t["floor"])}
{parts_row("GET view", t["view"])}
{parts_row("GET legal-moves", t["legal-moves at the opening"])}
{parts_row("GET summary", t["summary"])}
{parts_row("GET the inbox", t["inbox"])}
{parts_row("POST move", move)}

boardgame.io 0.50.2 with the same {THREADS} matches at once over socket.io (two clients per
match; a move timed until both clients have it; moves played on the server only):

| server | moves per second | p50 ms | p99 ms | server CPU ms per move | turnpost POST move per second / this |
|---|---|---|---|---|---|
| boardgame.io, in-memory storage | {mem["per_second"]:.0f} | {mem["p50_ms"]:.2f} | {mem["p99_ms"]:.2f} | {mem["cpu_ms"]:.2f} | **{move["per_second"] / mem["per_second"]:.2f}** (target 0.5) |
| boardgame.io, FlatFile storage (durable) | {ff["per_second"]:.0f} | {ff["p50_ms"]:.2f} | {ff["p99_ms"]:.2f} | {ff["cpu_ms"]:.2f} | **{move["per_second"] / ff["per_second"]:.2f}** (target 1.5) |
| turnpost POST move (above) | {move["per_second"]:.0f} | {move["p50_ms"]:.2f} | {move["p99_ms"]:.2f} | {move["all_cpu_ms"]:.2f} (all) | 1.00 |

Redis memory per active game ({t["memory"]["games"]} Nine Domains games four moves in, between
email players with a clock, consequences carried out): **{t["memory"]["bytes_per_game"] / 1024:.1f} KB**
(target at most 16 KB). Where Redis holds its keys at the end of the run (every game and
job of the run; `MEMORY USAGE` per key, the largest families):

| key family | keys | KB |
|---|---|---|
{families}
"""
    replace_section(
        "The request path against a baseline and against boardgame.io "
        "(`make bench`: `python -m bench.run`)",
        text,
    )
    print(text)


if __name__ == "__main__":
    main()
