"""The legal actions with their notation (`notated_legal_actions`, a phase's `notated` where a
game has one) are exactly each legal action with `format(action)`, in the same order: on
thousands of random positions of every game, for every seat; and a game without the method
(the tests' Hidden Bid) gets the same from the runner."""

import random

import pytest

from engine import match as runner
from engine import registry

from .hidden_bid import HiddenBid
from .random_positions import random_positions

POSITIONS_PER_GAME = 1500


@pytest.mark.slow
def test_notated_legal_actions_are_the_legal_actions_formatted():
    rnd = random.Random(17)
    games = sorted(registry.GAMES.items()) + [("hiddenbid", HiddenBid())]
    for name, game in games:
        notated_phases = 0
        for m, n in random_positions(game, rnd, POSITIONS_PER_GAME):
            g = m["state"]
            for seat in range(n):
                legal = runner.legal_actions(game, m, seat)
                expected = [(game.format(a), a) for a in legal]
                assert runner.notated_legal_actions(game, m, seat) == expected, (name, seat)
                phases = getattr(game, "phases", {})
                if legal and phases and phases[game.phase_of(g)].notated is not None:
                    notated_phases += 1
        if name == "ninedomains":
            assert notated_phases > 100  # its commit phase answered with its own list
