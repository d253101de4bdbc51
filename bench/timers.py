"""Turn-timer lateness at 1,000 and 10,000 armed timers: how long after a seat's deadline its
timeout takes effect, when that many timers are armed at once.

For each size, on a fresh embedded Valkey (append-only file on, as `turnpost serve` runs it):
1. Two real `turnpost worker` processes (RQ with its scheduler, default settings) are started
   first, and the benchmark waits until both are registered and one holds the scheduler lock:
   running workers are the live case, and no deadline falls while the timers are armed, so
   their start-up is not counted as lateness. They run whatever the commits enqueue, the
   notification jobs as well as the timers.
2. The clock S is chosen so that every timer is armed before the first deadline: the time to
   create a game with a clock is measured first on a separate Valkey, whose two workers run
   the jobs those creations enqueue as they will during the batch; S is 1.5 times the
   estimated time to create the batch plus a margin (checked afterwards).
3. GameService (the real RQScheduler, bot delay 0) creates two-player games of The Nine
   Domains with time control {per_move_seconds: S, on_timeout: auto}, between two absent
   players with no email address and no webhook. Both seats choose at once there, so each game
   arms two timers: the batch is timers / 2 games. Each seat's deadline is read from the
   snapshot.
4. The benchmark waits until both timers of every game have taken effect (a game's log holds
   2 + 2 x 2 events: each timeout appends TurnTimedOut and the heuristic bot's move), or until
   DRAIN_LIMIT seconds (or --limit) after the last timer came due, so that a run takes
   minutes; then it stops the workers and reads the logs.

Lateness of a timer = the `at` of its TurnTimedOut event (epoch ms, stamped by the service as it
appended) minus that seat's deadline (epoch ms). A timer that has not taken effect by the
cutoff counts with the lateness it had then, a lower bound: a figure that depends on one is
shown as "≥". RQ keeps schedules in whole seconds, so a timer is armed at its deadline rounded
up to the second: that rounding (0 to 1 s) is part of the lateness and is shown on its own.
Drained per second = timers applied / (last timeout's `at` - first timer's schedule). Jobs
queued at the first deadline and jobs run per second (all kinds, both workers) show what the
timers wait behind.

Timeouts with `auto` start the next round, whose timers come due S seconds later; only the
first round's timers are measured.

`python -m bench.timers [--limit SECONDS] [TIMERS ...]` (default: 1000 10000, limit 300)
prints a markdown table and writes it to bench/RESULTS.md as the section "## Turn timers".
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import date
from importlib.metadata import version
from pathlib import Path

from rq import Queue, Worker

from bench.http import percentile
from service.games import GameService
from service.players import PlayerService
from store import keys
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore
from workers.queue import CLOCK_QUEUE_NAME, QUEUE_NAME
from workers.scheduler import RQScheduler

HERE = Path(__file__).parent
SIZES = (1000, 10000)
GAME = "ninedomains"
TIMERS_PER_GAME = 2  # both seats of The Nine Domains choose at once
EVENTS_WHEN_DONE = 2 + TIMERS_PER_GAME * 2  # created, started; per timeout: TurnTimedOut, move
WORKERS = 2
CALIBRATION_GAMES = 200
CALIBRATION_CLOCK = 3600
SAFETY = 1.5
MARGIN_SECONDS = 10
DRAIN_LIMIT = 300  # seconds after the last timer came due (--limit)
POLL_SECONDS = 1.0


class Bench:
    """A GameService on the real RQScheduler, and two players, on one Valkey."""

    def __init__(self, valkey: EmbeddedValkey):
        self.client = connect(valkey.url)
        self.games = GameService(GameStore(self.client), PlayerStore(self.client),
                                 RQScheduler(self.client, bot_delay_seconds=0),
                                 min_move_seconds=1)
        players = PlayerService(PlayerStore(self.client))
        self.seats = [players.register("Ada")["id"], players.register("Bo")["id"]]

    def create(self, clock: int) -> str:
        return self.games.create(self.seats[0], GAME, self.seats, time_control={
            "per_move_seconds": clock, "on_timeout": "auto"})["id"]


def start_workers(redis_url: str) -> list[subprocess.Popen]:
    """`turnpost worker` processes, each in its own process group (with its scheduler and
    work-horse children), so that Ctrl-C reaches this process alone and it stops them."""
    env = {**os.environ, "REDIS_URL": redis_url}
    return [subprocess.Popen([sys.executable, "-m", "turnpost.cli", "worker"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
            for _ in range(WORKERS)]


def stop_workers(workers: list[subprocess.Popen]) -> None:
    """A warm shutdown (SIGTERM: the job in hand finishes), then SIGKILL to whatever is left
    of each worker's process group."""
    for proc in workers:
        proc.terminate()
    for proc in workers:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def wait_until_ready(client, workers: list[subprocess.Popen], timeout: float = 30.0) -> None:
    """Both workers registered on the queue and one of them holding the scheduler lock."""
    lock = f"rq:scheduler-lock:{CLOCK_QUEUE_NAME}"
    deadline = time.monotonic() + timeout
    while len(Worker.all(connection=client)) < WORKERS or not client.exists(lock):
        if any(p.poll() is not None for p in workers) or time.monotonic() > deadline:
            raise RuntimeError("the workers did not start")
        time.sleep(0.1)


