"""Random full games per second on one core, per game and player count, through the match
runner (copy, legality check and apply at every move, as the server does)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from engine import match as runner
from engine import registry
from engine.rng import Rng

GAMES_PER_RUN = 100
RUNS = 5


def play_one(game, n: int, seed: bytes) -> int:
    picker = Rng(b"bench:" + seed)
    m, _ = runner.start(game, n, None, seed, 1)
    moves = 0
    while m["outcome"] is None:
        seat = picker.choice(sorted(runner.active_seats(game, m)))
        action = picker.choice(runner.legal_actions(game, m, seat))
        moves += 1
        m, _ = runner.act(game, m, seat, action, seed, moves + 1)
    return moves


def measure(game, n: int) -> tuple[float, float]:
    """(median games per second over RUNS runs, mean moves per game)."""
    rates, moves = [], []
    for run in range(RUNS):
        started = time.process_time()
        for i in range(GAMES_PER_RUN):
            moves.append(play_one(game, n, (run * GAMES_PER_RUN + i).to_bytes(4, "big") * 8))
        rates.append(GAMES_PER_RUN / (time.process_time() - started))
    return statistics.median(rates), statistics.mean(moves)


def section() -> str:
    rows = []
    for _name, game in sorted(registry.GAMES.items()):
        for n in range(game.info.min_players, game.info.max_players + 1):
            rate, moves = measure(game, n)
            rows.append(f"| {game.info.title} | {n} | {rate:.1f} | {moves:.0f} |")
    return (
        "\n## Games\n\nRandom full games per second on one core (CPU time), through the "
        f"match runner; median of {RUNS} runs of {GAMES_PER_RUN} seeded games.\n\n"
        "| game | players | games/s | moves per game |\n|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )


def main() -> None:
    path = Path(__file__).parent / "RESULTS.md"
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    result = section()
    if "\n## Games" in text:  # replace this section only, keep the ones after it
        start = text.index("\n## Games")
        end = text.find("\n## ", start + 1)
        text = text[:start] + "\n" + result.strip("\n") + "\n" + (text[end:] if end != -1 else "")
        path.write_text(text)
    else:
        path.write_text(text.rstrip("\n") + "\n" + result)
    print(result)


if __name__ == "__main__":
    main()
