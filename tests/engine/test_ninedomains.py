"""The Nine Domains: one test per rule of docs/games/rules/ninedomains.md and the seed.

States are built by hand with `table(...)`; a round is played with `play_round(...)`, which
applies both seats' `play` actions through the game as the runner would.
"""

import pytest

from engine import match as runner
from engine.core import InvalidOptions, Log, MalformedAction, NotYourTurn
from engine.games.ninedomains import (
    BASE_CARDS,
    DOMAIN_POINTS,
    DOMAINS,
    FULL_PURPLE_DECK,
    GAME,
    PLAIN_DECK,
    SPECIAL_KINDS,
    check_elements,
    combat_bonuses,
    effect_winner,
    elements_of,
    fight_slot,
    sort_cards,
)
from engine.rng import Rng
from tests.engine import conformance

SEED = b"nine-domains-test-seed-000000000"


# ------------------------------------------------------------------ helpers


def duel(card0, card1, bonus0=0, bonus1=0):
    """Fight one slot: seat 0's card against seat 1's; returns (winner, how)."""
    f = fight_slot([card0, card1], [bonus0, bonus1])
    return f["winner"], f["how"]


def table(
    *,
    specials=("1-", "2-", "3+"),
    round_no=1,
    face_up=("red2", "blue2", "green2"),
    domains=((), ()),
    used=((), ()),
    carry=((0, 0, 0), (0, 0, 0)),
    bonus=(0, 0),
    mode="per_game",
):
    """A commit-phase state from a readable description. Hands are what each seat was dealt
    (the base cards and `specials`) minus its `used` cards; the domains left over go into the
    piles under the face-up ones."""
    taken = set(face_up) | set(domains[0]) | set(domains[1])
    rest = [d for d in PLAIN_DECK if d not in taken]  # the deck these tables were written for
    under = 3 - round_no
    piles = [rest[i * under : (i + 1) * under] for i in range(3)]
    hands = []
    for s in (0, 1):
        hand = list(BASE_CARDS) + list(specials)
        for c in used[s]:
            hand.remove(c)
        hands.append(sort_cards(hand))
    leftover = [k for k in SPECIAL_KINDS if k not in specials]
    return {
        "specials_mode": mode,
        "round": round_no,
        "phase": "commit",
        "piles": piles,
        "face_up": list(face_up),
        "special_deck": leftover,
        "specials": list(specials),
        "hands": hands,
        "committed": [None, None],
        "used": [sort_cards(u) for u in used],
        "carry": [list(c) for c in carry],
        "domains": [list(d) for d in domains],
        "discarded": [],
        "bonus": list(bonus),
        "pending": [],
        "battles": [],
        "elements_void": False,
        "element_winner": None,
    }


def play_round(g, cards0, cards1):
    """Both seats commit (seat 0 first); returns the log of the two moves."""
    log = Log()
    for seat, text in ((0, cards0), (1, cards1)):
        action = GAME.parse("play " + text)
        assert action in GAME.legal_actions(g, seat), f"{text} is not legal for seat {seat}"
        g = GAME.apply(g, seat, action, Rng(SEED), log)
    return log


def act(g, seat, text):
    action = GAME.parse(text)
    assert action in GAME.legal_actions(g, seat), f"{text} is not legal for seat {seat}"
    return GAME.apply(g, seat, action, Rng(SEED), Log())


def last_battles(g):
    return g["battles"][-3:]


def new_game(options=None, seed=SEED):
    return runner.start(GAME, 2, options, seed, 1)[0]


# ------------------------------------------------------------------ components


def test_nine_domains_in_three_piles_of_three():
    g = new_game()["state"]
    # Round 1 has turned the top of each pile face up: two stay hidden under each.
    assert [len(p) for p in g["piles"]] == [2, 2, 2]
    assert sorted(g["face_up"] + [d for pile in g["piles"] for d in pile]) == sorted(
        FULL_PURPLE_DECK
    )
    old = new_game({"full_purple": False})["state"]
    assert sorted(old["face_up"] + [d for pile in old["piles"] for d in pile]) == sorted(PLAIN_DECK)


