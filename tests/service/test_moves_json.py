"""The legal moves' JSON remembered per game, version and seat (service.play.games.MovesJson) is
always the JSON of the list made afresh: one memory shared by thousands of random positions of
every game and every seat, each position read twice, so that a list remembered under a key too
coarse (without the version, the seat or the game) would be served to a position with another
list or other words and fail here."""

import random

import orjson
import pytest

from engine import match as runner
from engine import registry
from service.play.games import MovesJson, legal_move_list
from tests.engine.random_positions import random_positions

POSITIONS_PER_GAME = 400
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Flo")


def snapshot(name: str, game_id: str, version: int, match: dict, players: int) -> dict:
    """The parts of a snapshot the legal moves read."""
    seats = [{"kind": "player", "player_id": f"p{s}", "name": NAMES[s]} for s in range(players)]
    return {"id": game_id, "game": name, "version": version, "seats": seats, "match": match}


def fresh(snap, seat) -> bytes:
    return orjson.dumps(legal_move_list(snap, seat), option=orjson.OPT_SORT_KEYS)


@pytest.mark.slow
def test_remembered_lists_are_the_lists_of_each_position(test_game):
    """(test_game: the tests' Hidden Bid too)"""
    memory = MovesJson()
    memory.SIZE = 100_000  # nothing forgotten
    rnd = random.Random(23)
    remembered = 0
    for name, game in sorted(registry.GAMES.items()):
        # the positions of a title, along several games, all have one id: only the version
        # tells them apart
        for version, (m, n) in enumerate(random_positions(game, rnd, POSITIONS_PER_GAME)):
            snap = snapshot(name, name, version, m, n)
            for seat in range(n):
                for _ in range(2):
                    before = len(memory.lists)
                    written = memory.of(snap, seat)  # type: ignore[arg-type]
                    assert orjson.dumps(written) == fresh(snap, seat), (name, seat)
                    remembered += len(memory.lists) == before
    assert remembered >= len(registry.GAMES) * POSITIONS_PER_GAME * 2


def test_the_memory_keeps_its_size():
    memory = MovesJson()
    memory.SIZE = 3
    game = registry.GAMES["ninedomains"]
    rnd = random.Random(5)
    m, _ = runner.start(game, 2, None, bytes(32), 1)
    for version in range(2, 30):
        if m["outcome"] is not None:
            break
        for seat in (0, 1):
            memory.of(snapshot("ninedomains", "g", version, m, 2), seat)  # type: ignore[arg-type]
        seat = rnd.choice(sorted(runner.active_seats(game, m)))
        m, _ = runner.act(
            game, m, seat, rnd.choice(game.legal_actions(m["state"], seat)), bytes(32), version
        )
    assert len(memory.lists) == 3
