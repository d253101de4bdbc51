"""Con Sonar!: one test per rule line of docs/games/rules/consonar.md, plus options and notation.

States are built by hand with `make`; dice are fixed with `Dice`.
"""

import itertools
import re

import pytest

from engine import match as runner
from engine.core import InvalidOptions, Log, MalformedAction
from engine.games import consonar as C
from engine.games.consonar import GAME, split_turn
from engine.rng import Rng
from tests.engine import conformance


class Dice:
    """A stand-in generator: d8 rolls come from `rolls` in order; shuffles keep the order."""

    def __init__(self, *rolls):
        self.rolls = list(rolls)

    def between(self, low, high):
        assert (low, high) == (1, 8), "only the d8 is rolled with between"
        return self.rolls.pop(0)

    def below(self, n):
        return 0

    def shuffle(self, items):
        pass


def make(
    n=2,
    nations="rb",
    subs=None,
    hands=None,
    row=("b2", "y1", "g3"),
    torpedo_deck=None,
    current=0,
    played=(),
    fleet_deck=None,
    fleet_discard=(),
    sunk=None,
    misses=None,
    removed=(),
    end_subs_left=0,
    rules=None,
):
    """A state from a readable description; unnamed Fleet cards are in the deck, in table order.
    `rules`: the rule options a game created today holds in its state (None: a game created
    before them)."""
    ladder = {s: C.START_RUNG[int(s[1])] for s in C.SUBS}
    ladder.update(subs or {})
    hands = [sorted(h) for h in (hands or [[] for _ in range(n)])]
    played = [{"card": c, "sub": s, "from": 1, "to": 1} for c, s in played]
    used = {c for h in hands for c in h} | {p["card"] for p in played} | set(fleet_discard)
    if fleet_deck is None:
        fleet_deck = [c for c in C.FLEET_CARDS if c not in used]
    if torpedo_deck is None:
        torpedo_deck = [c for c in C.TORPEDO_CARDS if c not in row]
    return {
        "n": n,
        "nations": list(nations),
        "removed": list(removed),
        "subs": ladder,
        "hands": hands,
        "fleet_deck": list(fleet_deck),
        "fleet_discard": list(fleet_discard),
        "torpedo_row": list(row),
        "torpedo_deck": list(torpedo_deck),
        "torpedo_removed": [],
        "torpedo_discard": [],
        "sunk": sunk or [[] for _ in range(n)],
        "misses": misses or [[] for _ in range(n)],
        "current": current,
        "turn": 1,
        "played": played,
        "last_strike": None,
        "end_subs_left": end_subs_left,
        "over": None,
        **(rules or {}),
    }


def act(g, text, rng=None, seat=None):
    """Apply a notation for the current seat after checking that it is legal; returns the log."""
    seat = g["current"] if seat is None else seat
    action = GAME.parse(text)
    assert action in GAME.legal_actions(g, seat), f"{text} is not legal"
    log = Log()
    GAME.apply(g, seat, action, rng or Dice(), log)
    return log


def legal_texts(g, seat=None):
    return [GAME.format(a) for a in GAME.legal_actions(g, g["current"] if seat is None else seat)]


# ---------------------------------------------------------------- components


def test_six_nations_with_two_submarines_each():
    assert C.COLOURS == ("b", "g", "o", "p", "r", "y")
    assert tuple(f"{c}{k}" for c in "bgopry" for k in (1, 2)) == C.SUBS


def test_ladder_has_eight_rungs_and_an_eight_sided_die():
    assert (C.LOW, C.HIGH, C.DIE) == (1, 8, 8)


def test_36_fleet_cards_values_minus1_plus2_minus3_plus4_minus5_plus6_per_colour():
    assert len(C.FLEET_CARDS) == 36 == len(set(C.FLEET_CARDS))
    for c in C.COLOURS:
        values = [C.FLEET_INFO[k]["value"] for k in C.FLEET_CARDS if k[0] == c]
        assert values == [-1, 2, -3, 4, -5, 6]


def test_fleet_card_symbols_as_tabled():
    table = """blue transport destroyer carrier pt frigate sub
               green destroyer carrier pt frigate sub transport
               orange carrier pt frigate sub transport destroyer
               purple pt frigate sub transport destroyer carrier
               red frigate sub transport destroyer carrier pt
               yellow sub transport destroyer carrier pt frigate"""
    for line in table.splitlines():
        colour, *symbols = line.split()
        got = [C.FLEET_INFO[C._fleet_id(colour[0], v)]["symbol"] for v in (-1, 2, -3, 4, -5, 6)]
        assert got == symbols, colour


