"""Positions along random games, for the property tests that compare a cheap answer of the
engine with the full computation on thousands of positions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine import match as runner
from engine.core import Game


def random_positions(
    game: Game, rnd: random.Random, count: int
) -> Iterator[tuple[dict[str, Any], int]]:
    """`count` positions of `game`, as (match, players), along games of random player counts,
    seeds and legal moves drawn from `rnd`; the next move is drawn after the caller is done
    with a position (so a caller's own draws from `rnd` keep their place in the stream)."""
    positions = 0
    while positions < count:
        n = rnd.randint(game.info.min_players, game.info.max_players)
        seed = rnd.randbytes(32)
        m, _ = runner.start(game, n, None, seed, 1)
        version = 2
        while m["outcome"] is None and positions < count:
            yield m, n
            positions += 1
            seat = rnd.choice(sorted(runner.active_seats(game, m)))
            action = rnd.choice(game.legal_actions(m["state"], seat))
            m, _ = runner.act(game, m, seat, action, seed, version)
            version += 1


def random_steps(
    game: Game, rnd: random.Random, count: int
) -> Iterator[tuple[dict[str, Any], int, dict[str, Any], dict[str, Any], list[Any], bytes]]:
    """`count` random moves of `game` along games as `random_positions` plays them, each as
    (match before, seat, action, match after, log entries, seed): the move is applied with the
    game's seed, which the caller needs to apply it again."""
    steps = 0
    while steps < count:
        n = rnd.randint(game.info.min_players, game.info.max_players)
        seed = rnd.randbytes(32)
        m, _ = runner.start(game, n, None, seed, 1)
        version = 2
        while m["outcome"] is None and steps < count:
            seat = rnd.choice(sorted(runner.active_seats(game, m)))
            action = rnd.choice(game.legal_actions(m["state"], seat))
            after, entries = runner.act(game, m, seat, action, seed, version)
            yield m, seat, action, after, entries, seed
            steps += 1
            m = after
            version += 1
