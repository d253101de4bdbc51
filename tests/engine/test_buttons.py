"""Buttons: one test per rule of rules/buttons.md and the seed, named after the rule."""

import ast
import itertools
from pathlib import Path

import pytest

from engine import match as runner
from engine.core import InvalidOptions, Log, MalformedAction
from engine.games import buttons as B
from engine.rng import Rng
from tests.engine.test_buttons_helpers import GAME, SEED, act, board, make, roll, texts

# Layout 1 (index 0), for colour tests:
#   GRYBYR / YYBRYG / RGGGBY / BGRBRY / BBRYGG / BYRGRB
RED_CELLS_L1 = [(1, 2), (2, 4), (3, 1), (4, 5)]  # pairwise not orthogonally adjacent


def with_buttons(cells, base=None):
    b = base or board()
    for r, c in cells:
        b = b[: B.cell(r, c)] + B.BUTTON + b[B.cell(r, c) + 1 :]
    return b


def with_stars(cells, base=None):
    b = base or board()
    for r, c in cells:
        b = b[: B.cell(r, c)] + B.STAR + b[B.cell(r, c) + 1 :]
    return b


# ----------------------------------------------------------------------------- components


def test_layouts_have_nine_cells_of_each_colour():
    assert len(B.LAYOUTS) == 8
    for layout in B.LAYOUTS:
        text = "".join(layout)
        assert len(layout) == 6 and all(len(row) == 6 for row in layout)
        assert {c: text.count(c) for c in B.COLOURS} == {"R": 9, "Y": 9, "G": 9, "B": 9}


def test_layouts_have_every_colour_in_every_row_and_column():
    for layout in B.LAYOUTS:
        for row in layout:
            assert set(row) == set(B.COLOURS)
        for c in range(6):
            assert {row[c] for row in layout} == set(B.COLOURS)


def test_layouts_are_all_different():
    assert len(set(B.LAYOUTS)) == 8


def test_each_player_gets_a_different_layout_at_random():
    seen = set()
    for i in range(40):
        g = GAME.setup(4, {}, Rng(bytes([i]) * 32), Log())
        assert len(set(g["layouts"])) == 4 and all(0 <= x < 8 for x in g["layouts"])
        seen.add(tuple(g["layouts"]))
    assert len(seen) > 30


def test_four_players_hold_one_bonus_card_each():
    for i in range(20):
        g = GAME.setup(4, {}, Rng(bytes([i]) * 32), Log())
        assert sorted(c for cards in g["bonus"] for c in cards) == sorted(B.COLOURS)
        assert all(len(cards) == 1 for cards in g["bonus"]) and g["removed_card"] is None


def test_three_players_remove_one_card_other_than_red():
    removed = set()
    for i in range(30):
        g = GAME.setup(3, {}, Rng(bytes([i]) * 32), Log())
        assert g["removed_card"] in ("Y", "G", "B")
        removed.add(g["removed_card"])
        held = sorted(c for cards in g["bonus"] for c in cards)
        assert held == sorted(set(B.COLOURS) - {g["removed_card"]})
        assert all(len(cards) == 1 for cards in g["bonus"])
    assert removed == {"Y", "G", "B"}


def test_removed_colour_stays_on_the_boards():
    g = make(3, bonus=[["R"], ["Y"], ["B"]])
    g["removed_card"] = "G"
    g["boards"][0] = with_buttons([(3, 2), (3, 4), (1, 1)])  # layout 1: G G G
    assert B.award_stars(g["boards"][0], 0, ["R"]) == (2, ["G"], [])


def test_two_players_hold_two_bonus_cards_each():
    for i in range(20):
        g = GAME.setup(2, {}, Rng(bytes([i]) * 32), Log())
        assert [len(c) for c in g["bonus"]] == [2, 2]
        assert sorted(g["bonus"][0] + g["bonus"][1]) == sorted(B.COLOURS)


def test_player_count_must_be_two_to_four():
    for n in (1, 5):
        with pytest.raises(InvalidOptions, match="2 to 4 players"):
            runner.start(GAME, n, None, SEED, 1)


