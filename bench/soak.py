"""`make bench`'s soak (`python -m bench.soak --minutes 60`): an hour of mixed play on
`turnpost serve` while its processes are killed, and what it leaves behind.

`turnpost serve` runs as a real process, as a person runs it, with gunicorn's HTTP workers
recycled after HTTP_MAX_REQUESTS answers, clocks as short as MIN_MOVE_SECONDS and no rate
limits; its emails go to an SMTP server in this process, which keeps each message's headers.
People (players with email addresses, who are all friends) play from client threads: they
create games of every title against each other and against bots, a share of them with clocks
of seconds (`auto` and `forfeit`), read their inboxes, play legal moves from the API (every
move with an Idempotency-Key, sent again after a 5xx or a lost connection), view and read
their games, and now and then let a clock run out. The pace between two steps follows the
CPU of the server's processes (from /proc), towards half the machine's cores.

Every few minutes one HTTP worker is killed (SIGKILL and SIGTERM in turn); the background
worker is killed once, early (SIGKILL: `turnpost serve` starts it again), and Valkey once.
`turnpost serve` does not start again a Valkey it started itself, so the soak owns Valkey: an
embedded Valkey (append-only file on) given to the server as REDIS_URL, which the soak
SIGKILLs and starts again on the same data folder and port.

Every 30 s: the RSS and open files of every process (the server, each HTTP worker, a new pid
after a recycle being a new series, the background worker, Valkey, and this process) and
Valkey's used memory with the number of games. At the end the people resign their unfinished
games, the worker catches up (outbox and queue empty), and the soak checks: the 5xx answers,
every finished game's log replays to its snapshot, every acknowledged move is in its log,
every clock ran out at most once per turn, no email was sent twice; then writes its figures
into bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import platform
import random
import signal
import statistics
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from bench.http import Conn
from bench.results import replace_section
from bench.run import MailSink, settled
from service.play.games import GameService
from store.connection import connect
from store.embedded import EmbeddedValkey, free_port
from store.games import GameStore
from store.players import PlayerStore
from tests.checks import assert_each_timeout_once
from tests.e2e.server import LiveServer, command_of, descendants, http_workers
from workers.status import largest_keys, status

PEOPLE = 40
GAMES_EACH = 3  # a person starts a game when in fewer than this
MIN_MOVE_SECONDS = 5
SHORT_CLOCKS = 0.4  # the share of games with a clock of MIN_MOVE_SECONDS to twice that
LONG_CLOCKS = 0.4  # a day a move; the rest have no clock
NEGLECT = 0.15  # the chance a person lets a short clock run out on their turn
HTTP_MAX_REQUESTS = 500
BOTS = ["bot:heuristic"] * 12 + ["bot:random"] * 7 + ["bot:expert"]
SAMPLE_SECONDS = 30
WARMUP_SECONDS = 600  # slopes are fitted after this
PACE_SECONDS = 15  # how often the pause between steps is adjusted
TARGET_CORES = (os.cpu_count() or 2) / 2
MIB = 1024 * 1024
ENDED = ("finished", "cancelled")


# ------------------------------------------------------------------------------ the peers


class HeaderSink(MailSink):
    """The SMTP server: counts every message and keeps what names it (recipient, game,
    version, event, delivery id), not its body."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[tuple[str, ...]] = []

    async def handle_DATA(self, server, session, envelope):
        headers = BytesHeaderParser().parsebytes(envelope.original_content or envelope.content)
        names = [headers.get(f"X-Turnpost-{h}", "") for h in ("Game", "Version", "Event")]
        for to in envelope.rcpt_tos:
            self.keys.append((to, *names, headers.get("X-Turnpost-Delivery", "")))
        return await super().handle_DATA(server, session, envelope)


@dataclass
class Tally:
    """What the clients saw, shared by their threads."""

    started: float = field(default_factory=time.monotonic)
    statuses: Counter[int] = field(default_factory=Counter)
    five_xx: list[tuple[float, str, str, int, str]] = field(default_factory=list)
    lost_connections: int = 0
    moves: list[tuple[str, int, int, int]] = field(default_factory=list)
    """Acknowledged moves: game, the version it was made on, the version answered, seat."""
    games: dict[str, str] = field(default_factory=dict)  # game id -> title
    neglected: int = 0
    resigned: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, method: str, path: str, status: int, body: Any) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status >= 500:
                message = str(body.get("message", "")) if isinstance(body, dict) else ""
                at = time.monotonic() - self.started
                self.five_xx.append((at, method, template(path), status, message[:120]))


