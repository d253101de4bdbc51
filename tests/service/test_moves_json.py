"""The legal moves' JSON remembered per what decides a list (service.play.games.MovesJson) is
always the JSON of the list made afresh: one memory shared by thousands of random positions of
every game and every seat, so that a list remembered under a key too coarse (a title alone, a
phase without the hand) would be served to a position with another list and fail here."""

import random

import orjson

from engine import match as runner
from engine import registry
from service.play.games import MovesJson, legal_move_list
from tests.engine.random_positions import random_positions

POSITIONS_PER_GAME = 800


def fresh(game, match, seat) -> bytes:
    return orjson.dumps(legal_move_list(game, match, seat), option=orjson.OPT_SORT_KEYS)


def test_remembered_lists_are_the_lists_of_each_position(test_game):
    """(test_game: the tests' Hidden Bid too, a game whose phases have no choice_key)"""
    memory = MovesJson()
    memory.SIZE = 10_000  # nothing forgotten: every list comes back for many positions
    rnd = random.Random(23)
    remembered = 0
    for name, game in sorted(registry.GAMES.items()):
        for m, n in random_positions(game, rnd, POSITIONS_PER_GAME):
            snap = {"game": name, "rules_version": game.info.rules_version}
            for seat in range(n):
                before = len(memory.lists)
                written = memory.of(snap, m, seat)  # type: ignore[arg-type]
                assert orjson.dumps(written) == fresh(game, m, seat), (name, seat)
                remembered += len(memory.lists) == before
    assert remembered > 1000  # many answers came from the memory, not only new lists


def test_the_memory_keeps_its_size():
    memory = MovesJson()
    memory.SIZE = 3
    game = registry.GAMES["ninedomains"]
    snap = {"game": "ninedomains", "rules_version": game.info.rules_version}
    rnd = random.Random(5)
    m, _ = runner.start(game, 2, None, bytes(32), 1)
    for version in range(2, 30):
        if m["outcome"] is not None:
            break
        for seat in (0, 1):
            memory.of(snap, m, seat)  # type: ignore[arg-type]
        seat = rnd.choice(sorted(runner.active_seats(game, m)))
        m, _ = runner.act(
            game, m, seat, rnd.choice(game.legal_actions(m["state"], seat)), bytes(32), version
        )
    assert len(memory.lists) == 3