def test_buttons_has_one_option_and_refuses_any_other():
    with pytest.raises(InvalidOptions, match="no option rounds"):
        runner.start(GAME, 2, {"rounds": 3}, SEED, 1)
    with pytest.raises(InvalidOptions, match="choose one of: 1, 2"):
        runner.start(GAME, 2, {"two_player_aside": 3}, SEED, 1)
    m, _ = runner.start(GAME, 2, {}, SEED, 1)
    assert m["options"] == {"two_player_aside": 1}


def test_gold_black_die_is_never_set_aside_so_dice_never_run_out():
    g = make(4, status=["in", "opted_out", "bust", "opted_out"], turn=0)
    g["aside"] = 3
    roll(g, 0, 2, 5, 6)
    assert g["dice"] == {"white": 2, "gold": 5, "black": [6]}
    g = make(4, status=["in", "opted_out", "opted_out", "opted_out"], turn=0)
    g["aside"] = 4
    roll(g, 0, 2, 5)
    assert g["dice"] == {"white": 2, "gold": 5, "black": []}
    assert texts(g, 0) == ["place 2 5"]


# ----------------------------------------------------------------------------- a round


def test_bonus_cards_pass_clockwise_before_every_round_but_the_first():
    g = make(3, bonus=[["R"], ["G"], ["B"]])
    assert g["round"] == 1
    g["status"] = ["bust", "bust", "in"]
    g["boards"][2] = with_buttons([(1, 1)])
    g["turn"] = 2
    act(g, 2, "optout")  # everyone is out: seat 2 places its star
    act(g, 2, "star 1 1")
    assert g["round"] == 2 and g["bonus"] == [["B"], ["R"], ["G"]]


def test_two_player_bonus_cards_pass_to_the_other_player():
    g = make(2, bonus=[["R", "Y"], ["G", "B"]], status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(1, 1)])
    act(g, 1, "optout")
    act(g, 1, "star 1 1")
    assert g["bonus"] == [["G", "B"], ["R", "Y"]] and g["turn"] == 1


def test_red_holder_starts_the_round():
    for i in range(10):
        g = GAME.setup(4, {}, Rng(bytes([i]) * 32), Log())
        assert g["phase"] == "turn" and "R" in g["bonus"][g["turn"]]
        assert GAME.active_seats(g) == frozenset([g["turn"]])


def test_turns_go_clockwise_skipping_players_out_of_the_round():
    g = make(4, status=["in", "opted_out", "bust", "in"], turn=0)
    g["boards"][3] = with_buttons([(6, 6)])
    roll(g, 0, 1, 1, 3, 4, 5, 6)  # seat 3 may use gold (1, 1)
    act(g, 0, "place 1 3")
    act(g, 3, "skip")
    assert g["phase"] == "turn" and g["turn"] == 3
    act(g, 3, "optout")
    assert g["turn"] == 0  # seat 0 is the only one left: it rolls again


def test_opt_out_needs_a_button_on_the_board():
    g = make(2, turn=0)
    assert texts(g, 0) == ["roll"]
    g["boards"][0] = with_buttons([(2, 2)])
    assert texts(g, 0) == ["optout", "roll"]


def test_opt_out_counts_a_button_placed_on_another_players_turn():
    g = make(2, turn=1)
    roll(g, 1, 3, 4, 1, 2, 5, 6)
    act(g, 1, "place 3 1")
    act(g, 0, "place 3 4")  # seat 0 used the gold dice on seat 1's turn
    assert g["turn"] == 0 and texts(g, 0) == ["optout", "roll"]


def test_opt_out_sets_aside_one_white_pip_die():
    g = make(3, turn=0)
    g["boards"][0] = with_buttons([(1, 1)])
    act(g, 0, "optout")
    assert g["aside"] == 1 and g["status"][0] == "opted_out" and g["turn"] == 1
    roll(g, 1, 1, 1, 2, 3, 4)  # white, gold, then only 3 white-pip dice
    assert g["dice"]["black"] == [2, 3, 4]


