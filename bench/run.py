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
  start (read from Redis, as an operator can), so no read is made between two moves;
- a turn: POST move, both players' views and the next mover's legal moves, timed as one.
Each measure starts once the worker has settled (no outbox entry, no job) and runs until the
worker has caught up with it (outbox and queue empty again): it pays for its own requests'
consequences, all of them, and not for the setup's. Server CPU per request comes from /proc:
the API's processes, the worker and Valkey, each and together, and this process's own
(client threads and the SMTP server); the emails counted are those of the measure.

Then boardgame.io 0.50.2 (bench/boardgameio, from the npm registry) with its in-memory and its
FlatFile storage: a two-player game played over socket.io, as many matches at once as
turnpost has client threads, with two drivers (PEER_DRIVERS): two clients a match, and one
client playing one long match.

`python -m bench.run` runs it all and writes bench/RESULTS.md (not when disturbed: see
BASELINE_DRIFT); `--only baseline floor` runs some measures and prints them; with `--before
TREE --repeat 3` those measures run on another checkout too, in turn, for a before and after.
"""

from __future__ import annotations

import argparse
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
TREE = HERE.parent
PEER = HERE / "boardgameio"
THREADS = 8
SECONDS = 10.0
GAME = "ninedomains"
CLOCK = {"per_move_seconds": 86400, "on_timeout": "auto"}
GAMES_AHEAD = 200  # per thread: more than it can play in SECONDS
TURN_GAMES_AHEAD = 60  # per thread, for the turn measure (four requests a move)
BASELINE_DRIFT = 0.15
"""The baseline is measured first and again last ("baseline-again"): when the two differ by
more than this share of the first, the machine's load changed during the run, and its ratios
mean little; such a run is reported as disturbed, not written. So is a run whose floor POST
made more requests a second than the baseline GET, as it does more on the same stack.

(Until 2026-11-28 the rule was a floor above 0.85 of the baseline: the floor then cost 0.77 of
it. Since its schema is made once and answers go in one write, a quiet machine puts the floor
at about 0.9 of the baseline, and that rule refused quiet runs.)"""
MEASURES = (
    "baseline",
    "floor",
    "view",
    "legal-moves",
    "summary",
    "inbox",
    "move",
    "turn",
    "baseline-again",
)


# ------------------------------------------------------------------------------ turnpost


class MailSink:
    """A real SMTP server that counts what it receives."""

    def __init__(self):
        self.received = 0

    async def handle_DATA(self, server, session, envelope):
        self.received += 1
        return "250 OK"


def start_turnpost(
    redis_url: str, smtp_port: int, port: int, tree: Path = TREE
) -> list[subprocess.Popen]:
    """The API as `turnpost serve` runs it (gunicorn, 2 of turnpost's gevent workers) with the
    benchmark's two endpoints, and a `turnpost worker`, both with the code of `tree`."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
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
            "turnpost.http_worker.GeventWorker",
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
        cwd=tree,
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "turnpost.cli", "worker"],
        env=env,
        cwd=tree,
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


def settled(client, quiet_seconds: float = 0.5, at_most_seconds: float = 600.0) -> None:
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


class Turnpost:
    """One turnpost as served, with the code of `tree`: an embedded Valkey (append-only file
    on), the API, a worker, and the SMTP server it sends its email to."""

    def __init__(self, tree: Path, data: Path):
        self.tree = tree
        self.valkey = EmbeddedValkey(data).start()
        self.sink = MailSink()
        self.smtp = Controller(self.sink, hostname="127.0.0.1", port=free_port())
        self.smtp.start()
        self.port = free_port()
        self.processes = start_turnpost(self.valkey.url, self.smtp.port, self.port, tree)
        self.client = connect(self.valkey.url)
        self.store = GameStore(self.client)
        self.parts = {
            "api": [self.processes[0].pid],
            "worker": [self.processes[1].pid],
            "valkey": [self.valkey.process.pid],
        }

    def stop(self) -> None:
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            p.wait()
        self.smtp.stop()
        self.valkey.stop()

    def measured(self, fn) -> dict:
        """fn's requests, counted until the worker has caught up with them (outbox and queue
        empty): the CPU per request of the API processes, the worker, Valkey and all three,
        this process's (the client threads and the SMTP server), and the emails sent for them.
        The worker is settled first, so that no consequence of the setup is counted."""
        settled(self.client)
        before = {name: process_cpu(pids) for name, pids in self.parts.items()}
        here, emailed = time.process_time(), self.sink.received
        result = fn()
        window_ended = time.monotonic()
        settled(self.client, quiet_seconds=0.2)  # a job between queue and worker shows in neither
        result["catch_up_seconds"] = time.monotonic() - window_ended
        for name, pids in self.parts.items():
            cpu = process_cpu(pids) - before[name]
            result[f"{name}_cpu_ms"] = cpu * 1000 / result["requests"]
        result["all_cpu_ms"] = sum(result[f"{name}_cpu_ms"] for name in self.parts)
        result["bench_cpu_ms"] = (time.process_time() - here) * 1000 / result["requests"]
        result["emails"] = self.sink.received - emailed
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