def template(path: str) -> str:
    """The path with its game id as `{id}`: 5xx are reported per operation."""
    parts = path.split("?")[0].split("/")
    if len(parts) > 3 and parts[1:3] == ["v1", "games"]:
        parts[3] = "{id}"
    return "/".join(parts)


class Person:
    """A player with an email address, talking to the server over one keep-alive connection
    (a new one after the server dropped it)."""

    def __init__(self, port: int, tally: Tally, name: str):
        self.port, self.tally, self.name = port, tally, name
        self.email = f"{name.lower()}@example.org"
        _, body = self.call("POST", "/v1/players", {"name": name, "email": self.email})
        self.id, self.token = body["id"], body["token"]
        self.conn = Conn(port, self.token)
        self.games: set[str] = set()
        self.left_to_run_out: dict[str, int] = {}  # game -> the version whose clock runs out

    def call(self, method: str, path: str, body=None, headers=None) -> tuple[int | None, Any]:
        if not hasattr(self, "conn"):
            self.conn = Conn(self.port)
        try:
            status, answer = self.conn.call(method, path, body, headers)
        except (OSError, http.client.HTTPException, ValueError):
            with self.tally.lock:
                self.tally.lost_connections += 1
            self.conn.c.close()
            return None, None
        self.tally.answered(method, path, status, answer)
        return status, answer

    def until_answered(self, method: str, path: str, body=None, headers=None):
        """The same request again while the answer is a 5xx or none (a move carries its
        Idempotency-Key, so it is played once)."""
        for _ in range(30):
            status, answer = self.call(method, path, body, headers)
            if status is not None and status < 500:
                break
            time.sleep(0.5)
        return status, answer


# ------------------------------------------------------------------------------ the play