def test_with_two_players_a_player_leaving_sets_aside_one_die_as_the_page_says():
    """The page (003, Russian): "если текущий игрок отказывается от участия, он берет один из
    черных кубиков (без золотых точек) ... у всех оставшихся игроков будет на 1 черный кубик
    меньше" (a player who opts out takes one of the black dice without gold pips; the others
    have one black die fewer to roll), for any number of players: the default."""
    g = make(2, turn=0, options={})
    g["boards"][0] = with_buttons([(1, 1)])
    act(g, 0, "optout")
    assert g["aside"] == 1
    roll(g, 1, 1, 1, 2, 3, 4)
    assert g["dice"]["black"] == [2, 3, 4]
    g = make(2, turn=0, options={})
    g["boards"][0] = with_buttons([(2, 1)])
    roll(g, 0, 1, 1, 1, 1, 1, 1)  # no legal cell: a bust takes one die too
    assert g["status"][0] == "bust" and g["aside"] == 1


def test_opt_out_sets_aside_two_dice_under_the_published_two_player_rule():
    g = make(2, turn=0, options={"two_player_aside": 2})
    g["boards"][0] = with_buttons([(1, 1)])
    act(g, 0, "optout")
    assert g["aside"] == 2
    roll(g, 1, 1, 1, 2, 3)
    assert g["dice"]["black"] == [2, 3]


def test_a_game_created_before_the_option_keeps_two_dice_with_two_players():
    g = make(2, turn=0)  # its record holds no options: it began under the two-dice rule
    g["boards"][0] = with_buttons([(1, 1)])
    act(g, 0, "optout")
    assert "two_player_aside" not in g and g["aside"] == 2


def test_opted_out_player_keeps_buttons_and_no_longer_places_with_gold_dice():
    g = make(3, turn=0)
    g["boards"][0] = with_buttons([(1, 1)])
    act(g, 0, "optout")
    roll(g, 1, 4, 4, 1, 2, 3)
    assert g["boards"][0] == with_buttons([(1, 1)])
    assert GAME.active_seats(g) == frozenset([1, 2]) and texts(g, 0) == []


def test_roller_must_place_on_white_die_row_and_any_black_die_column():
    g = make(2, turn=0)
    g["boards"][0] = with_buttons([(2, 3)])  # blocks (3, 3)
    roll(g, 0, 3, 5, 1, 3, 3, 6)
    assert texts(g, 0) == ["place 3 1", "place 3 5", "place 3 6"]  # no skip for the roller


