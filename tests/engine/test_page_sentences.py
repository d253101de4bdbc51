"""A test named after each sentence of the original pages that had none, and the pages' letter
as the default where the engine used to follow another source.

Each docstring quotes the page's sentence in its own language (the Nautilus page 000 is in
English written in Cyrillic letters: quoted so, then read out) and in English. The pages are
the authority: docs/games/rules/*.md say where each rule comes from.
"""

from engine import match as runner
from engine.core import Log
from engine.games import nautilus as N
from engine.rng import Rng
from tests.engine import conformance

SEED = conformance.seed_of(40)


# ----------------------------------------------------------------------------------- Nautilus


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
