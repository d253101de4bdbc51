"""Where the background worker's memory goes (`python -m bench.worker_memory --minutes 24`).

A real `turnpost worker` runs under tracemalloc (`python -X tracemalloc=4`: 4 frames of each
allocation's traceback) on an embedded Valkey, emailing to an SMTP server in this process,
while this process plays: people with email addresses start games of every title against each
other and against bots, a share with clocks of seconds, and play random legal moves through
GameService, now and then letting a clock run out. Every `--every` seconds the play pauses
until the outbox consumer has nothing in hand (what a batch holds in flight is not a leak),
and the worker writes into a folder a tracemalloc snapshot, its RSS, what glibc's malloc and
Python's small-object allocator hold, the count of live objects by type (`gc.get_objects()`)
and the entries of every functools cache. At the end this process prints those figures over
time and compares the last snapshot with the first one after `--warmup` minutes: the types
whose objects grew and the allocation sites that grew the most, by size and by count.

tracemalloc makes the worker several times slower (and hides pymalloc's figures);
`--frames 0` runs it without, for the allocators' figures at the real pace. The soak
(bench/soak.py) measures how RSS grows; this tells what grows.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import gc
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from aiosmtpd.controller import Controller

from bench.run import MailSink
from engine import registry
from service.assembly import assemble
from service.errors import ServiceError
from store.connection import connect
from store.embedded import EmbeddedValkey, free_port
from store.outbox import OutboxStore

PEOPLE = 20
GAMES_AT_ONCE = 40
BOTS = ["bot:heuristic"] * 12 + ["bot:random"] * 7 + ["bot:expert"]
NEGLECT = 0.1  # the chance a person lets a short clock run out
MIB = 1024 * 1024


# ------------------------------------------------------------------------------ the worker


def traced_worker(folder: Path) -> None:
    """`turnpost worker`, writing what it holds into `folder` when asked."""
    threading.Thread(target=_write_when_asked, args=(folder,), daemon=True).start()
    from turnpost.cli import main

    sys.exit(main(["worker"]))


def _write_when_asked(folder: Path) -> None:
    """When the file `want` appears (its text: a number), the facts into `<number>.json`
    (and the snapshot into `<number>.snapshot`), then `want` goes."""
    want = folder / "want"
    while True:
        time.sleep(0.2)
        if not want.exists():
            continue
        n = int(want.read_text())
        gc.collect()
        objects = gc.get_objects()
        types = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objects)
        caches = {
            f"{o.__module__}.{o.__qualname__}": o.cache_info()._asdict()
            for o in objects
            if isinstance(o, functools._lru_cache_wrapper) and o.cache_info().currsize
        }
        del objects
        if tracemalloc.is_tracing():
            tracemalloc.take_snapshot().dump(str(folder / f"{n:04d}.snapshot"))
        facts = {
            "rss": _rss(os.getpid()),
            "traced": tracemalloc.get_traced_memory()[0],
            "blocks": sys.getallocatedblocks(),
            "malloc": _mallinfo(),
            "pymalloc": _pymalloc(),
            "types": dict(types),
            "caches": caches,
        }
        (folder / f"{n:04d}.json.part").write_text(json.dumps(facts))
        (folder / f"{n:04d}.json.part").rename(folder / f"{n:04d}.json")
        want.unlink()


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks")
        + ("fsmblks", "uordblks", "fordblks", "keepcost")
    ]


def _mallinfo() -> dict[str, int]:
    """glibc's malloc, all arenas: `arena` bytes taken from the system by brk and in the
    threads' arenas, `hblkhd` in mmapped blocks, `uordblks` in use, `fordblks` free."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _Mallinfo2
    info = libc.mallinfo2()
    return {name: getattr(info, name) for name, _ in _Mallinfo2._fields_}


def _pymalloc() -> dict[str, int]:
    """Python's small-object allocator (`sys._debugmallocstats`, which prints to the C
    stderr): its arenas of 1 MiB, the bytes of its blocks in use and free. Empty under
    tracemalloc, whose hooks replace it."""
    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode()
    wanted = {
        "# arenas allocated current": "arenas",
        "# bytes in allocated blocks": "used",
        "# bytes in available blocks": "free",
    }
    found = {}
    for line in text.splitlines():
        name, _, value = line.partition("=")
        if name.strip() in wanted:
            found[wanted[name.strip()]] = int(value.strip().replace(",", ""))
    return found


def _rss(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) * 1024 for line in status.splitlines() if "VmRSS" in line)


# ------------------------------------------------------------------------------ the play


