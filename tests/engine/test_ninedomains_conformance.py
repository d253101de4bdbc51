"""The Nine Domains against the shared conformance checks: invariants over many seeded games,
no leaks of hidden information, replay, notation, golden playthrough and the bots."""

import json

import pytest

from engine import match as runner
from engine.games.ninedomains import (
    BASE_CARDS,
    CARD_ORDER,
    DOMAIN_POINTS,
    FULL_PURPLE_DECK,
    GAME,
    sort_cards,
)
from engine.rng import Rng
from tests.engine import conformance

MODES = [None, {"specials": "per_round"}]
MAX_MOVES = 3 * (2 + 3)  # per round: two commits and at most one decision per slot


# ------------------------------------------------------------------ invariants


def check_invariants(g):
    per_round = g["specials_mode"] == "per_round"
    assert 1 <= g["round"] <= 3
    for s in (0, 1):
        held = g["hands"][s] + (g["committed"][s] or []) + g["used"][s]
        assert sort_cards(held) == sort_cards(list(BASE_CARDS) + g["specials"]), "cards lost"
        assert g["hands"][s] == sort_cards(g["hands"][s])
    assert len(g["specials"]) == (3 * g["round"] if per_round else 3)
    assert len(set(g["specials"] + g["special_deck"])) == 9
    placed = (
        [d for pile in g["piles"] for d in pile]
        + [d for d in g["face_up"] if d]
        + g["domains"][0]
        + g["domains"][1]
        + g["discarded"]
    )
    assert sorted(placed) == sorted(FULL_PURPLE_DECK), "domains lost or doubled"
    assert all(len(p) == 3 - g["round"] for p in g["piles"])
    fought = 3 * (g["round"] - (g["phase"] == "commit"))
    assert len(g["battles"]) == fought
    assert len(g["domains"][0]) + len(g["domains"][1]) + len(g["discarded"]) == fought
    if g["phase"] == "commit":
        assert all(d is not None for d in g["face_up"])
        for s in (0, 1):
            in_play = len(g["hands"][s]) + len(g["committed"][s] or [])
            assert in_play == (9 if per_round else 9 - 3 * (g["round"] - 1))
    else:
        assert g["face_up"] == [None, None, None] and g["committed"] == [None, None]
    assert g["bonus"][0] % 7 == 0 and g["bonus"][1] % 7 == 0
    assert g["bonus"][0] + g["bonus"][1] <= 7 * len(g["battles"])
    view = GAME.view(g, None)
    assert view["points"] == [
        sum(DOMAIN_POINTS[d] for d in g["domains"][s]) + g["bonus"][s] for s in (0, 1)
    ]
    assert (g["phase"] == "effects") == bool(g["pending"])


def run_property_games(options, count):
    for i in range(count):

        def step(before, seat, action, after, entries):
            check_invariants(after["state"])
            if after["state"]["committed"][seat] is not None:
                # A commit that did not end the round leaves the other seat's moves unchanged.
                other = 1 - seat
                assert runner.legal_actions(GAME, after, other) == runner.legal_actions(
                    GAME, before, other
                )
                assert after["seat_since"][other] == before["seat_since"][other]

        m, history = conformance.play(GAME, 2, options, conformance.seed_of(i), on_step=step)
        assert len(history) <= MAX_MOVES
        out = m["outcome"]
        g = m["state"]
        assert out["scores"] == GAME.view(g, None)["points"]
        if out["reason"] != "all four elements":
            assert g["round"] == 3


def test_invariants_hold_over_1000_seeded_games_per_game_specials():
    run_property_games(None, 1000)


def test_invariants_hold_over_300_seeded_games_per_round_specials():
    run_property_games({"specials": "per_round"}, 300)


# ------------------------------------------------------------------ hidden information


def perturb(g, seat, rng):
    """Change only what `seat` cannot see: the other seat's hand and face-down cards (drawn
    anew from all card names, so even a view that showed what is deducible would differ),
    the hidden order of the domain piles, the special kinds not dealt yet."""
    other = 1 - seat
    names = list(CARD_ORDER)
    rng.shuffle(names)
    face_down = 3 if g["committed"][other] is not None else 0
    if face_down:
        g["committed"][other] = names[:3]
    g["hands"][other] = sort_cards(names[face_down : face_down + len(g["hands"][other])])
    hidden = [d for pile in g["piles"] for d in pile]
    rng.shuffle(hidden)
    g["piles"] = [hidden[i * len(p) : (i + 1) * len(p)] for i, p in enumerate(g["piles"])]
    rng.shuffle(g["special_deck"])
    return g


@pytest.mark.parametrize("options", MODES)
def test_views_do_not_leak_hidden_cards_piles_or_specials(options):
    for i in range(20):
        conformance.check_no_leak(GAME, 2, options, conformance.seed_of(i), perturb)


def test_the_perturbation_changes_something():
    m = runner.start(GAME, 2, None, conformance.seed_of(1), 1)[0]
    m, _ = runner.act(GAME, m, 1, runner.legal_actions(GAME, m, 1)[0], conformance.seed_of(1), 2)
    changed = perturb(json.loads(json.dumps(m["state"])), 0, Rng(b"x" * 32))
    assert changed != m["state"]


@pytest.mark.parametrize("options", MODES)
def test_log_entries_never_show_a_seat_the_other_seats_face_down_cards(options):
    for i in range(40):
        secrets = {}

        def step(before, seat, action, after, entries):
            if after["state"]["committed"][seat] is not None:
                cards = action["cards"]
                secrets[seat] = [json.dumps(cards), ", ".join(cards), " ".join(cards)]
                others = [1 - seat, -1]
                conformance.check_log_visibility(
                    entries, lambda s: secrets[seat] if s in others else [], 2
                )
            else:
                secrets.clear()

        conformance.play(GAME, 2, options, conformance.seed_of(i), on_step=step)


@pytest.mark.parametrize("options", MODES)
def test_views_never_show_the_seed(options):
    for i in range(5):
        seed = conformance.seed_of(i)
        m, _ = conformance.play(GAME, 2, options, seed)
        conformance.check_views_hide_seed(GAME, m, seed)
        conformance.check_views_hide_seed(GAME, runner.start(GAME, 2, options, seed, 1)[0], seed)


# ------------------------------------------------------------------ replay, notation, golden


@pytest.mark.parametrize("options", MODES)
def test_replay_gives_the_same_match_and_states_are_json(options):
    for i in range(30):
        conformance.check_replay_and_json(GAME, 2, options, conformance.seed_of(i))


@pytest.mark.parametrize("options", MODES)
def test_notation_round_trips_at_many_states(options):
    for i in range(15):

        def step(before, seat, action, after, entries):
            for s in sorted(runner.active_seats(GAME, after)):
                conformance.check_notation(GAME, after, s)

        conformance.play(GAME, 2, options, conformance.seed_of(100 + i), on_step=step)


def test_golden_playthrough():
    conformance.check_golden(GAME, 2, None, conformance.seed_of(7))


# ------------------------------------------------------------------ bots


@pytest.mark.parametrize("options", MODES)
def test_heuristic_beats_random(options):
    wins = conformance.check_bot_beats_random(GAME, 2, options)
    assert wins > 100, wins


def test_bots_return_legal_actions():
    for _name, bot in GAME.bots.items():

        def choose(view, legal, rng, seat, bot=bot):
            action = bot(view, legal, rng)
            assert action in legal
            return action

        for i in range(10):
            conformance.play(GAME, 2, MODES[i % 2], conformance.seed_of(500 + i), chooser=choose)