def test_domain_deck_has_four_elements_and_two_purple_halves():
    for deck, sixth in ((FULL_PURPLE_DECK, "purple"), (PLAIN_DECK, None)):
        domains = [d for d in DOMAINS if d.id in deck]
        assert len(domains) == 9 and sum(DOMAIN_POINTS[d] for d in deck) == 30
        elements = [d.element for d in domains if not d.half]
        assert sorted(e for e in elements if e) == sorted(
            ["blue", "blue", "green", "green", "red", "red"] + ([sixth] if sixth else [])
        )
        assert [d.id for d in domains if d.half] == ["purple3a", "purple3b"]


def test_the_domain_piles_are_shuffled_with_the_game_seed():
    orders = {tuple(new_game(seed=bytes([i]) * 32)["state"]["face_up"]) for i in range(1, 9)}
    assert len(orders) > 1


def test_each_player_has_the_six_base_cards_and_three_specials():
    g = new_game()["state"]
    for s in (0, 1):
        assert len(g["hands"][s]) == 9
        assert [c for c in g["hands"][s] if c in BASE_CARDS] == list(BASE_CARDS)


def test_both_players_get_the_same_three_special_kinds():
    g = new_game()["state"]
    specials = [c for c in g["hands"][0] if c in SPECIAL_KINDS]
    assert len(specials) == 3
    assert g["hands"][0] == g["hands"][1]
    assert sort_cards(g["specials"]) == specials


def test_special_kinds_are_drawn_with_the_game_seed():
    kinds = {tuple(new_game(seed=bytes([i]) * 32)["state"]["specials"]) for i in range(1, 9)}
    assert len(kinds) > 1


def test_per_game_specials_all_nine_cards_are_played():
    m, _ = conformance.play(GAME, 2, None, SEED)
    g = m["state"]
    if g["element_winner"] is None:
        assert g["hands"] == [[], []]
        for s in (0, 1):
            assert sort_cards(g["used"][s]) == sort_cards(list(BASE_CARDS) + g["specials"])


def test_per_round_specials_three_new_kinds_each_round():
    g = new_game({"specials": "per_round"})["state"]
    assert len(g["specials"]) == 3 and len(g["hands"][0]) == 9
    play_round(g, " ".join(g["hands"][0][:3]), " ".join(g["hands"][1][:3]))
    while g["phase"] == "effects":
        g = act(g, g["pending"][0]["seat"], "pass")
    assert g["round"] == 2
    assert len(g["specials"]) == 6 and len(set(g["specials"])) == 6
    assert len(g["hands"][0]) == len(g["hands"][1]) == 9
    assert all(k in g["hands"][0] for k in g["specials"][3:])


# ------------------------------------------------------------------ a round


def test_each_round_the_top_domain_of_each_pile_is_face_up():
    g = table(face_up=("red2", "blue2", "green2"))
    under = [p[0] for p in g["piles"]]
    play_round(g, "0 1 2", "0 1 2")
    assert g["round"] == 2
    assert g["face_up"] == under


def test_play_is_one_card_per_slot_left_middle_right():
    g = table()
    play_round(g, "5 0 1", "4 1 0")
    assert [b["cards"] for b in last_battles(g)] == [["5", "4"], ["0", "1"], ["1", "0"]]
    assert [b["domain"] for b in last_battles(g)] == ["red2", "blue2", "green2"]


def test_legal_plays_are_all_ordered_triples_of_distinct_hand_cards():
    g = table()
    legal = GAME.legal_actions(g, 0)
    assert len(legal) == 9 * 8 * 7
    triples = [tuple(a["cards"]) for a in legal]
    assert len(set(triples)) == len(triples)
    assert all(len(set(t)) == 3 and set(t) <= set(g["hands"][0]) for t in triples)
    rank = {c: i for i, c in enumerate(g["hands"][0])}
    assert triples == sorted(triples, key=lambda t: [rank[c] for c in t])


