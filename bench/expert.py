"""bot:expert against the heuristic bot: N games per title that has the expert, two players,
seats alternating, default options; the expert searches for S seconds a move (the server's
EXPERT_SECONDS), on one core. An outright win counts for its bot, a shared win for neither.
Reports the expert's wins and its time per move (median and max, moves with one choice left
out: the expert answers those at once).

    .venv/bin/python -m bench.expert [titles...] [--games N] [--seconds S] [--first K]
        [--jobs J] [--progress] [--sees-hidden]

Game i (seeds K..K+N-1, default from 0) has the seed i and the expert in seat i % 2.

`--sees-hidden` is a measure, not a bot: the expert searches the real state (every hidden card
where it is; only the dice to come are its own), which tells what the hidden information costs
it, and so how much inferring the others' cards could give at most.

The issue's measure is 200 games at 1 s a move: hours per title on this machine (`make
bench-expert`); RESULTS.md says which measure each figure comes from.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import Any

from bench.playout import play_out
from bench.results import replace_section
from engine import registry
from engine.bots.search import clone, expert_move
from engine.core import Action, State
from engine.rng import Rng
from service.play.games import cpu_budget


def duel(game, seed: bytes, expert_seat: int, seconds: float, times: list[float]) -> int | None:
    """One game: the seat that won outright (None for a shared win)."""
    picker = Rng(b"expert:" + seed)

    def choose(m, seat: int, legal: list[Action], version: int) -> Action:
        if seat != expert_seat:
            return game.bots["heuristic"](game.view(m["state"], seat), legal, picker)
        started = time.thread_time()
        expert = registry.EXPERTS[game.info.name]
        budget = cpu_budget(seconds)
        action = expert_move(game, expert, m["state"], seat, legal, picker, budget)
        if len(legal) > 1:
            times.append(time.thread_time() - started)
        return action

    m = play_out(game, seed, picker, choose)
    winners = m["outcome"]["winners"]
    return winners[0] if len(winners) == 1 else None


@contextmanager
def bot_setting(name: str, part: str, value: Any) -> Iterator[None]:
    """The title's expert with its part `part` (a field of ExpertParts) set to `value` for a
    measure, and put back as its bot module declares it after."""
    declared = registry.EXPERTS[name]
    registry.EXPERTS[name] = replace(declared, **{part: value})
    try:
        yield
    finally:
        registry.EXPERTS[name] = declared


def _real_state(state: State, seat: int, rng: Rng) -> State:
    """`--sees-hidden`'s determinize: the state as it is, every hidden card where it lies."""
    return clone(state)


Task = tuple[str, int, float, bool]


def _game(task: Task) -> tuple[int, int | None, list[float]]:
    """Game i of a title: (i, the seat that won outright or None, the expert's times)."""
    name, i, seconds, sees_hidden = task
    times: list[float] = []
    game = registry.GAMES[name]
    with bot_setting(name, "determinize", _real_state) if sees_hidden else nullcontext():
        winner = duel(game, i.to_bytes(4, "big") * 8, i % 2, seconds, times)
    return i, winner, times


def _played(tasks: list[Task], jobs: int) -> Iterator[tuple]:
    """The games, in order, played one after another or by `jobs` processes at once (each
    expert's budget is its own thread's CPU time, so the games are the same either way while
    every process has a core's quarter: the wall-clock cap of cpu_budget)."""
    if jobs == 1:
        yield from map(_game, tasks)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_game, tasks)


def measure(
    name: str,
    games: int,
    seconds: float,
    first: int = 0,
    jobs: int = 1,
    progress: bool = False,
    sees_hidden: bool = False,
) -> str:
    game = registry.GAMES[name]
    expert = heuristic = 0
    times: list[float] = []
    tasks = [(name, i, seconds, sees_hidden) for i in range(first, first + games)]
    for i, winner, game_times in _played(tasks, jobs):
        expert_seat = i % 2
        expert += winner == expert_seat
        heuristic += winner is not None and winner != expert_seat
        times += game_times
        if progress:
            print(f"{name} seed {i}: expert {expert}, heuristic {heuristic}", file=sys.stderr)
    return (
        f"| {game.info.title} | {games} | {seconds:g} | {expert} ({100 * expert / games:.1f}%) "
        f"| {heuristic} ({100 * heuristic / games:.1f}%) | {games - expert - heuristic} "
        f"| {statistics.median(times):.2f} | {max(times):.2f} |"
    )


def main() -> None:
    searching = sorted(registry.EXPERTS)
    parser = argparse.ArgumentParser()
    parser.add_argument("titles", nargs="*", default=searching)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--first", type=int, default=0, help="the first game's seed number")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--progress", action="store_true", help="the tally after each game")
    parser.add_argument("--print-only", action="store_true", help="leave RESULTS.md alone")
    parser.add_argument(
        "--sees-hidden",
        action="store_true",
        help="the expert searches the real state: what the hidden cards cost it (implies --print-only)",
    )
    args = parser.parse_args()
    rows = [
        measure(
            name, args.games, args.seconds, args.first, args.jobs, args.progress, args.sees_hidden
        )
        for name in args.titles
    ]
    print("\n".join(rows))
    if args.print_only or args.sees_hidden:
        return
    heading = "bot:expert against the heuristic (`make bench-expert`)"
    replace_section(  # its own section: the trials in "## bot:expert" are written by hand
        heading,
        f"\n## {heading}\n\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
        f"{os.getloadavg()[0]:.2f}: bot:expert against the heuristic bot, two players, seats "
        "alternating, default options, on one core (bench/expert.py). Time per move: the "
        "moves with more than one choice.\n\n"
        "| title | games | seconds a move | expert wins | heuristic wins | shared "
        "| median s a move | max s |\n"
        "|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n",
    )


if __name__ == "__main__":
    main()
