"""The heuristic bots against the heuristic bots of 2026-11-24 (bench/baseline_bots/, copied
from engine/bots/ before the fixes of issue 20): N games per title, two players, seats
alternating, default options; an outright win counts for its bot, a shared win for neither.

    .venv/bin/python -m bench.bots [titles...] [--games N]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import time

from bench.playout import play_out
from bench.results import replace_section
from engine import registry
from engine.core import Action
from engine.rng import Rng


def duel(game, baseline, seed: bytes, new_seat: int) -> int | None:
    """One game: the seat that won outright (None for a shared win)."""
    picker = Rng(b"bots:" + seed)

    def choose(m, seat: int, legal: list[Action], version: int) -> Action:
        bot = game.bots["heuristic"] if seat == new_seat else baseline
        return bot(game.view(m["state"], seat), legal, picker)

    m = play_out(game, seed, picker, choose)
    winners = m["outcome"]["winners"]
    return winners[0] if len(winners) == 1 else None


def measure(name: str, games: int) -> str:
    game = registry.GAMES[name]
    baseline = importlib.import_module(f"bench.baseline_bots.{name}").BOTS["heuristic"]
    new_wins = old_wins = 0
    started = time.process_time()
    for i in range(games):
        new_seat = i % 2
        winner = duel(game, baseline, i.to_bytes(4, "big") * 8, new_seat)
        new_wins += winner == new_seat
        old_wins += winner is not None and winner != new_seat
    seconds = time.process_time() - started
    same = inspect.getsource(sys.modules[baseline.__module__]) == inspect.getsource(
        importlib.import_module(f"engine.bots.{name}")
    )
    title = game.info.title + (" (bot unchanged: itself)" if same else "")
    return (
        f"| {title} | {games} | {new_wins} ({100 * new_wins / games:.1f}%) "
        f"| {old_wins} ({100 * old_wins / games:.1f}%) | {games - new_wins - old_wins} "
        f"| {seconds:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("titles", nargs="*", default=sorted(registry.GAMES))
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    rows = [measure(name, args.games) for name in args.titles]
    replace_section(
        "Bots",
        f"\n## Bots\n\n{time.strftime('%Y-%m-%d')}, load {os.getloadavg()[0]:.2f}: "
        "the heuristic bots against those of 2026-11-24 (bench/baseline_bots/), two players, "
        "seats alternating, default options (`make bench`: bench/bots.py).\n\n"
        "| title | games | new heuristic wins | baseline wins | shared | CPU s |\n"
        "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n",
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
