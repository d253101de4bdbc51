"""Nautilus: one test per rule line of docs/games/rules/nautilus.md, and its worked examples."""

import itertools
import json

import pytest

from engine import match as runner
from engine.core import InvalidOptions, Log, MalformedAction
from engine.games import nautilus as N
from engine.games.nautilus import GAME
from engine.rng import Rng
from tests.engine import conformance
from tests.engine.conformance import seed_of

RNG_SEED = b"nautilus-test-rng-seed-32-bytes!"


def new_game(i=0, hidden=False):
    return GAME.setup(2, {"hidden_domains": hidden}, Rng(seed_of(i)), Log())


def act(g, seat, text, rng=None):
    """Play `text` for `seat`, which must be legal; returns the log entries."""
    action = GAME.parse(text)
    legal = GAME.legal_actions(g, seat)
    assert action in legal, f"{text} is not legal; legal: {[GAME.format(a) for a in legal]}"
    log = Log()
    GAME.apply(g, seat, action, rng or Rng(RNG_SEED), log)
    return log.entries


def row(text):
    """'13 . K F 2' -> [13, None, 15, 0, 2] (K the Kraken, F the Fishbone)."""
    symbols = {".": None, "K": 15, "F": 0}
    return [symbols[w] if w in symbols else int(w) for w in text.split()]


def placing(board0, board1, mover=0, hands=None, specials=None, anchored=None):
    """A state in the placement phase: `mover` places next; the board rows are seat 0's and
    seat 1's sides."""
    g = new_game()
    g["board"] = [row(board0), row(board1)]
    g["placements"] = sum(c is not None for r in g["board"] for c in r)
    g["nemo"] = mover if g["placements"] % 2 == 0 else 1 - mover
    on_board = {c for r in g["board"] for c in r if c is not None}
    if hands is None:
        free = [c for c in N.DIVERS if c not in on_board]
        hands = [free[:5], free[5:10]]
    g["hands"] = [sorted(h) for h in hands]
    in_hands = set(g["hands"][0]) | set(g["hands"][1])
    g["diver_pile"] = [c for c in N.DIVERS if c not in on_board | in_hands]
    g["specials"] = specials or [[], []]
    g["draft"] = []
    g["anchored"] = anchored
    g["phase"] = "place"
    return g


def moves(g, seat):
    return sorted(GAME.format(a) for a in GAME.legal_actions(g, seat))


def to_phase(g, phase):
    """Play (first legal action) until the phase is `phase`."""
    while g["phase"] != phase:
        seat = next(iter(GAME.active_seats(g)))
        act(g, seat, GAME.format(GAME.legal_actions(g, seat)[0]))
    return g


# --- Components ------------------------------------------------------------------------------


def test_fourteen_divers_one_of_each():
    g = new_game()
    cards = sorted(g["hands"][0] + g["hands"][1] + g["diver_pile"])
    assert cards == list(range(1, 15))


def test_arrows_six_nine_vertical_seven_eight_horizontal():
    assert N.ARROWS == {6: "vertical", 9: "vertical", 7: "horizontal", 8: "horizontal"}


def test_six_special_cards():
    assert sorted(N.SPECIALS) == ["anchor", "eye", "fishbone", "harpoon", "kraken", "submarine"]


def test_domain_deck_has_one_two_star_four_one_star_one_ink_blot_per_domain():
    deck = N.domain_deck()
    assert len(deck) == 30
    for d in N.DOMAINS:
        assert sorted(c["points"] for c in deck if c["domain"] == d) == [-1, 1, 1, 1, 1, 2]


def test_domain_net_total_is_five_so_no_domain_ties():
    assert N.domain_points(N.domain_deck()) == [5] * 5


# --- Setup -----------------------------------------------------------------------------------


def test_five_domain_cards_face_up_rest_is_the_domain_pile():
    g = new_game()
    assert len(g["domain_row"]) == 5 and len(g["domain_pile"]) == 25
    assert GAME.view(g, None)["domain_row"] == g["domain_row"]


def test_a_random_player_takes_the_nemo_token():
    assert {new_game(i)["nemo"] for i in range(20)} == {0, 1}


# --- A round ---------------------------------------------------------------------------------


def test_each_player_is_dealt_five_secret_divers_four_stay_in_the_pile():
    g = new_game()
    assert [len(h) for h in g["hands"]] == [5, 5] and len(g["diver_pile"]) == 4
    v = GAME.view(g, 0)
    assert v["hand"] == g["hands"][0] and v["hand_sizes"] == [5, 5]
    assert GAME.view(g, None)["hand"] is None


def test_nemo_holder_draws_two_specials_keeps_one_gives_the_other():
    g = new_game()
    nemo = g["nemo"]
    assert GAME.active_seats(g) == {nemo} and len(g["draft"]) == 2
    keep, give = g["draft"]
    act(g, nemo, f"keep {keep}")
    assert g["specials"][nemo] == [keep] and g["specials"][1 - nemo] == [give]


