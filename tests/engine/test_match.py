"""The runner's promises, on the platform's own test game (tests/engine/hidden_bid.py)."""

import json

import pytest

from engine import match as runner
from engine.core import GameOver, IllegalAction, InvalidOptions, MalformedAction, NotYourTurn
from service.errors import ErrorCode
from tests.engine import conformance
from tests.engine.hidden_bid import GAME

SEED = b"s" * 32


def started(n=2, options=None):
    return runner.start(GAME, n, options, SEED, 1)[0]


def test_player_count_outside_the_rules_is_refused():
    with pytest.raises(InvalidOptions, match="2 to 3 players"):
        runner.start(GAME, 4, None, SEED, 1)


def test_unknown_and_bad_options_are_refused_with_the_allowed_values():
    with pytest.raises(InvalidOptions, match="no option speed"):
        started(options={"speed": 2})
    with pytest.raises(InvalidOptions, match="choose one of: 1, 2, 3"):
        started(options={"rounds": 9})
    with pytest.raises(InvalidOptions, match="whole number"):
        started(options={"rounds": "2"})


def test_defaults_fill_missing_options():
    assert started()["options"] == {"rounds": 3}


def test_check_order_game_over_comes_first():
    m = started(options={"rounds": 1})
    for seat in (0, 1):
        m, _ = runner.act(GAME, m, seat, runner.legal_actions(GAME, m, seat)[0], SEED, 2 + seat)
    decider = next(iter(runner.active_seats(GAME, m)))
    m, _ = runner.act(GAME, m, decider, {"type": "keep"}, SEED, 4)
    assert m["outcome"] is not None
    with pytest.raises(GameOver):
        runner.act(GAME, m, 0, {"type": "nonsense"}, SEED, 5)


def move(m, seat, made_on, version, **sent):
    """A move as a player sends it: `sent` is its notation= or action=."""
    return runner.move(GAME, m, seat, SEED, expected_version=made_on, version=version, **sent)


def test_a_move_is_checked_in_the_documented_order_over_stale_turn_read_legal():
    m = started()
    not_mine = {"type": "bid", "card": m["state"]["hands"][1][0]}
    m, _ = runner.act(GAME, m, 0, runner.legal_actions(GAME, m, 0)[0], SEED, 2)
    # seat 0 has bid at version 2: a move of its made on version 1 is stale, whatever it is
    for stale in ({"action": not_mine}, {"action": {"type": "bid"}}, {"notation": "fly"}):
        with pytest.raises(runner.StaleMove) as err:
            move(m, 0, 1, 2, **stale)
        assert err.value.current_version == 2
        assert ErrorCode.of(err.value.code) is ErrorCode.MOVE_STALE_VERSION
    with pytest.raises(NotYourTurn):  # current, but seat 0 has nothing left to do
        move(m, 0, 2, 2, notation="fly")
    for malformed in ({"action": {"type": "bid"}}, {"action": {"type": "fly"}}, {}):
        with pytest.raises(MalformedAction):  # read before the legal list is asked
            move(m, 1, 1, 2, **malformed)
    with pytest.raises(IllegalAction):
        move(m, 1, 1, 2, action={"type": "bid", "card": m["state"]["hands"][0][0]})
    bid = runner.legal_actions(GAME, m, 1)[0]
    played = move(m, 1, 1, 2, notation=GAME.format(bid))
    assert played.action == bid and played.match["seat_since"][1] == 3
    assert played.match == runner.act(GAME, m, 1, bid, SEED, 3)[0]


def test_a_move_on_a_finished_game_is_refused_as_over_before_anything_else():
    m, _ = runner.resign(GAME, started(), 0, 2)
    with pytest.raises(GameOver):
        move(m, 1, 1, 2, action={"type": "fly"})