class Play:
    def __init__(self, url: str, seed: int = 41):
        self.client = connect(url)
        services = assemble(self.client, min_move_seconds=1)
        self.games, self.players = services.games, services.players
        self.outbox = OutboxStore(self.client)
        self.rng = random.Random(seed)
        self.people = [
            self.players.register(f"Mem{i}", email=f"mem{i}@example.org")["id"]
            for i in range(PEOPLE)
        ]
        for person in self.people:
            self.players.set_friends(person, [p for p in self.people if p != person])
        self.running: set[str] = set()
        self.neglected: dict[str, int] = {}
        self.created = self.moves = 0

    def run(self, stopping: threading.Event, measure: Callable[[], None], every: float) -> None:
        """Play until `stopping`; every `every` seconds the play pauses until the outbox is
        empty and `measure` runs."""
        next_measure = time.monotonic() + every
        try:
            while not stopping.is_set():
                if time.monotonic() >= next_measure:
                    self.between_batches()
                    measure()
                    next_measure = time.monotonic() + every
                while len(self.running) < GAMES_AT_ONCE:
                    self.create()
                for game_id in sorted(self.running):
                    self.step(game_id)
                # the worker keeps up: its memory is measured at a pace it can hold
                while self.outbox.backlog()["waiting"] > 50 and not stopping.is_set():
                    time.sleep(0.2)
                stopping.wait(0.2)
        finally:
            stopping.set()  # the run ends with the play, whatever ended it

    def between_batches(self, at_most_seconds: float = 120) -> None:
        """Until the outbox consumer has nothing in hand: what a batch holds is not measured.
        (The clock and RQ never rest long: clocks of seconds run out while the play waits.)"""
        give_up = time.monotonic() + at_most_seconds
        while time.monotonic() < give_up:
            backlog = self.outbox.backlog()
            if not backlog["waiting"] and not backlog["pending"]:
                return
            time.sleep(0.05)

    def create(self) -> None:
        rng = self.rng
        name = rng.choice(sorted(registry.GAMES))
        info = registry.GAMES[name].info
        creator = rng.choice(self.people)
        seats = [creator]
        for _ in range(rng.randint(info.min_players, min(info.max_players, 3)) - 1):
            pick = rng.choice(self.people) if rng.random() < 0.5 else rng.choice(BOTS)
            seats.append(pick if pick not in seats else rng.choice(BOTS[:12]))
        rng.shuffle(seats)
        clock = rng.random()
        control = None
        if clock < 0.4:
            control = {"per_move_seconds": rng.randint(5, 10), "on_timeout": "auto"}
        elif clock < 0.8:
            control = {"per_move_seconds": 86400, "on_timeout": "auto"}
        game = self.games.create(creator, name, seats, time_control=control)
        self.running.add(game["id"])
        self.created += 1

    def step(self, game_id: str) -> None:
        summary = self.games.summary(game_id)
        if summary["status"] in ("finished", "cancelled"):
            self.running.discard(game_id)
            self.neglected.pop(game_id, None)
            return
        snap = self.games.load(game_id)
        for seat in summary["active_seats"]:
            player = snap["seats"][seat]["player_id"]
            if player not in self.people or self.neglected.get(game_id) == summary["version"]:
                continue
            seconds = (summary.get("time_control") or {}).get("per_move_seconds", 86400)
            if seconds <= 10 and self.rng.random() < NEGLECT:
                self.neglected[game_id] = summary["version"]
                continue
            moves = self.games.legal_moves(game_id, player)["moves"]
            if not moves:
                continue
            try:
                self.games.play(
                    game_id,
                    player,
                    summary["version"],
                    action=self.rng.choice(moves)["action"],
                )
                self.moves += 1
            except ServiceError:
                pass  # a bot, the clock or another seat moved first
            return


# ------------------------------------------------------------------------------ the reading


