"""One game played to its end through the engine's runner, as the server plays it (a copy,
the legality check and the apply at every move), each move chosen by the benchmark: the bots'
and the expert's duels, the ladder, the expert's self-play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import match as runner
from engine.core import Action, Game
from engine.rng import Rng

Chooser = Callable[[runner.Match, int, list[Action], int], Action]


def play_out(
    game: Game,
    seed: bytes,
    picker: Rng,
    choose: Chooser,
    players: int = 2,
    options: dict[str, Any] | None = None,
) -> runner.Match:
    """The finished match of a game begun from `seed`: `picker` draws which active seat moves
    next and `choose(match, seat, legal, version)` its move (`version`: the log's length
    before it)."""
    m, _ = runner.start(game, players, options, seed, 1)
    version = 1
    while m["outcome"] is None:
        seat = picker.choice(sorted(runner.active_seats(game, m)))
        action = choose(m, seat, runner.legal_actions(game, m, seat), version)
        version += 1
        m, _ = runner.act(game, m, seat, action, seed, version)
    return m