def test_kept_special_stays_secret_from_the_opponent():
    g = new_game()
    nemo = g["nemo"]
    keep = g["draft"][0]
    assert GAME.view(g, 1 - nemo)["draft"] == []
    entries = act(g, nemo, f"keep {keep}")
    v = GAME.view(g, 1 - nemo)
    assert keep not in str(v["specials"]) and v["special_counts"] == [1, 1]
    assert keep not in str(v["special_given"])
    for e in entries:
        if e.visible_to(1 - nemo):
            assert keep not in e.text and keep not in str(e.data)


def test_given_special_is_known_to_its_receiver():
    g = new_game()
    nemo = g["nemo"]
    keep, give = g["draft"]
    act(g, nemo, f"keep {keep}")
    assert GAME.view(g, 1 - nemo)["specials"] == [give]
    assert GAME.view(g, 1 - nemo)["special_given"] == give
    assert GAME.view(g, None)["special_given"] is None


def test_start_of_round_specials_are_used_nemo_holder_first():
    g = new_game()
    nemo = g["nemo"]
    act(g, nemo, f"keep {g['draft'][0]}")
    assert g["phase"] == "start" and GAME.active_seats(g) == {nemo}
    act(g, nemo, "pass")
    assert g["phase"] == "start" and GAME.active_seats(g) == {1 - nemo}
    act(g, 1 - nemo, "pass")
    assert g["phase"] == "place"


def test_using_a_start_special_is_optional():
    g = new_game()
    g["draft"] = ["eye", "harpoon"]
    nemo = g["nemo"]
    act(g, nemo, "keep eye")
    assert moves(g, nemo) == ["eye", "pass"]
    act(g, nemo, "pass")
    assert g["specials"][nemo] == ["eye"] and g["eye"] is None
    assert moves(g, 1 - nemo) == ["harpoon", "pass"]


def test_unused_special_is_lost_at_round_end():
    g = new_game()
    nemo = g["nemo"]
    g["draft"] = ["eye", "harpoon"]
    act(g, nemo, "keep eye")
    act(g, nemo, "pass")
    act(g, 1 - nemo, "pass")
    finish_round(g)
    assert g["round"] == 2 and g["specials"] == [[], []]
    assert sorted(g["special_discard"]) == ["eye", "harpoon"]


def test_nemo_places_first_then_players_alternate():
    g = to_phase(new_game(3), "place")
    nemo = g["nemo"]
    order = []
    while g["phase"] in ("place", "move"):
        seat = next(iter(GAME.active_seats(g)))
        if g["phase"] == "place":
            order.append(seat)
        act(g, seat, GAME.format(GAME.legal_actions(g, seat)[0]))
        if g["round"] > 1:
            break
    assert order == [nemo, 1 - nemo] * 5


def test_a_placement_is_any_card_from_hand_on_any_empty_space_on_either_side():
    g = placing("13 . . . .", ". . . . .", mover=0, hands=[[2, 3], [4, 5]])
    assert moves(g, 0) == sorted(
        f"place {c} {s}{k}"
        for c in (2, 3)
        for s, cols in (("me", range(2, 6)), ("opp", range(1, 6)))
        for k in cols
    )


def test_kraken_and_fishbone_are_placed_like_divers_and_take_a_space():
    g = placing(
        ". . . . .", ". . . . .", mover=0, hands=[[2], [3]], specials=[["kraken"], ["fishbone"]]
    )
    act(g, 0, "place kraken opp2")
    assert g["board"][1][1] == 15 and g["specials"][0] == [] and g["placements"] == 1
    act(g, 1, "place fishbone me3")
    assert g["board"][1][2] == 0 and g["placements"] == 2


def test_each_player_makes_exactly_five_placements_sixth_card_unplayed():
    g = new_game(5)
    nemo = g["nemo"]
    g["draft"] = ["submarine", "anchor"]
    act(g, nemo, "keep submarine")
    act(g, nemo, "submarine")
    act(g, nemo, f"submarine keep {g['sub_drawn'][0]}")
    act(g, 1 - nemo, "pass")
    assert len(g["hands"][nemo]) == 6
    placed = [0, 0]
    while g["round"] == 1:
        seat = next(iter(GAME.active_seats(g)))
        if g["phase"] == "place":
            placed[seat] += 1
            if g["placements"] == 9:
                hand_left = len(g["hands"][nemo])
        act(g, seat, GAME.format(GAME.legal_actions(g, seat)[0]))
    assert placed == [5, 5] and hand_left == 1


# --- Arrows ----------------------------------------------------------------------------------


