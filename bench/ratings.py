"""`make bench`: the ratings (`python -m bench.ratings [ladder|board]`).

- ladder: a bot ladder. 300 rated games of The Nine Domains among bot:expert, bot:heuristic
  and bot:random (each pairing 100 times, seats alternating, seeds 0-299), played by the engine
  in this process, each result recorded through the worker's own path
  (service.ratings.Ratings.record: store/rate.lua on an embedded Valkey) with the bots rated as
  players of their own. The expert searches EXPERT_SECONDS of CPU a move (0.25 s: 72.5% against
  the heuristic at that budget, RESULTS.md's bot:expert). Expected: expert > heuristic > random.
- board: a leaderboard of 100,000 rated players (written straight into the title's keys, as
  100,000 rated games would leave them), served by the API as `turnpost serve` serves it
  (gunicorn, 2 gevent workers), from THREADS client threads for SECONDS: pages at the top,
  the middle and the end of the board against bench/run.py's baseline GET (one Redis GET
  through the same stack) measured in the same run. Target: a page in at most twice the
  baseline's time (p50).
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.http import Conn, run_threads
from bench.playout import play_out
from bench.results import replace_section
from engine import registry
from engine.bots.search import expert_move
from engine.core import Action
from engine.rng import Rng
from service.play.games import cpu_budget
from service.ratings.model import Skill
from service.ratings.ratings import Ratings, score
from service.ratings.results import Result, ResultSeat
from service.settings import Settings
from store import keys
from store.connection import connect
from store.embedded import EmbeddedValkey, free_port
from store.ratings import RatingStore

TITLE = "ninedomains"
BOTS = ("expert", "heuristic", "random")
GAMES = 300
EXPERT_SECONDS = 0.25
PLAYERS = 100_000
THREADS = 8
SECONDS = 10.0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def header(what: str) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"`{what}` ({now}; {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, shared with other engineers' work: {load()})"
    )


# -- the ladder ---------------------------------------------------------------------------------


def play(game, seed: bytes, seats: tuple[str, str]) -> list[int]:
    """One game between two bots; each seat's place."""
    picker = Rng(b"ladder:" + seed)

    def choose(m, seat: int, legal: list[Action], version: int) -> Action:
        if seats[seat] == "expert":
            expert = registry.EXPERTS[game.info.name]
            budget = cpu_budget(EXPERT_SECONDS)
            return expert_move(game, expert, m["state"], seat, legal, picker, budget)
        return game.bots[seats[seat]](game.view(m["state"], seat), legal, picker)

    m = play_out(game, seed, picker, choose)
    winners = m["outcome"]["winners"]
    return [1 if s in winners else 2 for s in range(2)]