def test_every_arrow_points_to_the_next_symbol_of_the_cycle():
    cycle = ["destroyer", "carrier", "pt", "frigate", "sub", "transport"]
    for card in C.FLEET_CARDS:
        info = C.FLEET_INFO[card]
        assert info["arrow"] == cycle[(cycle.index(info["symbol"]) + 1) % 6]
    assert C.FLEET_INFO["r+2"]["symbol"] == "sub" and C.FLEET_INFO["r+2"]["arrow"] == "transport"


def test_18_torpedo_cards_as_tabled():
    table = {
        "b": "pt carrier destroyer",
        "g": "frigate pt carrier",
        "o": "sub frigate pt",
        "p": "transport sub frigate",
        "r": "destroyer transport sub",
        "y": "carrier destroyer transport",
    }
    assert len(C.TORPEDO_CARDS) == 18
    for colour, symbols in table.items():
        for t, symbol in enumerate(symbols.split(), start=1):
            assert C.TORPEDO_INFO[f"{colour}{t}"] == {
                "card": f"{colour}{t}",
                "colour": colour,
                "torpedoes": t,
                "symbol": symbol,
            }


# ---------------------------------------------------------------- setup


def started(n, seed=1, options=None):
    return runner.start(GAME, n, options, conformance.seed_of(seed), 1)[0]["state"]


def test_one_submarine_of_every_colour_on_rung_2_and_the_other_on_rung_4():
    for n in (2, 6):
        g = started(n)
        assert g["subs"] == {s: (2 if s[1] == "1" else 4) for s in C.SUBS}


def test_each_player_takes_a_nation_and_the_others_are_neutral():
    g = started(3)
    assert len(set(g["nations"])) == 3
    v = GAME.view(g, None)
    assert sorted(v["neutral"] + v["nations"]) == sorted(C.COLOURS)
    assert len({tuple(started(2, seed=i)["nations"]) for i in range(20)}) > 5