def test_a_seat_that_may_not_act_is_refused_before_the_action_is_read():
    m = started()
    m, _ = runner.act(GAME, m, 0, runner.legal_actions(GAME, m, 0)[0], SEED, 2)
    with pytest.raises(NotYourTurn):
        runner.act(GAME, m, 0, {"type": "bid", "card": 99}, SEED, 3)


def test_a_well_formed_action_that_is_not_legal_is_illegal_not_malformed():
    m = started()
    not_mine = m["state"]["hands"][1][0]
    with pytest.raises(IllegalAction) as err:
        runner.act(GAME, m, 0, {"type": "bid", "card": not_mine}, SEED, 2)
    assert ErrorCode.of(err.value.code).status == 409


def test_malformed_actions_are_422():
    for bad in [{"type": "bid"}, {"type": "bid", "card": "x"}, {"type": "fly"}, {}, "bid 3"]:
        with pytest.raises(MalformedAction) as err:
            runner.read_action(GAME, action=bad)
        assert ErrorCode.of(err.value.code).status == 422
    with pytest.raises(MalformedAction):
        runner.read_action(GAME, notation="bid three")
    with pytest.raises(MalformedAction):
        runner.read_action(GAME, notation="   ")


def test_apply_works_on_a_copy():
    m = started()
    before = json.dumps(m)
    runner.act(GAME, m, 0, runner.legal_actions(GAME, m, 0)[0], SEED, 2)
    assert json.dumps(m) == before


def test_simultaneous_choice_of_another_seat_does_not_make_mine_stale():
    m = started()
    assert runner.is_current(m, 1, 1, 1)
    m, _ = runner.act(GAME, m, 0, runner.legal_actions(GAME, m, 0)[0], SEED, 2)
    assert runner.is_current(m, 1, expected_version=1, version=2)
    assert not runner.is_current(m, 0, expected_version=1, version=2)


def test_a_seat_whose_options_changed_is_stale():
    m = started()
    m, _ = runner.act(GAME, m, 0, runner.legal_actions(GAME, m, 0)[0], SEED, 2)
    m, _ = runner.act(GAME, m, 1, runner.legal_actions(GAME, m, 1)[0], SEED, 3)
    decider = next(iter(runner.active_seats(GAME, m)))
    assert m["seat_since"][decider] == 3
    assert not runner.is_current(m, decider, expected_version=2, version=3)


def test_resign_ends_a_two_player_game_for_the_other_seat():
    m, _ = runner.resign(GAME, started(), 0, 2)
    assert m["outcome"] == {"winners": [1], "scores": None, "reason": "resigned"}
    with pytest.raises(GameOver):
        runner.resign(GAME, m, 1, 3)


def test_resign_in_a_three_player_game_without_remove_seat_ends_it_shared():
    m, _ = runner.resign(GAME, started(3), 2, 2, reason="forfeit")
    assert m["outcome"]["winners"] == [0, 1] and m["outcome"]["reason"] == "forfeit"


def test_hidden_bid_conforms():
    for i in range(50):
        conformance.check_replay_and_json(GAME, 2 + i % 2, None, conformance.seed_of(i))


def test_hidden_bid_views_do_not_leak_other_hands_or_bids():
    def perturb(g, seat, rng):
        others = [s for s in range(g["n"]) if s != seat]
        pool = g["deck"] + [c for s in others for c in g["hands"][s]]
        rng.shuffle(pool)
        for s in others:
            k = len(g["hands"][s])
            g["hands"][s], pool = sorted(pool[:k]), pool[k:]
        g["deck"] = pool
        for s in others:
            if g["bids"][s] is not None:
                g["bids"][s] = 0
        return g

    for i in range(20):
        conformance.check_no_leak(GAME, 2, None, conformance.seed_of(i), perturb)


def test_hidden_bid_notation_round_trips():
    m = started()
    conformance.check_notation(GAME, m, 0)


def test_views_never_show_the_seed():
    conformance.check_views_hide_seed(GAME, started(), SEED)