def test_vertical_arrow_moves_another_card_of_its_side_to_the_space_opposite_it():
    g = placing("3 . 4 . .", "5 . . . .", mover=0, hands=[[6], [2]])
    act(g, 0, "place 6 me5")
    assert g["phase"] == "move" and GAME.active_seats(g) == {0}
    assert moves(g, 0) == ["move me3 opp3"]
    act(g, 0, "move me3 opp3")
    assert g["board"][0][2] is None and g["board"][1][2] == 4 and g["phase"] == "place"


def test_horizontal_arrow_moves_another_card_of_its_side_to_another_empty_space():
    g = placing(". . . . .", "3 . 4 . .", mover=0, hands=[[7], [2]])
    act(g, 0, "place 7 opp2")
    assert moves(g, 0) == ["move opp1 opp4", "move opp1 opp5", "move opp3 opp4", "move opp3 opp5"]


def test_no_card_can_move_then_nothing_happens():
    g = placing("3 . . . .", "5 . . . .", mover=0, hands=[[9], [2]])
    act(g, 0, "place 9 me2")
    assert g["phase"] == "place" and GAME.active_seats(g) == {1}


def test_a_move_is_mandatory_even_when_it_hurts():
    g = placing(". . . . .", "14 . . . .", mover=0, hands=[[9], [2]])
    act(g, 0, "place 9 opp3")
    assert moves(g, 0) == ["move opp1 me1"]
    assert GAME.active_seats(g) == {0}
    act(g, 0, "move opp1 me1")
    assert g["board"][0][0] == 14


def test_anchored_card_cannot_be_moved():
    g = placing(". . . . .", "13 . . 2 .", mover=0, hands=[[6], [3]], anchored=13)
    act(g, 0, "place 6 opp2")
    assert moves(g, 0) == ["move opp4 me4"]


def test_kraken_and_fishbone_can_be_moved():
    g = placing(". . . . .", "K . F . .", mover=0, hands=[[8], [3]])
    act(g, 0, "place 8 opp2")
    assert "move opp1 opp4" in moves(g, 0) and "move opp3 opp5" in moves(g, 0)
    act(g, 0, "move opp1 opp4")
    assert g["board"][1][3] == 15


def test_worked_example_six_whose_only_legal_move_is_the_thirteen():
    g = placing(". . . 1 .", "13 . . 2 .", mover=0, hands=[[6], [3]])
    act(g, 0, "place 6 opp2")
    assert moves(g, 0) == ["move opp1 me1"]
    act(g, 0, "move opp1 me1")
    assert g["board"] == [row("13 . . 1 ."), row(". 6 . 2 .")]


# --- Round end -------------------------------------------------------------------------------


def test_round_ends_when_all_ten_spaces_hold_a_card():
    g = placing("13 10 7 K 8", "11 12 4 9 .", mover=1, hands=[[], [5, 1]])
    assert g["round"] == 1
    act(g, 1, "place 5 me5")
    assert g["round"] == 2 and len(g["taken"][0]) + len(g["taken"][1]) == 5


def test_the_higher_card_takes_the_columns_domain_card():
    g = placing("13 2 . . .", "3 12 . . .", mover=0)
    row_cards = list(g["domain_row"])
    g["board"] = [row("13 2 5 6 7"), row("3 12 1 8 9")]
    N.end_round(g, Rng(RNG_SEED), Log())
    assert g["taken"][0] == [row_cards[0], row_cards[2]]
    assert g["taken"][1] == [row_cards[1], row_cards[3], row_cards[4]]


def test_worked_example_column_comparison():
    board = [row("13 10 7 K 8"), row("11 12 4 9 5")]
    assert [N.compare_column(board, c) for c in range(5)] == [0, 1, 0, 0, 0]


def test_one_beats_fourteen():
    assert N.beats(1, 14) and not N.beats(14, 1)


def test_one_beats_only_the_fourteen_among_higher_values():
    assert [N.beats(1, c) for c in range(2, 16)] == [False] * 12 + [True, False]


def test_fourteen_beats_everything_but_the_kraken_and_the_one():
    assert [N.beats(14, c) for c in range(0, 14)] == [True] + [False] + [True] * 12
    assert not N.beats(14, 15)


def test_kraken_counts_fifteen():
    assert all(N.beats(15, c) for c in range(0, 15))


def test_fishbone_counts_zero_and_loses_to_everything_including_the_one():
    assert not any(N.beats(0, c) for c in range(1, 16))
    assert N.beats(1, 0)


# --- Clean-up and the special deck ------------------------------------------------------------


def finish_round(g):
    r = g["round"]
    while g["round"] == r and g["phase"] != "over":
        seat = next(iter(GAME.active_seats(g)))
        act(g, seat, GAME.format(GAME.legal_actions(g, seat)[0]))


