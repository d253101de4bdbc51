"""A phase's cheap `is_legal` answers exactly `action in legal(g, seat)`: on thousands of random
positions of every game, for every legal action and for near misses (other seats' and other
positions' actions, actions with a field changed, dropped or added)."""

import copy
import random

import pytest

from engine import registry

from .random_positions import random_positions

pytestmark = pytest.mark.slow  # random positions of every title

POSITIONS_PER_GAME = 1500


def near_misses(action, rnd):
    misses = [{**action, "extra": 1}, {k: v for k, v in action.items() if k != "type"}]
    for key, value in action.items():
        if isinstance(value, list) and value:
            changed = copy.deepcopy(value)
            changed[rnd.randrange(len(changed))] = rnd.choice(["0", "9", 3, None, "5+"])
            misses += [
                {**action, key: changed},
                {**action, key: value[:-1]},
                {**action, key: value + value[:1]},
                {**action, key: tuple(value)},
            ]
        elif key != "type":
            misses.append({**action, key: rnd.choice(["x", 0, 99, None])})
    return misses


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_is_legal_is_membership_in_the_legal_list(name):
    rnd = random.Random(f"11 {name}")
    game = registry.GAMES[name]
    pool = []
    for m, n in random_positions(game, rnd, POSITIONS_PER_GAME):
        g = m["state"]
        for seat in range(n):
            legal = game.legal_actions(g, seat)
            candidates = legal[:50] + rnd.sample(pool, min(len(pool), 30))
            for action in legal[:5]:
                candidates += near_misses(action, rnd)
            for action in candidates:
                assert game.is_legal(g, seat, action) == (action in legal), (
                    name,
                    seat,
                    action,
                )
            pool += rnd.sample(legal, min(len(legal), 3))