class Play:
    """The people, their catalog and the pace they keep."""

    def __init__(self, port: int, tally: Tally, people: int, seed: int = 41):
        self.tally = tally
        self.rng = random.Random(seed)
        self.people = [Person(port, tally, f"Soak{i}") for i in range(people)]
        for person in self.people:
            friends = [p.id for p in self.people if p is not person]
            person.call("PUT", "/v1/players/me/friends", {"friends": friends})
        _, catalog = self.people[0].call("GET", "/v1/catalog")
        self.titles = [(g["name"], g["min_players"], g["max_players"]) for g in catalog["games"]]
        self.pause = 1.0
        self.stopping = threading.Event()

    def run(self, person: Person) -> None:
        rng = random.Random(person.name)
        while not self.stopping.is_set():
            self.step(person, rng)
            self.stopping.wait(self.pause * rng.uniform(0.5, 1.5))

    def step(self, person: Person, rng: random.Random) -> None:
        status, inbox = person.call("GET", "/v1/games?awaiting=me")
        waiting = inbox["games"] if status == 200 else []
        person.games.update(g["id"] for g in waiting)
        if len(person.games) < GAMES_EACH:
            self.create_game(person, rng)
        for summary in waiting[:3]:
            if not self.lets_it_run_out(person, summary, rng):
                self.move(person, summary["id"], rng)
        if person.games:
            self.look_at(person, rng.choice(sorted(person.games)), rng)

    def create_game(self, person: Person, rng: random.Random) -> None:
        title, least, most = rng.choice(self.titles)
        others = [p.id for p in self.people if p is not person]
        seats = [person.id]
        for _ in range(rng.randint(least, min(most, 3)) - 1):
            pick = rng.choice(others) if rng.random() < 0.5 else rng.choice(BOTS)
            seats.append(pick if pick not in seats else rng.choice(BOTS[:12]))
        rng.shuffle(seats)
        body: dict[str, Any] = {"game": title, "seats": seats}
        clock = rng.random()
        if clock < SHORT_CLOCKS:
            seconds = rng.randint(MIN_MOVE_SECONDS, 2 * MIN_MOVE_SECONDS)
            policy = rng.choice(["auto", "forfeit"])
            body["time_control"] = {"per_move_seconds": seconds, "on_timeout": policy}
        elif clock < SHORT_CLOCKS + LONG_CLOCKS:
            body["time_control"] = {"per_move_seconds": 86400, "on_timeout": "auto"}
        status, game = person.call("POST", "/v1/games", body)
        if status == 201:
            person.games.add(game["id"])
            with self.tally.lock:
                self.tally.games[game["id"]] = title

    def lets_it_run_out(self, person: Person, summary: dict, rng: random.Random) -> bool:
        """Now and then a person leaves a short clock to run out (and keeps to it for that
        turn)."""
        game_id, version = summary["id"], summary["version"]
        if person.left_to_run_out.get(game_id) == version:
            return True
        seconds = (summary.get("time_control") or {}).get("per_move_seconds", 86400)
        if seconds <= 2 * MIN_MOVE_SECONDS and rng.random() < NEGLECT:
            person.left_to_run_out[game_id] = version
            with self.tally.lock:
                self.tally.neglected += 1
            return True
        return False

    def move(self, person: Person, game_id: str, rng: random.Random) -> None:
        status, legal = person.call("GET", f"/v1/games/{game_id}/legal-moves")
        if status != 200 or not legal["moves"]:
            return
        body = {
            "notation": rng.choice(legal["moves"])["notation"],
            "expected_version": legal["version"],
        }
        key = {"Idempotency-Key": uuid.uuid4().hex}
        status, answer = person.until_answered("POST", f"/v1/games/{game_id}/moves", body, key)
        if status == 201:
            with self.tally.lock:
                made = (game_id, legal["version"], answer["version"], legal["seat"])
                self.tally.moves.append(made)

    def look_at(self, person: Person, game_id: str, rng: random.Random) -> None:
        status, summary = person.call("GET", f"/v1/games/{game_id}")
        if status == 200 and summary["status"] in ENDED:
            person.games.discard(game_id)
            person.left_to_run_out.pop(game_id, None)
            return
        what = rng.random()
        if what < 0.4:
            person.call("GET", f"/v1/games/{game_id}/view")
        elif what < 0.55:
            person.call("GET", f"/v1/games/{game_id}/view", headers={"Accept": "text/plain"})
        elif what < 0.7:
            person.call("GET", f"/v1/games/{game_id}/log")
        elif what < 0.8:
            person.call("GET", "/v1/games?status=open")
        elif what < 0.9:
            person.call("GET", "/v1/games")

    def resign_the_rest(self, service: GameService) -> None:
        """At the end each person resigns the games still running, so that every game ends
        and the worker's backlog can drain (clocks of seconds would run on)."""
        by_id = {p.id: p for p in self.people}
        for game_id in list(self.tally.games):
            snap = service.load(game_id)
            if snap["status"] in ENDED:
                continue
            for seat in snap["seats"]:
                person = by_id.get(seat["player_id"] or "")
                if person is not None:
                    status, _ = person.until_answered("POST", f"/v1/games/{game_id}/resign")
                    if status == 200:
                        with self.tally.lock:
                            self.tally.resigned += 1


# ------------------------------------------------------------------------------ processes


@dataclass
class Processes:
    """The server's processes by role, read from /proc."""

    server: LiveServer
    valkey: EmbeddedValkey

    def roles(self) -> list[tuple[str, int]]:
        found = [("server", self.server.process.pid)]
        found += [("http worker", pid) for pid in sorted(http_workers(self.server))]
        found += [("background worker", pid) for pid in self.background_workers()]
        if self.valkey.process is not None:
            found.append(("valkey", self.valkey.process.pid))
        return found + [("soak client", os.getpid())]

    def background_workers(self) -> list[int]:
        return [
            pid
            for pid in descendants(self.server.process.pid)
            if "turnpost.cli worker" in command_of(pid)
        ]

    def server_pids(self) -> list[int]:
        return [pid for role, pid in self.roles() if role != "soak client"]


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_and_fds(pid: int) -> tuple[int, int] | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    kib = next(int(line.split()[1]) for line in text.splitlines() if line.startswith("VmRSS:"))
    return kib * 1024, fds