def test_both_seats_choose_at_the_same_time():
    g = table()
    assert GAME.active_seats(g) == frozenset({0, 1})
    act(g, 1, "play 0 1 2")
    assert GAME.active_seats(g) == frozenset({0})
    assert GAME.legal_actions(g, 1) == []


def test_committed_is_public_but_the_committed_cards_are_not():
    a, b = table(), table()
    act(a, 0, "play 5 4 3")
    act(b, 0, "play 0 1- 2")
    for seat in (1, None):
        assert GAME.view(a, seat) == GAME.view(b, seat)
        assert GAME.view(a, seat)["committed"] == [True, False]
        assert GAME.view(a, seat)["my_cards"] is None


def test_own_view_shows_own_committed_cards():
    g = act(table(), 0, "play 5 4 3")
    v = GAME.view(g, 0)
    assert v["my_cards"] == ["5", "4", "3"]
    assert "5" not in v["hand"] and len(v["hand"]) == 6


def test_legal_actions_do_not_change_when_the_other_seat_commits():
    m = new_game()
    before = runner.legal_actions(GAME, m, 1)
    m, _ = runner.act(GAME, m, 0, runner.legal_actions(GAME, m, 0)[123], SEED, 2)
    assert runner.legal_actions(GAME, m, 1) == before
    assert runner.is_current(m, 1, expected_version=1, version=2)


def test_a_commit_is_logged_with_its_cards_only_for_its_owner():
    m = new_game()
    action = GAME.parse("play 5 4 3")
    m, entries = runner.act(GAME, m, 0, action, SEED, 2)
    for e in entries:
        if e.visible_to(1) or e.visible_to(None):
            assert "5" not in e.text and "cards" not in e.data
    assert any(e.to == frozenset({0}) and e.data["cards"] == ["5", "4", "3"] for e in entries)


def test_errors_after_a_commit_do_not_reveal_the_committed_cards():
    m = new_game()
    m, _ = runner.act(GAME, m, 0, GAME.parse("play 5 4 3"), SEED, 2)
    with pytest.raises(NotYourTurn) as err:
        runner.act(GAME, m, 0, GAME.parse("play 2 1 0"), SEED, 3)
    assert "5" not in err.value.message and "4" not in err.value.message


def test_played_cards_are_set_aside_face_up():
    g = table()
    play_round(g, "5 4 3", "0 1 2")
    for seat in (0, 1, None):
        assert GAME.view(g, seat)["used"] == [["3", "4", "5"], ["0", "1", "2"]]
    assert g["hands"][0] == sort_cards(["0", "1", "2", "1-", "2-", "3+"])


def test_the_winner_of_a_slot_takes_its_domain_face_up():
    g = table(face_up=("red2", "blue4", "plain6"))
    play_round(g, "5 0 1", "4 1 2")
    assert g["domains"] == [["red2"], ["blue4", "plain6"]]
    assert GAME.view(g, None)["domains"] == [["red2"], ["blue4", "plain6"]]


# ------------------------------------------------------------------ combat: special effects


def test_zero_beats_five():
    assert duel("0", "5") == (0, "effect")
    assert duel("5", "0") == (1, "effect")


def test_zero_beats_five_whatever_the_bonuses():
    assert duel("0", "5", bonus0=-1, bonus1=2) == (0, "effect")


def test_zero_loses_to_base_one():
    assert duel("0", "1") == (1, "strength")


def test_four_minus_loses_to_base_one():
    assert duel("4-", "1") == (1, "effect")
    assert duel("1", "4-") == (0, "effect")


def test_four_minus_loses_to_star():
    assert duel("4-", "*") == (1, "effect")


def test_four_minus_beats_one_plus():
    """Only the base 1 beats the 4-."""
    assert duel("4-", "1+") == (0, "strength")


def test_four_minus_beats_one_minus():
    assert duel("4-", "1-") == (0, "strength")


def test_four_minus_loses_to_base_one_whatever_the_bonuses():
    assert duel("4-", "1", bonus0=2) == (1, "effect")