def test_specials_of_the_round_are_discarded_used_or_not():
    g = new_game(2)
    drawn = list(g["draft"])
    finish_round(g)
    assert g["round"] == 2 and sorted(g["special_discard"]) == sorted(drawn)
    assert g["specials"] == [[], []]


def test_all_fourteen_divers_are_reshuffled_for_the_next_round():
    g = new_game(2)
    finish_round(g)
    assert sorted(g["hands"][0] + g["hands"][1] + g["diver_pile"]) == list(range(1, 15))
    assert g["board"] == [[None] * 5, [None] * 5] and g["placements"] == 0


def test_five_new_domain_cards_are_dealt_face_up():
    g = new_game(2)
    top = g["domain_pile"][:5]
    finish_round(g)
    assert g["domain_row"] == top and len(g["domain_pile"]) == 20


def test_the_nemo_token_passes_to_the_other_player():
    g = new_game(2)
    nemo = g["nemo"]
    finish_round(g)
    assert g["nemo"] == 1 - nemo and GAME.active_seats(g) == {1 - nemo}


def test_special_deck_cycles_over_rounds_one_to_three_and_four_to_six():
    g = new_game(4)
    g["won"] = [None] * 5
    seen = []
    while g["phase"] != "over":
        if g["phase"] == "draft":
            seen.append((g["round"], tuple(g["draft"]), len(g["special_deck"])))
        seat = next(iter(GAME.active_seats(g)))
        act(g, seat, GAME.format(GAME.legal_actions(g, seat)[0]))
        g["won"] = [None] * 5  # keep the game going to round 6
    assert [s[0] for s in seen] == [1, 2, 3, 4, 5, 6]
    assert [s[2] for s in seen] == [4, 2, 0, 4, 2, 0]
    for cycle in (seen[:3], seen[3:]):
        assert sorted(c for s in cycle for c in s[1]) == sorted(N.SPECIALS)


# --- Special cards ---------------------------------------------------------------------------


def test_anchor_pins_the_placed_card_or_any_card_already_on_the_board_with_the_option():
    g = placing("3 . . . .", "5 . . . .", mover=0, hands=[[7], [2]], specials=[["anchor"], []])
    g["anchor_placed_card"] = True  # the French rulebook's reading (the page's: tests/engine/
    # test_page_sentences.py, test_nautilus_the_anchor_pins_a_diver_already_on_the_board)
    legal = moves(g, 0)
    assert "place 7 me2 anchor 7" in legal and "place 7 me2 anchor 3" in legal
    assert "place 7 me2 anchor 5" in legal and "place 7 me2" in legal
    act(g, 0, "place 7 me2 anchor 3")
    assert g["anchored"] == 3 and g["specials"][0] == []
    # The 7's arrow: the anchored 3 cannot move, and no other card of that side can.
    assert g["phase"] == "place"


def test_anchor_takes_no_space():
    g = placing("3 . . . .", ". . . . .", mover=0, hands=[[7], [2]], specials=[["anchor"], []])
    g["anchor_placed_card"] = False  # the default
    act(g, 0, "place 7 me2 anchor 3")
    assert g["placements"] == 2 and sum(c is not None for r in g["board"] for c in r) == 2


def test_pinned_cards_own_arrow_still_acts():
    g = placing("3 . . . .", ". . . . .", mover=0, hands=[[9], [2]], specials=[["anchor"], []])
    g["anchor_placed_card"] = True  # only then may the card being placed be pinned
    act(g, 0, "place 9 me2 anchor 9")
    assert g["phase"] == "move" and moves(g, 0) == ["move me1 opp1"]


@pytest.mark.parametrize("pins_the_placed_card", [False, True, None])  # None: an older game
@pytest.mark.slow
def test_a_placement_is_legal_exactly_when_the_list_holds_it_under_each_rule_of_the_anchor(
    pins_the_placed_card,
):
    """The place phase's own is_legal (N.is_place_legal) answers as the legal list does for
    every card, space and pin a placement could name, with the Anchor in hand under each of its
    rules (tests/engine/test_is_legal.py checks random games, all with the default rule)."""
    g = placing(
        "3 . 9 . .", "5 . . . 12", hands=[[7, 14], [2]], specials=[["anchor", "kraken"], []]
    )
    if pins_the_placed_card is None:
        g.pop("anchor_placed_card", None)
    else:
        g["anchor_placed_card"] = pins_the_placed_card
    legal = GAME.legal_actions(g, 0)
    named = [
        {"type": "place", "card": card, "side": side, "col": col, "anchor": pin}
        for card in range(16)
        for side in ("me", "opp", "them")
        for col in range(7)
        for pin in [None, *range(16)]
    ]
    assert sum(GAME.is_legal(g, 0, a) for a in named) == len(legal)
    for action in named:
        assert GAME.is_legal(g, 0, action) == (action in legal), action