class CpuMeter:
    """The server's CPU in cores since the last reading; a pid seen for the first time counts
    from its start, one gone counts no more."""

    def __init__(self, processes: Processes):
        self.processes = processes
        self.last: dict[int, float] = {}
        self.at = time.monotonic()
        self.total = 0.0
        self.read()

    def read(self) -> float:
        now = time.monotonic()
        seconds = {pid: cpu_seconds(pid) for pid in self.processes.server_pids()}
        used = sum(s - self.last.get(pid, 0.0) for pid, s in seconds.items())
        cores = used / max(now - self.at, 1e-3)
        self.total += used
        self.last, self.at = seconds, now
        return cores


def pace(play: Play, meter: CpuMeter, cores_seen: list[float]) -> None:
    """Every PACE_SECONDS: the pause between a person's steps grows when the server uses more
    than TARGET_CORES and shrinks when less."""
    while not play.stopping.wait(PACE_SECONDS):
        cores = meter.read()
        cores_seen.append(cores)
        factor = min(1.4, max(0.7, cores / TARGET_CORES))
        play.pause = min(10.0, max(0.05, play.pause * factor))
        t = play.tally
        print(
            f"soak: {time.monotonic() - t.started:6.0f} s  server {cores:.2f} cores, pause "
            f"{play.pause:.2f} s; {len(t.games)} games, {len(t.moves)} moves, "
            f"{len(t.five_xx)} 5xx, {t.lost_connections} lost connections",
            flush=True,
        )


@dataclass
class Sample:
    at: float
    role: str
    pid: int
    rss: int
    fds: int


def sample_forever(
    processes: Processes,
    client,
    tally: Tally,
    samples: list[Sample],
    memory: list[tuple[float, int, int]],
    stopping: threading.Event,
) -> None:
    while True:
        at = time.monotonic() - tally.started
        for role, pid in processes.roles():
            measured = rss_and_fds(pid)
            if measured is not None:
                samples.append(Sample(at, role, pid, *measured))
        with contextlib.suppress(Exception):  # Valkey restarting
            memory.append((at, client.info("memory")["used_memory"], len(tally.games)))
        if stopping.wait(SAMPLE_SECONDS):
            return


class Killer:
    """The kills, at times spread over the run: an HTTP worker every `every` seconds, by
    SIGKILL and SIGTERM in turn; the background worker once, early (at 5 minutes, or a third
    of a shorter run), so that the worker started again runs long after its own warm-up and
    its slope is measured over most of the run; Valkey once at two thirds."""

    def __init__(self, processes: Processes, seconds: float, tally: Tally):
        self.processes, self.tally = processes, tally
        every = max(40.0, seconds / 15)
        self.plan = [(every * i, "http worker") for i in range(1, int(seconds / every))]
        self.plan += [
            (min(seconds / 3, 300) + 20, "background worker"),
            (seconds * 2 / 3 + 20, "valkey"),
        ]
        self.plan.sort()
        self.done: list[tuple[float, str, str, int]] = []
        self.outage: tuple[float, float] | None = None  # Valkey down, until the API answers
        self.signals = [signal.SIGKILL, signal.SIGTERM]
        self.http_kills = 0

    def run(self, stopping: threading.Event) -> None:
        for at, what in self.plan:
            if stopping.wait(max(0.0, at - (time.monotonic() - self.tally.started))):
                return
            getattr(self, "kill_" + what.replace(" ", "_"))()

    def note(self, what: str, signum: signal.Signals, pid: int) -> None:
        at = time.monotonic() - self.tally.started
        self.done.append((at, what, signum.name, pid))
        print(f"soak: {at:6.0f} s  {signum.name} {what} {pid}", flush=True)

    def kill_http_worker(self) -> None:
        workers = sorted(http_workers(self.processes.server))
        if workers:
            signum = self.signals[self.http_kills % 2]
            self.http_kills += 1
            os.kill(workers[0], signum)
            self.note("http worker", signum, workers[0])

    def kill_background_worker(self) -> None:
        for pid in self.processes.background_workers():
            os.kill(pid, signal.SIGKILL)
            self.note("background worker", signal.SIGKILL, pid)

    def kill_valkey(self) -> None:
        valkey = self.processes.valkey
        assert valkey.process is not None
        pid = valkey.process.pid
        began = time.monotonic() - self.tally.started
        valkey.kill()
        self.note("valkey", signal.SIGKILL, pid)
        valkey.start()  # the same data folder and port: it reads its append-only file
        self.outage = (began, time.monotonic() - self.tally.started)