def read(folder: Path, warmup: float, top: int) -> None:
    facts = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    if not facts:
        print("no measure was taken")
        return
    print(
        "\nminute games  moves emails  RSS  traced | objects  blocks | malloc: heap mmapped "
        "used free | pymalloc: arenas used free (MiB)"
    )
    for f in facts:
        m, p = f["malloc"], f["pymalloc"]
        print(
            f"{f['at'] / 60:6.1f} {f['games']:5d} {f['moves']:6d} {f['emails']:6d} "
            f"{f['rss'] / MIB:5.1f} {f['traced'] / MIB:6.1f} | "
            f"{sum(f['types'].values()):7d} {f['blocks']:7d} | "
            f"{m['arena'] / MIB:12.1f} {m['hblkhd'] / MIB:7.1f} {m['uordblks'] / MIB:4.1f} "
            f"{m['fordblks'] / MIB:4.1f} | {p.get('arenas', 0):16d} {p.get('used', 0) / MIB:4.1f} "
            f"{p.get('free', 0) / MIB:4.1f}"
        )
    print("\nthe functools caches, entries (and at the end: hits, misses):")
    for name in sorted(facts[-1]["caches"]):
        sizes = [str(f["caches"].get(name, {}).get("currsize", 0)) for f in facts]
        last = facts[-1]["caches"][name]
        print(f"  {name}: {' '.join(sizes)} ({last['hits']}, {last['misses']})")
    first = next((i for i, f in enumerate(facts) if f["at"] >= warmup), None)
    if first is None or first == len(facts) - 1:
        print("not enough snapshots after the warm-up")
        return
    a, b = facts[first], facts[-1]
    minutes = (b["at"] - a["at"]) / 60
    print(f"\nfrom minute {a['at'] / 60:.1f} to {b['at'] / 60:.1f}:")
    print(
        f"RSS {a['rss'] / MIB:.1f} -> {b['rss'] / MIB:.1f} MiB, traced "
        f"{a['traced'] / MIB:.1f} -> {b['traced'] / MIB:.1f} MiB"
    )
    grown = Counter(b["types"])
    grown.subtract(a["types"])
    print(f"\nobjects by type, growth in {minutes:.0f} minutes:")
    for name, n in grown.most_common(top):
        if n > 0:
            print(f"  {n:+8d}  {name} ({b['types'][name]})")
    snapshots = sorted(folder.glob("*.snapshot"))
    if not snapshots:
        return
    filters = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"),
        tracemalloc.Filter(False, "<unknown>"),
    ]
    old = tracemalloc.Snapshot.load(str(snapshots[first])).filter_traces(filters)
    new = tracemalloc.Snapshot.load(str(snapshots[-1])).filter_traces(filters)
    for key in ("size_diff", "count_diff"):
        print(f"\nallocation sites by {key}:")
        stats = new.compare_to(old, "traceback")
        stats.sort(key=lambda s: abs(getattr(s, key)), reverse=True)
        for stat in stats[:top]:
            print(
                f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks "
                f"(now {stat.size / 1024:.1f} KiB in {stat.count})"
            )
            for line in stat.traceback.format(limit=8, most_recent_first=True):
                print("     ", line)


# ------------------------------------------------------------------------------ the run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5, help="minutes before comparing")
    parser.add_argument("--every", type=float, default=60, help="seconds between snapshots")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--frames", type=int, default=4, help="of each allocation's traceback")
    parser.add_argument("--folder", help="keep the snapshots here (a temporary folder else)")
    parser.add_argument("--traced-worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.traced_worker:
        traced_worker(Path(args.traced_worker))
        return
    with tempfile.TemporaryDirectory(prefix="worker-memory-") as tmp:
        folder = Path(args.folder or Path(tmp) / "snapshots")
        folder.mkdir(parents=True, exist_ok=True)
        run(Path(tmp), folder, args)
        read(folder, args.warmup * 60, args.top)


def run(tmp: Path, folder: Path, args: argparse.Namespace) -> None:
    valkey = EmbeddedValkey(tmp / "valkey", appendonly=False).start()
    sink = MailSink()
    smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
    smtp.start()
    env = {
        **os.environ,
        "REDIS_URL": valkey.url,
        "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
        "MIN_MOVE_SECONDS": "5",
        "EMAIL_DELAY_SECONDS": "2",
        "EMAIL_THROTTLE_SECONDS": "20",
        "BOT_DELAY_SECONDS": "0",
    }
    worker = subprocess.Popen(
        [sys.executable, *(["-X", f"tracemalloc={args.frames}"] if args.frames else [])]
        + ["-m", "bench.worker_memory"]
        + ["--traced-worker", str(folder)],
        env=env,
    )
    stopping = threading.Event()
    play = Play(valkey.url)
    started = time.monotonic()
    measured = itertools.count()

    def measure() -> None:
        n = next(measured)
        (folder / "want").write_text(str(n))
        while not (folder / f"{n:04d}.json").exists():
            time.sleep(0.2)
        facts = json.loads((folder / f"{n:04d}.json").read_text())
        facts.update(
            at=time.monotonic() - started,
            games=play.created,
            moves=play.moves,
            emails=sink.received,
        )
        (folder / f"{n:04d}.json").write_text(json.dumps(facts))

    player = threading.Thread(target=play.run, args=(stopping, measure, args.every), daemon=True)
    player.start()
    try:
        while not stopping.wait(60):
            minutes = (time.monotonic() - started) / 60
            print(
                f"worker_memory: {minutes:5.1f} min, {play.created} games, {play.moves} moves, "
                f"{sink.received} emails, outbox {play.outbox.backlog()['waiting']}, "
                f"RSS of the worker {_rss(worker.pid) / MIB:.1f} MiB",
                flush=True,
            )
            if minutes >= args.minutes:
                stopping.set()
        player.join(300)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
        smtp.stop()
        valkey.stop()


if __name__ == "__main__":
    main()