def test_star_beats_base_three():
    assert duel("*", "3") == (0, "effect")


def test_star_beats_base_four():
    assert duel("4", "*") == (1, "effect")


def test_star_beats_base_five():
    assert duel("*", "5", bonus1=2) == (0, "effect")


def test_star_beats_four_minus():
    assert duel("*", "4-") == (0, "effect")


def test_star_loses_to_base_two():
    assert duel("*", "2") == (1, "effect")


def test_star_loses_to_base_zero():
    assert duel("0", "*") == (0, "effect")


def test_star_loses_to_base_one():
    assert duel("*", "1") == (1, "effect")


def test_star_loses_to_three_plus():
    """The * beats the *base* 3 only."""
    assert duel("*", "3+") == (1, "effect")


def test_star_loses_to_three_minus():
    assert duel("3-", "*") == (0, "effect")


def test_star_loses_to_four_plus():
    assert duel("*", "4+") == (1, "effect")


def test_star_loses_to_one_minus():
    assert duel("*", "1-") == (1, "effect")


def test_star_ignores_strength_modifiers():
    f = fight_slot(["*", "2"], [5, 0])
    assert f["winner"] == 1 and f["bonuses"] == [0, 0]


def test_star_against_star_removes_the_domain():
    assert duel("*", "*", bonus0=2) == (None, "identical")


def test_effect_table_decides_only_its_pairings():
    assert effect_winner("5", "4") is None
    assert effect_winner("0", "4") is None
    assert effect_winner("1+", "4-") is None


# ------------------------------------------------------------------ combat: strength and ties


def test_higher_strength_wins_five_beats_four():
    assert duel("5", "4") == (0, "strength")


def test_strength_counts_bonuses_two_with_plus_two_beats_base_three():
    assert duel("2", "3", bonus0=2) == (0, "strength")


def test_equal_strength_larger_bonus_wins_two_with_plus_two_beats_base_four():
    assert duel("4", "2", bonus1=2) == (1, "bonus")


def test_equal_strength_larger_bonus_wins_base_four_beats_five_with_minus_one():
    assert duel("5", "4", bonus0=-1) == (1, "bonus")


def test_identical_base_three_and_base_three_remove_the_domain():
    assert duel("3", "3") == (None, "identical")


def test_identical_two_plus_and_two_plus_remove_the_domain():
    assert duel("2+", "2+", bonus0=1, bonus1=1) == (None, "identical")


def test_three_plus_beats_base_three_on_a_tie():
    assert duel("3", "3+") == (1, "symbol")


def test_base_three_beats_three_minus_on_a_tie():
    assert duel("3-", "3") == (1, "symbol")


def test_two_plus_beats_two_minus_on_a_tie():
    assert duel("2+", "2-") == (0, "symbol")


def test_one_plus_beats_one_minus_with_equal_bonuses():
    assert duel("1-", "1+", bonus0=1, bonus1=1) == (1, "symbol")


def test_larger_bonus_beats_the_symbol_base_two_with_plus_one_beats_two_plus():
    """2 (+1) against 2+ (+0) is 3 against 2: the bonus counts before any symbol."""
    assert duel("2", "2+", bonus0=1) == (0, "strength")
    assert duel("3-", "2+", bonus1=1) == (1, "bonus")


def test_identical_cards_in_play_leave_the_domain_out_of_the_game():
    g = table(face_up=("red2", "blue2", "green2"))
    play_round(g, "3 0 1", "3 1 0")
    assert g["discarded"] == ["red2"]
    assert "red2" not in g["domains"][0] + g["domains"][1]


# ------------------------------------------------------------------ the specials


def test_one_minus_in_the_middle_gives_plus_one_to_left_and_right():
    assert combat_bonuses(["2", "1-", "3"], [0, 0, 0], 1) == [1, 0, 1]


