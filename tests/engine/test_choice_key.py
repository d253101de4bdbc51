"""A game's `choice_key` stands for the seat's legal list: over thousands of random positions of
every game, two positions (of any games of that title) have equal keys for a seat exactly when
that seat's legal lists are equal. The runner relies on it to tell whether a seat's choice
changed with a move (`seat_since`, which decides when a move made on an older version is stale)."""

import json
import random

import pytest

from engine import match as runner
from engine import registry

from .random_positions import random_positions

pytestmark = pytest.mark.slow  # random positions of every title

POSITIONS_PER_GAME = 1500


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def test_equal_keys_exactly_when_the_legal_lists_are_equal():
    rnd = random.Random(23)
    for name, game in sorted(registry.GAMES.items()):
        list_of_key: dict[str, str] = {}
        key_of_list: dict[str, str] = {}
        for m, _ in random_positions(game, rnd, POSITIONS_PER_GAME):
            g = m["state"]
            for seat in sorted(runner.active_seats(game, m)):
                key = canonical(game.choice_key(g, seat))
                legal = canonical(game.legal_actions(g, seat))
                assert list_of_key.setdefault(key, legal) == legal, (name, seat, key)
                assert key_of_list.setdefault(legal, key) == key, (name, seat, legal[:200])


def test_a_seats_since_moves_only_when_its_choice_changed():
    """The Nine Domains' commit: the first seat to lay its cards does not change the other's
    choice, so a move the other made on the older version still stands."""
    game = registry.GAMES["ninedomains"]
    seed = bytes(range(32))
    m, _ = runner.start(game, 2, None, seed, 1)
    assert m["seat_since"] == [1, 1]
    m, _ = runner.act(game, m, 0, game.legal_actions(m["state"], 0)[0], seed, 2)
    assert m["seat_since"][1] == 1 and runner.is_current(m, 1, 1, 2)
