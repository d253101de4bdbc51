"""The Nine Domains: how random games end with and without the full-purple domain.

    .venv/bin/python -m bench.ninedomains_elements [--games N]

Plays N random games (uniform legal moves, through the match runner, seeds 0..N-1) under each
value of the option `full_purple` and counts how they end: a player shows all four elements,
both show them in the same round (the elements are void and the game ends on points), or on
points. Prints one line per value.
"""

from __future__ import annotations

import argparse
from collections import Counter

from bench.playout import play_out
from engine.games.ninedomains import GAME
from engine.rng import Rng


def ending(seed: bytes, full_purple: bool) -> str:
    """How one random game ends: "elements", "void" or "points"."""
    picker = Rng(b"elements:" + seed)
    options = {"full_purple": full_purple}
    m = play_out(
        GAME, seed, picker, lambda _m, _seat, legal, _version: picker.choice(legal), 2, options
    )
    g = m["state"]
    if g["element_winner"] is not None:
        return "elements"
    return "void" if g["elements_void"] else "points"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    games = parser.parse_args().games
    for full_purple in (True, False):
        counts = Counter(ending(i.to_bytes(4, "big") * 8, full_purple) for i in range(games))
        print(
            f"full_purple={str(full_purple).lower()}: {games} games, "
            + ", ".join(
                f"{kind} {counts[kind]} ({100 * counts[kind] / games:.1f}%)"
                for kind in ("elements", "void", "points")
            )
        )


if __name__ == "__main__":
    main()