# ------------------------------------------------------------------------------ the checks


def replay_mismatches(service: GameService, game_ids: list[str]) -> tuple[int, list[str]]:
    """(finished games, those whose log does not replay to their snapshot)."""
    finished, wrong = 0, []
    for game_id in game_ids:
        snap = service.load(game_id)
        if snap["status"] != "finished":
            continue
        finished += 1
        if service.replay(game_id) != snap:
            wrong.append(game_id)
    return finished, wrong


def events_by_game(service: GameService, game_ids: list[str]) -> dict[str, list[dict]]:
    return {g: [dict(e) for e in service.games.events(g)] for g in game_ids}


def lost_moves(moves: list[tuple[str, int, int, int]], events: dict[str, list[dict]]) -> list:
    """Acknowledged moves (201) with no move of their seat in their game's log between the
    version they were made on and the version answered (a move may bring more events with
    it: the end of a round, of the game)."""
    lost = []
    for game_id, made_on, answered, seat in moves:
        log = events[game_id][made_on:answered]
        if not any(e["type"] == "ActionTaken" and e["seat"] == seat for e in log):
            lost.append((game_id, made_on, answered, seat))
    return lost


def memory_per_game(memory: list[tuple[float, int, int]]) -> float | None:
    """Valkey's used memory per game created, between the first and the last sample."""
    if len(memory) < 2 or memory[-1][2] == memory[0][2]:
        return None
    return (memory[-1][1] - memory[0][1]) / (memory[-1][2] - memory[0][2])


def exceptions_printed(printed: str) -> Counter[str]:
    """The exception line that ends each traceback in the server's output; the first
    traceback of each is printed whole, to read after the run."""
    found: Counter[str] = Counter()
    lines = printed.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].startswith(" ")), i)
            exception = lines[end][:100] if end > i else "?"
            if exception not in found:
                print("\n".join(lines[max(0, i - 2) : end + 1]), flush=True)
            found[exception] += 1
    return found


def timeout_failures(service: GameService, game_ids: list[str]) -> list[str]:
    wrong = []
    for game_id in game_ids:
        try:
            assert_each_timeout_once(service, game_id)
        except AssertionError as failure:
            wrong.append(str(failure))
    return wrong


def emails_twice(sink: HeaderSink) -> list[tuple[str, ...]]:
    """The same delivery (recipient, game, version, event, delivery id) received twice."""
    return [key for key, n in Counter(sink.keys).items() if n > 1]


def slope_per_hour(points: list[tuple[float, float]]) -> float | None:
    """Least squares slope of (seconds, value), per hour."""
    if len(points) < 3 or points[-1][0] - points[0][0] < 3 * SAMPLE_SECONDS:
        return None
    return statistics.linear_regression([t for t, _ in points], [v for _, v in points])[0] * 3600


def slopes(samples: list[Sample], warmup: float, played: float) -> list[dict]:
    """One row per process, from the end of its first `warmup` seconds (a process started
    again during the run warms up as the first ones did) to the end of play; HTTP workers,
    recycled every few hundred answers, as one pooled series from the run's warm-up on."""
    began: dict[int, float] = {}
    for s in samples:
        began.setdefault(s.pid, s.at)
    series: dict[tuple[str, int], list[Sample]] = {}
    for s in samples:
        if s.role != "http worker" and began[s.pid] + warmup <= s.at <= played:
            series.setdefault((s.role, s.pid), []).append(s)
    pooled = [s for s in samples if s.role == "http worker" and warmup <= s.at <= played]
    rows = []
    for (role, pid), points in [*series.items(), (("http workers", 0), pooled)]:
        if points:
            rows.append(slope_row(role, str(pid or "all, pooled"), points))
    return rows