def test_one_minus_on_an_edge_gives_plus_two_to_its_one_neighbour():
    assert combat_bonuses(["1-", "2", "3"], [0, 0, 0], 1) == [0, 2, 0]
    assert combat_bonuses(["3", "2", "1-"], [0, 0, 0], 1) == [0, 2, 0]


def test_one_minus_helps_only_its_owner_in_play():
    g = table(specials=("1-", "2-", "3+"))
    play_round(g, "1- 2 3", "5 2 4")
    _left, middle, right = last_battles(g)
    assert middle["bonuses"] == [2, 0] and middle["strengths"] == [4, 2]
    assert middle["winner"] == 0
    assert right["bonuses"] == [0, 0]


def test_one_plus_gives_plus_two_to_the_next_card_in_the_same_slot():
    g = table(specials=("1+", "2-", "3+"))
    play_round(g, "1+ 0 1", "5 1 0")
    assert g["carry"] == [[2, 0, 0], [0, 0, 0]]
    play_round(g, "2 3 4", "3 4 2")
    left = last_battles(g)[0]
    assert left["bonuses"] == [2, 0] and left["strengths"] == [4, 3] and left["winner"] == 0


def test_one_plus_played_in_round_three_gives_nothing():
    g = table(specials=("1+", "2+", "4+"), round_no=3, used=(("0", "1", "2", "3", "4", "5"),) * 2)
    play_round(g, "1+ 2+ 4+", "1+ 2+ 4+")
    assert g["phase"] == "over"
    assert g["carry"] == [[0, 0, 0], [0, 0, 0]]


def test_two_plus_gives_plus_one_to_the_next_card_in_the_same_slot():
    g = table(specials=("2+", "2-", "3+"))
    play_round(g, "0 2+ 1", "1 0 2")
    assert g["carry"][0] == [0, 1, 0]
    play_round(g, "5 3 4", "4 3 5")
    middle = last_battles(g)[1]
    assert middle["strengths"] == [4, 3] and middle["winner"] == 0


def test_four_plus_gives_minus_one_to_the_next_card_in_the_same_slot():
    g = table(specials=("4+", "2-", "3+"))
    play_round(g, "0 1 4+", "1 0 2")
    assert g["carry"][0] == [0, 0, -1]
    play_round(g, "2 3 4", "5 4 3")
    right = last_battles(g)[2]
    assert right["bonuses"] == [-1, 0] and right["strengths"] == [3, 3]
    assert right["winner"] == 1 and right["how"] == "bonus"


def test_four_plus_in_round_three_has_minus_two():
    g = table(
        specials=("4+", "2-", "3+"),
        round_no=3,
        used=(("0", "1", "3", "4", "5", "2-"), ("0", "1", "3", "4", "5", "2-")),
    )
    play_round(g, "4+ 2 3+", "2 4+ 3+")
    left = last_battles(g)[0]
    assert left["strengths"] == [2, 2] and left["bonuses"] == [-2, 0]
    assert left["winner"] == 1 and left["how"] == "bonus"


def test_two_minus_win_lets_its_owner_swap_a_domain():
    g = table(
        specials=("2-", "3+", "*"),
        face_up=("red2", "blue2", "green2"),
        domains=(("red4",), ("plain6",)),
        round_no=2,
    )
    play_round(g, "2- 0 1", "1 2 0")
    assert GAME.active_seats(g) == frozenset({0})
    assert GAME.view(g, 1)["decision"] == {"seat": 0, "kind": "swap-domain", "slot": 0}
    legal = GAME.legal_actions(g, 0)
    assert {"type": "swap-domain", "mine": "red2", "theirs": "plain6"} in legal
    assert {"type": "pass"} in legal
    g = act(g, 0, "swap-domain red2 plain6")
    assert "plain6" in g["domains"][0] and "red2" in g["domains"][1]
    assert g["round"] == 3 and g["phase"] == "commit"