def test_a_placements_choice_key_is_equal_exactly_where_its_legal_list_is():
    """The place phase's choice_key (N.place_choice) stands for the placer's list: over
    positions that differ in one card on the board, an empty space, a card in hand, the Anchor
    held or not, or its rule, two keys are equal exactly when the lists are
    (tests/engine/test_choice_key.py's random positions seldom meet two so alike)."""
    boards = [
        ("3 . 9 . .", "5 . . . 12"),
        ("4 . 9 . .", "5 . . . 12"),
        ("3 . 9 . .", "5 . 12 . ."),
        ("3 . 9 . 11", "5 . . . 12"),
    ]
    hands = [[[7, 14], [2]], [[7, 13], [2]]]
    specials = [[["anchor"], []], [[], []], [["kraken"], []], [["anchor", "kraken"], []]]
    keys, lists = [], []
    for (mine, theirs), hand, special, rule in itertools.product(
        boards, hands, specials, [False, True, None]
    ):
        g = placing(mine, theirs, hands=hand, specials=special)
        if rule is None:
            g.pop("anchor_placed_card", None)  # a game from before the option
        else:
            g["anchor_placed_card"] = rule
        keys.append(json.dumps(GAME.choice_key(g, 0)))
        lists.append(json.dumps(GAME.legal_actions(g, 0)))
    assert 1 < len(set(keys)) < len(keys)  # some alike, not all
    for i, j in itertools.combinations(range(len(keys)), 2):
        assert (keys[i] == keys[j]) == (lists[i] == lists[j]), (keys[i], keys[j])


def eye_game():
    g = new_game(6)
    nemo = g["nemo"]
    g["draft"] = ["eye", "harpoon"]
    act(g, nemo, "keep eye")
    return g, nemo


def test_eye_shows_the_opponents_diver_hand():
    g, nemo = eye_game()
    opp_hand = list(g["hands"][1 - nemo])
    assert GAME.view(g, nemo)["eye_seen"] is None
    act(g, nemo, "eye")
    assert GAME.view(g, nemo)["eye_seen"] == opp_hand
    assert GAME.view(g, 1 - nemo)["eye_seen"] is None
    assert GAME.view(g, None)["eye_seen"] is None
    assert GAME.view(g, nemo)["specials"] == []


def test_eye_record_stays_as_seen_and_shows_no_later_cards():
    g, nemo = eye_game()
    act(g, nemo, "eye")
    seen = GAME.view(g, nemo)["eye_seen"]
    act(g, 1 - nemo, "harpoon")
    taken = g["harpoon_taken"]
    act(g, 1 - nemo, f"harpoon give {seen[0]}")
    assert taken in g["hands"][1 - nemo] and taken not in seen
    assert GAME.view(g, nemo)["eye_seen"] == seen


def test_submarine_draws_two_from_the_pile_keeps_one_puts_the_other_back():
    g = new_game(7)
    nemo = g["nemo"]
    g["draft"] = ["anchor", "submarine"]
    act(g, nemo, "keep submarine")
    pile = sorted(g["diver_pile"])
    act(g, nemo, "submarine")
    drawn = g["sub_drawn"]
    assert len(drawn) == 2 and set(drawn) <= set(pile) and len(g["diver_pile"]) == 2
    assert GAME.view(g, nemo)["submarine_drawn"] == drawn
    assert GAME.view(g, 1 - nemo)["submarine_drawn"] == []
    assert moves(g, nemo) == sorted(f"submarine keep {c}" for c in drawn)
    act(g, nemo, f"submarine keep {drawn[1]}")
    assert drawn[1] in g["hands"][nemo] and len(g["hands"][nemo]) == 6
    assert sorted(g["diver_pile"]) == sorted(set(pile) - {drawn[1]})


def test_harpoon_takes_a_random_diver_and_gives_one_of_six_back():
    taken = set()
    for i in range(12):
        g = new_game(i)
        nemo = g["nemo"]
        g["draft"] = ["eye", "harpoon"]
        act(g, nemo, "keep harpoon")
        before = list(g["hands"][1 - nemo])
        act(g, nemo, "harpoon", rng=Rng(seed_of(100 + i)))
        assert len(g["hands"][nemo]) == 6 and len(g["hands"][1 - nemo]) == 4
        assert g["harpoon_taken"] in before and g["harpoon_taken"] in g["hands"][nemo]
        taken.add(before.index(g["harpoon_taken"]))
        assert moves(g, nemo) == sorted(f"harpoon give {c}" for c in g["hands"][nemo])
        give = g["hands"][nemo][0]
        act(g, nemo, f"harpoon give {give}")
        assert give in g["hands"][1 - nemo] and len(g["hands"][1 - nemo]) == 5
    assert len(taken) > 1  # the take is random