Ahead = list[list[tuple[dict, list, tuple, tuple]]]
"""Per client thread, its games: (the game, its moves computed ahead, player a, player b)."""


def timed_moves(port, games: Ahead, turns: bool = False):
    """Each thread plays its games' moves, one POST a move; with `turns`, a whole turn as the
    players' clients see it: the POST, both players' views, and the legal moves of the seat
    that moves next, timed as one."""

    unplayed = [iter(each) for each in games]  # a later run goes on with the next games

    def run():
        def worker(i, stop_at, timings):
            for game, moves, a, b in unplayed[i]:
                conns = [Conn(port, a[1]), Conn(port, b[1])]
                path, version = f"/v1/games/{game['id']}", game["version"]
                for n, (seat, notation) in enumerate(moves):
                    if time.monotonic() >= stop_at:
                        return
                    t = time.monotonic()
                    status, body = conns[seat].call(
                        "POST",
                        f"{path}/moves",
                        {"notation": notation, "expected_version": version},
                    )
                    assert status == 201, body
                    version = body["version"]
                    if turns:
                        for conn in conns:
                            assert conn.call("GET", f"{path}/view", parse=False)[0] == 200
                        if n + 1 < len(moves):
                            following = conns[moves[n + 1][0]]
                            answered = following.call("GET", f"{path}/legal-moves", parse=False)
                            assert answered[0] == 200
                    timings.append(time.monotonic() - t)
            raise RuntimeError("a thread ran out of games: raise GAMES_AHEAD")

        return run_threads(worker, THREADS, SECONDS)

    return run


def games_ahead(t: Turnpost, per_thread: int, name: str) -> Ahead:
    """Per client thread, two players of their own and `per_thread` new games between them,
    with their moves computed ahead."""
    games = []
    for i in range(THREADS):
        x = register(t.port, f"{name}A{i}", t.client)
        y = register(t.port, f"{name}B{i}", t.client)
        befriend(t.port, y, x)
        ahead = []
        for j in range(per_thread):
            game = new_game(t.port, x, y)
            seed = f"{name}-{i}-{j}".encode()
            ahead.append((game, moves_ahead(t.store, game["id"], seed), x, y))
        games.append(ahead)
    return games


def prepare(t: Turnpost, names: tuple[str, ...]) -> dict:
    """What each of the measures `names` runs, set up on `t`: {name: the run's function}."""
    port = t.port
    a, b = register(port, "Ada", t.client), register(port, "Bo", t.client)
    befriend(port, b, a)
    opening = new_game(port, a, b)["id"]
    running = new_game(port, a, b)["id"]
    for seat, notation in moves_ahead(t.store, running, b"running")[:3]:
        player = (a, b)[seat]
        version = Conn(port, player[1]).call("GET", f"/v1/games/{running}")[1]["version"]
        Conn(port, player[1]).call(
            "POST",
            f"/v1/games/{running}/moves",
            {"notation": notation, "expected_version": version},
        )
    floor_body = {"notation": "a move", "expected_version": 7}
    runs = {
        "baseline": lambda: timed_calls(port, [("", "/bench/baseline")]),
        "floor": lambda: timed_calls(port, [("", "/bench/append")], "POST", floor_body, 201),
        "view": lambda: timed_calls(port, [(a[1], f"/v1/games/{running}/view")]),
        "legal-moves": lambda: timed_calls(port, [(a[1], f"/v1/games/{opening}/legal-moves")]),
        "summary": lambda: timed_calls(port, [(a[1], f"/v1/games/{running}")]),
        "inbox": lambda: timed_calls(port, [(a[1], "/v1/games?awaiting=me")]),
        "move": lambda: timed_moves(port, games_ahead(t, GAMES_AHEAD, "M")),
        "turn": lambda: timed_moves(port, games_ahead(t, TURN_GAMES_AHEAD, "T"), turns=True),
        "baseline-again": lambda: timed_calls(port, [("", "/bench/baseline")]),
    }
    return {name: runs[name]() for name in names}


def bench_turnpost(names: tuple[str, ...] = MEASURES) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        t = Turnpost(TREE, Path(tmp) / "data")
        try:
            results = {name: t.measured(run) for name, run in prepare(t, names).items()}
            if names == MEASURES:
                results["memory"] = memory_per_game(t.port, t.store, t.valkey.url)
                results["emails"] = t.sink.received
        finally:
            t.stop()
    return results


