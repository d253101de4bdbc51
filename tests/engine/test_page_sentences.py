"""A test named after each sentence of the original pages that had none, and the pages' letter
as the default where the engine used to follow another source.

Each docstring quotes the page's sentence in its own language (the Nautilus page 000 is in
English written in Cyrillic letters: quoted so, then read out) and in English. The pages are
the authority: docs/games/rules/*.md say where each rule comes from.
"""

import pytest

from engine import match as runner
from engine.core import InvalidOptions, Log
from engine.games import buttons as B
from engine.games import consonar as C
from engine.games import nautilus as N
from engine.games import ninedomains as D
from engine.rng import Rng
from tests.engine import conformance
from tests.engine.test_buttons_helpers import act as buttons_act
from tests.engine.test_buttons_helpers import board, make, roll
from tests.engine.test_consonar import Dice, legal_texts
from tests.engine.test_consonar import act as consonar_act
from tests.engine.test_consonar import make as consonar_table

pytestmark = pytest.mark.slow  # plays random games until the page's rare cases happen

SEED = conformance.seed_of(40)


def rules_of_a_new_game(game, names):
    """The rule options a game created today holds in its state (the options' defaults)."""
    state = runner.start(game, 2, None, SEED, 1)[0]["state"]
    return {name: state[name] for name in names}


def with_cells(mark, cells, base=None):
    """A Buttons board with `mark` on the (row, column) cells."""
    b = base or board()
    for r, c in cells:
        b = B.put_mark(b, B.cell(r, c), mark)
    return b


# ------------------------------------------------------------------------------------ Buttons

RED_OF_LAYOUT_1 = [(1, 2), (2, 4), (3, 1)]  # layout 1 (index 0): red, not orthogonal neighbours


def test_buttons_the_dice_set_aside_come_back_at_the_next_round():
    """Page 003 (Russian): "он ... берет один из черных кубиков (без золотых точек) до тех
    пор, пока конец раунда" (the player ... takes one of the black dice without gold pips
    until the end of the round): the dice set aside are rolled again in the next round."""
    g = make(2, turn=0, bonus=[["R", "Y"], ["G", "B"]], options={})
    g["boards"] = [with_cells(B.BUTTON, [(2, 1)]), with_cells(B.BUTTON, [(1, 1)])]
    roll(g, 0, 1, 1, 1, 1, 1, 1)  # row 1, columns 1 only: seat 0 busts, seat 1 cannot place
    assert g["status"][0] == "bust" and g["aside"] == 1
    buttons_act(g, 1, "optout")
    assert g["aside"] == 2 and g["phase"] == "stars"
    buttons_act(g, 1, "star 1 1")
    assert g["round"] == 2 and g["aside"] == 0
    roll(g, g["turn"], 3, 2, 4, 5, 6, 1)
    assert g["dice"]["black"] == [4, 5, 6, 1]  # all four white-pip dice again


def test_buttons_during_your_turn_means_the_round_so_buttons_of_the_gold_dice_count():
    """Page 003 (Russian): "Звезда присуждается за каждый цвет, который вы закрыли как
    минимум 3 кнопками во время своего хода" (a star is awarded for each colour you covered
    with at least 3 buttons during your turn). A player's turn is one roll, and no button is
    left from an earlier round, so "your turn" is read as the round: buttons placed with the
    gold dice on the others' rolls count with those of your own rolls."""
    g = make(2, turn=1, bonus=[["G", "B"], ["R", "Y"]])
    g["boards"][0] = with_cells(B.BUTTON, RED_OF_LAYOUT_1[:2])
    roll(g, 1, 3, 1, 2, 5, 6, 6)  # white 3, gold 1: seat 0 may take row 3, column 1
    buttons_act(g, 1, "place 3 2")
    buttons_act(g, 0, "place 3 1")  # the third red button, on seat 1's roll
    assert g["turn"] == 0
    buttons_act(g, 0, "optout")
    buttons_act(g, 1, "optout")
    assert g["stars_due"] == [2, 1]  # seat 0: 1 for opting out and 1 for red