def test_harpoon_may_give_back_the_card_just_taken():
    g = new_game(1)
    nemo = g["nemo"]
    g["draft"] = ["eye", "harpoon"]
    act(g, nemo, "keep harpoon")
    before = sorted(g["hands"][1 - nemo])
    act(g, nemo, "harpoon")
    act(g, nemo, f"harpoon give {g['harpoon_taken']}")
    assert sorted(g["hands"][1 - nemo]) == before


def test_harpoon_and_submarine_moves_are_logged_only_for_those_who_saw_them():
    g = new_game(1)
    nemo = g["nemo"]
    g["draft"] = ["submarine", "harpoon"]
    act(g, nemo, "keep submarine")
    entries = act(g, nemo, "submarine")
    drawn = g["sub_drawn"]
    for e in entries:
        if e.to is None:
            assert "cards" not in e.data
        else:
            assert e.to == {nemo} and e.data["cards"] == drawn
    entries = act(g, nemo, f"submarine keep {drawn[0]}")
    assert [e.to for e in entries if "card" in e.data] == [frozenset([nemo])]
    entries = act(g, 1 - nemo, "harpoon")
    taken = g["harpoon_taken"]
    assert [(e.to, e.data) for e in entries if e.data] == [(frozenset([0, 1]), {"card": taken})]
    assert all(str(taken) not in e.text for e in entries if e.to is None)


# --- Scoring and end -------------------------------------------------------------------------


def cards(domain, *points):
    return [{"domain": domain, "points": p} for p in points]


def test_domain_points_two_star_one_star_ink_blot():
    assert N.domain_points(cards("war", 2, 1, -1)) == [0, 0, 0, 0, 2]


def test_domain_won_for_good_at_four_points():
    g = new_game()
    g["taken"] = [cards("war", 2, 1), cards("war", 1)]
    N.check_domains(g)
    assert g["won"][4] is None
    g["taken"][0] += cards("war", 1)
    N.check_domains(g)
    assert g["won"][4] == 0


def test_domain_won_at_three_points_once_its_ink_blot_is_taken():
    g = new_game()
    g["taken"] = [cards("navigation", 2, 1), []]
    N.check_domains(g)
    assert g["won"][2] is None
    g["taken"][0] += cards("navigation", 1, -1) + cards("navigation", 1)
    N.check_domains(g)
    assert g["won"][2] == 0


def test_worked_example_two_domain_wins():
    g = new_game()
    g["taken"] = [
        cards("science", 2, 1, 1) + cards("exploration", 1, 1, 1) + cards("war", 2),
        cards("exploration", -1) + cards("navigation", 2, 1),
    ]
    N.check_domains(g)
    assert g["won"] == [0, 0, None, None, None]


def test_a_won_domain_stays_won_when_points_drop():
    g = new_game()
    g["taken"] = [cards("science", 2, 1, 1), []]
    N.check_domains(g)
    g["taken"][0] += cards("science", -1)
    g["taken"][1] += cards("science", 1)
    N.check_domains(g)
    assert g["won"][0] == 0


def full_round_end(g, won_before, taken):
    """End a round on the worked example's board; the row is all science (seat 0 wins 4)."""
    g["won"] = won_before
    g["taken"] = taken
    g["domain_row"] = cards("science", 1, 1, 1, 1, 2)
    g["board"] = [row("13 10 7 14 8"), row("11 12 4 9 5")]
    N.end_round(g, Rng(RNG_SEED), Log())


def test_the_game_ends_when_a_player_has_won_three_domains():
    g = new_game()
    full_round_end(g, [0, 0, None, None, 1], [cards("engineering", 2, 1, 1, 1), []])
    assert g["phase"] == "over"
    assert GAME.outcome(g).winners == (0,) and GAME.outcome(g).scores == (3, 1)


def test_the_game_goes_on_with_fewer_than_three_domains_won():
    g = new_game()
    full_round_end(g, [0, 0, None, None, 1], [[], []])
    assert g["phase"] == "draft" and g["round"] == 2 and GAME.outcome(g) is None


def test_the_game_ends_after_round_six_with_every_domain_decided():
    g = new_game()
    g["round"] = 6
    g["domain_pile"] = []
    g["won"] = [0, 1, None, None, None]
    g["taken"] = [
        cards("science", 2, 1, 1, 1)
        + cards("exploration", 1, 1)
        + cards("navigation", 2, 1)
        + cards("engineering", 2, -1)
        + cards("war", 1, 1),
        cards("science", 1, -1)
        + cards("exploration", 2, 1, 1, -1)
        + cards("navigation", 1, -1, 1)
        + cards("engineering", 1, 1)
        + cards("war", 2, -1),
    ]
    g["domain_row"] = cards("navigation", 1) + cards("engineering", 1, 1) + cards("war", 1, 1)
    g["board"] = [row("13 10 7 14 8"), row("11 12 4 9 5")]
    N.end_round(g, Rng(RNG_SEED), Log())
    assert g["phase"] == "over" and not g["domain_pile"]
    totals = [N.domain_points(g["taken"][s]) for s in (0, 1)]
    assert [totals[0][d] + totals[1][d] for d in range(5)] == [5] * 5
    # navigation 4 to 1, engineering 2 to 3 (seat 1 took column 2), war 4 to 1
    assert g["won"] == [0, 1, 0, 1, 0]
    assert GAME.outcome(g).scores == (3, 2) and GAME.outcome(g).winners == (0,)