def slope_row(role: str, pid: str, points: list[Sample]) -> dict:
    return {
        "role": role,
        "pid": pid,
        "samples": len(points),
        "rss_first": points[0].rss / MIB,
        "rss_last": points[-1].rss / MIB,
        "rss_max": max(p.rss for p in points) / MIB,
        "rss_slope": slope_per_hour([(p.at, p.rss / MIB) for p in points]),
        "fds_max": max(p.fds for p in points),
        "fds_slope": slope_per_hour([(p.at, p.fds) for p in points]),
    }


# ------------------------------------------------------------------------------ the run


def soak(minutes: float, people: int) -> dict:
    seconds = minutes * 60
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "valkey").start()
        sink = HeaderSink()
        smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
        smtp.start()
        server = LiveServer(
            "--data",
            str(Path(tmp) / "data"),
            redis_url=valkey.url,
            env={
                "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
                "MIN_MOVE_SECONDS": str(MIN_MOVE_SECONDS),
                "VACATION_DAYS_A_YEAR": "0",  # timeouts at once, as before vacations
                "HTTP_MAX_REQUESTS": str(HTTP_MAX_REQUESTS),
                "RATE_LIMITS": "off",
            },
        ).wait_ready()
        try:
            return drive(server, valkey, sink, seconds, people)
        finally:
            server.stop()
            valkey.stop()
            smtp.stop()


def drive(
    server: LiveServer, valkey: EmbeddedValkey, sink: HeaderSink, seconds: float, people: int
) -> dict:
    client = connect(valkey.url)
    service = GameService(GameStore(client), PlayerStore(client), min_move_seconds=1)
    tally = Tally()
    processes = Processes(server, valkey)
    play = Play(server.port, tally, people)
    for person in play.people:  # confirmed as its owner would confirm it by the emailed link
        PlayerStore(client).confirm_email(person.id, person.email)
    meter, cores_seen = CpuMeter(processes), list[float]()
    samples, memory = list[Sample](), list[tuple[float, int, int]]()
    killer = Killer(processes, seconds, tally)
    sampling = threading.Event()
    threads = [threading.Thread(target=play.run, args=(p,), daemon=True) for p in play.people]
    threads += [
        threading.Thread(target=pace, args=(play, meter, cores_seen), daemon=True),
        threading.Thread(target=killer.run, args=(play.stopping,), daemon=True),
        threading.Thread(
            target=sample_forever,
            args=(processes, client, tally, samples, memory, sampling),
            daemon=True,
        ),
    ]
    client_cpu = time.process_time()
    for thread in threads:
        thread.start()
    play.stopping.wait(seconds)
    play.stopping.set()
    for thread in threads[:-1]:
        thread.join(120)
    played = time.monotonic() - tally.started
    meter.read()  # the last interval, into its total
    server_cpu = meter.total
    client_cpu = time.process_time() - client_cpu
    play.resign_the_rest(service)
    caught_up = catch_up(client, service, list(tally.games))
    sampling.set()
    threads[-1].join(60)
    return figures(
        server, client, service, sink, tally, killer, samples, memory, cores_seen,
        played, server_cpu, client_cpu, caught_up,
    )  # fmt: skip


def catch_up(client, service: GameService, game_ids: list[str]) -> float | None:
    """Seconds until every game has ended (bots finish theirs) and the worker has nothing
    left (no outbox entry, no job) for 2 s; None if that took over 10 minutes."""
    began = time.monotonic()
    give_up = began + 600
    while time.monotonic() < give_up:
        running = [g for g in game_ids if service.load(g)["status"] not in ENDED]
        if not running:
            break
        print(f"soak: catching up, {len(running)} games still running", flush=True)
        time.sleep(5)
    try:
        settled(client, quiet_seconds=2.0, at_most_seconds=max(1.0, give_up - time.monotonic()))
    except RuntimeError:
        return None
    return time.monotonic() - began