def test_two_minus_swap_happens_before_the_element_check():
    g = table(
        specials=("2-", "3+", "*"),
        round_no=2,
        face_up=("plain6", "red4", "blue4"),
        domains=(("red2", "blue2", "purple3a", "purple3b"), ("green4",)),
    )
    play_round(g, "2- 0 1", "1 2 3")
    assert g["phase"] == "effects"
    g = act(g, 0, "swap-domain plain6 green4")
    assert elements_of(g["domains"][0]) == ["red", "blue", "green", "purple"]
    assert GAME.outcome(g).winners == (0,)
    assert GAME.outcome(g).reason == "all four elements"


def test_two_minus_owner_may_pass():
    g = table(specials=("2-", "3+", "*"), domains=((), ("plain6",)))
    play_round(g, "2- 0 1", "1 2 0")
    g = act(g, 0, "pass")
    assert g["domains"] == [["red2", "green2"], ["blue2", "plain6"]]
    assert g["round"] == 2 and g["phase"] == "commit"


def test_two_minus_that_loses_gives_no_swap():
    g = table(specials=("2-", "3+", "*"), domains=((), ("plain6",)))
    play_round(g, "2- 0 1", "3 2 0")
    assert g["phase"] == "commit" and g["round"] == 2


def test_two_minus_with_nothing_to_swap_is_skipped():
    g = table(specials=("2-", "3+", "*"))
    play_round(g, "2- 2 3", "1 0 2")
    assert g["domains"][1] == [] and g["phase"] == "commit" and g["round"] == 2


def test_three_minus_win_swaps_a_hand_card_with_a_used_card():
    g = table(specials=("3-", "3+", "*"))
    play_round(g, "3- 5 0", "2 4 1")
    assert GAME.view(g, 0)["decision"] == {"seat": 0, "kind": "swap-card", "slot": 0}
    legal = GAME.legal_actions(g, 0)
    assert len(legal) == 1 + 6 * 3
    assert {"type": "swap-card", "hand": "1", "used": "5"} in legal
    g = act(g, 0, "swap-card 1 5")
    assert "5" in g["hands"][0] and "1" not in g["hands"][0]
    assert g["used"][0] == sort_cards(["0", "1", "3-"])
    assert g["round"] == 2


def test_three_minus_in_round_three_offers_nothing():
    g = table(
        specials=("3-", "3+", "*"),
        round_no=3,
        mode="per_round",
        used=(("3", "4", "*"), ("3", "4", "*")),
    )
    play_round(g, "3- 5 0", "2 1 3+")
    assert g["phase"] == "over" and g["pending"] == []


def test_three_plus_winning_by_two_gains_seven_points():
    g = table(specials=("3+", "2-", "*"), face_up=("red2", "blue2", "green2"))
    play_round(g, "3+ 0 1", "1 2 0")
    assert g["bonus"] == [7, 0]
    assert GAME.view(g, None)["points"] == [2 + 2 + 7, 2]


def test_three_plus_winning_by_one_gains_nothing():
    g = table(specials=("3+", "2-", "*"))
    play_round(g, "3+ 0 1", "2 1 0")
    assert last_battles(g)[0]["winner"] == 0
    assert g["bonus"] == [0, 0]


def test_three_plus_with_a_bonus_winning_by_two_gains_seven_points():
    g = table(specials=("3+", "1-", "*"))
    play_round(g, "1- 3+ 0", "0 4 1")
    middle = last_battles(g)[1]
    assert middle["strengths"] == [5, 4] and middle["winner"] == 0 and g["bonus"] == [0, 0]
    g = table(specials=("3+", "1-", "*"))
    play_round(g, "1- 3+ 0", "0 3 1")
    assert g["bonus"] == [7, 0]


def test_three_plus_beating_star_by_effect_gains_nothing():
    g = table(specials=("3+", "2-", "*"))
    play_round(g, "3+ 0 1", "* 1 0")
    assert last_battles(g)[0]["how"] == "effect" and last_battles(g)[0]["winner"] == 0
    assert g["bonus"] == [0, 0]