def test_buttons_the_player_who_reaches_12_stars_can_lose_to_one_with_13():
    """Page 003 (Russian): "Если никто не соединит линию из 5 звезд, игрок, поставивший 12
    звезд, запускает конец игры. Игрок с наибольшим количеством звезд побеждает в игре."
    (If nobody connects a line of 5 stars, the player who placed 12 stars triggers the end of
    the game. The player with the most stars wins the game.)"""
    eleven = [(5, c) for c in (1, 2, 4, 5, 6)] + [(6, c) for c in (1, 2, 4, 5, 6)] + [(4, 3)]
    g = make(2, status=["opted_out", "in"], turn=1, layouts=[1, 0], bonus=[["R", "Y"], ["G", "B"]])
    g["boards"][0] = with_cells(B.BUTTON, [(1, 6)], with_cells(B.STAR, eleven))
    g["boards"][1] = with_cells(B.BUTTON, RED_OF_LAYOUT_1, with_cells(B.STAR, eleven))
    buttons_act(g, 1, "optout")
    assert g["stars_due"] == [1, 2]
    buttons_act(g, 0, "star 1 6")
    buttons_act(g, 1, "star 1 2")
    buttons_act(g, 1, "star 3 1")
    out = B.GAME.outcome(g)
    assert out.scores == (12, 13) and out.winners == (1,) and "12 stars" in out.reason


# ---------------------------------------------------------------------------------- Con Sonar!

CONSONAR_RULES = ("delay_any_card", "own_colour_wild")


def test_consonar_a_fleet_card_played_always_moves_a_submarine():
    """Page 001 (Italian): "Nel suo turno, un giocatore deve giocare almeno una carta della
    flotta e può: -applicare l'azione di spostamento data dal numero ... ad un sottomarino
    bersaglio del colore di quella carta. Se non ci sono sottamarini di quel colore sulla
    plancia, deve applicare l'azione su un altro sottomarino di sua scelta." (On their turn a
    player must play at least one Fleet card and may: apply the move its number gives ... to a
    target submarine of that card's colour. If no submarine of that colour is on the board,
    they must apply it to another submarine of their choice.) The "può" (may) is read as what
    playing the card lets you do, not as leave to play it without a move: the next sentence's
    "deve applicare" (must apply) moves a submarine even when none of the card's colour is
    left. Every Fleet card played moves a submarine; only which one is the player's choice."""
    g = consonar_table(hands=[["r+2", "y-3"], []], subs={"y1": None, "y2": None})
    everyone = [s for s in C.SUBS if s[0] != "y"]
    assert legal_texts(g) == sorted(
        [f"fleet r+2@{s}" for s in ("r1", "r2")] + [f"fleet y-3@{s}" for s in everyone]
    )
    consonar_act(g, "fleet r+2@r1")
    assert g["subs"]["r1"] == 4 and g["played"][-1]["to"] == 4


def test_consonar_a_torpedo_card_rolls_on_until_it_hits_without_asking():
    """Page 001 (Italian): "Il giocatore può tirare il dado tante volte quanti sono siluri
    disegnati sulla sua carta TS, ma può comunque distruggere un SOLO sottomarino." (The
    player may roll the die as many times as there are torpedoes drawn on their TS card, but
    may destroy only ONE submarine.) "Può" is the card's allowance, not a choice after each
    roll: firing the card rolls its torpedoes one after the other, with no decision between
    them, and the first hit ends the strike."""
    g = consonar_table(hands=[["g-1"], []], row=("g3", "p1", "r2"))
    consonar_act(g, "fleet g-1@g1")
    consonar_act(g, "torpedo g3@g2", rng=Dice(7, 6, 5))  # g2 on rung 4: three misses
    assert g["last_strike"]["rolls"] == [7, 6, 5] and not g["last_strike"]["hit"]
    assert g["current"] == 1  # the turn is over: nothing was asked between the rolls
    g = consonar_table(hands=[["g-1"], []], row=("g3", "p1", "r2"))
    consonar_act(g, "fleet g-1@g1")
    consonar_act(g, "torpedo g3@g2", rng=Dice(7, 2, 1))
    assert g["last_strike"]["rolls"] == [7, 2] and g["subs"]["g2"] is None


