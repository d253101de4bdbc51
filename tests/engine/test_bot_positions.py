"""The heuristic bots in the positions the audits showed them to misplay, built by hand."""

import pytest

from engine.bots import buttons as buttons_bots
from engine.rng import Rng
from tests.engine.test_buttons import with_buttons, with_stars
from tests.engine.test_buttons_helpers import GAME, make

pytestmark = pytest.mark.slow  # bots searched at many positions


def test_buttons_bot_opts_out_when_its_star_completes_a_line_of_five():
    """Four stars in row 3 and this round's button in the gap: opting out earns a star that
    makes five in a row, which wins; rolling risks a bust that would lose the button."""
    g = make(2, turn=0, options={})
    g["boards"][0] = with_buttons([(3, 3)], with_stars([(3, 1), (3, 2), (3, 4), (3, 5)]))
    legal = GAME.legal_actions(g, 0)
    assert {"type": "optout"} in legal and {"type": "roll"} in legal
    chosen = buttons_bots.heuristic_bot(GAME.view(g, 0), legal, Rng(b"bot" * 11))
    assert chosen == {"type": "optout"}
    # and when the stars are not in line, the bot still weighs the risk (it rolls here)
    g["boards"][0] = with_buttons([(3, 3)], with_stars([(1, 1), (2, 3), (4, 5), (6, 6)]))
    chosen = buttons_bots.heuristic_bot(GAME.view(g, 0), GAME.legal_actions(g, 0), Rng(b"b" * 33))
    assert chosen == {"type": "roll"}


def test_nautilus_bot_plays_no_card_for_a_domain_already_won():
    """War is won for good by the opponent: the War column's card changes nobody's domains,
    so the bot puts its strong Diver where a domain is still open, not before the War +2."""
    from engine.bots import nautilus as nautilus_bots
    from engine.games import nautilus as N
    from tests.engine.test_nautilus import placing

    g = placing(". . . . .", ". . . . .", mover=0, hands=[[2, 3, 4, 5, 13], [6, 7, 8, 9, 10]])
    g["domain_row"] = [{"domain": "war", "points": 2}] + [
        {"domain": "science", "points": 1} for _ in range(4)
    ]
    g["won"][N.DOMAINS.index("war")] = 1
    view, legal = N.GAME.view(g, 0), N.GAME.legal_actions(g, 0)
    chosen = nautilus_bots.heuristic_bot(view, legal, Rng(b"n" * 32))
    assert chosen["type"] == "place" and chosen["col"] != 1, chosen
    g["won"][N.DOMAINS.index("war")] = None  # while War is open, its +2 draws the bot
    chosen = nautilus_bots.heuristic_bot(N.GAME.view(g, 0), legal, Rng(b"n" * 32))
    assert chosen["col"] == 1, chosen


def test_nautilus_bot_keeps_the_fishbone_rather_than_give_it():
    """Given away, the Fishbone (a 0 on one's own side) costs the bot a column; kept, it is
    the bot's to put on the opponent's side."""
    from engine.bots import nautilus as nautilus_bots

    legal = [{"type": "keep", "special": s} for s in ("fishbone", "harpoon")]
    assert nautilus_bots.heuristic_bot({"you": 0}, legal, Rng(b"n" * 32))["special"] == "fishbone"


def test_nine_domains_bot_takes_the_two_minus_swap_that_wins_at_once():
    """Its winning 2- lets it swap a domain: taking the opponent's green4 for plain6 gives it
    red, blue, green and both purple halves, all four elements: the game, at once."""
    from engine.bots import ninedomains as nine_bots
    from engine.games.ninedomains import GAME as NINE
    from tests.engine.test_ninedomains import play_round, table

    g = table(
        specials=("2-", "3+", "*"),
        round_no=2,
        face_up=("plain6", "red4", "blue4"),
        domains=(("red2", "blue2", "purple3a", "purple3b"), ("green4",)),
    )
    play_round(g, "2- 0 1", "1 2 3")
    legal = NINE.legal_actions(g, 0)
    assert {"type": "swap-domain", "mine": "plain6", "theirs": "green4"} in legal
    chosen = nine_bots.heuristic_bot(NINE.view(g, 0), legal, Rng(b"9" * 32))
    assert chosen == {"type": "swap-domain", "mine": "plain6", "theirs": "green4"}


def test_con_sonar_bot_counts_the_pair_a_sinking_completes():
    """It sank y2 already: sinking y1 scores the sinking and the pair (+2), which outweighs a
    likelier shot at a blue submarine (+1, and a first blue towards a group of colours)."""
    from engine.bots import consonar as consonar_bots
    from engine.games.consonar import GAME as SONAR
    from tests.engine.test_consonar import act, make

    g = make(
        nations="rg",
        hands=[["g-1"], []],
        row=("b2", "y1", "p1"),
        subs={"y1": 7, "y2": None, "b1": 6, "b2": 6},
        sunk=[["y2"], []],
    )
    act(g, "fleet g-1@g1")  # its arrow, carrier, opens b2 and y1
    legal = SONAR.legal_actions(g, 0)
    assert {"type": "torpedo", "card": "b2", "sub": "b1"} in legal
    chosen = consonar_bots.heuristic_bot(SONAR.view(g, 0), legal, Rng(b"c" * 32))
    assert chosen == {"type": "torpedo", "card": "y1", "sub": "y1"}, chosen