@contextmanager
def served(data_dir: Path):
    """An embedded Valkey, the benchmark's services on it and WORKERS ready workers; all
    stopped on the way out, Ctrl-C included."""
    valkey = EmbeddedValkey(data_dir).start()
    workers: list[subprocess.Popen] = []
    try:
        bench = Bench(valkey)
        workers = start_workers(valkey.url)
        wait_until_ready(bench.client, workers)
        yield bench, workers
    finally:
        stop_workers(workers)
        valkey.stop()


def seconds_per_game(data_dir: Path) -> float:
    """Time to create a game with a clock (an hour: nothing comes due), on a Valkey of its own
    whose workers run the notification jobs the creations enqueue, as they will in the batch."""
    with served(data_dir) as (bench, _):
        started = time.monotonic()
        for _ in range(CALIBRATION_GAMES):
            bench.create(CALIBRATION_CLOCK)
        return (time.monotonic() - started) / CALIBRATION_GAMES


def jobs_done(client) -> int:
    """Jobs run so far by the workers, all kinds."""
    return sum(w.successful_job_count + w.failed_job_count
               for w in Worker.all(connection=client))


def timers_applied(client, game_ids: list[str]) -> int:
    """First-round timeouts in the logs so far (each appends two events)."""
    with client.pipeline(transaction=False) as pipe:
        for game_id in game_ids:
            pipe.xlen(keys.game_log(game_id))
        lengths = pipe.execute()
    return sum(min(TIMERS_PER_GAME, (n - 2) // 2) for n in lengths)


def wait_drained(client, game_ids: list[str], timers: int, cutoff_s: float) -> None:
    """Until every timer has taken effect or the cutoff (epoch s); progress on stderr."""
    reported = 0.0
    while True:
        applied = timers_applied(client, game_ids)
        if applied == timers or time.time() > cutoff_s:
            return
        if time.monotonic() - reported > 10:
            queued = sum(len(Queue(name, connection=client))
                         for name in (CLOCK_QUEUE_NAME, QUEUE_NAME))
            print(f"  {applied}/{timers} timers applied; {queued} jobs queued", file=sys.stderr,
                  flush=True)
            reported = time.monotonic()
        time.sleep(POLL_SECONDS)


def measure(timers: int, limit: int) -> dict:
    n_games = timers // TIMERS_PER_GAME
    with tempfile.TemporaryDirectory() as tmp:
        per_game = seconds_per_game(Path(tmp) / "calibration")
        clock = math.ceil(per_game * n_games * SAFETY) + MARGIN_SECONDS
        print(f"{timers} timers: {n_games} games, {per_game * 1000:.1f} ms per game, clock "
              f"{clock} s", file=sys.stderr, flush=True)
        with served(Path(tmp) / "data") as (bench, workers):
            client = bench.client
            started = time.time()
            game_ids = [bench.create(clock) for _ in range(n_games)]
            armed = time.time()
            deadlines = {}
            for snap in bench.games.games.snapshots(game_ids):
                for seat in snap["active_seats"]:
                    deadlines[snap["id"], seat] = snap["deadlines"][seat]
            assert len(deadlines) == timers, len(deadlines)
            first_due = math.ceil(min(deadlines.values()) / 1000)
            last_due = math.ceil(max(deadlines.values()) / 1000)
            if armed >= min(deadlines.values()) / 1000:
                raise RuntimeError("the first deadline came before every timer was armed")

            time.sleep(max(0.0, first_due - time.time()))
            queued_at_first = sum(len(Queue(name, connection=client))
                                  for name in (CLOCK_QUEUE_NAME, QUEUE_NAME))
            done_at_first = jobs_done(client)
            cutoff = last_due + limit
            wait_drained(client, game_ids, timers, cutoff)
            ended = time.time()
            jobs_per_s = (jobs_done(client) - done_at_first) / (ended - first_due)
            stop_workers(workers)  # the logs are read with nothing running
            applied = {}
            for game_id in game_ids:
                for event in bench.games.games.events(game_id, after=2,
                                                      count=EVENTS_WHEN_DONE - 2):
                    if event["type"] == "TurnTimedOut":
                        assert (game_id, event["seat"]) not in applied, "a timer applied twice"
                        applied[game_id, event["seat"]] = event["at"]
    late = sorted((applied[k] - d, False) if k in applied else (int(ended * 1000) - d, True)
                  for k, d in deadlines.items())
    rounding = sorted(math.ceil(d / 1000) * 1000 - d for d in deadlines.values())
    return {
        "timers": timers, "games": n_games, "clock": clock, "arming_s": armed - started,
        "queued_at_first": queued_at_first, "jobs_per_s": jobs_per_s, "applied": len(applied),
        "p50": quantile(late, 0.50), "p90": quantile(late, 0.90),
        "p99": quantile(late, 0.99), "max": quantile(late, 1.0),
        "rounding_p50": percentile(rounding, 0.5),
        "drained_per_s": (len(applied) / (max(applied.values()) / 1000 - first_due)
                          if applied else 0.0),
    }


def quantile(late: list[tuple[int, bool]], q: float) -> str:
    """The q-quantile of sorted (lateness ms, censored) pairs, a censored lateness being a
    lower bound: exact if every censored value lies above it, else shown as a lower bound."""
    value, _ = late[min(len(late) - 1, int(q * len(late)))]
    exact = all(v > value for v, censored in late if censored)
    return f"{'' if exact else '≥ '}{value:,}"


def table(results: list[dict]) -> str:
    rows = [f"| {r['timers']:,} | {r['games']:,} | {r['clock']} | {r['arming_s']:.1f} | "
            f"{r['queued_at_first']:,} | {r['jobs_per_s']:.1f} | {r['applied']:,} | "
            f"{r['p50']} | {r['p90']} | {r['p99']} | {r['max']} | {r['rounding_p50']} | "
            f"{r['drained_per_s']:.1f} |"
            for r in results]
    return ("| armed timers | games | clock s | arming s | jobs queued at first deadline | "
            "jobs run per s | timers applied by cutoff | median ms | p90 ms | p99 ms | max ms | "
            "rounding, median ms | timers drained per s |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def section(results: list[dict], command: str, limit: int, load: tuple[float, float]) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    bytecode = "off (PYTHONDONTWRITEBYTECODE)" if sys.dont_write_bytecode else "on"
    return f"""
## Turn timers

`{command}` ({date.today().isoformat()}; {machine}; load average {load[0]:.1f} before and
{load[1]:.1f} after; writing of the bytecode cache {bytecode}). Lateness of a turn timer: the
`at` of its TurnTimedOut event minus the seat's deadline. Per size, a fresh embedded Valkey
(append-only file on) and {WORKERS} `turnpost worker` processes (RQ {version("rq")} with its
scheduler, default settings), already running when the timers are armed; The Nine Domains
between two absent players (no email, no webhook), `on_timeout: auto`, so each game arms
{TIMERS_PER_GAME} timers. All timers are armed before the first deadline ("arming s", from this
one process on the same cores). The workers also run every other job the commits enqueue
(notices and reminders, on the queue after the timers'): "jobs queued at first deadline" counts the jobs
waiting when the first timer came due, "jobs run per s" all jobs run by both workers from then
on. The wait ends when every timer has taken effect or {limit} s after the last one came due; a
timer still waiting then counts with its lateness so far, and "≥" marks figures that are only
lower bounds. RQ schedules in whole seconds (a timer is armed at its deadline rounded up): the
"rounding" column is that part of the lateness. All figures from one run.

{table(results)}"""


def write_results(text: str) -> None:
    """Put this benchmark's section at the end of RESULTS.md, in place of its previous one."""
    path = HERE / "RESULTS.md"
    current = path.read_text() if path.exists() else "# Benchmark results\n"
    marker = "\n## Turn timers\n"
    if marker in current:
        start = current.index(marker)
        end = current.find("\n## ", start + len(marker))
        current = current[:start] + (current[end:] if end != -1 else "")
    path.write_text(current.rstrip("\n") + "\n" + text)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.timers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("timers", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--limit", type=int, default=DRAIN_LIMIT,
                        help="seconds to wait after the last timer came due")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    results = [measure(n, args.limit) for n in args.timers]
    command = " ".join(["python -m bench.timers", *argv])
    text = section(results, command, args.limit, (load_before, os.getloadavg()[0]))
    write_results(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