def test_consonar_a_torpedo_card_of_your_own_colour_is_only_removed():
    """Page 001 (Italian): "Se la carta TS è del PROPRIO colore, può rimuovere la carta dal
    gioco, eliminando una minaccia per il proprio sottomarino." (If the TS card is of your OWN
    colour, you may remove it from the game, removing a threat to your own submarine.) The
    page never fires it, not even once both your submarines are sunk: the default. Firing it
    then at any submarine is the site's English page, the option own_colour_wild."""
    sunk_blue = {"b1": None, "b2": None}
    rules = rules_of_a_new_game(C.GAME, CONSONAR_RULES)
    assert rules == {"delay_any_card": False, "own_colour_wild": False}
    g = consonar_table(
        nations="br", subs=sunk_blue, hands=[["g-1"], []], row=("b2", "p1", "r2"), rules=rules
    )
    consonar_act(g, "fleet g-1@g1")  # the arrow opens b2, a card of seat 0's own colour
    assert legal_texts(g) == ["defuse b2", "delay b2", "end"]


def test_consonar_a_game_created_with_own_colour_wild_keeps_it():
    """A game's options are fixed when it is created: one created while own_colour_wild was
    true by default holds it in its record, and is started and replayed with it."""
    recorded = {"end_subs_left": 0, "delay_any_card": False, "own_colour_wild": True}
    state = runner.start(C.GAME, 2, recorded, SEED, 1, recorded=True)[0]["state"]
    rules = {name: state[name] for name in CONSONAR_RULES}
    g = consonar_table(
        nations="br", subs={"b1": None, "b2": None}, hands=[["g-1"], []], row=("b2",), rules=rules
    )
    consonar_act(g, "fleet g-1@g1")
    assert "torpedo b2@r1" in legal_texts(g) and "defuse b2" in legal_texts(g)


# ---------------------------------------------------------------------------- The Nine Domains


def void_elements_game():
    """The first random game (seeds 0, 1, ...) that ends with both players showing all four
    elements."""
    for i in range(1000):
        match, _ = conformance.play(D.GAME, 2, None, conformance.seed_of(i))
        domains = match["state"]["domains"]
        if all(len(D.elements_of(domains[s])) == len(D.ELEMENTS) for s in (0, 1)):
            return match
    raise AssertionError("no random game of 1,000 ends with all four elements for both players")


def test_ninedomains_both_players_with_all_four_elements_in_one_round_play_on_for_points():
    """Page 004 (French): "Dans le cas, rarissime, où les deux joueurs parviennent à obtenir
    tous les deux les 4 éléments durent même tour, la partie continue et les éléments sont
    ignorés" (in the very rare case where both players obtain the 4 elements in the same
    round, the game goes on and the elements are ignored). With the deck of nine domains it
    happens only when the last round leaves every domain owned, four against five (1-2% of
    random games); the game then ends on the victory points."""
    g = void_elements_game()["state"]
    assert g["round"] == D.ROUNDS and g["phase"] == "over" and g["elements_void"]
    assert sorted(len(g["domains"][s]) for s in (0, 1)) == [4, 5]
    out = D.GAME.outcome(g)
    points = (D.points_of(g, 0), D.points_of(g, 1))
    assert g["element_winner"] is None and out.scores == points
    assert out.reason != "all four elements"
    best = max((0, 1), key=lambda s: (points[s], len(g["domains"][s])))
    assert out.winners == (best,)  # most points, then most domains: never a draw here


# ----------------------------------------------------------------------------------- Nautilus


def test_nautilus_the_domain_pile_is_empty_after_the_sixth_round():
    """Page 000 (English in Cyrillic letters): "Тхе гаме ендс ат тхе енд оф тхе 6тх роунд,
    wхен тхе пиле оф Домаин цардс ис емптy." (The game ends at the end of the 6th round, when
    the pile of Domain cards is empty.) The 30 Domain cards last six rounds of five exactly.
    After the sixth round every card has been taken, so every domain (5 points net) is won,
    and one player holds three of them: the game always ends on three domains then."""
    piles = {}

    def remember(before, seat, action, after, entries):
        g = after["state"]
        piles.setdefault(g["round"], len(g["domain_pile"]))

    for i in range(200):
        piles.clear()
        match, _ = conformance.play(N.GAME, 2, None, conformance.seed_of(i), on_step=remember)
        if match["state"]["round"] == 6:
            break
    assert piles == {1: 25, 2: 20, 3: 15, 4: 10, 5: 5, 6: 0}
    g = match["state"]
    assert g["phase"] == "over" and g["domain_pile"] == [] and g["domain_row"] == []
    assert sum(len(t) for t in g["taken"]) == 30 and None not in g["won"]
    assert max(g["result"]["scores"]) >= 3