def test_first_player_is_drawn_at_random():
    firsts = {started(4, seed=i)["current"] for i in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_deal_three_fleet_cards_each_and_lay_three_torpedo_cards_face_up():
    g = started(5)
    assert [len(h) for h in g["hands"]] == [3] * 5
    assert len(g["fleet_deck"]) == 36 - 15
    assert len(g["torpedo_row"]) == 3 and len(g["torpedo_deck"]) == 15


# ---------------------------------------------------------------- fleet movement


def test_a_turn_starts_with_at_least_one_fleet_card():
    g = make(hands=[["r+2", "b-1", "g+4"], ["y+6"]])
    assert {a["type"] for a in GAME.legal_actions(g, 0)} == {"fleet"}
    assert GAME.legal_actions(g, 1) == []


def test_fleet_card_moves_a_submarine_of_its_colour_chosen_by_the_player():
    g = make(hands=[["r+2", "b-3"], []])
    assert legal_texts(g) == ["fleet b-3@b1", "fleet b-3@b2", "fleet r+2@r1", "fleet r+2@r2"]
    act(g, "fleet r+2@r1")
    assert g["subs"]["r1"] == 4 and g["subs"]["r2"] == 4


def test_minus_goes_down_the_ladder_plus_goes_up():
    g = make(hands=[["b-3"], []])
    act(g, "fleet b-3@b2")
    assert g["subs"]["b2"] == 1
    g = make(hands=[["o+4"], []])
    act(g, "fleet o+4@o2")
    assert g["subs"]["o2"] == 8


def test_a_submarine_stops_at_rung_1_or_8():
    g = make(hands=[["g-5"], []])
    act(g, "fleet g-5@g1")
    assert g["subs"]["g1"] == 1
    g = make(hands=[["g+6"], []])
    act(g, "fleet g+6@g2")
    assert g["subs"]["g2"] == 8


def test_card_of_a_colour_with_no_submarine_left_moves_any_submarine():
    g = make(hands=[["y+2"], []], subs={"y1": None, "y2": None}, sunk=[["y1", "y2"], []])
    targets = [a["sub"] for a in GAME.legal_actions(g, 0)]
    assert targets == [s for s in C.SUBS if s[0] != "y"]
    act(g, "fleet y+2@b1")
    assert g["subs"]["b1"] == 4


def test_only_the_remaining_submarine_of_a_colour_can_be_moved():
    g = make(hands=[["p+4"], []], subs={"p2": None}, sunk=[["p2"], []])
    assert legal_texts(g) == ["fleet p+4@p1"]


# ---------------------------------------------------------------- queue


def test_queued_card_must_connect_previous_arrow_to_its_own_symbol():
    # r+2 shows sub -> transport; b-1 shows transport (connects); g+4 shows frigate (does not)
    g = make(hands=[["r+2", "b-1", "g+4"], []])
    act(g, "fleet r+2@r1")
    fleets = [t for t in legal_texts(g) if t.startswith("fleet")]
    assert fleets == ["fleet b-1@b1", "fleet b-1@b2"]


def test_queue_may_go_on_with_cards_of_any_colour_each_moving_a_submarine():
    # r+2 (sub -> transport), b-1 (transport -> destroyer), g-1 (destroyer -> carrier)
    g = make(hands=[["r+2", "b-1", "g-1"], []])
    act(g, "fleet r+2@r2")
    act(g, "fleet b-1@b1")
    act(g, "fleet g-1@g2")
    assert (g["subs"]["r2"], g["subs"]["b1"], g["subs"]["g2"]) == (6, 1, 3)
    assert [p["card"] for p in g["played"]] == ["r+2", "b-1", "g-1"]
    assert g["current"] == 0 and g["hands"][0] == []


# ---------------------------------------------------------------- torpedo


def test_torpedo_card_usable_only_on_the_last_arrow_symbol():
    # row: b2 carrier, o1 sub, g3 carrier; r+2's arrow is transport: no strike, only delays
    g = make(hands=[["r+2", "y-3"], []], row=("b2", "o1", "g3"))
    act(g, "fleet r+2@r1")
    assert legal_texts(g) == ["delay b2", "delay g3", "delay o1", "end"]
    # g-1 shows destroyer -> carrier: b2 and g3 (carrier) now match, o1 (sub) does not
    g = make(hands=[["g-1"], []], row=("b2", "o1", "g3"))
    act(g, "fleet g-1@g1")
    assert [t for t in legal_texts(g) if t.startswith("torpedo")] == [
        "torpedo b2@b1",
        "torpedo b2@b2",
        "torpedo g3@g1",
        "torpedo g3@g2",
    ]


TODAY = {"delay_any_card": False, "own_colour_wild": False}  # the options' defaults


def test_a_delay_takes_only_the_torpedo_card_the_last_arrow_opens():
    """The page (001, Italian): "un giocatore può, invece di giocare o rimuovere una carta TS,
    prendere 1 carta TS e metterla sul fondo del mazzo, ritardando questa minaccia" (a player
    may, instead of playing or removing a TS card, take 1 TS card and put it at the bottom of
    the deck, delaying this threat): the card that could be played or removed. The default."""
    g = make(hands=[["r+2", "y-3"], []], row=("b2", "o1", "g3"), rules=TODAY)
    act(g, "fleet r+2@r1")  # r+2's arrow is transport: no face-up card shows it
    assert legal_texts(g) == ["end"]
    g = make(hands=[["g-1"], []], row=("b2", "o1", "g3"), rules=TODAY)
    act(g, "fleet g-1@g1")  # carrier: b2 and g3 are opened, o1 (submarine) is not
    assert [t for t in legal_texts(g) if t.startswith("delay")] == ["delay b2", "delay g3"]
    g = make(nations="br", hands=[["g-1"], []], row=("b2", "p1", "r2"), rules=TODAY)
    act(g, "fleet g-1@g1")  # your own colour's card, opened: defuse it or delay it
    assert {"defuse b2", "delay b2"} <= set(legal_texts(g))


def test_delay_any_card_option_delays_any_face_up_torpedo_card():
    g = make(
        hands=[["r+2", "y-3"], []], row=("b2", "o1", "g3"), rules={**TODAY, "delay_any_card": True}
    )
    act(g, "fleet r+2@r1")
    assert legal_texts(g) == ["delay b2", "delay g3", "delay o1", "end"]


def test_own_colour_is_wild_once_both_own_submarines_are_sunk_with_the_option():
    """The page (001, Italian), of a card of another colour: "il giocatore deve prima
    selezionare uno dei sottomarini di colore corrispondente (o, se non ne rimane nessuno,
    qualsiasi colore)" (select a submarine of that colour, or, if none is left, any colour).
    The site's English page applies it to your own colour too once your submarines are gone
    (the option own_colour_wild; the page's letter, the default, only removes such a card):
    a card of your colour then threatens nothing of yours, and may be fired at any submarine
    (or defused)."""
    sunk_blue = {"b1": None, "b2": None}
    wild = {**TODAY, "own_colour_wild": True}
    g = make(nations="br", subs=sunk_blue, hands=[["g-1"], []], row=("b2", "p1", "r2"), rules=wild)
    act(g, "fleet g-1@g1")
    fired = [t for t in legal_texts(g) if t.startswith("torpedo b2")]
    alive = [s for s in C.SUBS if s not in sunk_blue]
    assert fired == [f"torpedo b2@{s}" for s in alive] and "defuse b2" in legal_texts(g)
    act(g, "torpedo b2@r1", rng=Dice(1))  # rung 2: a 1 hits
    assert g["subs"]["r1"] is None and g["sunk"][0] == ["r1"]
    g = make(nations="br", subs=sunk_blue, hands=[["g-1"], []], row=("b2", "p1", "r2"), rules=TODAY)
    act(g, "fleet g-1@g1")
    assert not any(t.startswith("torpedo b2") for t in legal_texts(g))


def test_a_game_created_before_the_delay_and_wild_options_keeps_its_rules():
    g = make(
        nations="br", subs={"b1": None, "b2": None}, hands=[["r+2"], []], row=("b2", "o1", "g3")
    )
    act(g, "fleet r+2@r1")
    assert legal_texts(g) == ["delay b2", "delay g3", "delay o1", "end"]
    g = make(
        nations="br", subs={"b1": None, "b2": None}, hands=[["g-1"], []], row=("b2", "p1", "r2")
    )
    act(g, "fleet g-1@g1")
    assert not any(t.startswith("torpedo b2") for t in legal_texts(g))


def test_own_colour_torpedo_card_is_defused_no_roll_no_score():
    # seat 0 is blue; b2 shows carrier; g-1's arrow is carrier
    g = make(nations="br", hands=[["g-1", "r-1"], ["o+2"]], row=("b2", "p1", "r2"))
    act(g, "fleet g-1@g1")
    assert "defuse b2" in legal_texts(g)
    assert not any(t.startswith("torpedo b2") for t in legal_texts(g))
    act(g, "defuse b2", rng=Dice())
    assert g["torpedo_removed"] == ["b2"] and g["sunk"][0] == [] and g["misses"][0] == []
    assert C.score(g, 0) == 4 and g["last_strike"] is None


def test_torpedo_rolls_a_d8_per_torpedo_and_hits_strictly_below_the_rung():
    # worked example: a submarine on rung 4 is hit by 1, 2 or 3
    for roll, hit in [(1, True), (3, True), (4, False), (8, False)]:
        g = make(hands=[["g-1"], []], row=("y1", "p1", "r2"))  # y1: carrier, 1 torpedo
        act(g, "fleet g-1@g1")
        act(g, "torpedo y1@y2", rng=Dice(roll))
        assert (g["subs"]["y2"] is None) == hit, roll


def test_a_submarine_on_rung_1_can_never_be_hit():
    g = make(hands=[["g-1"], []], row=("g3", "p1", "r2"), subs={"g2": 1}, nations="rb")
    act(g, "fleet g-1@g1")  # g1 down to 1 as well
    act(g, "torpedo g3@g2", rng=Dice(1, 1, 1))
    assert g["subs"]["g2"] == 1 and g["misses"][0] == ["g3"]
    assert g["last_strike"]["rolls"] == [1, 1, 1]


def test_rolls_stop_at_the_first_hit_one_card_sinks_one_submarine():
    g = make(hands=[["g-1"], []], row=("g3", "p1", "r2"), subs={"g1": 7, "g2": 8})
    act(g, "fleet g-1@g1")  # g1 to 6
    log = act(g, "torpedo g3@g2", rng=Dice(8, 2, 1))
    assert g["last_strike"]["rolls"] == [8, 2] and g["last_strike"]["hit"]
    assert g["subs"]["g2"] is None and g["subs"]["g1"] == 6
    rolls = [e for e in log.entries if "rolls" in e.data]
    assert len(rolls) == 1 and rolls[0].to is None and rolls[0].data["rolls"] == [8, 2]


def test_hit_puts_the_submarine_in_the_scoring_area_and_discards_the_card():
    g = make(hands=[["g-1"], []], row=("y1", "p1", "r2"))
    act(g, "fleet g-1@g1")
    act(g, "torpedo y1@y2", rng=Dice(2))
    assert g["sunk"][0] == ["y2"] and g["torpedo_discard"] == ["y1"] and g["misses"][0] == []


def test_every_torpedo_missed_puts_the_card_in_the_scoring_area_as_a_miss():
    g = make(hands=[["g-1"], []], row=("b2", "p1", "r2"))  # b2: 2 torpedoes at carrier
    act(g, "fleet g-1@g1")
    act(g, "torpedo b2@b2", rng=Dice(5, 4))
    assert g["misses"][0] == ["b2"] and g["subs"]["b2"] == 4 and g["sunk"][0] == []


def test_torpedo_targets_any_submarine_when_its_colour_is_gone():
    g = make(
        hands=[["g-1"], []],
        row=("y1", "p1", "r2"),
        subs={"y1": None, "y2": None},
        sunk=[[], ["y1", "y2"]],
    )
    act(g, "fleet g-1@g1")
    targets = [a["sub"] for a in GAME.legal_actions(g, 0) if a["type"] == "torpedo"]
    assert targets == [s for s in C.SUBS if s[0] != "y"]
    act(g, "torpedo y1@r2", rng=Dice(1))
    assert g["sunk"][0] == ["r2"]


def test_delay_puts_a_face_up_torpedo_card_at_the_bottom_of_the_deck():
    g = make(hands=[["r+2"], []], row=("b2", "p1", "g3"), torpedo_deck=["o1", "y3"])
    act(g, "fleet r+2@r1")
    act(g, "delay g3")
    assert g["torpedo_deck"] == ["y3", "g3"] and g["torpedo_row"] == ["b2", "p1", "o1"]


def test_at_most_one_torpedo_action_per_turn():
    g = make(hands=[["g-1"], ["o+2"]], row=("y1", "y2", "r2"))
    act(g, "fleet g-1@g1")
    act(g, "torpedo y1@y2", rng=Dice(8))
    assert g["current"] == 1 and g["played"] == []
    assert all(a["type"] == "fleet" for a in GAME.legal_actions(g, 1))


def test_end_without_torpedo_passes_the_turn():
    g = make(hands=[["r+2"], ["o+2"]])
    act(g, "fleet r+2@r1")
    act(g, "end")
    assert g["current"] == 1 and g["torpedo_row"] == ["b2", "y1", "g3"]


# ---------------------------------------------------------------- end of turn


def test_end_of_turn_discards_played_cards_and_draws_back_up_to_three():
    g = make(hands=[["r+2", "b-1", "g-3"], ["o+2"]], fleet_deck=["y+6", "p-5", "o-1", "b+2"])
    act(g, "fleet r+2@r1")
    log = act(g, "fleet b-1@b1")
    log = act(g, "end")
    assert g["fleet_discard"] == ["r+2", "b-1"]
    assert g["hands"][0] == ["g-3", "p-5", "y+6"] and g["fleet_deck"] == ["o-1", "b+2"]
    drawn = [e for e in log.entries if e.data.get("cards")]
    assert drawn[0].to == frozenset([0]) and drawn[0].data["cards"] == ["y+6", "p-5"]


def test_empty_fleet_deck_is_rebuilt_from_the_shuffled_discard_pile():
    g = make(hands=[["r+2", "b-1"], ["o+2"]], fleet_deck=["y+6"], fleet_discard=["p-5", "o-1"])
    act(g, "fleet r+2@r1")
    act(g, "end")
    assert g["hands"][0] == ["b-1", "p-5", "y+6"]  # y+6, then the new deck p-5 o-1 r+2
    assert g["fleet_deck"] == ["o-1", "r+2"] and g["fleet_discard"] == []


def test_used_removed_or_delayed_torpedo_card_is_replaced_from_the_deck():
    # g-1's arrow is carrier, the symbol of y1
    cases = [
        ("rb", "torpedo y1@y2", Dice(8), ["o3", "p1", "r2"], ["b1"]),
        ("rb", "delay p1", Dice(), ["y1", "o3", "r2"], ["b1", "p1"]),
        ("yb", "defuse y1", Dice(), ["o3", "p1", "r2"], ["b1"]),
    ]
    for nations, text, dice, row, deck in cases:
        g = make(
            nations=nations, hands=[["g-1"], []], row=("y1", "p1", "r2"), torpedo_deck=["o3", "b1"]
        )
        act(g, "fleet g-1@g1")
        act(g, text, rng=dice)
        assert (g["torpedo_row"], g["torpedo_deck"]) == (row, deck), text


def test_defused_own_card_is_replaced_in_its_place():
    g = make(nations="yb", hands=[["g-1"], []], row=("p1", "y1", "r2"), torpedo_deck=["o3"])
    act(g, "fleet g-1@g1")
    act(g, "defuse y1")
    assert g["torpedo_row"] == ["p1", "o3", "r2"] and g["torpedo_deck"] == []


def test_turns_go_clockwise():
    g = make(n=3, nations="rbg", hands=[["r+2"], ["b+2"], ["g+2"]], current=2)
    act(g, "fleet g+2@g1")
    act(g, "end")
    assert g["current"] == 0 and g["turn"] == 2


# ---------------------------------------------------------------- end of the game


def test_game_ends_when_all_submarines_are_sunk():
    subs = {s: None for s in C.SUBS if s != "y2"}
    g = make(
        hands=[["g-1"], []],
        row=("y1", "p1", "r2"),
        subs=subs,
        sunk=[[s for s in C.SUBS if s != "y2"], []],
    )
    act(g, "fleet g-1@y2")
    act(g, "torpedo y1@y2", rng=Dice(1))
    out = GAME.outcome(g)
    assert out is not None and out.reason == "all submarines have been sunk"
    assert GAME.active_seats(g) == frozenset()


def test_end_subs_left_option_ends_when_that_many_submarines_are_left():
    subs = {s: None for s in C.SUBS[:9]}
    g = make(
        hands=[["g-1"], []],
        row=("y1", "p1", "r2"),
        subs=subs,
        end_subs_left=2,
        sunk=[list(C.SUBS[:9]), []],
    )
    act(g, "fleet g-1@y2")
    assert GAME.outcome(g) is None
    act(g, "torpedo y1@y2", rng=Dice(1))
    assert GAME.outcome(g).reason == "only 2 submarines are left"


def test_game_ends_when_a_used_torpedo_card_cannot_be_replaced():
    g = make(hands=[["g-1"], []], row=("y1", "p1", "r2"), torpedo_deck=[])
    act(g, "fleet g-1@g1")
    act(g, "torpedo y1@y2", rng=Dice(8))
    assert GAME.outcome(g).reason == "a used Torpedo card could not be replaced"
    assert g["torpedo_row"] == ["p1", "r2"]


def test_delay_with_an_empty_torpedo_deck_does_not_end_the_game():
    g = make(hands=[["g-1"], ["o+2"]], row=("y1", "p1", "r2"), torpedo_deck=[])
    act(g, "fleet g-1@g1")
    act(g, "delay p1")
    assert GAME.outcome(g) is None and g["torpedo_row"] == ["y1", "p1", "r2"]


def test_end_is_checked_at_the_end_of_the_turn():
    g = make(hands=[["g-1", "b-3"], []], row=("y1", "p1", "r2"), torpedo_deck=[])
    act(g, "fleet g-1@g1")
    assert GAME.outcome(g) is None


# ---------------------------------------------------------------- scoring


def test_score_plus_one_per_submarine_sunk():
    g = make(sunk=[["y1", "o2"], []], subs={"y1": None, "o2": None})
    assert C.score(g, 0) == 2 + 4


def test_score_minus_one_per_missed_torpedo_card():
    g = make(misses=[["b2", "y1"], []])
    assert C.score(g, 0) == -2 + 4


def test_score_plus_two_per_own_submarine_still_on_the_ladder():
    g = make(nations="rb", subs={"r1": None}, sunk=[[], ["r1"]])
    assert C.score(g, 0) == 2 and C.score(g, 1) == 1 + 4


def test_score_plus_one_per_pair_of_same_colour_submarines_sunk():
    g = make(nations="rb", subs={"y1": None, "y2": None}, sunk=[["y1", "y2"], []])
    assert C.score(g, 0) == 2 + 1 + 4


def test_score_plus_two_per_group_of_four_different_colours():
    sunk = ["y1", "o1", "g1", "p1"]
    g = make(nations="rb", subs={s: None for s in sunk}, sunk=[sunk, []])
    assert C.score(g, 0) == 4 + 2 + 4


def brute_groups(counts):
    """The largest number of disjoint 4-colour groups, by trying every way to form one."""
    best = 0
    for combo in itertools.combinations(range(6), 4):
        if all(counts[c] > 0 for c in combo):
            rest = list(counts)
            for c in combo:
                rest[c] -= 1
            best = max(best, 1 + brute_groups(rest))
    return best


def test_groups_of_four_colours_are_disjoint_and_as_many_as_possible():
    for counts in itertools.product(range(3), repeat=6):
        assert C.colour_groups(list(counts)) == brute_groups(counts), counts
    assert C.colour_groups([2, 2, 2, 2, 2, 2]) == 3
    assert C.colour_groups([2, 2, 2, 1, 0, 0]) == 1
    assert C.colour_groups([2, 2, 2, 1, 1, 0]) == 2


def test_seed_scoring_example_all_parts_add_up():
    # seat 0 (red): sunk b1 b2 g1 o1 p1 y1 (6), two misses, both own subs alive
    sunk = ["b1", "b2", "g1", "o1", "p1", "y1"]
    g = make(nations="rb", subs={s: None for s in sunk}, sunk=[sunk, []], misses=[["g3", "o2"], []])
    assert C.score(g, 0) == 6 - 2 + 4 + 1 + 2
    assert C.score(g, 1) == 0  # blue: both sunk, nothing scored


def test_highest_score_wins_and_equal_scores_share_the_win():
    g = make(n=3, nations="rbg")
    g["over"] = "a used Torpedo card could not be replaced"
    out = GAME.outcome(g)
    assert out.winners == (0, 1, 2) and out.scores == (4, 4, 4)
    g["misses"][1] = ["y1"]
    assert GAME.outcome(g).winners == (0, 2)


# ---------------------------------------------------------------- hidden information


def test_hands_are_secret_and_decks_are_counts():
    g = started(3)
    v = GAME.view(g, 1)
    assert [c["card"] for c in v["hand"]] == g["hands"][1]
    assert v["hand_sizes"] == [3, 3, 3]
    assert v["fleet_deck"] == 36 - 9 and v["torpedo_deck"] == 15
    assert GAME.view(g, None)["hand"] is None
    text = str(GAME.view(g, None))
    for card in g["hands"][0] + g["fleet_deck"][:5]:
        assert f"'{card}'" not in text


def test_the_die_is_rolled_by_the_server_and_every_roll_is_public():
    g = make(hands=[["g-1"], []], row=("b2", "p1", "r2"))
    act(g, "fleet g-1@g1")
    log = act(g, "torpedo b2@b2", rng=Rng(b"x" * 32))
    entry = next(e for e in log.entries if "rolls" in e.data)
    assert entry.to is None and entry.data["rolls"] == g["last_strike"]["rolls"]
    assert all(1 <= r <= 8 for r in entry.data["rolls"])


def test_played_cards_the_ladder_and_scoring_areas_are_public():
    g = make(hands=[["r+2", "b-1"], []], misses=[[], ["o2"]])
    act(g, "fleet r+2@r1")
    v = GAME.view(g, None)
    assert v["played"] == [{"card": "r+2", "sub": "r1", "from": 2, "to": 4}]
    assert v["ladder"]["r1"] == 4 and v["misses"] == [[], ["o2"]]
    assert v["next_symbol"] == "transport" and v["phase"] == "queue"


# ---------------------------------------------------------------- a player leaves


def test_resigning_player_nation_becomes_neutral_and_the_game_goes_on():
    seed = conformance.seed_of(4)
    m = runner.start(GAME, 3, None, seed, 1)[0]
    leaving = (m["state"]["current"] + 1) % 3
    colour = m["state"]["nations"][leaving]
    m, _ = runner.resign(GAME, m, leaving, 2)
    g = m["state"]
    assert m["outcome"] is None
    assert colour in GAME.view(g, None)["neutral"] and g["hands"][leaving] == []
    assert len(g["fleet_discard"]) == 3
    movers = []
    for version in range(3, 40):
        seat = g["current"]
        movers.append(seat)
        m, _ = runner.act(GAME, m, seat, runner.legal_actions(GAME, m, seat)[-1], seed, version)
        g = m["state"]
        assert leaving not in runner.active_seats(GAME, m)
    assert set(movers) == {0, 1, 2} - {leaving}


def test_neutral_nation_submarines_are_moved_and_hit_like_any_other():
    g = make(nations="rb", hands=[["g-1"], []], row=("g3", "p1", "r2"))  # green is neutral
    act(g, "fleet g-1@g2")
    assert g["subs"]["g2"] == 3 and "defuse g3" not in legal_texts(g)
    act(g, "torpedo g3@g2", rng=Dice(2))
    assert g["sunk"][0] == ["g2"]


def test_resigned_players_colour_becomes_neutral_its_torpedo_cards_are_fired():
    g = make(n=3, nations="ybr", hands=[[], ["g-1"], []], row=("y1", "p1", "r2"), current=1)
    GAME.remove_seat(g, 0, Log())
    assert GAME.view(g, None)["neutral"] == ["g", "o", "p", "y"]
    act(g, "fleet g-1@g1")
    assert "torpedo y1@y1" in legal_texts(g) and "defuse y1" not in legal_texts(g)


def test_resigning_on_own_turn_discards_the_played_cards_and_passes_the_turn():
    g = make(n=3, nations="rbg", hands=[["r+2", "b-1"], ["o+2"], ["y+2"]])
    act(g, "fleet r+2@r1")
    GAME.remove_seat(g, 0, Log())
    assert g["current"] == 1 and g["played"] == [] and g["subs"]["r1"] == 4
    assert sorted(g["fleet_discard"]) == ["b-1", "r+2"]
    assert GAME.legal_actions(g, 0) == [] and 0 not in GAME.active_seats(g)


def test_removed_seat_keeps_its_scoring_area_but_cannot_win():
    g = make(
        n=3,
        nations="rbg",
        sunk=[["y1", "y2", "o1"], [], []],
        subs={"y1": None, "y2": None, "o1": None},
    )
    GAME.remove_seat(g, 0, Log())
    g["over"] = "a used Torpedo card could not be replaced"
    out = GAME.outcome(g)
    assert out.scores == (3 + 1, 4, 4)  # no survivors for the neutral red nation
    assert out.winners == (1, 2)


def test_turns_skip_a_removed_seat():
    g = make(n=3, nations="rbg", hands=[["r+2"], ["b+2"], ["g+2"]])
    GAME.remove_seat(g, 1, Log())
    act(g, "fleet r+2@r1")
    act(g, "end")
    assert g["current"] == 2


# ---------------------------------------------------------------- options


def test_end_subs_left_defaults_to_zero():
    m = runner.start(GAME, 2, None, conformance.seed_of(1), 1)[0]
    assert m["options"]["end_subs_left"] == 0 and m["state"]["end_subs_left"] == 0
    assert m["options"] == {"end_subs_left": 0, "delay_any_card": False, "own_colour_wild": False}
    assert (m["state"]["delay_any_card"], m["state"]["own_colour_wild"]) == (False, False)


@pytest.mark.parametrize(
    "bad, message",
    [
        (11, "choose one of: 0, 1"),
        (-1, "choose one of"),
        ("2", "whole number"),
        (True, "whole number"),
        (2.5, "whole number"),
    ],
)
def test_end_subs_left_bad_values_are_refused(bad, message):
    with pytest.raises(InvalidOptions, match=message):
        runner.start(GAME, 2, {"end_subs_left": bad}, conformance.seed_of(1), 1)


def test_unknown_option_and_player_counts_are_refused():
    with pytest.raises(InvalidOptions, match="no option"):
        runner.start(GAME, 2, {"speed": 1}, conformance.seed_of(1), 1)
    for n in (1, 7):
        with pytest.raises(InvalidOptions, match="2 to 6 players"):
            runner.start(GAME, n, None, conformance.seed_of(1), 1)
    with pytest.raises(InvalidOptions, match="0 to 10"):
        GAME.setup(2, {"end_subs_left": 12}, Rng(b"y" * 32), Log())


def test_info():
    info = GAME.info
    assert (info.name, info.title, info.min_players, info.max_players, info.rules_version) == (
        "consonar",
        "Con Sonar!",
        2,
        6,
        "1",
    )
    assert info.options["end_subs_left"].choices == tuple(range(11))


# ---------------------------------------------------------------- notation


def test_notation_examples_read():
    assert GAME.parse("fleet r+2@r1") == {"type": "fleet", "card": "r+2", "sub": "r1"}
    assert GAME.parse("  FLEET  G-3 @ g2 ") == {"type": "fleet", "card": "g-3", "sub": "g2"}
    assert GAME.parse("fleet g3@g2") == {"type": "fleet", "card": "g-3", "sub": "g2"}
    assert GAME.parse("torpedo b2@y1") == {"type": "torpedo", "card": "b2", "sub": "y1"}
    assert GAME.parse("defuse r1") == {"type": "defuse", "card": "r1"}
    assert GAME.parse("Delay P3") == {"type": "delay", "card": "p3"}
    assert GAME.parse("end") == GAME.parse("pass-torpedo") == {"type": "end"}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("fleet r-2@r1", "values are -1 +2"),
        ("fleet r+2", "fleet r+2@r1"),
        ("fleet r+2@r1 g-3@g2", "one Fleet card per move"),
        ("torpedo b4@y1", "torpedo b2@y1"),
        ("fire", "write 'fleet"),
        ("defuse x1", "defuse r1"),
        ("", "write 'fleet"),
    ],
)
def test_bad_notation_names_the_expected_form(text, expected):
    with pytest.raises(MalformedAction, match=re.escape(expected)):
        GAME.parse(text)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "fleet", "card": "r+3", "sub": "r1"},
        {"type": "fleet", "card": "r+2"},
        {"type": "torpedo", "card": "b2", "sub": "x1"},
        {"type": "defuse"},
        {"type": "fire"},
        {"type": "delay", "card": 3},
    ],
)
def test_malformed_action_objects_are_refused(action):
    with pytest.raises(MalformedAction):
        runner.read_action(GAME, action=action)


def test_split_turn_cuts_a_whole_turn_into_single_steps():
    assert split_turn("fleet r+2@r1 g-3@g2; torpedo b2@y1") == [
        "fleet r+2@r1",
        "fleet g-3@g2",
        "torpedo b2@y1",
    ]
    assert split_turn("FLEET r2 @ r1;  ;delay p3") == ["fleet r+2@r1", "delay p3"]
    assert split_turn("fleet b-1@b2\nend") == ["fleet b-1@b2", "end"]
    with pytest.raises(MalformedAction, match="step 2"):
        split_turn("fleet r+2@r1 r+9@r1; end")
    with pytest.raises(MalformedAction, match="empty"):
        split_turn(" ; ")


def test_a_whole_turn_line_played_step_by_step():
    g = make(hands=[["r+2", "b-1", "g+4"], ["o+2"]], row=("b2", "p1", "g3"))
    for step in split_turn("fleet r+2@r1 b-1@b2; end"):
        act(g, step)
    assert g["current"] == 1 and g["subs"]["r1"] == 4 and g["subs"]["b2"] == 3
