"""Turn timers: 10,000 deadlines falling due within the same second, and how late their timeouts
are recorded; under `on_timeout: auto`, also how fast the computer's replacement moves follow.

Per policy (`forfeit`, then `auto`), on a fresh embedded Valkey (append-only file on, as
`turnpost serve` runs it):
1. Two real `turnpost worker` processes (outbox consumer, clock, RQ for deliveries) are started
   first; the benchmark waits until both are registered, so their start-up is not counted.
2. The time to create a game is measured first on a Valkey of its own with its own two workers
   (which carry out the creations' outbox entries, as they will during the batch); from it the
   benchmark picks the second T at which every deadline is to fall due: twice the
   estimated arming time plus a margin from now.
3. GameService (the service's own create, min_move_seconds 1) creates two-player games of The
   Nine Domains between two absent players (no email, no webhook). Both seats choose at once
   there, so each game arms two deadlines: 10,000 deadlines are 5,000 games. Each game's
   per_move_seconds is computed as it is created so that its deadlines fall in [T, T + 1 s):
   ceil((T - now) / 1 s), give or take the time one creation takes (the table shows the
   spread of the deadlines). The deadlines are then read from the snapshots; the benchmark checks
   that the last game was armed before the first deadline and reports how long arming took.
4. The benchmark waits until every game has what the policy calls for in its log, or until
   --limit seconds after T; then it stops the workers and reads the logs.

Lateness of a timeout = the `at` of its TurnTimedOut event (epoch ms, stamped by the worker's
service as it records it) minus that seat's deadline (epoch ms). Under `forfeit` the first of a
game's two seats to time out leaves, which ends the game (two players), so the other seat's
deadline is moot: 10,000 deadlines come due and 5,000 timeouts are recorded. Under `auto` both
seats time out (10,000 timeouts), and the computer (the heuristic bot) plays for each timed-out
seat, carried out from the outbox: a replacement move is the seat's ActionTaken after its
TurnTimedOut. Their rate = replacements / (the last replacement's `at` - T).

A timeout not recorded by the cutoff counts with the lateness it had then, a lower bound: a
figure that depends on one is shown as "≥".

`python -m bench.timers [--limit SECONDS] [--deadlines N] [POLICY ...]` (default: forfeit
auto, 10,000 deadlines, limit 120 s) prints a markdown table and writes it to bench/RESULTS.md
as the section "## Turn timers".

`python -m bench.timers --mix [--limit SECONDS] [--deadlines N]` measures the same under issue
33's clocks, `on_timeout: auto` (every seat times out on its own, so a seat whose partner timed
out first is still measured), and writes its figures as the part "### Clock kinds, vacations
and weekends off" of that section:
- DEADLINES / 5 players with a time zone each (from MIX_ZONES, in turn), each in five games,
  created as a tournament's are (`create_seated`: the players' calendars copied in);
- every other game a clock per move, the others a time bank with an increment (never credited:
  nobody moves; the computer's replacement moves earn it); a tenth of the games with weekends
  off, counted in each player's own zone;
- a tenth of the players on a vacation of seconds, written once every game is armed as
  VacationService writes one (the player's calendar, then a `calendar` item) and copied to their
  five games by the workers (one CalendarSet commit a game, re-arming its deadline): from
  VACATION_LEAD_S before the deadlines' second to VACATION_S after it, so the time their bank
  had left when it began is charged after it ends. The benchmark checks every copy was made
  before the vacations began.
A seat's deadline is read from the snapshots once the copies are made; one that falls after
the run (a weekend in its player's zone) must not time out during it. Lateness as above;
"early" counts the timeouts recorded before their seat's deadline (a vacation's or weekend's
time charged): there must be none.
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
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from rq import Worker

from bench.results import replace_section, replace_subsection, subsection
from service.ids import new_id
from service.play.games import GameService
from service.players.accounts import PlayerService
from service.players.vacations import calendar_item
from store import keys
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore
from store.schedule import ScheduleStore

POLICIES = ("forfeit", "auto")
DEADLINES = 10_000
GAME = "ninedomains"
DEADLINES_PER_GAME = 2  # both seats of The Nine Domains choose at once
CREATED_EVENTS = 2  # GameCreated, GameStarted
EVENTS_WHEN_DONE = {
    "forfeit": CREATED_EVENTS + 3,  # TurnTimedOut, PlayerResigned, GameEnded
    "auto": CREATED_EVENTS + DEADLINES_PER_GAME * 2,  # per seat: TurnTimedOut, ActionTaken
}
WORKERS = 2
CALIBRATION_GAMES = 200
SAFETY = 2.0
MARGIN_SECONDS = 15
DRAIN_LIMIT = 120  # seconds after the deadlines' second (--limit)
POLL_SECONDS = 0.5
TARGET_MS = 1500
SECTION = "Turn timers"
MIX = "Clock kinds, vacations and weekends off"
MIX_ZONES = (
    "America/Los_Angeles",
    "America/New_York",
    "Europe/London",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Pacific/Kiritimati",
)
"""UTC-8 to UTC+14, a half-hour offset among them: at most times some zones are in a weekend
and others are not."""
GAMES_PER_PLAYER = 5
INCREMENT_S = 600
VACATION_LEAD_S = 2
VACATION_S = 10


class Bench:
    """The game service on one Valkey, and two players who never move."""

    def __init__(self, valkey: EmbeddedValkey):
        self.client = connect(valkey.url)
        self.store = GameStore(self.client)
        self.games = GameService(self.store, PlayerStore(self.client), min_move_seconds=1)
        players = PlayerService(PlayerStore(self.client))
        self.seats = [players.register("Ada")["id"], players.register("Bo")["id"]]
        players.set_friends(self.seats[1], [self.seats[0]])

    def create(self, policy: str, due_ms: int) -> str:
        """A game whose deadlines fall due in the second starting at due_ms."""
        seconds = max(1, math.ceil((due_ms - time.time() * 1000) / 1000))
        return self.games.create(
            self.seats[0],
            GAME,
            self.seats,
            time_control={"per_move_seconds": seconds, "on_timeout": policy},
        )["id"]


class MixBench:
    """The game service on one Valkey, and players in zones around the world who never move;
    every tenth of them goes on vacation (`vacation`)."""

    def __init__(self, valkey: EmbeddedValkey, n_players: int):
        self.client = connect(valkey.url)
        self.store = GameStore(self.client)
        self.players = PlayerStore(self.client)
        self.schedule = ScheduleStore(self.client)
        self.games = GameService(self.store, self.players, min_move_seconds=1)
        accounts = PlayerService(self.players)
        self.ids = []
        for i in range(n_players):
            player_id = accounts.register(f"P{i}")["id"]
            accounts.update(player_id, {"time_zone": MIX_ZONES[i % len(MIX_ZONES)]})
            self.ids.append(player_id)
        self.vacationers = self.ids[::10]
        self.created = 0

    def create(self, due_ms: int) -> str:
        """The next game, its players' time running out in the second starting at due_ms
        (without the calendars): a clock per move or a bank by turns, weekends off for a
        tenth. Each player sits in about GAMES_PER_PLAYER games."""
        i, n = self.created, len(self.ids)
        self.created += 1
        first = i % n
        seats = [self.ids[first], self.ids[(first + 1 + i // n) % n]]
        seconds = max(1, math.ceil((due_ms - time.time() * 1000) / 1000))
        control: dict = (
            {
                "kind": "bank",
                "initial_seconds": seconds,
                "increment_seconds": INCREMENT_S,
                "max_seconds": seconds + INCREMENT_S,
            }
            if i % 2
            else {"kind": "per_move", "per_move_seconds": seconds}
        )
        control.update(on_timeout="auto", weekends_off=i % 10 == 5)
        game_id = new_id("g_")
        self.games.create_seated(game_id, GAME, seats, {}, control, rated=False)
        return game_id

    def vacation(self, start_ms: int, end_ms: int) -> None:
        """Every tenth player away from start_ms to end_ms, written as VacationService._change
        writes a change (the calendar, then the item by which a clock copies it)."""
        span = {"start": start_ms, "end": end_ms, "days": 1}
        for player_id in self.vacationers:
            self.players.change_calendar(
                player_id, lambda c: {**c, "vacations": [*c["vacations"], span]}
            )
            self.schedule.add(player_id, int(time.time() * 1000), calendar_item(player_id))


def start_workers(redis_url: str) -> list[subprocess.Popen]:
    """`turnpost worker` processes, each in its own process group, so that Ctrl-C reaches this
    process alone and it stops them."""
    env = {**os.environ, "REDIS_URL": redis_url, "VACATION_DAYS_A_YEAR": "0"}
    return [
        subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(WORKERS)
    ]


def stop_workers(workers: list[subprocess.Popen]) -> None:
    """SIGTERM (each loop finishes what it holds), then SIGKILL to what is left of the group."""
    for proc in workers:
        if proc.poll() is None:
            proc.terminate()
    for proc in workers:
        with suppress(subprocess.TimeoutExpired):
            proc.wait(15)
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def wait_until_ready(client, workers: list[subprocess.Popen], timeout: float = 60.0) -> None:
    """Both workers registered with RQ (their outbox and clock threads start before RQ's loop)."""
    deadline = time.monotonic() + timeout
    while len(Worker.all(connection=client)) < WORKERS:
        if any(p.poll() is not None for p in workers) or time.monotonic() > deadline:
            raise RuntimeError("the workers did not start")
        time.sleep(0.1)


@contextmanager
def served(data_dir: Path, make=Bench):
    """An embedded Valkey, the benchmark's services on it (`make(valkey)`) and WORKERS ready
    workers; all stopped on the way out, Ctrl-C included."""
    valkey = EmbeddedValkey(data_dir).start()
    workers: list[subprocess.Popen] = []
    try:
        bench = make(valkey)
        workers = start_workers(valkey.url)
        wait_until_ready(bench.client, workers)
        yield bench, workers
    finally:
        stop_workers(workers)
        valkey.stop()


def seconds_per_game(data_dir: Path, policy: str) -> float:
    """Time to create a game with a clock (an hour: nothing comes due), on a Valkey of its own
    whose workers carry out the creations' outbox entries, as they will during the batch."""
    with served(data_dir) as (bench, _):
        started = time.monotonic()
        for _ in range(CALIBRATION_GAMES):
            bench.create(policy, int(time.time() * 1000) + 3600_000)
        return (time.monotonic() - started) / CALIBRATION_GAMES


def due_moment(what: str, n_games: int, per_game: float) -> tuple[float, int]:
    """Now (epoch s) and the moment the deadlines of a batch of `n_games` games are to fall due
    (epoch ms): SAFETY times the time to create them (`per_game` s each), then MARGIN_SECONDS,
    from now; said on stderr after `what`, the batch."""
    started = time.time()
    due_ms = (math.ceil(started + per_game * n_games * SAFETY) + MARGIN_SECONDS) * 1000
    print(
        f"{what}, {per_game * 1000:.1f} ms per game; deadlines due "
        f"{(due_ms / 1000 - started):.0f} s from now",
        file=sys.stderr,
        flush=True,
    )
    return started, due_ms


def log_lengths(client, game_ids: list[str]) -> list[int]:
    with client.pipeline(transaction=False) as pipe:
        for game_id in game_ids:
            pipe.xlen(keys.game_log(game_id))
        return pipe.execute()


def wait_done(client, game_ids: list[str], wanted: list[int], cutoff_s: float) -> None:
    """Until every game's log holds the events `wanted` of it, or the cutoff (epoch s)."""
    reported = time.monotonic()
    while True:
        done = sum(n >= w for n, w in zip(log_lengths(client, game_ids), wanted))
        if done == len(game_ids) or time.time() > cutoff_s:
            return
        if time.monotonic() - reported > 10:
            print(f"  {done}/{len(game_ids)} games done", file=sys.stderr, flush=True)
            reported = time.monotonic()
        time.sleep(POLL_SECONDS)


def measure(policy: str, deadlines: int, limit: int) -> dict:
    n_games = deadlines // DEADLINES_PER_GAME
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        per_game = seconds_per_game(Path(tmp) / "calibration", policy)
        with served(Path(tmp) / "data") as (bench, workers):
            client = bench.client
            started, due_ms = due_moment(f"{policy}: {n_games} games", n_games, per_game)
            game_ids = [bench.create(policy, due_ms) for _ in range(n_games)]
            armed = time.time()
            seat_deadline = {}
            for snap in bench.store.snapshots(game_ids):
                for seat in snap["active_seats"]:
                    seat_deadline[snap["id"], seat] = snap["deadlines"][seat]
            assert len(seat_deadline) == deadlines, len(seat_deadline)
            first_due, last_due = min(seat_deadline.values()), max(seat_deadline.values())
            if armed * 1000 >= first_due:
                raise RuntimeError("the first deadline came before every game was armed")
            wanted = [EVENTS_WHEN_DONE[policy]] * n_games
            wait_done(client, game_ids, wanted, first_due / 1000 + limit)
            ended = time.time()
            stop_workers(workers)  # the logs are read with nothing running
            timeouts: dict[tuple[str, int], int] = {}
            replacements: dict[tuple[str, int], int] = {}
            for game_id in game_ids:
                for event in bench.store.events(game_id, after=CREATED_EVENTS, count=8):
                    seat = event.get("seat")
                    if event["type"] == "TurnTimedOut" and (game_id, seat) not in timeouts:
                        timeouts[game_id, seat] = event["at"]
                    elif (
                        event["type"] == "ActionTaken"
                        and (game_id, seat) in timeouts
                        and (game_id, seat) not in replacements
                    ):
                        replacements[game_id, seat] = event["at"]
    games_timed_out = len({game for game, _ in timeouts})
    expected = deadlines if policy == "auto" else n_games
    late = [(timeouts[k] - d, False) for k, d in seat_deadline.items() if k in timeouts]
    if policy == "auto":
        late += [
            (int(ended * 1000) - d, True) for k, d in seat_deadline.items() if k not in timeouts
        ]
    else:  # a game with no timeout yet: its first seat is that late at least
        late += [(int(ended * 1000) - first_due, True)] * (n_games - games_timed_out)
    late.sort()
    result = {
        "policy": policy,
        "deadlines": deadlines,
        "games": n_games,
        "per_game_ms": per_game * 1000,
        "arming_s": armed - started,
        "armed_ahead_s": (first_due - armed * 1000) / 1000,
        "spread_ms": last_due - first_due,
        "expected": expected,
        "recorded": len(timeouts),
        "p50": quantile(late, 0.50),
        "p99": quantile(late, 0.99),
        "max": quantile(late, 1.0),
        "within_target": sum(1 for v, censored in late if not censored and v <= TARGET_MS),
        "last_timeout_s": ((max(timeouts.values()) - first_due) / 1000 if timeouts else None),
        "load": (load_before, os.getloadavg()[0]),
        "limit": limit,
    }
    if policy == "auto":
        lags = sorted(replacements[k] - timeouts[k] for k in replacements)
        span = (max(replacements.values()) - first_due) / 1000 if replacements else 0.0
        result.update(
            {
                "replacements": len(replacements),
                "replacements_span_s": span,
                "replacements_per_s": len(replacements) / span if span else 0.0,
                "replacement_lag_p50": lags[len(lags) // 2] if lags else None,
                "replacement_lag_max": lags[-1] if lags else None,
            }
        )
    return result


def measure_mix(deadlines: int, limit: int) -> dict:
    """The mixed clocks (see the module's docstring), under `auto`."""
    n_games = deadlines // DEADLINES_PER_GAME
    n_players = max(10, n_games * DEADLINES_PER_GAME // GAMES_PER_PLAYER)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        with served(Path(tmp) / "calibration", lambda v: MixBench(v, 40)) as (calibration, _):
            started = time.monotonic()
            for _ in range(CALIBRATION_GAMES):
                calibration.create(int(time.time() * 1000) + 3600_000)
            per_game = (time.monotonic() - started) / CALIBRATION_GAMES
        with served(Path(tmp) / "data", lambda v: MixBench(v, n_players)) as (bench, workers):
            client = bench.client
            what = f"mix: {n_games} games, {n_players} players"
            started, due_ms = due_moment(what, n_games, per_game)
            game_ids = [bench.create(due_ms) for _ in range(n_games)]
            armed = time.time()
            away = (due_ms - VACATION_LEAD_S * 1000, due_ms + VACATION_S * 1000)
            bench.vacation(*away)
            vacationers = set(bench.vacationers)

            def away_seats(snap) -> list[int]:
                return [s for s, r in enumerate(snap["seats"]) if r["player_id"] in vacationers]

            while True:  # until every game of a player on vacation holds its copy
                snaps = bench.store.snapshots(game_ids)
                if all(
                    snap["calendars"][s]["vacations"] for snap in snaps for s in away_seats(snap)
                ):
                    break
                if time.time() * 1000 >= away[0]:
                    raise RuntimeError("the vacations began before the games had them")
                time.sleep(POLL_SECONDS)
            copied = time.time()
            seat_deadline, group = {}, {}
            wanted = []
            cutoff_ms = due_ms + limit * 1000
            for snap in snaps:
                in_run = 0
                for seat in snap["active_seats"]:
                    key = snap["id"], seat
                    seat_deadline[key] = snap["deadlines"][seat]
                    in_run += seat_deadline[key] <= cutoff_ms
                    group[key] = (
                        "on vacation"
                        if seat in away_seats(snap)
                        else "weekends off"
                        if snap["time_control"]["weekends_off"]
                        else snap["time_control"]["kind"]
                    )
                wanted.append(CREATED_EVENTS + len(away_seats(snap)) + 2 * in_run)
            assert len(seat_deadline) == deadlines, len(seat_deadline)
            if armed * 1000 >= due_ms:
                raise RuntimeError("the first deadline came before every game was armed")
            wait_done(client, game_ids, wanted, cutoff_ms / 1000)
            ended = time.time()
            stop_workers(workers)  # the logs are read with nothing running
            timeouts: dict[tuple[str, int], int] = {}
            for game_id in game_ids:
                for event in bench.store.events(game_id, after=CREATED_EVENTS, count=16):
                    key = game_id, event.get("seat")
                    if event["type"] == "TurnTimedOut" and key not in timeouts:
                        timeouts[key] = event["at"]
    rows = []
    for name in ("per_move", "bank", "weekends off", "on vacation", "all"):
        keys_ = [k for k in seat_deadline if name in ("all", group[k])]
        due = [k for k in keys_ if seat_deadline[k] <= cutoff_ms]
        late = sorted(
            (timeouts[k] - seat_deadline[k], False)
            if k in timeouts
            else (int(ended * 1000) - seat_deadline[k], True)
            for k in due
        )
        rows.append(
            {
                "group": name,
                "deadlines": len(keys_),
                "due": len(due),
                "recorded": sum(k in timeouts for k in due),
                "p50": quantile(late, 0.50) if late else "-",
                "p99": quantile(late, 0.99) if late else "-",
                "max": quantile(late, 1.0) if late else "-",
                "within_target": sum(1 for v, c in late if not c and 0 <= v <= TARGET_MS),
                "early": sum(1 for v, c in late if not c and v < 0),
                "after_run": len(keys_) - len(due),
                "after_run_fired": sum(k in timeouts for k in keys_ if k not in due),
            }
        )
    on_vacation = [k for k in seat_deadline if group[k] == "on vacation" and k in timeouts]
    return {
        "deadlines": deadlines,
        "games": n_games,
        "players": n_players,
        "vacationers": len(vacationers),
        "arming_s": armed - started,
        "copies_s": copied - armed,
        "copied_ahead_s": away[0] / 1000 - copied,
        "during_vacation": sum(1 for k in on_vacation if timeouts[k] < away[1]),
        "rows": rows,
        "load": (load_before, os.getloadavg()[0]),
        "limit": limit,
    }


def mix_table(r: dict) -> str:
    rows = [
        f"| {g['group']} | {g['deadlines']:,} | {g['after_run']:,} ({g['after_run_fired']} "
        f"timed out) | {g['recorded']:,} of {g['due']:,} | {g['p50']} | {g['p99']} | "
        f"{g['max']} | {g['within_target']:,} | {g['early']} |"
        for g in r["rows"]
    ]
    return (
        "| seats | deadlines | after the run (timed out in it) | timeouts recorded | median ms "
        "| p99 ms | max ms | within 1.5 s | early |\n"
        "|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )


def mix_section(r: dict, command: str) -> str:
    run_at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    return f"""
### {MIX}

`{command}` ({run_at}; {machine}, shared with other engineers' work: load average
{r["load"][0]:.1f} before and {r["load"][1]:.1f} after the run). Issue 33's clocks under
`on_timeout: auto`: {r["deadlines"]:,} deadlines in {r["games"]:,} games of The Nine Domains
between {r["players"]:,} absent players (about {GAMES_PER_PLAYER} games each, each player in a
time zone of {", ".join(MIX_ZONES)}, in turn), created as a tournament's are; every other game
a clock per move, the others a bank with a {INCREMENT_S} s increment; a tenth of the games
with weekends off (in each player's zone). Every deadline falls in the same second without
the calendars; then {r["vacationers"]:,} players (a tenth) go on a vacation from
{VACATION_LEAD_S} s before that second to {VACATION_S} s after it, copied to their games by
the workers in {r["copies_s"]:.1f} s, {r["copied_ahead_s"]:.1f} s before it began (arming took
{r["arming_s"]:.1f} s). A seat's deadline is read once the copies are made: a vacation's
moves it {VACATION_LEAD_S + VACATION_S} s later; a weekend in its player's zone, when one
falls in the run, past the run ("after the run": those must not time out in it). Rows by the
seat: on vacation, else weekends off, else the game's kind of clock. "early": recorded before
the seat's deadline (there must be none); timeouts of seats on vacation recorded during
their vacation: {r["during_vacation"]}. All figures from one run; the workers stopped when
every game held its timeouts and replacement moves, or {r["limit"]} s after the deadlines.

{mix_table(r)}"""


def quantile(late: list[tuple[int, bool]], q: float) -> str:
    """The q-quantile of sorted (lateness ms, censored) pairs, a censored lateness being a
    lower bound: exact if every censored value lies above it, else shown as a lower bound."""
    value, _ = late[min(len(late) - 1, int(q * len(late)))]
    exact = all(v > value for v, censored in late if censored)
    return f"{'' if exact else '≥ '}{value:,}"


def table(results: list[dict]) -> str:
    rows = [
        f"| {r['policy']} | {r['deadlines']:,} | {r['games']:,} | {r['spread_ms']:,} | "
        f"{r['arming_s']:.1f} | {r['armed_ahead_s']:.1f} | {r['recorded']:,} of "
        f"{r['expected']:,} | {r['p50']} | {r['p99']} | {r['max']} | "
        f"{r['within_target']:,} | {r['load'][0]:.1f} / {r['load'][1]:.1f} |"
        for r in results
    ]
    text = (
        "| on_timeout | deadlines | games | deadlines spread ms | arming s | armed ahead of "
        "the first deadline s | timeouts recorded | median ms | p99 ms | max ms | within "
        "1.5 s | load average before / after |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    for r in results:
        if r["policy"] == "auto":
            text += (
                f"\nReplacement moves (`auto`): {r['replacements']:,} of "
                f"{r['recorded']:,} timed-out seats played by the computer when the "
                f"workers were stopped ({r['limit']} s after the deadlines at most, "
                f"then a warm shutdown), the last {r['replacements_span_s']:.1f} s after "
                f"the deadlines' second: **{r['replacements_per_s']:.0f} moves/s** (both "
                f"workers); a replacement followed its timeout by "
                f"{r['replacement_lag_p50']:,} ms (median), {r['replacement_lag_max']:,} ms "
                f"at most.\n"
            )
    return text


def section(results: list[dict], command: str, load: tuple[float, float]) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    run_at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""
## Turn timers

`{command}` ({run_at}; {machine}, shared with other engineers' work: load average
{load[0]:.1f} before and {load[1]:.1f} after the run). {DEADLINES_PER_GAME} deadlines per game
(The Nine Domains between two absent players: no email, no webhook), every deadline in the same
second (each game's per_move_seconds computed as it is created; the spread is a little over
1,000 ms by the time one creation takes under load). Per policy a fresh embedded
Valkey (append-only file on) and {WORKERS} `turnpost worker` processes (outbox consumer, clock,
RQ for deliveries), already running when the games are created; the games are created through
the service from this one process on the same cores ("arming s"), all before the first
deadline. Lateness: the `at` of the TurnTimedOut event minus the seat's deadline. Under
`forfeit` a game's first timeout ends it, so its other deadline is moot: one timeout per game
is recorded. Target: every timeout within 1.5 s of its deadline. All figures from one run.

{table(results)}"""


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.timers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "policies", nargs="*", metavar="POLICY", help="forfeit and/or auto (default: both)"
    )
    parser.add_argument("--deadlines", type=int, default=DEADLINES)
    parser.add_argument(
        "--limit", type=int, default=DRAIN_LIMIT, help="seconds to wait after the deadlines' second"
    )
    parser.add_argument(
        "--mix", action="store_true", help="issue 33's clocks, vacations and weekends off (auto)"
    )
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if set(args.policies) - set(POLICIES) or (args.mix and args.policies):
        parser.error(f"a policy is one of: {', '.join(POLICIES)}; none with --mix")
    command = " ".join(["python -m bench.timers", *argv])
    if args.mix:
        text = mix_section(measure_mix(args.deadlines, args.limit), command)
        if not args.no_write:
            replace_subsection(SECTION, MIX, text)
        print(text)
        return
    load_before = os.getloadavg()[0]
    results = [measure(p, args.deadlines, args.limit) for p in args.policies or POLICIES]
    text = section(results, command, (load_before, os.getloadavg()[0]))
    if not args.no_write:
        replace_section(SECTION, text + subsection(SECTION, MIX))  # the --mix run's kept
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