def test_nautilus_is_for_two_players_only():
    """Page 002 (Japanese): "ノーチラスは2人専用のゲームです。" (Nautilus is a game for two
    players only.)"""
    assert (N.GAME.info.min_players, N.GAME.info.max_players) == (2, 2)
    for n in (1, 3):
        with pytest.raises(InvalidOptions, match="played by 2 to 2 players"):
            runner.start(N.GAME, n, None, SEED, 1)


def test_nautilus_a_domain_one_player_wins_is_lost_by_the_other():
    """Page 002 (Japanese): "どちからのプレイヤーが1つの分野で勝利条件を満たすと、もう一方の
    プレイヤーはその分野で敗北します。" (When either player meets the win condition in a
    domain, the other player loses that domain.) The other player's view marks it lost at
    once, and it counts for the winner only, to the end of the game."""
    g = N.setup(2, {"hidden_domains": False}, Rng(SEED), Log())
    g["taken"] = [[], [{"domain": "science", "points": p} for p in (2, 1)]]
    g["domain_row"] = [{"domain": "science", "points": 1}] * 5
    g["board"] = [[13, 10, 7, 14, 8], [11, 12, 4, 9, 5]]  # seat 1 wins only column 2
    N.end_round(g, Rng(SEED), Log())
    for seat in (0, 1):
        view = N.GAME.view(g, seat)
        assert view["won"][0] == 1 and view["domains_won"] == [0, 1]
    g["won"] = [1, 0, 0, 0, None]  # later rounds: seat 0 wins three other domains
    N.finish(g, "a player won 3 domains", Log())
    assert g["result"]["domains"][0] == 1 and g["result"]["scores"] == [3, 1]


def anchor_table(options=None, recorded=False):
    """Seat 0 is to place its 7 and holds the Anchor; its 3 and the opponent's 5 are on the
    board."""
    g = runner.start(N.GAME, 2, options, SEED, 1, recorded=recorded)[0]["state"]
    g.update(
        phase="place",
        nemo=0,
        placements=2,
        draft=[],
        anchored=None,
        board=[[3, None, None, None, None], [5, None, None, None, None]],
        hands=[[7], [2]],
        specials=[["anchor"], []],
    )
    return g


def anchors_offered(g):
    """The cards the Anchor may pin when seat 0 places its 7 at its own column 2."""
    return sorted(
        a["anchor"]
        for a in N.GAME.legal_actions(g, 0)
        if (a["side"], a["col"]) == ("me", 2) and a["anchor"] is not None
    )


def test_nautilus_the_anchor_pins_a_diver_already_on_the_board():
    """Page 002 (Japanese): "碇。ダイバーカードを場に出すタイミングで使用し、既に場に出ている
    ダイバーカードのうち1枚の移動を封じます。" (The Anchor: used when you place a Diver card,
    it blocks the movement of one of the Diver cards already on the board.) The default; the
    French rulebook's reading, where it may also pin the card being placed, is the option
    anchor_placed_card."""
    assert anchors_offered(anchor_table()) == [3, 5]
    g = anchor_table()
    g = N.GAME.apply(g, 0, N.GAME.parse("place 7 me2 anchor 3"), Rng(SEED), Log())
    assert g["anchored"] == 3 and g["phase"] == "place"  # the 7's arrow: nothing can move
    assert anchors_offered(anchor_table({"anchor_placed_card": True})) == [3, 5, 7]


def test_nautilus_a_game_created_before_the_anchor_option_pins_the_placed_card_too():
    """A game's record holds the options it was created with: one from before the option
    anchor_placed_card lacks it, and keeps the rule it began with (the French rulebook's)."""
    g = anchor_table({"hidden_domains": False}, recorded=True)
    assert "anchor_placed_card" not in g and anchors_offered(g) == [3, 5, 7]