def figures(
    server, client, service, sink, tally, killer, samples, memory, cores_seen,
    played, server_cpu, client_cpu, caught_up,
) -> dict:  # fmt: skip
    game_ids = list(tally.games)
    events = events_by_game(service, game_ids)
    kinds = Counter(e["type"] for log in events.values() for e in log)
    finished, replay_wrong = replay_mismatches(service, game_ids)
    warmup = min(WARMUP_SECONDS, played / 3)
    for s in samples:  # into the log, to be read again
        print(f"soak sample: {s.at:.0f} {s.role.replace(' ', '-')} {s.pid} {s.rss} {s.fds}")
    printed = server.printed()
    return {
        "played_seconds": played,
        "statuses": dict(sorted(tally.statuses.items())),
        "five_xx": tally.five_xx,
        "valkey_outage": killer.outage,
        "lost_connections": tally.lost_connections,
        "api_moves": len(tally.moves),
        "all_moves": kinds["ActionTaken"],
        "games": len(game_ids),
        "games_by_title": dict(Counter(tally.games.values())),
        "finished": finished,
        "timeouts": kinds["TurnTimedOut"],
        "neglected": tally.neglected,
        "resigned_at_end": tally.resigned,
        "emails": sink.received,
        "emails_twice": emails_twice(sink),
        "replay_wrong": replay_wrong,
        "lost_moves": lost_moves(tally.moves, events),
        "timeout_wrong": timeout_failures(service, game_ids),
        "kills": killer.done,
        "slopes": slopes(samples, warmup, played),
        "warmup": warmup,
        "valkey_bytes_per_game": memory_per_game(memory),
        "valkey_memory": memory,
        "caught_up_seconds": caught_up,
        "backlog": status(client, client),
        "largest_keys": largest_keys(client, top=5)["largest"],
        "server_cores": server_cpu / played,
        "client_cores": client_cpu / played,
        "cores_seen": cores_seen,
        "tracebacks": exceptions_printed(printed),
        "restarts_printed": printed.count("starting it again"),
    }


# ------------------------------------------------------------------------------ report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--people", type=int, default=PEOPLE)
    args = parser.parse_args()
    started = datetime.now(UTC)
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    result = soak(args.minutes, args.people)
    load_after = Path("/proc/loadavg").read_text().split()[:3]
    write_results(result, args, started, " ".join(load_before), " ".join(load_after))


HEADING = "A soak: mixed play while processes are killed (`make bench`: `python -m bench.soak`)"


def write_results(r: dict, args, started: datetime, load_before: str, load_after: str) -> None:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    text = f"""
## {HEADING}

{started:%Y-%m-%d %H:%M} UTC; {machine}; load average (1, 5, 15 min) {load_before} before and
{load_after} after (the machine is shared). `python -m bench.soak --minutes {args.minutes:g}`:
{r["played_seconds"] / 60:.1f} minutes of play by {args.people} people, then they resigned
the games still running and the worker caught up. `turnpost serve` (2 HTTP workers recycled
after {HTTP_MAX_REQUESTS} answers +-10%, its background worker) on an embedded Valkey with its
append-only file on, emails to an SMTP server in the soak; MIN_MOVE_SECONDS {MIN_MOVE_SECONDS};
{SHORT_CLOCKS:.0%} of the games with a clock of {MIN_MOVE_SECONDS}-{2 * MIN_MOVE_SECONDS} s
(`auto` or `forfeit`), {LONG_CLOCKS:.0%} with a day a move; RATE_LIMITS off. The pace followed
the server's CPU towards {TARGET_CORES:g} cores: it used {r["server_cores"]:.2f} cores on
average (this process, the clients and the SMTP server: {r["client_cores"]:.2f}).

{summary_table(r)}

RSS and open files of each process from the end of its first {r["warmup"] / 60:.0f} minutes
(a process started again during the run counts from its own start) to the end of play (least
squares over the samples every {SAMPLE_SECONDS} s); an HTTP worker lives a few hundred
answers, so all of them are one series, from the run's first {r["warmup"] / 60:.0f} minutes on:

| process | pid | samples | RSS first -> last MiB | RSS max MiB | RSS MiB per hour | fds max | fds per hour |
|---|---|---|---|---|---|---|---|
{slope_rows(r["slopes"])}

The largest collections at the end (`turnpost status`): {largest(r["largest_keys"])}.
"""
    replace_section(HEADING, text)
    print(text)


