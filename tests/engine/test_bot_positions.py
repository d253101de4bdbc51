"""The heuristic bots in the positions the audits showed them to misplay, built by hand."""

from engine.bots import buttons as buttons_bots
from engine.rng import Rng
from tests.engine.test_buttons import with_buttons, with_stars
from tests.engine.test_buttons_helpers import GAME, make


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
