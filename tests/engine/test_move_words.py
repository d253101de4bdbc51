"""Every legal move has a description in words (`Game.describe`), told to its player from the
player's own view: on 1,000 random positions of every title, for every seat that may act, each
legal move's description is non-empty and no two moves of a position read the same, so that a
person choosing by the words never picks one move for another."""

import random
import re
from collections import Counter

import pytest

from engine import match as runner
from engine import registry

from .random_positions import random_positions

pytestmark = pytest.mark.slow  # 1,000 random positions of every title

POSITIONS_PER_GAME = 1000
SEAT_TOKEN = re.compile(r"\{seat(\d)\}")


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_legal_move_has_words_of_its_own(name):
    game = registry.GAMES[name]
    rnd = random.Random(31)
    described = 0
    for m, n in random_positions(game, rnd, POSITIONS_PER_GAME):
        for seat in sorted(runner.active_seats(game, m)):
            view = game.view(m["state"], seat)
            legal = runner.legal_actions(game, m, seat)
            words = [game.describe(view, action) for action in legal]
            assert all(w.strip() for w in words), (name, legal)
            repeated = {w for w, times in Counter(words).items() if times > 1}
            assert not repeated, (name, sorted(repeated)[:3])
            for w in words:
                named = {int(s) for s in SEAT_TOKEN.findall(w)}
                # the mover reads "you", never their own name; the others are seats of the game
                assert seat not in named and named <= set(range(n)), (name, seat, w)
            described += len(words)
    assert described >= POSITIONS_PER_GAME
