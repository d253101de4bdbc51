"""When a move may be taken back is the engine's answer (engine.match.can_take_back): only a move
that drew no random number and showed no seat anything hidden but the move itself; and taking
it back (engine.match.take_back) gives every seat the view and the legal moves it had before.

Over random moves of every title (tests/engine/random_positions.py). The oracle for "showed
nothing hidden" knows no rule of any game: for every reader (each seat and a spectator), the
position before the move is changed in what that reader cannot know (the conformance hooks'
`perturb`), the same move is applied to it with the same generator, and what the reader sees
after it (their view, their lines of the log) must be the same: had it depended on something
hidden from them, the move would have shown it."""

from __future__ import annotations

import random

import pytest

from engine import match as runner
from engine import registry
from engine.rng import Rng
from tests.engine.hidden_bid import GAME as HIDDEN_BID
from tests.engine.random_positions import random_steps
from tests.service.boards_positions import TITLES, perturbed

pytestmark = pytest.mark.slow  # thousands of moves, each applied again to changed positions

MOVES = 500
CHANGES = 2  # changed positions tried per reader


def seen(entries, reader):
    return [e.to_json() for e in entries if e.visible_to(reader)]


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_takeback_is_offered_only_where_nothing_hidden_was_shown(name):
    game, title = registry.GAMES[name], TITLES[name]
    rnd = random.Random(f"takeback:{name}")
    offered = refused = 0
    for before, seat, action, after, entries, seed in random_steps(game, rnd, MOVES):
        if not runner.can_take_back(game, before, seat, action, after):
            refused += 1
            continue
        offered += 1
        assert after["rng_counter"] == before["rng_counter"], "a die was rolled"
        shaker = Rng(rnd.randbytes(32))
        for reader in [None, *range(before["seats"])]:
            for _ in range(CHANGES):
                changed = perturbed(title, before, reader, shaker)
                if not game.is_legal(changed["state"], seat, action):
                    continue  # the mover's hand was changed too: not this move there
                again, again_entries = runner.act(game, changed, seat, action, seed, 99)
                assert game.view(again["state"], reader) == game.view(after["state"], reader), (
                    f"{game.format(action)} by seat {seat} showed reader {reader} something "
                    "hidden, yet may be taken back"
                )
                assert seen(again_entries, reader) == seen(entries, reader)
    assert offered >= MOVES // 10, f"takebacks offered after {offered} moves of {MOVES} only"
    assert refused > 0


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_after_a_takeback_every_seat_sees_and_may_play_what_it_could_before(name):
    game = registry.GAMES[name]
    rnd = random.Random(f"taken back:{name}")
    for before, seat, action, after, _, _ in random_steps(game, rnd, MOVES // 3):
        if not runner.can_take_back(game, before, seat, action, after):
            continue
        restored = runner.take_back(before, seat, 1000)
        assert restored["state"] == before["state"]
        assert runner.active_seats(game, restored) == runner.active_seats(game, before)
        for reader in [None, *range(before["seats"])]:
            assert game.view(restored["state"], reader) == game.view(before["state"], reader)
        for s in range(before["seats"]):
            assert runner.legal_actions(game, restored, s) == runner.legal_actions(game, before, s)
        # the mover's turn starts again at the takeback: a move made on an earlier version of
        # the game (a link in an old email) is stale; the others' are as they were
        assert restored["seat_since"][seat] == 1000
        others = [s for s in range(before["seats"]) if s != seat]
        assert [restored["seat_since"][s] for s in others] == [
            before["seat_since"][s] for s in others
        ]


def test_a_game_that_does_not_say_is_never_taken_back():
    rnd = random.Random("hidden bid")
    for before, seat, action, after, _, _ in random_steps(HIDDEN_BID, rnd, 50):
        assert not runner.can_take_back(HIDDEN_BID, before, seat, action, after)