def compare(before: Path, names: tuple[str, ...], repeat: int) -> dict:
    """The measures `names` on this tree and on `before` (another checkout), both served at
    once and measured in turn, `repeat` times: {tree: {name: [result of each round]}}."""
    trees = {"before": before, "this tree": TREE}
    results: dict = {tree: {name: [] for name in names} for tree in trees}
    with tempfile.TemporaryDirectory() as tmp:
        served = {}
        try:
            for tree, path in trees.items():
                served[tree] = Turnpost(path, Path(tmp) / tree.replace(" ", "-"))
            runs = {tree: prepare(t, names) for tree, t in served.items()}
            for _ in range(repeat):
                for name in names:
                    for tree, t in served.items():
                        results[tree][name].append(t.measured(runs[tree][name]))
        finally:
            for t in served.values():
                t.stop()
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


PEER_DRIVERS = {
    "two": "two clients a match, a new match every 40 moves, a move timed until both have it",
    "one": "one client in one long match, making every move, timed until it has the new state",
}


def bench_boardgameio(drivers: tuple[str, ...] = ("two", "one")) -> dict:
    """{(storage, driver): the peer's moves, a second, latencies and server CPU per move}."""
    subprocess.run(
        ["npm", "ci", "--prefix", str(PEER), "--no-audit", "--no-fund", "--loglevel=error"],
        check=True,
    )
    results = {}
    for storage in ("memory", "flatfile"):
        for driver in drivers:
            results[storage, driver] = peer_run(storage, driver)
    return results


def peer_run(storage: str, driver: str) -> dict:
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
                ["node", "drive.js", str(port), str(lobby), str(THREADS), str(SECONDS), driver],
                cwd=PEER,
                check=True,
                capture_output=True,
                text=True,
            )
            result = json.loads(drive.stdout.strip().splitlines()[-1])
            result["cpu_ms"] = (process_cpu([server.pid]) - before) * 1000 / result["moves"]
            return result
        finally:
            server.terminate()
            server.wait()


def announce_ready(lines, ready: threading.Event) -> None:
    for line in lines:
        if line.startswith("ready"):
            ready.set()


# ------------------------------------------------------------------------------ report


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def disturbed(t: dict) -> str | None:
    """Why the run's figures cannot be trusted, if they cannot (see BASELINE_DRIFT)."""
    first, last = t["baseline"]["per_second"], t["baseline-again"]["per_second"]
    if abs(last / first - 1) > BASELINE_DRIFT:
        return (
            f"the baseline made {first:.0f} requests a second at the start and {last:.0f} at "
            f"the end (more than {BASELINE_DRIFT:.0%} apart): the machine's load changed"
        )
    if t["floor"]["per_second"] > first:
        return (
            f"the floor POST made {t['floor']['per_second']:.0f} requests a second, more than "
            f"the baseline GET's {first:.0f}: something else slowed the baseline"
        )
    return None


def cpu_columns(r: dict) -> str:
    return (
        f"{r['api_cpu_ms']:.2f} | {r['worker_cpu_ms']:.2f} | {r['valkey_cpu_ms']:.2f} | "
        f"{r['all_cpu_ms']:.2f}"
    )


