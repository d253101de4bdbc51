"""`make bench`: what a move costs the API when its players have push subscriptions, confirmed
email addresses and webhooks, against the same moves when its players have none, in one run.

The production server as a person runs it: `turnpost serve` (gunicorn, 2 gevent HTTP workers,
`turnpost.wsgi`'s app) with its own background `turnpost worker`, on an embedded Valkey with
its append-only file on, rate limits off, no email or push delay (every notice goes out at
once). Real peers on loopback in this process: an SMTP server, a push service (it takes each
POST as a push service does and answers 201, without decrypting: bench/push.py) and a webhook
receiver.

Two groups of players, each a pair of players per client thread:
- "none": no email address, no push subscription, no webhook;
- "push, email, webhook": each player with a confirmed address, one push subscription and a
  webhook, its kind signed, Discord or Slack by thread, given once their games were made (so
  that the measure, not the set-up, has each game's first turn email).
Moves are The Nine Domains' with a clock, computed ahead by the engine from each game's start
(bench/run.py), POSTed at a fixed pace (RATE moves a second from THREADS threads) so that the
worker keeps up and the request's latency is the request's, not a queue's. Three kinds of
phase take turns, ROUNDS times each, PHASE_SECONDS a phase: the first group's moves, the
second's, and the second's again with the worker stopped (SIGSTOP) while the moves are made and
let go (SIGCONT) after them, so that the requests share the cores with nothing of theirs. A
phase starts once the worker has settled and is counted until the worker has caught up with it
(nothing in the outbox or queued, and the peers' counts still for a while): the API's CPU is
that of the gunicorn master and its HTTP workers (the live ones, and those it reaped), from
/proc; the worker's and Valkey's beside it.
"""

from __future__ import annotations

import os
import platform
import signal
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from aiosmtpd.controller import Controller

from bench.http import Conn, percentile
from bench.push import CountingPushService
from bench.results import replace_section
from bench.run import CLOCK, MailSink, befriend, moves_ahead, new_game, settled
from store.connection import connect
from store.embedded import EmbeddedValkey, free_port
from store.games import GameStore
from tests.addresses import confirm
from tests.e2e.server import LiveServer, children, command_of, descendants, http_workers
from tests.peers import WebhookReceiver

THREADS = 4
RATE = 20.0  # moves a second, from all threads
PHASE_SECONDS = 10.0
ROUNDS = 2
GAMES_A_PHASE = 11  # per thread: a phase plays about 8 (50 moves, about 6 a game)
IDLE_SECONDS = 5.0
NONE, ALL = "none", "push, email, webhook"
PAUSED = "push, email, webhook; the worker stopped during the moves"
PHASES = ((NONE, NONE, False), (ALL, ALL, False), (PAUSED, ALL, True))
"""Each round's phases: (what it is called, whose games, whether the worker is stopped)."""
KINDS = ("signed", "discord", "slack")


# ------------------------------------------------------------------------------ CPU from /proc