def test_other_players_may_place_on_white_die_and_gold_black_die_or_skip():
    g = make(3, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    assert texts(g, 1) == ["place 3 5", "skip"] == texts(g, 2)


def test_roller_and_other_players_decide_at_the_same_time():
    g = make(4, turn=2)
    roll(g, 2, 3, 5, 1, 2, 2, 6)
    assert g["phase"] == "place" and GAME.active_seats(g) == frozenset([0, 1, 2, 3])


def test_player_without_a_legal_gold_cell_is_not_asked():
    g = make(3, turn=0)
    g["boards"][1] = with_buttons([(3, 4)])  # blocks (3, 5)
    g["boards"][2] = with_stars([(3, 5)])  # a star on (3, 5)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    assert GAME.active_seats(g) == frozenset([0])
    assert texts(g, 1) == [] and texts(g, 2) == []


def test_choices_of_a_roll_are_applied_together():
    g = make(3, turn=1)
    roll(g, 1, 2, 4, 1, 6, 6, 6)
    before = list(g["boards"])
    act(g, 2, "place 2 4")
    assert g["boards"] == before and g["phase"] == "place"
    act(g, 1, "place 2 6")
    assert g["boards"] == before and g["phase"] == "place"
    log = act(g, 0, "place 2 4")
    assert g["boards"] == [with_buttons([(2, 4)]), with_buttons([(2, 6)]), with_buttons([(2, 4)])]
    assert [e.text for e in log.entries] == [
        "{seat0} placed a button at row 2, column 4",
        "{seat1} placed a button at row 2, column 6",
        "{seat2} placed a button at row 2, column 4",
    ]
    assert g["phase"] == "turn" and g["turn"] == 2


def test_choices_of_a_roll_are_accepted_in_any_order():
    results = []
    for order in itertools.permutations([(0, "skip"), (1, "place 5 2"), (2, "place 5 1")]):
        g = make(3, turn=2)
        roll(g, 2, 5, 2, 1, 1, 3, 4)
        for seat, text in order:
            act(g, seat, text)
        results.append(g)
    assert all(r == results[0] for r in results)
    assert results[0]["boards"] == [board(), with_buttons([(5, 2)]), with_buttons([(5, 1)])]


def test_a_seats_legal_actions_do_not_change_when_another_seat_chooses():
    g = make(4, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    before = {s: texts(g, s) for s in range(4)}
    for seat, text in [(2, "place 3 5"), (0, "place 3 1"), (3, "skip")]:
        act(g, seat, text)
        for s in GAME.active_seats(g):
            assert texts(g, s) == before[s]


def test_another_seats_choice_does_not_make_mine_stale_in_the_runner():
    m, _ = runner.start(GAME, 3, None, SEED, 1)
    version = 1
    while m["state"]["phase"] != "place" or len(runner.active_seats(GAME, m)) < 3:
        seat = min(runner.active_seats(GAME, m))
        version += 1
        m, _ = runner.act(GAME, m, seat, runner.legal_actions(GAME, m, seat)[-1], SEED, version)
    seen = version
    first, second, third = sorted(runner.active_seats(GAME, m))
    m, _ = runner.act(GAME, m, first, runner.legal_actions(GAME, m, first)[0], SEED, version + 1)
    assert runner.is_current(m, second, seen, version + 1)
    assert runner.is_current(m, third, seen, version + 1)


def test_a_timeout_of_one_seat_does_not_block_the_others():
    g = make(3, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    bot_move = GAME.bots["random"](GAME.view(g, 1), GAME.legal_actions(g, 1), Rng(SEED))
    GAME.apply(g, 1, bot_move, None, Log())  # the platform plays for seat 1 only
    assert GAME.active_seats(g) == frozenset([0, 2])
    g = make(3, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    GAME.remove_seat(g, 1, Log())  # or the seat forfeits
    assert GAME.active_seats(g) == frozenset([0, 2])


def test_pending_choice_is_hidden_from_others_until_all_are_in():
    g = make(3, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    act(g, 1, "place 3 5")
    assert GAME.view(g, 1)["my_choice"] == {"type": "place", "row": 3, "col": 5}
    other = make(3, turn=0)
    roll(other, 0, 3, 5, 1, 2, 2, 6)
    act(other, 1, "skip")
    for seat in (0, 2, None):
        assert GAME.view(g, seat) == GAME.view(other, seat)
        assert GAME.view(g, seat)["my_choice"] is None
    assert GAME.view(g, 0)["waiting"] == [0, 2]


def test_button_blocks_its_orthogonal_neighbours():
    b = with_buttons([(3, 3)])
    for r, c in [(2, 3), (4, 3), (3, 2), (3, 4)]:
        assert not B.is_legal_cell(b, r, c)
    for r, c in [(2, 2), (4, 4), (2, 4), (4, 2), (1, 3), (3, 5)]:  # diagonals and farther: free
        assert B.is_legal_cell(b, r, c)


def test_cell_with_a_button_or_a_star_is_not_legal():
    assert not B.is_legal_cell(with_buttons([(1, 1)]), 1, 1)
    assert not B.is_legal_cell(with_stars([(1, 1)]), 1, 1)


def test_stars_do_not_block_their_neighbours():
    b = with_stars([(3, 3), (1, 1)])
    for r, c in [(2, 3), (4, 3), (3, 2), (3, 4), (1, 2), (2, 1)]:
        assert B.is_legal_cell(b, r, c)


def test_bust_when_the_roller_has_no_legal_cell():
    g = make(3, turn=0)
    g["boards"][0] = with_buttons([(3, 2), (4, 4), (1, 1)], with_stars([(4, 6)]))
    log = roll(g, 0, 4, 6, 2, 3, 4, 5)  # row 4: 6 star, 2/3/5 next to buttons, 4 button
    assert g["status"][0] == "bust" and g["aside"] == 1
    assert g["boards"][0] == with_stars([(4, 6)])  # the round's buttons are removed
    assert "busts" in log.entries[-1].text
    assert texts(g, 0) == [] and 0 not in GAME.active_seats(g)


def test_bust_sets_aside_two_dice_under_the_published_two_player_rule():
    g = make(2, turn=0, options={"two_player_aside": 2})
    g["boards"][0] = with_buttons([(2, 1)])
    roll(g, 0, 1, 1, 1, 1, 1, 1)
    assert g["status"][0] == "bust" and g["aside"] == 2


def test_other_players_placements_stand_when_the_roller_busts():
    g = make(3, turn=0)
    g["boards"][0] = with_buttons([(2, 1)])
    roll(g, 0, 1, 1, 1, 1, 1, 1)
    assert g["status"][0] == "bust" and GAME.active_seats(g) == frozenset([1, 2])
    act(g, 1, "place 1 1")
    act(g, 2, "skip")
    assert g["boards"][1] == with_buttons([(1, 1)]) and g["turn"] == 1


def test_bust_with_nobody_to_ask_passes_the_dice_at_once():
    g = make(2, turn=0)
    g["boards"][0] = with_buttons([(2, 1)])
    g["boards"][1] = with_buttons([(1, 2)])
    roll(g, 0, 1, 1, 1, 1, 1, 1)
    assert g["phase"] == "turn" and g["turn"] == 1


def test_roll_is_a_public_log_entry_with_the_values():
    g = make(2, turn=0)
    log = roll(g, 0, 3, 5, 1, 2, 4, 6)
    entry = log.entries[0]
    assert entry.to is None and entry.text == "{seat0} rolled white 3, gold 5, black 1 2 4 6"
    assert entry.data == {"seat": 0, "white": 3, "gold": 5, "black": [1, 2, 4, 6]}


def test_dice_come_only_from_the_games_generator():
    def rolls(seed):
        m, _ = runner.start(GAME, 3, None, seed, 1)
        out, version = [], 1
        while len(out) < 30 and m["outcome"] is None:
            seat = min(runner.active_seats(GAME, m))
            version += 1
            m, entries = runner.act(
                GAME, m, seat, runner.legal_actions(GAME, m, seat)[-1], seed, version
            )
            out += [e.data for e in entries if "rolled" in e.text]
        return out

    assert rolls(SEED) == rolls(SEED)
    assert rolls(SEED) != rolls(b"another-seed-for-the-buttons-tst")
    source = ast.parse(Path(B.__file__).read_text())
    imported = {n.module for n in ast.walk(source) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(source) if isinstance(n, ast.Import) for a in n.names}
    assert imported == {"__future__", "engine.core"}


def test_only_a_roll_draws_from_the_generator():
    g = make(2, turn=0)
    rng = Rng(SEED)
    GAME.apply(g, 0, {"type": "roll"}, rng, Log())
    assert rng.counter >= 6  # white, gold, 4 black
    counter = rng.counter
    GAME.apply(g, 0, GAME.legal_actions(g, 0)[0], rng, Log())
    assert rng.counter == counter


# ----------------------------------------------------------------------------- round end


def test_round_ends_when_every_player_is_out():
    g = make(3, status=["bust", "in", "opted_out"], turn=1)
    g["boards"][1] = with_buttons([(1, 1)])
    g["boards"][2] = with_buttons([(6, 6)])
    act(g, 1, "optout")
    assert g["phase"] == "stars" and GAME.active_seats(g) == frozenset([1, 2])
    assert g["stars_due"] == [0, 1, 1]


def test_opt_out_earns_one_star():
    assert B.award_stars(with_buttons([(1, 1)]), 0, ["R"]) == (1, [], [])


def test_colour_with_three_buttons_earns_a_star_and_more_gives_nothing_more():
    assert B.award_stars(with_buttons(RED_CELLS_L1[:2]), 0, []) == (1, [], [])
    assert B.award_stars(with_buttons(RED_CELLS_L1[:3]), 0, []) == (2, ["R"], [])
    assert B.award_stars(with_buttons(RED_CELLS_L1), 0, []) == (2, ["R"], [])


def test_every_colour_with_three_buttons_earns_its_star():
    yellow = [(1, 3), (2, 1), (3, 6)]
    assert B.award_stars(with_buttons(RED_CELLS_L1[:3] + yellow), 0, []) == (3, ["R", "Y"], [])


def test_bonus_colour_with_three_buttons_earns_a_bonus_star():
    assert B.award_stars(with_buttons(RED_CELLS_L1[:3]), 0, ["R"]) == (3, ["R"], ["R"])
    assert B.award_stars(with_buttons(RED_CELLS_L1[:2]), 0, ["R"]) == (1, [], [])
    assert B.award_stars(with_buttons(RED_CELLS_L1[:3]), 0, ["Y", "G"]) == (2, ["R"], [])


def test_busted_player_earns_no_stars():
    g = make(2, status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(1, 1)])
    act(g, 1, "optout")
    assert g["stars_due"] == [0, 1] and GAME.active_seats(g) == frozenset([1])


def test_stars_are_placed_on_own_buttons_of_the_round():
    g = make(2, status=["bust", "in"], turn=1, layouts=[1, 0], bonus=[["R", "Y"], ["G", "B"]])
    g["boards"][1] = with_buttons(RED_CELLS_L1[:3], with_stars([(6, 6)]))
    act(g, 1, "optout")
    assert g["stars_due"][1] == 2
    assert texts(g, 1) == ["star 1 2", "star 2 4", "star 3 1"]
    act(g, 1, "star 2 4")
    assert texts(g, 1) == ["star 1 2", "star 3 1"]
    act(g, 1, "star 3 1")
    assert g["boards"][1] == with_stars([(6, 6), (2, 4), (3, 1)])  # the rest went back


def test_star_placement_is_a_simultaneous_decision_of_all_who_earned_stars():
    g = make(3, status=["opted_out", "in", "opted_out"], turn=1)
    g["boards"] = [with_buttons([(1, 1), (3, 3)]), with_buttons([(2, 2)]), with_buttons([(5, 5)])]
    act(g, 1, "optout")
    assert GAME.active_seats(g) == frozenset([0, 1, 2])
    act(g, 0, "star 3 3")
    assert g["boards"][0] == with_buttons([(1, 1), (3, 3)])  # not placed until all are in
    assert GAME.view(g, 0)["my_star_picks"] == [[3, 3]]
    assert (
        GAME.view(g, 1)["my_star_picks"] == []
        and GAME.view(g, 1)["players"][0]["stars_picked"] == 1
    )
    act(g, 2, "star 5 5")
    act(g, 1, "star 2 2")
    assert g["boards"] == [with_stars([(3, 3)]), with_stars([(2, 2)]), with_stars([(5, 5)])]
    assert g["round"] == 2 and g["phase"] == "turn"


def test_remaining_buttons_go_back_when_nobody_earned_stars():
    g = make(2, status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(2, 1)])
    roll(g, 1, 1, 1, 1, 1, 1, 1)
    assert g["round"] == 2 and g["boards"] == [board(), board()]


# ----------------------------------------------------------------------------- end


def finish(g, seat):
    """`seat` (the last one in) opts out and places its stars on the given buttons in order."""
    act(g, seat, "optout")
    while seat in GAME.active_seats(g):
        act(g, seat, texts(g, seat)[0])


def test_line_of_five_stars_in_a_row_ends_the_game():
    g = make(2, status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(2, 5)], with_stars([(2, 1), (2, 2), (2, 3), (2, 4)]))
    finish(g, 1)
    assert g["phase"] == "over" and GAME.active_seats(g) == frozenset()
    out = GAME.outcome(g)
    assert out.winners == (1,) and out.scores == (0, 105) and "line of 5" in out.reason


def test_line_of_five_stars_in_a_column_ends_the_game():
    g = make(2, status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(6, 3)], with_stars([(2, 3), (3, 3), (4, 3), (5, 3)]))
    finish(g, 1)
    assert GAME.outcome(g).scores == (0, 105)


def test_diagonal_or_broken_lines_do_not_count():
    diagonal = with_stars([(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
    broken = with_stars([(1, 1), (1, 2), (1, 3), (1, 5), (1, 6)])
    assert not B.has_line(diagonal) and not B.has_line(broken)
    assert B.has_line(with_stars([(1, 2), (1, 3), (1, 4), (1, 5), (1, 6)]))


def test_twelve_stars_end_the_game():
    eleven = [(r, c) for r in (1, 3, 5) for c in (1, 2, 4, 6)][:11]
    g = make(2, status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(6, 6)], with_stars(eleven))
    finish(g, 1)
    out = GAME.outcome(g)
    assert out.scores == (0, 12) and out.winners == (1,) and "12 stars" in out.reason


def test_eleven_stars_do_not_end_the_game():
    ten = [(r, c) for r in (1, 3, 5) for c in (1, 2, 4, 6)][:10]
    g = make(2, status=["bust", "in"], turn=1)
    g["boards"][1] = with_buttons([(6, 6)], with_stars(ten))
    finish(g, 1)
    assert g["phase"] == "turn" and GAME.outcome(g) is None


def test_the_end_is_checked_after_the_stars_are_placed():
    g = make(2, status=["opted_out", "in"], turn=1)
    g["boards"][0] = with_buttons([(1, 5)], with_stars([(1, 1), (1, 2), (1, 3), (1, 4)]))
    g["boards"][1] = with_buttons([(4, 4)])
    act(g, 1, "optout")
    act(g, 1, "star 4 4")
    assert GAME.outcome(g) is None and GAME.active_seats(g) == frozenset([0])
    act(g, 0, "star 1 5")
    assert GAME.outcome(g).scores == (105, 1)


def test_score_is_100_for_a_line_plus_one_per_star():
    assert B.score(with_stars([(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (3, 3)])) == 106
    assert B.score(with_stars([(1, 1), (3, 3)])) == 2


def test_two_lines_in_one_round_the_player_with_more_stars_wins():
    """The seed's example: two players complete a line in the same round; more stars wins."""
    g = make(2, status=["opted_out", "in"], turn=1)
    g["boards"][0] = with_buttons([(1, 5)], with_stars([(1, 1), (1, 2), (1, 3), (1, 4), (4, 4)]))
    g["boards"][1] = with_buttons([(2, 5)], with_stars([(2, 1), (2, 2), (2, 3), (2, 4)]))
    act(g, 1, "optout")
    act(g, 0, "star 1 5")
    act(g, 1, "star 2 5")
    out = GAME.outcome(g)
    assert out.scores == (106, 105) and out.winners == (0,)


def test_equal_scores_share_the_win():
    g = make(2, status=["opted_out", "in"], turn=1)
    g["boards"][0] = with_buttons([(1, 5)], with_stars([(1, 1), (1, 2), (1, 3), (1, 4)]))
    g["boards"][1] = with_buttons([(2, 5)], with_stars([(2, 1), (2, 2), (2, 3), (2, 4)]))
    act(g, 1, "optout")
    act(g, 0, "star 1 5")
    act(g, 1, "star 2 5")
    assert GAME.outcome(g).winners == (0, 1)


# ----------------------------------------------------------------------------- leaving


def test_removed_seat_is_out_of_every_round_and_the_game_goes_on():
    g = make(3, bonus=[["R"], ["Y"], ["G"]], turn=1)
    GAME.remove_seat(g, 1, Log())
    assert g["status"][1] == "left" and g["turn"] == 2 and g["aside"] == 1
    assert g["bonus"] == [["R"], [], ["Y", "G"]]
    g["boards"][2] = with_buttons([(1, 1)])
    act(g, 2, "optout")
    assert g["turn"] == 0
    g["boards"][0] = with_buttons([(1, 1)])
    act(g, 0, "optout")
    act(g, 0, "star 1 1")
    act(g, 2, "star 1 1")
    assert g["round"] == 2 and g["status"] == ["in", "left", "in"]
    assert g["bonus"] == [["Y", "G"], [], ["R"]] and g["turn"] == 2
    roll(g, 2, 1, 1, 2, 3, 4, 5)
    assert 1 not in GAME.active_seats(g) and texts(g, 1) == []


def test_removed_seats_pending_choice_is_dropped():
    g = make(3, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    act(g, 1, "place 3 5")
    act(g, 0, "place 3 1")
    GAME.remove_seat(g, 1, Log())
    assert GAME.active_seats(g) == frozenset([2])
    act(g, 2, "skip")
    assert g["boards"] == [with_buttons([(3, 1)]), board(), board()] and g["turn"] == 2


def test_removed_seat_that_was_the_last_to_decide_lets_the_roll_resolve():
    g = make(3, turn=0)
    roll(g, 0, 3, 5, 1, 2, 2, 6)
    act(g, 0, "place 3 1")
    act(g, 2, "place 3 5")
    GAME.remove_seat(g, 1, Log())
    assert g["boards"] == [with_buttons([(3, 1)]), board(), with_buttons([(3, 5)])]
    assert g["phase"] == "turn" and g["turn"] == 2


def test_removed_seat_owes_no_stars():
    g = make(3, status=["opted_out", "in", "bust"], turn=1)
    g["boards"] = [with_buttons([(1, 1)]), with_buttons([(2, 2)]), board()]
    act(g, 1, "optout")
    GAME.remove_seat(g, 0, Log())
    assert GAME.active_seats(g) == frozenset([1])
    act(g, 1, "star 2 2")
    assert g["round"] == 2 and g["boards"][0] == board()


def test_removed_seat_cannot_win():
    g = make(3, status=["opted_out", "in", "bust"], turn=1)
    g["boards"][0] = with_stars([(r, c) for r in (1, 3, 5) for c in (1, 2, 3)])
    g["boards"][1] = with_buttons(
        [(6, 6)], with_stars([(r, c) for r in (1, 3) for c in (1, 2, 3, 4, 6)])
    )
    g["boards"][1] = with_stars([(5, 1)], g["boards"][1])
    GAME.remove_seat(g, 0, Log())
    act(g, 1, "optout")
    act(g, 1, "star 6 6")
    out = GAME.outcome(g)
    assert out.scores == (9, 12, 0) and out.winners == (1,)


def test_resigning_in_a_three_player_game_goes_on_through_the_runner():
    m, _ = runner.start(GAME, 3, None, SEED, 1)
    m, _ = runner.resign(GAME, m, 0, 2)
    assert m["outcome"] is None and 0 not in runner.active_seats(GAME, m)
    assert runner.active_seats(GAME, m)


# ----------------------------------------------------------------------------- notation


def test_notation_reads_every_action_and_tolerates_case_and_spaces():
    assert GAME.parse("ROLL") == {"type": "roll"}
    assert GAME.parse("  opt out ") == {"type": "optout"}
    assert GAME.parse("Opt-Out") == {"type": "optout"}
    assert GAME.parse("skip") == {"type": "skip"}
    assert GAME.parse("place  3   5") == {"type": "place", "row": 3, "col": 5}
    assert GAME.parse("Place 3,5") == {"type": "place", "row": 3, "col": 5}
    assert GAME.parse("star 6 1") == {"type": "star", "row": 6, "col": 1}


@pytest.mark.parametrize(
    "text", ["place 3", "place 7 1", "star 0 2", "place a b", "jump", "roll 3"]
)
def test_malformed_notation_names_the_expected_form(text):
    with pytest.raises(MalformedAction, match=r"place 3 5|star 3 5|'roll'"):
        GAME.parse(text)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place"},
        {"type": "place", "row": "3", "col": 5},
        {"type": "fly"},
        {"type": "star", "row": True, "col": 1},
    ],
)
def test_malformed_action_objects_are_refused(action):
    with pytest.raises(MalformedAction):
        runner.read_action(GAME, action=action)


def test_format_and_parse_round_trip():
    for a in [
        {"type": "roll"},
        {"type": "optout"},
        {"type": "skip"},
        {"type": "place", "row": 2, "col": 6},
        {"type": "star", "row": 1, "col": 4},
    ]:
        assert GAME.parse(GAME.format(a)) == a