def print_comparison(results: dict) -> None:
    """Each measure's rounds on both trees: requests a second and CPU per request."""
    print("| measure | tree | per second | API CPU ms | worker | Valkey | all | emails |")
    print("|---|---|---|---|---|---|---|---|")
    for name in next(iter(results.values())):
        for tree, measures in results.items():
            for r in measures[name]:
                print(
                    f"| {name} | {tree} | {r['per_second']:.0f} | {cpu_columns(r)} | "
                    f"{r['emails']} |"
                )
    for name in next(iter(results.values())):
        cpu = {tree: [r["api_cpu_ms"] for r in m[name]] for tree, m in results.items()}
        before, after = (sum(v) / len(v) for v in cpu.values())
        print(
            f"{name}: API CPU a request {before:.3f} -> {after:.3f} ms ({after / before - 1:+.0%})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only",
        nargs="+",
        choices=MEASURES,
        help="run these measures of turnpost alone and print them (nothing is written)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="with --only: measure them on this checkout too (e.g. `git worktree add`), both "
        "served at once and measured in turn",
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --before: rounds")
    args = parser.parse_args()
    if args.before is not None:
        print_comparison(compare(args.before, tuple(args.only or MEASURES), args.repeat))
        return
    if args.only:
        for name, r in bench_turnpost(tuple(args.only)).items():
            print(name, json.dumps(r))
        return
    started = datetime.now(UTC)
    load_before = load()
    turnpost = bench_turnpost()
    peer = bench_boardgameio()
    why = disturbed(turnpost)
    if why:
        print(f"Disturbed: {why}. Nothing written; run again on a quiet machine.")
        print(json.dumps({"turnpost": turnpost, "peer": {" ".join(k): v for k, v in peer.items()}}))
        sys.exit(1)
    write_results(turnpost, peer, started, load_before, load())


def write_results(
    t: dict, peer: dict, started: datetime, load_before: str, load_after: str
) -> None:
    base = t["baseline"]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"

    def row(name, r, target=""):
        return (
            f"| {name} | {r['per_second']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
            f"{cpu_columns(r)} | {r['bench_cpu_ms']:.2f} | {r['emails']} | "
            f"**{r['per_second'] / base['per_second']:.2f}** | {target} |"
        )

    move, turn = t["move"], t["turn"]

    def peer_row(storage, driver, target=""):
        r = peer[storage, driver]
        name = {"memory": "in-memory storage", "flatfile": "FlatFile storage (durable)"}[storage]
        return (
            f"| boardgame.io, {name}, {driver} | {r['per_second']:.0f} | {r['p50_ms']:.2f} | "
            f"{r['p99_ms']:.2f} | {r['cpu_ms']:.2f} | "
            f"**{move['per_second'] / r['per_second']:.2f}** {target} | "
            f"**{turn['per_second'] / r['per_second']:.2f}** |"
        )

    families = "\n".join(
        f"| `{f}` | {n} | {b / 1024:.0f} |" for f, n, b in t["memory"]["families"][:10]
    )
    drivers = "\n".join(f"- {driver}: {what};" for driver, what in PEER_DRIVERS.items())
    text = f"""
## The request path against a baseline and against boardgame.io (`make bench`: `python -m bench.run`)

{started:%Y-%m-%d %H:%M} UTC; {machine}; load average {load_before} before and {load_after}
after (the machine is shared). turnpost as served: gunicorn, 2 of turnpost's gevent workers,
the embedded Valkey with its append-only file on, a `turnpost worker` sending real email (an
SMTP server in the benchmark: {t["emails"]} emails received in the whole run, setup included);
every player has an email address and every game a clock ({CLOCK["per_move_seconds"]} s,
`auto`). {THREADS} client threads, {SECONDS:.0f} s per measure, each request alone. POST move:
The Nine Domains, moves computed ahead by the engine, so nothing but the POST is made; a turn:
the POST, both players' views and the next mover's legal moves. A timed GET's answer is read
whole but not parsed. Each measure starts once the worker has settled (no outbox entry, no
job) and is counted until the worker has caught up with it: the CPU of the API processes, the
worker (outbox, clock and email jobs) and Valkey from /proc, in the window and the catch-up
after it, per request; the emails are those sent for the measure's requests. The baseline is
measured first and again last ({t["baseline-again"]["per_second"]:.0f} requests a second): a run
in which the two differ by more than {BASELINE_DRIFT:.0%}, or whose floor POST outruns the
baseline, is not written (disturbed).

| request | per second | p50 ms | p99 ms | CPU ms: API | worker | Valkey | all three | benchmark process | emails | ratio to the baseline | target |
|---|---|---|---|---|---|---|---|---|---|---|---|
{row("baseline: one Redis GET through the same stack", base)}
{row("the floor of a move: a POST with one append, nothing else", t["floor"])}
{row("GET view (The Nine Domains)", t["view"], "0.8")}
{row("GET legal-moves at The Nine Domains' opening (504 moves)", t["legal-moves"], "0.4")}
{row("GET summary", t["summary"])}
{row("GET the inbox (`/v1/games?awaiting=me`)", t["inbox"], "0.7")}
{row("POST move (email players, a clock)", move, "0.5")}
{row("a turn: POST move, both views, the next legal moves", turn)}

The worker caught up {move["catch_up_seconds"]:.1f} s after the POST move measure's window and
{turn["catch_up_seconds"]:.1f} s after the turn's; it sent {move["emails"]} emails for
{move["requests"]} moves (the others held back by the throttle, one turn email per player and
game in five minutes).

boardgame.io 0.50.2 with the same {THREADS} matches at once over socket.io, with two drivers
(moves played on the server only; its figure includes delivering the new state to the
clients, as a turn does and POST move does not):
{drivers}

| server, driver | moves per second | p50 ms | p99 ms | server CPU ms per move | turnpost POST move per second / this | turnpost turns per second / this |
|---|---|---|---|---|---|---|
{peer_row("memory", "two", "(target 0.5)")}
{peer_row("memory", "one")}
{peer_row("flatfile", "two", "(target 1.5)")}
{peer_row("flatfile", "one")}
| turnpost POST move (above) | {move["per_second"]:.0f} | {move["p50_ms"]:.2f} | {move["p99_ms"]:.2f} | {move["all_cpu_ms"]:.2f} (all three) | 1.00 | |
| turnpost turn (above) | {turn["per_second"]:.0f} | {turn["p50_ms"]:.2f} | {turn["p99_ms"]:.2f} | {turn["all_cpu_ms"]:.2f} (all three) | | 1.00 |

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