def test_win_effects_resolve_from_left_to_right():
    g = table(specials=("2-", "3-", "*"), domains=(("red4",), ("blue4",)))
    play_round(g, "0 1 3-", "2- 0 2")
    assert [p["seat"] for p in g["pending"]] == [1, 0]
    assert GAME.active_seats(g) == frozenset({1})
    g = act(g, 1, "pass")
    assert GAME.active_seats(g) == frozenset({0})
    assert GAME.legal_actions(g, 0)[1]["type"] == "swap-card"


# ------------------------------------------------------------------ elements and the end


def test_purple_needs_both_half_purple_domains():
    assert elements_of(["red2", "blue2", "green2", "purple3a"]) == ["red", "blue", "green"]
    assert elements_of(["purple3b", "purple3a"]) == ["purple"]


def test_the_plain_domain_has_no_element():
    assert elements_of(["plain6"]) == []


def test_all_four_elements_win_at_once():
    g = table(
        round_no=2,
        face_up=("green2", "plain6", "red4"),
        domains=(("red2", "blue2", "purple3a", "purple3b"), ()),
    )
    play_round(g, "5 0 1", "4 1 0")
    assert g["phase"] == "over" and g["round"] == 2
    out = GAME.outcome(g)
    assert out.winners == (0,) and out.reason == "all four elements"
    assert out.scores == (2 + 2 + 3 + 3 + 2 + 4, 6)


def test_all_four_elements_beat_more_points():
    g = table(
        round_no=2,
        face_up=("green2", "plain6", "red4"),
        domains=(("red2", "blue2", "purple3a", "purple3b"), ("blue4", "green4")),
        bonus=(0, 7),
    )
    play_round(g, "5 0 1", "4 1 0")
    out = GAME.outcome(g)
    assert out.winners == (0,) and out.scores[1] > out.scores[0]


def test_both_players_can_reach_all_four_elements_with_the_deck():
    """The page (004, French): "Dans le cas, rarissime, où les deux joueurs parviennent à
    obtenir tous les deux les 4 éléments durant même tour, la partie continue et les éléments
    sont ignorés" (in the very rare case where both players reach the 4 elements in the same
    round, the game goes on and the elements are ignored). With the full-purple domain it can
    happen (the deck without it, of the games created before the option, never allows it)."""
    import itertools

    def both_full(deck):
        return sum(
            all(
                len(elements_of([d for d, s in zip(deck, split) if s == seat])) == 4
                for seat in (0, 1)
            )
            for split in itertools.product((0, 1, None), repeat=len(deck))
        )

    assert both_full(FULL_PURPLE_DECK) == 16
    assert both_full(PLAIN_DECK) == 0


def test_both_players_reaching_all_four_elements_in_one_round_cancels_the_elements():
    """Tried on a hand-made table where each side shows all four elements."""
    g = table(round_no=2)
    g["domains"] = [
        ["red2", "blue2", "green2", "purple3a", "purple3b"],
        ["red4", "blue4", "green4", "purple3a", "purple3b"],
    ]
    log = Log()
    assert check_elements(g, log) is False
    assert g["elements_void"] is True and g["element_winner"] is None
    g["domains"][1] = ["red4"]
    assert check_elements(g, log) is False  # elements are ignored from then on


def test_the_game_ends_after_round_three_on_points():
    g = table(
        specials=("1-", "2+", "4-"),
        round_no=3,
        face_up=("red4", "blue4", "plain6"),
        domains=(("red2", "blue2"), ("green2", "green4")),
        used=(("0", "1", "2", "3", "4", "5"), ("0", "1", "2", "3", "4", "5")),
    )
    play_round(g, "4- 2+ 1-", "1- 4- 2+")
    # left: 4- against 1-; middle: 2+ (+2 from the 1- on the right) against 4- (+2); right:
    # 1- against 2+.
    assert [b["winner"] for b in last_battles(g)] == [0, 1, 1]
    out = GAME.outcome(g)
    assert g["phase"] == "over" and out.reason == "most victory points"
    assert out.scores == (2 + 2 + 4, 2 + 4 + 4 + 6) and out.winners == (1,)