def summary_table(r: dict) -> str:
    answers = sum(r["statuses"].values())
    by_status = ", ".join(f"{s}: {n}" for s, n in r["statuses"].items())
    backlog = r["backlog"]
    kills = Counter(f"{what} by {signum}" for _, what, signum, _ in r["kills"])
    caught = r["caught_up_seconds"]
    rows = [
        ("answers", f"{answers} ({by_status})"),
        ("**5xx answers**", five_xx_words(r)),
        ("connections lost (a killed worker's)", str(r["lost_connections"])),
        ("games", f"{r['games']} ({titles(r['games_by_title'])}), {r['finished']} finished"),
        (
            "moves",
            f"{r['all_moves']}: {r['api_moves']} through the API, the rest by bots "
            "and the computer",
        ),
        ("timeouts", f"{r['timeouts']} ({r['neglected']} turns left to run out by people)"),
        ("emails received", str(r["emails"])),
        ("kills", ", ".join(f"{n} {k}" for k, n in sorted(kills.items()))),
        ("Valkey memory per game", valkey_words(r)),
        ("caught up", "not within 10 minutes" if caught is None else f"in {caught:.0f} s"),
        (
            "backlog at the end",
            f"outbox {backlog['outbox']}, queue {backlog['queue']}, schedule {backlog['schedule']}",
        ),
        (
            "**replay**",
            f"{r['finished'] - len(r['replay_wrong'])} of {r['finished']} finished "
            f"games replay to their snapshot {listed(r['replay_wrong'])}",
        ),
        (
            "**moves acknowledged**",
            f"{len(r['lost_moves'])} of {r['api_moves']} missing from "
            f"their log {listed(r['lost_moves'])}",
        ),
        (
            "**timeouts once**",
            f"{len(r['timeout_wrong'])} games with a turn timed out twice "
            f"(or not followed by a move) {listed(r['timeout_wrong'])}",
        ),
        (
            "**emails once**",
            f"{len(r['emails_twice'])} deliveries received twice {listed(r['emails_twice'])}",
        ),
        (
            "the server's output",
            f"{sum(r['tracebacks'].values())} tracebacks "
            f"({'; '.join(f'{n} x {e}' for e, n in r['tracebacks'].most_common(6))}), "
            f"{r['restarts_printed']} restarts of the background worker",
        ),
    ]
    return "| | |\n|---|---|\n" + "\n".join(f"| {a} | {b} |" for a, b in rows)


def five_xx_words(r: dict) -> str:
    outage = r["valkey_outage"]
    near = (lambda at: outage[0] - 1 <= at <= outage[1] + 15) if outage else (lambda at: False)
    during = [x for x in r["five_xx"] if near(x[0])]
    others = Counter((m, p, s, msg) for at, m, p, s, msg in r["five_xx"] if not near(at))
    words = f"{len(r['five_xx'])}: {len(during)} within 15 s of Valkey's restart"
    if outage:
        words += f" (down {outage[0]:.0f}-{outage[1]:.0f} s into the run)"
    if others:
        words += "; elsewhere: " + "; ".join(
            f"{n} x {m} {p} {s} {msg!r}" for (m, p, s, msg), n in others.most_common(8)
        )
    return words


def valkey_words(r: dict) -> str:
    per_game, memory = r["valkey_bytes_per_game"], r["valkey_memory"]
    if per_game is None:
        return "-"
    return (
        f"{per_game / 1024:.1f} KB (used_memory {memory[0][1] / MIB:.1f} -> "
        f"{memory[-1][1] / MIB:.1f} MiB while the games went {memory[0][2]} -> {memory[-1][2]}, "
        "finished games' logs not yet compacted)"
    )


def titles(counts: dict) -> str:
    return ", ".join(f"{t} {n}" for t, n in sorted(counts.items()))


def listed(items: list) -> str:
    return f"({'; '.join(map(str, items[:3]))}{' ...' if len(items) > 3 else ''})" if items else ""


def number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:+.{digits}f}"


def slope_rows(rows: list[dict]) -> str:
    return "\n".join(
        f"| {s['role']} | {s['pid']} | {s['samples']} | {s['rss_first']:.1f} -> "
        f"{s['rss_last']:.1f} | {s['rss_max']:.1f} | {number(s['rss_slope'])} | "
        f"{s['fds_max']} | {number(s['fds_slope'])} |"
        for s in rows
    )


def largest(keys: list[dict]) -> str:
    return ", ".join(f"`{k['key']}` ({k['type']}, {k['length']})" for k in keys)


if __name__ == "__main__":
    main()