def ladder() -> str:
    game = registry.GAMES[TITLE]
    pairings = [(a, b) for i, a in enumerate(BOTS) for b in BOTS[i + 1 :]]
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp), appendonly=False).start()
        try:
            client = connect(valkey.url)
            ratings = Ratings(RatingStore(client), Settings(leaderboard_min_games=1))
            started, cpu = time.monotonic(), time.process_time()
            checkpoints = []
            for i in range(GAMES):
                a, b = pairings[i % len(pairings)]
                seats = (a, b) if (i // len(pairings)) % 2 == 0 else (b, a)
                places = play(game, i.to_bytes(4, "big") * 8, seats)
                ratings.record(
                    Result(
                        f"g_ladder{i}",
                        TITLE,
                        i,
                        True,
                        tuple(
                            ResultSeat(s, f"bot:{bot}", f"bot:{bot}", False, places[s])
                            for s, bot in enumerate(seats)
                        ),
                    )
                )
                if (i + 1) in (30, 100, 300):
                    checkpoints.append((i + 1, ratings.leaderboard(TITLE, 1, 3)["players"]))
            wall, cpu = time.monotonic() - started, time.process_time() - cpu
        finally:
            valkey.stop()
    final = checkpoints[-1][1]
    order = [row["name"].removeprefix("bot:") for row in final]
    verdict = "as expected" if order == list(BOTS) else "NOT as expected"
    rows = "\n".join(
        f"| {games} | "
        + " | ".join(
            f"{next(r['rating'] for r in board if r['name'] == 'bot:' + bot)} ± "
            f"{next(r['uncertainty'] for r in board if r['name'] == 'bot:' + bot)}"
            for bot in BOTS
        )
        + " |"
        for games, board in checkpoints
    )
    return f"""
{GAMES} rated games of The Nine Domains among the three bots (100 per pairing, seats
alternating, seeds 0-{GAMES - 1}), bot:expert at {EXPERT_SECONDS} s of CPU a move, each game
recorded through the worker's path (`Ratings.record`, store/rate.lua on an embedded Valkey):
{wall:.0f} s of wall time, {cpu:.0f} s of CPU. Final order: {", ".join(order)} ({verdict}).

| after games | bot:expert | bot:heuristic | bot:random |
|---|---|---|---|
{rows}
"""


# -- the leaderboard at scale -------------------------------------------------------------------


def fill_board(client) -> None:
    """PLAYERS rated players of the title, each with 10-200 games and a skill drawn from a
    fixed generator, on the board (the keys store/rate.lua writes)."""
    rng = random.Random(35)
    pipe = client.pipeline(transaction=False)
    for i in range(PLAYERS):
        player = f"p_bench{i:06d}"
        skill = Skill(
            15 + rng.randint(0, 20_000) / 1000,
            1 + rng.randint(0, 5000) / 1000,
            10 + rng.randint(0, 190),
        )
        pipe.hset(keys.rating_skills(TITLE), player, json.dumps(skill.to_json()))
        pipe.hset(keys.rating_names(TITLE), player, f"Player {i}")
        pipe.zadd(keys.rating_board(TITLE), {player: score(skill)})
        pipe.zadd(keys.rating_active(TITLE), {player: int(time.time() * 1000)})
        if len(pipe.command_stack) >= 4000:
            pipe.execute()
    pipe.execute()


def board() -> str:
    from bench.run import process_cpu, start_turnpost  # the API as bench/run.py serves it

    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp), appendonly=False).start()
        client = connect(valkey.url)
        fill_board(client)
        client.set("tp:bench:baseline", "x" * 100)
        port = free_port()
        processes = start_turnpost(valkey.url, free_port(), port)
        try:
            results = {}
            per_page = 50
            pages = PLAYERS // per_page
            for name, path in (
                ("baseline: one Redis GET through the same stack", "/bench/baseline"),
                ("leaderboard, page 1", f"/v1/leaderboards/{TITLE}"),
                ("leaderboard, the middle page", f"/v1/leaderboards/{TITLE}?page={pages // 2}"),
                ("leaderboard, the last page", f"/v1/leaderboards/{TITLE}?page={pages}"),
            ):

                def worker(i, stop_at, timings, path=path):
                    c = Conn(port)
                    while time.monotonic() < stop_at:
                        t = time.monotonic()
                        status, raw = c.call("GET", path, parse=False)
                        timings.append(time.monotonic() - t)
                        assert status == 200 and raw, (path, status)

                before = [process_cpu([processes[0].pid]), process_cpu([valkey.process.pid])]
                results[name] = run_threads(worker, THREADS, SECONDS)
                after = [process_cpu([processes[0].pid]), process_cpu([valkey.process.pid])]
                for part, cpu_before, cpu_after in zip(("api", "valkey"), before, after):
                    results[name][f"{part}_cpu_ms"] = (
                        (cpu_after - cpu_before) * 1000 / results[name]["requests"]
                    )
        finally:
            for p in processes:
                p.terminate()
            for p in processes:
                p.wait(30)
            valkey.stop()
    base = results["baseline: one Redis GET through the same stack"]
    rows = "\n".join(
        f"| {name} | {r['per_second']:,.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
        f"{r['p50_ms'] / base['p50_ms']:.2f} | {r['api_cpu_ms']:.2f} | {r['valkey_cpu_ms']:.3f} | "
        f"{r['api_cpu_ms'] / base['api_cpu_ms']:.2f} |"
        for name, r in results.items()
    )
    worst = max(r["p50_ms"] / base["p50_ms"] for r in results.values())
    worst_cpu = max(r["api_cpu_ms"] / base["api_cpu_ms"] for r in results.values())
    verdict = "met" if worst <= 2 else "NOT met"
    verdict_cpu = "met" if worst_cpu <= 2 else "NOT met"
    return f"""
{PLAYERS:,} rated players of one title. `GET /v1/leaderboards/{{game}}` (50 players a page: one Lua read of the board's sorted set, the
skills and the names, all in the title's slot) served by gunicorn with 2 gevent workers, {THREADS}
client threads for {SECONDS:.0f} s each, on the same 2 cores; the target (a page in at most
twice the baseline's p50) is {verdict} (worst {worst:.2f}x); in the API's CPU a request, which
other work on the machine disturbs less, it is {verdict_cpu} (worst {worst_cpu:.2f}x).

| request | per second | p50 ms | p99 ms | p50 to the baseline | API CPU ms | Valkey CPU ms | API CPU to the baseline |
|---|---|---|---|---|---|---|---|
{rows}
"""


LADDER = "Ratings: the bot ladder (`python -m bench.ratings ladder`)"
BOARD = "Ratings: a leaderboard of 100,000 players (`python -m bench.ratings board`)"


def main() -> None:
    wanted = sys.argv[1:] or ["ladder", "board"]
    for part, heading, measure in (("ladder", LADDER, ladder), ("board", BOARD, board)):
        if part in wanted:
            text = f"\n## {heading}\n\n{header('python -m bench.ratings ' + part)}\n{measure()}"
            print(text)
            replace_section(heading, text)


if __name__ == "__main__":
    main()