def _stat(pid: int) -> list[int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return [int(f) for f in fields[11:15]]  # utime, stime, cutime, cstime


def cpu(pid: int, reaped: bool = False) -> float:
    """CPU seconds of a process (and, with `reaped`, of its children it has waited for)."""
    try:
        utime, stime, cutime, cstime = _stat(pid)
    except OSError:
        return 0.0
    ticks = utime + stime + (cutime + cstime if reaped else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


class Processes:
    """The server's processes: the API (gunicorn's master and HTTP workers), the background
    worker (and anything it forks), Valkey."""

    def __init__(self, server: LiveServer, valkey: EmbeddedValkey):
        self.server, self.valkey = server, valkey
        (self.worker,) = [
            pid for pid in children(server.process.pid) if "turnpost.cli worker" in command_of(pid)
        ]

    def api(self) -> float:
        # a recycled HTTP worker's CPU moves into the master's cutime when it is reaped
        master = self.server.process.pid
        return cpu(master, reaped=True) + sum(cpu(p) for p in http_workers(self.server))

    def now(self) -> dict[str, float]:
        return {
            "api": self.api(),
            "worker": cpu(self.worker, reaped=True) + sum(cpu(p) for p in descendants(self.worker)),
            "valkey": cpu(self.valkey.process.pid),
        }


# ------------------------------------------------------------------------------ set-up


def games_for(port, store, group: str, phases: int) -> list[list[tuple]]:
    """Per thread: a pair of new players (no address, device or webhook yet) and enough games
    between them for `phases` phases, each with its moves computed ahead."""
    per_thread = []
    for i in range(THREADS):
        x, y = (new_player(port, f"{group[0]}{side}{i}") for side in "xy")
        befriend(port, y, x)
        ahead = []
        for j in range(GAMES_A_PHASE * phases):
            game = new_game(port, x, y)
            ahead.append((game, moves_ahead(store, game["id"], f"{group}{i}-{j}".encode()), x, y))
        per_thread.append(ahead)
    return per_thread


def new_player(port: int, name: str) -> tuple[str, str]:
    status, answer = Conn(port).call("POST", "/v1/players", {"name": name})
    assert status == 201, answer
    return answer["id"], answer["token"]


def give_channels(port: int, client, games: list[list[tuple]], push, hooks) -> None:
    """The players of these games get, after their games were made (so that the measure has
    each game's first turn email, not the set-up), an address confirmed as by the emailed link,
    a webhook (signed, Discord or Slack by thread) and one device subscribed to the push
    service."""
    for i, ahead in enumerate(games):
        _, _, x, y = ahead[0]
        for n, (player_id, token) in enumerate((x, y)):
            name = f"p{i}-{n}"
            status, answer = Conn(port, token).call(
                "PATCH",
                "/v1/players/me",
                {
                    "email": f"{name}@example.org",
                    "webhook_url": hooks.url,
                    "webhook_kind": KINDS[i % len(KINDS)],
                },
            )
            assert status == 200, answer
            confirm(client, player_id)
            made = push.browser(name).subscription
            status, answer = Conn(port, token).call(
                "POST", "/v1/players/me/push-subscriptions", {**made, "device": "bench"}
            )
            assert status == 201, answer


# ------------------------------------------------------------------------------ measuring


class Peers:
    def __init__(self, sink: MailSink, push: CountingPushService, hooks: WebhookReceiver):
        self.sink, self.push, self.hooks = sink, push, hooks

    def counts(self) -> tuple[int, int, int]:
        return self.sink.received, len(self.push.requests), len(self.hooks.requests)


def caught_up(client, peers: Peers, still_seconds: float = 1.5) -> None:
    """The worker has nothing left (bench/run.py's `settled`) and the peers got nothing more
    for `still_seconds` (a delivery may wait in the schedule for its turn)."""
    settled(client)
    seen, since = peers.counts(), time.monotonic()
    while time.monotonic() - since < still_seconds:
        time.sleep(0.1)
        if peers.counts() != seen:
            settled(client)
            seen, since = peers.counts(), time.monotonic()


def paced_moves(port: int, games: list[list[tuple]], cursors: list[tuple]) -> list[float]:
    """Each thread POSTs its games' next moves, one every THREADS / RATE seconds, for
    PHASE_SECONDS; the latencies. `cursors` keeps where each thread is: (game, move, the
    game's version)."""
    interval = THREADS / RATE
    timings: list[list[float]] = [[] for _ in range(THREADS)]
    failed: list[BaseException] = []

    def play(i: int, start: float) -> None:
        try:
            moves_of_thread(i, start)
        except BaseException as err:  # told in this thread, after the join
            failed.append(err)

    def moves_of_thread(i: int, start: float) -> None:
        due, stop_at = start + i * interval / THREADS, start + PHASE_SECONDS
        game_index, move_index, version = cursors[i]
        conns: dict[str, Conn] = {}
        while due < stop_at:
            time.sleep(max(0.0, due - time.monotonic()))
            game, moves, x, y = games[i][game_index]
            if version is None:
                version = game["version"]
            seat, notation = moves[move_index]
            player = (x, y)[seat]
            conn = conns.setdefault(player[1], Conn(port, player[1]))
            t = time.monotonic()
            status, body = conn.call(
                "POST",
                f"/v1/games/{game['id']}/moves",
                {"notation": notation, "expected_version": version},
            )
            timings[i].append(time.monotonic() - t)
            assert status == 201, body
            version = body["version"]
            move_index += 1
            if move_index == len(moves):
                game_index, move_index, version = game_index + 1, 0, None
                if game_index == len(games[i]):
                    raise RuntimeError("a thread ran out of games: raise GAMES_A_PHASE")
            due += interval
        cursors[i] = (game_index, move_index, version)

    start = time.monotonic() + 0.05
    pool = [threading.Thread(target=play, args=(i, start)) for i in range(THREADS)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if failed:
        raise failed[0]
    return [x for t in timings for x in t]


def phase(port, client, processes: Processes, peers: Peers, games, cursors, paused) -> dict:
    caught_up(client, peers)
    before, sent_before = processes.now(), peers.counts()
    started = time.monotonic()
    if paused:
        os.kill(processes.worker, signal.SIGSTOP)
    try:
        latencies = paced_moves(port, games, cursors)
    finally:
        if paused:
            os.kill(processes.worker, signal.SIGCONT)
    played = time.monotonic() - started
    caught_up(client, peers)
    after, sent_after = processes.now(), peers.counts()
    return {
        "moves": len(latencies),
        "latencies": latencies,
        "seconds": played,
        "catch_up": time.monotonic() - started - played,
        "cpu": {part: after[part] - before[part] for part in before},
        "sent": [b - a for a, b in zip(sent_before, sent_after, strict=True)],
    }


def measure() -> dict:
    with (
        tempfile.TemporaryDirectory() as tmp,
        CountingPushService() as push,
        WebhookReceiver() as hooks,
    ):
        valkey = EmbeddedValkey(Path(tmp) / "data").start()
        sink = MailSink()
        smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
        smtp.start()
        peers = Peers(sink, push, hooks)
        server = LiveServer(
            "--log-level",
            "warning",
            redis_url=valkey.url,
            env={
                "RATE_LIMITS": "off",
                "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
                "EMAIL_DELAY_SECONDS": "0",
                "PUSH_DELAY_SECONDS": "0",
                "WEBHOOK_ALLOW_HTTP": "1",  # the peers listen on http://127.0.0.1
                "WEBHOOK_ALLOW_LOOPBACK": "1",
            },
        )
        try:
            server.wait_ready()
            processes = Processes(server, valkey)
            client = connect(valkey.url)
            store = GameStore(client)
            port = server.port
            games = {
                group: games_for(port, store, group, sum(g == group for _, g, _ in PHASES) * ROUNDS)
                for group in (NONE, ALL)
            }
            caught_up(client, peers)
            give_channels(port, client, games[ALL], push, hooks)
            caught_up(client, peers)
            idle = processes.now()["api"]
            time.sleep(IDLE_SECONDS)
            idle = (processes.now()["api"] - idle) / IDLE_SECONDS
            cursors = {group: [(0, 0, None)] * THREADS for group in games}
            phases = []
            for _ in range(ROUNDS):
                for name, group, paused in PHASES:
                    found = phase(
                        port, client, processes, peers, games[group], cursors[group], paused
                    )
                    phases.append((name, found))
                    api_ms = found["cpu"]["api"] * 1000 / found["moves"]
                    print(f"{name}: {found['moves']} moves, API {api_ms:.2f} ms each", flush=True)
        finally:
            server.stop()
            smtp.stop()
            valkey.stop()
    return {"phases": phases, "idle": idle}


# ------------------------------------------------------------------------------ report


def totals(phases: list[tuple[str, dict]], group: str) -> dict:
    mine = [p for g, p in phases if g == group]
    moves = sum(p["moves"] for p in mine)
    latencies = [x for p in mine for x in p["latencies"]]
    return {
        "moves": moves,
        "per_second": moves / sum(p["seconds"] for p in mine),
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        **{
            f"{part}_ms": sum(p["cpu"][part] for p in mine) * 1000 / moves
            for part in ("api", "worker", "valkey")
        },
        "sent": [sum(p["sent"][k] for p in mine) for k in range(3)],
        "catch_up": max(p["catch_up"] for p in mine),
    }


def spread(phases: list[tuple[str, dict]], group: str) -> str:
    """The lowest and highest API CPU per move of the group's phases."""
    each = [p["cpu"]["api"] * 1000 / p["moves"] for g, p in phases if g == group]
    return f"{min(each):.2f}-{max(each):.2f}"


def section(found: dict, started: datetime, load_before: str, load_after: str) -> str:
    phases = found["phases"]
    none, every, paused = totals(phases, NONE), totals(phases, ALL), totals(phases, PAUSED)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"

    def row(name: str, t: dict) -> str:
        emails, pushes, posts = t["sent"]
        return (
            f"| {name} | {t['moves']} | {t['per_second']:.1f} | {t['p50_ms']:.2f} | "
            f"{t['p99_ms']:.2f} | **{t['api_ms']:.2f}** | {t['worker_ms']:.2f} | "
            f"{t['valkey_ms']:.2f} | {emails} / {pushes} / {posts} | {t['catch_up']:.1f} s |"
        )

    def phase_row(n: int, group: str, p: dict) -> str:
        return (
            f"| {n} | {group} | {p['moves']} | {statistics.median(p['latencies']) * 1000:.2f} | "
            f"{p['cpu']['api'] * 1000 / p['moves']:.2f} | "
            f"{p['cpu']['worker'] * 1000 / p['moves']:.2f} |"
        )

    phase_rows = "\n".join(phase_row(n, g, p) for n, (g, p) in enumerate(phases, 1))
    return f"""
## A move's cost to the API with push, email and webhook players (`make bench`: `python -m bench.move_channels`)

{started:%Y-%m-%d %H:%M} UTC; {machine}; load averages (1, 5, 15 min) {load_before} before and
{load_after} after (the machine is shared). `turnpost serve` as shipped (gunicorn, 2 gevent
HTTP workers, its background worker) on the embedded Valkey (append-only file on), rate limits
off, no email or push delay; an SMTP server, a push service (answering 201, not decrypting)
and a webhook receiver on loopback. The Nine Domains with a clock ({CLOCK["per_move_seconds"]}
s, `{CLOCK["on_timeout"]}`), moves computed ahead, POSTed at {RATE:.0f} a second from
{THREADS} threads (a fixed pace, so that the worker keeps up). Players with none: no address,
no device, no webhook. Players with push, email and webhook: a confirmed address, one push
subscription and a webhook each (signed, Discord or Slack by thread), given once their games
were made, so that each game's first turn email falls in the measure. Three kinds of phase
took turns, {ROUNDS} times each, {PHASE_SECONDS:.0f} s a phase, each counted from a settled
worker until the worker had caught up with it: the first group's moves, the second's, and the
second's again with the worker stopped (SIGSTOP) during the moves and let go after them, so
that their requests did not share the cores with their deliveries. CPU per move from /proc
(in ticks of 10 ms: about 0.05 ms a move in a phase's figure): the API (gunicorn's master and
its HTTP workers), the worker, Valkey. With no request at all the API used {found["idle"] * 1000:.1f} ms
of CPU a second ({IDLE_SECONDS:.0f} s measured before the phases): at {RATE:.0f} moves a second
that is {found["idle"] * 1000 / RATE:.2f} ms of each move's figure below, and a longer catch-up
counts more of it.

| players | moves | moves/s | p50 ms | p99 ms | API CPU ms per move | worker CPU ms per move | Valkey CPU ms per move | delivered: emails / push / webhook | longest catch-up |
|---|---|---|---|---|---|---|---|---|---|
{row(NONE, none)}
{row(ALL, every)}
{row(PAUSED, paused)}

With push, email and webhook players against none: the API's CPU per move
**{every["api_ms"] / none["api_ms"]:.2f}x** ({every["api_ms"]:.2f} ms against
{none["api_ms"]:.2f} ms; from phase to phase {spread(phases, ALL)} ms against
{spread(phases, NONE)} ms), the median latency **{every["p50_ms"] / none["p50_ms"]:.2f}x**
({every["p50_ms"]:.2f} ms against {none["p50_ms"]:.2f} ms); the worker's CPU per move
{every["worker_ms"]:.2f} ms against {none["worker_ms"]:.2f} ms: the deliveries are the
worker's. The latencies are the requests' as the machine gave them: during the moves of the
second group the worker's deliveries took about {every["worker_ms"] * RATE / 10:.0f}% of a core
of the two that the API, Valkey, this benchmark and other people's work share. With the worker
stopped during the moves (nothing delivered until after them) the same players' moves took
**{paused["api_ms"]:.2f} ms** of the API's CPU ({paused["api_ms"] / none["api_ms"]:.2f}x) at a
median of {paused["p50_ms"]:.2f} ms ({paused["p50_ms"] / none["p50_ms"]:.2f}x): nothing in a
move's request waits for a delivery (no worker at all ran during those moves; during the
first group's, its worker did the outbox and lists work of every move). Catching up on a
stopped phase's notices at once, the worker spent {paused["worker_ms"]:.2f} ms of CPU per move,
{paused["worker_ms"] / every["worker_ms"]:.2f}x what it spends on them as they come: its
outbox consumer reads them in batches.

Each phase (in the order run):

| phase | players | moves | p50 ms | API CPU ms per move | worker CPU ms per move |
|---|---|---|---|---|---|
{phase_rows}
"""


def load() -> str:
    """/proc/loadavg's averages over 1, 5 and 15 minutes."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    started, load_before = datetime.now(UTC), load()
    found = measure()
    text = section(found, started, load_before, load())
    replace_section(
        "A move's cost to the API with push, email and webhook players "
        "(`make bench`: `python -m bench.move_channels`)",
        text,
    )
    print(text)


if __name__ == "__main__":
    main()