def test_equal_points_more_domains_win():
    g = table(round_no=3)
    g.update(phase="over", domains=[["red2", "blue2", "green2"], ["plain6"]])
    out = GAME.outcome(g)
    assert out.winners == (0,) and out.scores == (6, 6)


def test_equal_points_and_domains_is_a_draw():
    g = table(round_no=3)
    g.update(phase="over", domains=[["red2", "blue4"], ["red4", "blue2"]])
    out = GAME.outcome(g)
    assert out.winners == (0, 1) and out.reason.startswith("draw")


def test_bonus_points_count_at_the_end():
    g = table(round_no=3)
    g.update(phase="over", domains=[["red2"], ["plain6"]], bonus=[7, 0])
    assert GAME.outcome(g).winners == (0,) and GAME.outcome(g).scores == (9, 6)


def test_the_game_lasts_three_rounds():
    g = table()
    for _ in range(3):
        hand0, hand1 = g["hands"][0], g["hands"][1]
        play_round(g, " ".join(hand0[:3]), " ".join(hand1[-3:]))
        while g["phase"] == "effects":
            g = act(g, g["pending"][0]["seat"], "pass")
        if g["phase"] == "over":
            break
    assert g["phase"] == "over"
    assert g["round"] == 3 or g["element_winner"] is not None
    assert GAME.active_seats(g) == frozenset()


# ------------------------------------------------------------------ options


def test_specials_option_defaults_to_per_game():
    assert new_game()["options"] == {"specials": "per_game", "full_purple": True}
    assert new_game({"specials": "per_round"})["state"]["specials_mode"] == "per_round"


def test_bad_specials_option_is_refused_with_the_choices():
    with pytest.raises(InvalidOptions, match="choose one of: per_game, per_round"):
        new_game({"specials": "never"})
    with pytest.raises(InvalidOptions, match="must be text"):
        new_game({"specials": 3})


def test_unknown_option_is_refused():
    with pytest.raises(InvalidOptions, match="no option rounds"):
        new_game({"rounds": 2})


def test_only_two_players():
    with pytest.raises(InvalidOptions, match="2 to 2 players"):
        runner.start(GAME, 3, None, SEED, 1)


# ------------------------------------------------------------------ notation


def test_notation_reads_every_action_type():
    assert GAME.parse("play 3+ 0 5") == {"type": "play", "cards": ["3+", "0", "5"]}
    assert GAME.parse("swap-domain red4 blue2") == {
        "type": "swap-domain",
        "mine": "red4",
        "theirs": "blue2",
    }
    assert GAME.parse("swap-card 2 4") == {"type": "swap-card", "hand": "2", "used": "4"}
    assert GAME.parse("pass") == {"type": "pass"}


def test_notation_is_case_insensitive_and_tolerates_spaces():
    assert GAME.parse("  PLAY   * 1\u2212  5 ") == {"type": "play", "cards": ["*", "1-", "5"]}
    assert GAME.parse("Swap-Domain  RED4 Purple3A") == {
        "type": "swap-domain",
        "mine": "red4",
        "theirs": "purple3a",
    }


def test_bad_notation_names_the_expected_form():
    for text, hint in [
        ("play 3 3", "play L M R"),
        ("play 3 7 1", "play L M R"),
        ("play 3 3 1", "different"),
        ("swap-domain red9 blue2", "MINE THEIRS"),
        ("swap-card 2", "HAND USED"),
        ("fly", "play L M R"),
        ("pass 2", "pass"),
    ]:
        with pytest.raises(MalformedAction, match=hint):
            GAME.parse(text)


def test_malformed_action_objects_are_refused():
    for bad in [
        {"type": "play"},
        {"type": "play", "cards": "3 0 5"},
        {"type": "play", "cards": ["3", "0"]},
        {"type": "swap-domain", "mine": "x"},
        {"type": "swap-card", "hand": 2, "used": "4"},
        {"type": "jump"},
    ]:
        with pytest.raises(MalformedAction):
            runner.read_action(GAME, action=bad)
