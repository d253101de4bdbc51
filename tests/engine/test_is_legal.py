"""A phase's cheap `is_legal` answers exactly `action in legal(g, seat)`: on thousands of random
positions of every game, for every legal action and for near misses (other seats' and other
positions' actions, actions with a field changed, dropped or added)."""

import copy
import random

from engine import match as runner
from engine import registry

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


def test_is_legal_is_membership_in_the_legal_list():
    rnd = random.Random(11)
    for name, game in sorted(registry.GAMES.items()):
        positions, pool = 0, []
        while positions < POSITIONS_PER_GAME:
            n = rnd.randint(game.info.min_players, game.info.max_players)
            seed = rnd.randbytes(32)
            m, _ = runner.start(game, n, None, seed, 1)
            version = 2
            while m["outcome"] is None and positions < POSITIONS_PER_GAME:
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
                positions += 1
                seat = rnd.choice(sorted(runner.active_seats(game, m)))
                m, _ = runner.act(
                    game, m, seat, rnd.choice(game.legal_actions(g, seat)), seed, version
                )
                version += 1