@pytest.mark.slow  # over a second: not in make test-fast
def test_random_games_end_within_six_rounds():
    for i in range(30):
        m, _ = conformance.play(GAME, 2, None, seed_of(500 + i))
        g, out = m["state"], GAME.outcome(m["state"])
        assert (g["round"] <= 6 and max(out.scores) >= 3) or g["round"] == 6


def test_score_is_the_number_of_domains_won():
    g = new_game()
    full_round_end(
        g, [0, 1, 1, None, None], [cards("engineering", 2, 1, 1), cards("war", 2, 1, 1, 1)]
    )
    out = GAME.outcome(g)
    assert g["won"] == [0, 1, 1, 0, 1]
    assert out.scores == (2, 3) and out.winners == (1,)


def test_hidden_domains_each_player_sees_own_won_cards_and_opponents_count():
    g = new_game(hidden=True)
    g["taken"] = [cards("war", 2, 1), cards("science", 1)]
    v0, v1, spec = GAME.view(g, 0), GAME.view(g, 1), GAME.view(g, None)
    assert v0["taken"] == [cards("war", 2, 1), None] and v0["taken_counts"] == [2, 1]
    assert v1["taken"] == [None, cards("science", 1)]
    assert spec["taken"] == [None, None] and spec["points"] == [None, None]
    assert v0["points"][1] is None and v0["points"][0] == [0, 0, 0, 0, 3]


def test_hidden_domains_no_domain_is_announced_or_locked_in_view():
    g = new_game(hidden=True)
    log = Log()
    g["taken"] = [cards("war", 2, 1, 1), []]
    g["board"] = [row("13 10 7 14 8"), row("11 12 4 9 5")]
    N.end_round(g, Rng(RNG_SEED), log)
    assert g["won"][4] == 0  # the server knows, for the end condition
    assert GAME.view(g, 0)["won"] == [None] * 5 and GAME.view(g, 0)["domains_won"] == [None, None]
    assert not any("has won" in e.text for e in log.entries)
    assert not any("card" in e.data for e in log.entries if e.to is None)


def test_hidden_domains_at_the_end_each_domain_goes_to_the_higher_total():
    g = new_game(hidden=True)
    # Seat 0 had won science (locked on the server), but seat 1 now has more points in it;
    # engineering is tied at 0.
    g["won"] = [0, 1, 1, None, 0]
    g["taken"] = [
        cards("science", 2, 1, -1) + cards("war", 2, 1, 1, 1),
        cards("science", 1, 1, 1)
        + cards("exploration", 2, 1, 1, 1)
        + cards("navigation", 2, 1, 1, 1),
    ]
    N.finish(g, "a player won 3 domains", Log())
    out = GAME.outcome(g)
    assert g["result"]["domains"] == [1, 1, 1, None, 0]
    assert out.scores == (1, 3) and out.winners == (1,)


def test_hidden_domains_end_condition_is_still_checked_each_round():
    g = new_game(hidden=True)
    full_round_end(g, [0, 0, None, None, None], [cards("engineering", 2, 1, 1, 1), []])
    assert g["phase"] == "over" and GAME.view(g, 1)["final_domains"] is not None
    assert GAME.view(g, 1)["taken"][0] is not None  # revealed when the game ends


# --- Options and notation --------------------------------------------------------------------


def test_hidden_domains_option_is_validated():
    seed = seed_of(1)
    m, _ = runner.start(GAME, 2, None, seed, 1)
    assert m["options"] == {"anchor_placed_card": False, "hidden_domains": False}
    m, _ = runner.start(GAME, 2, {"hidden_domains": True}, seed, 1)
    assert m["state"]["hidden"] is True
    with pytest.raises(InvalidOptions, match="true or false"):
        runner.start(GAME, 2, {"hidden_domains": "yes"}, seed, 1)
    with pytest.raises(InvalidOptions, match="no option"):
        runner.start(GAME, 2, {"hide": True}, seed, 1)
    with pytest.raises(InvalidOptions, match="2 to 2 players"):
        runner.start(GAME, 3, None, seed, 1)


def test_notation_reads_examples_case_insensitively():
    assert GAME.parse("  PLACE  Kraken  OPP3 ") == {
        "type": "place",
        "card": 15,
        "side": "opp",
        "col": 3,
        "anchor": None,
    }
    assert GAME.parse("place 12 me2 anchor 12")["anchor"] == 12
    assert GAME.parse("move me2 opp2") == {
        "type": "move",
        "from_side": "me",
        "from_col": 2,
        "to_side": "opp",
        "to_col": 2,
    }
    assert GAME.parse("submarine keep 4") == {"type": "submarine_keep", "card": 4}
    assert GAME.parse("Harpoon give 9") == {"type": "harpoon_give", "card": 9}
    assert GAME.parse("keep EYE") == {"type": "keep", "special": "eye"}


@pytest.mark.parametrize(
    "text",
    [
        "place 7",
        "place 15 me1",
        "place 7 me6",
        "move me1",
        "keep octopus",
        "fly",
        "harpoon give x",
        "place 7 top3",
    ],
)
def test_bad_notation_is_malformed_with_the_expected_form(text):
    with pytest.raises(MalformedAction) as err:
        GAME.parse(text)
    assert "write" in err.value.message or "card" in err.value.message


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place", "card": "7", "side": "me", "col": 1},
        {"type": "place", "card": 7, "side": "top", "col": 1},
        {"type": "move", "from_side": "me"},
        {"type": "dive"},
        {"type": "keep", "special": "octopus"},
    ],
)
def test_malformed_action_objects_are_refused(action):
    with pytest.raises(MalformedAction):
        runner.read_action(GAME, action=action)


def test_hidden_domains_tied_domain_goes_to_nobody_and_equal_counts_share_the_win():
    g = new_game(hidden=True)
    g["taken"] = [
        cards("science", 2, 1, 1) + cards("war", 1),
        cards("exploration", 2, 1, 1) + cards("war", 1),
    ]
    N.finish(g, "a player won 3 domains", Log())
    assert g["result"]["domains"] == [0, 1, None, None, None]
    assert GAME.outcome(g).winners == (0, 1) and GAME.outcome(g).scores == (1, 1)


def test_the_view_keeps_the_round_just_played_until_the_next_placement():
    """The tenth card ends the round and deals the next in the same move: the view keeps the
    round's final board, its Domain cards and who won each column until a card is placed."""
    g = new_game(3)
    rng = Rng(RNG_SEED)
    assert GAME.view(g, 0)["last_round"] is None
    while g["round"] == 1:
        seat = min(GAME.active_seats(g))
        action = GAME.legal_actions(g, seat)[0]
        board, row_cards = [list(side) for side in g["board"]], list(g["domain_row"])
        GAME.apply(g, seat, action, rng, Log())
    last = GAME.view(g, None)["last_round"]
    assert last == GAME.view(g, 1)["last_round"]  # the same for everyone: it was on the table
    assert last["round"] == 1 and last["domain_row"] == row_cards
    assert all(card is not None for side in last["board"] for card in side)
    assert last["board"] != board  # the tenth card is on it
    assert last["winners"] == [N.compare_column(last["board"], c) for c in range(N.COLUMNS)]
    assert g["round"] == 2 and g["board"] == [[None] * N.COLUMNS] * 2
    while g["phase"] != "place":  # the new round's draft and start steps keep it
        seat = min(GAME.active_seats(g))
        GAME.apply(g, seat, GAME.legal_actions(g, seat)[0], rng, Log())
        assert GAME.view(g, 0)["last_round"] == last
    seat = min(GAME.active_seats(g))
    GAME.apply(g, seat, GAME.legal_actions(g, seat)[0], rng, Log())
    assert GAME.view(g, 0)["last_round"] is None


def test_with_hidden_domains_the_history_names_no_domain_card_until_the_end():
    """With the hidden-domains option, a player's log shows no Domain card of the other's
    before the game ends (it would rebuild their hidden pile); the end reveals them all."""
    for i in range(5):
        seen: list = []

        def step(before, seat, action, after, entries, seen=seen):
            seen.extend((after["outcome"] is not None, e) for e in entries)

        m, _ = conformance.play(GAME, 2, {"hidden_domains": True}, seed_of(700 + i), on_step=step)
        for over, entry in seen:
            for reader in (0, 1, None):
                if over or not entry.visible_to(reader) or entry.to == frozenset({reader}):
                    continue
                named = [
                    c for c in N.domain_deck() if f"{c['domain']} {c['points']:+d}" in entry.text
                ]
                assert not named and "domain_row" not in entry.data, entry.text
        revealed = [e.text for over, e in seen if over and " took " in e.text]
        taken = m["state"]["taken"]
        assert len(revealed) == 2 and all(
            f"{c['domain']} {c['points']:+d}" in revealed[s] for s in (0, 1) for c in taken[s]
        ), revealed
