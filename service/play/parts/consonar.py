"""Con Sonar!'s board parts (see the package's docstring).

- `hand:CARD`: a Fleet card of the reader's hand (`hand:r+2`);
- `sub:SUB`: a submarine on the ladder (`sub:r1`); `sunk:SUB`: one sunk;
- `rung:N:C`: rung N of colour C's column of the ladder (where a submarine would go);
- `torpedo:CARD`: a face-up Torpedo card (`torpedo:b2`); `torpedo-deck`: the Torpedo deck (a
  delayed card goes to its bottom); `defused`: the defused cards (out of the game);
- `do:end`: end the turn without a Torpedo card.

A Fleet card picks the card, then the submarine it moves; a Torpedo card picks the card, then
its target: a submarine (fire), the defused cards (defuse) or the deck (delay).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.consonar import COLOUR_NAMES, FLEET_INFO, HIGH, LOW, TORPEDO_INFO
from service.words import gettext, ngettext

END = "do:end"
TORPEDO_DECK = "torpedo-deck"
DEFUSED = "defused"
SYMBOL_WORDS = {"pt": "PT boat"}
"""The symbols in English; said through the catalogue (the boards' words for them)."""


def hand(card: str) -> str:
    return f"hand:{card}"


def sub(name: str) -> str:
    return f"sub:{name}"


def sunk(name: str) -> str:
    return f"sunk:{name}"


def rung(number: int, colour: str) -> str:
    return f"rung:{number}:{colour}"


def torpedo(card: str) -> str:
    return f"torpedo:{card}"


def picks(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    kind = action["type"]
    if kind == "fleet":
        return (hand(action["card"]), sub(action["sub"]))
    if kind == "torpedo":
        return (torpedo(action["card"]), sub(action["sub"]))
    if kind == "defuse":
        return (torpedo(action["card"]), DEFUSED)
    if kind == "delay":
        return (torpedo(action["card"]), TORPEDO_DECK)
    return (END,)


def changes(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    """A Fleet card: the submarine and the rung it goes to; a Torpedo card: the card and its
    target."""
    if action["type"] == "fleet":
        name = action["sub"]
        after = min(HIGH, max(LOW, view["ladder"][name] + FLEET_INFO[action["card"]]["value"]))
        return (sub(name), rung(after, name[0]))
    return picks(view, action) if action["type"] != "end" else ()


def _symbol(name: str) -> str:
    return gettext(SYMBOL_WORDS.get(name, name)).replace("|", "")  # "|": where a board breaks it


def _colour(letter: str) -> str:
    return gettext(COLOUR_NAMES[letter])


def _submarine(view: Mapping[str, Any], name: str) -> str:
    """ "your submarine r1", "the neutral submarine b2", "{seat1}'s submarine g1"."""
    colour = name[0]
    if colour == view["my_colour"]:
        return gettext("your submarine %(sub)s", sub=name)
    if colour in view["neutral"]:
        return gettext("the neutral submarine %(sub)s", sub=name)
    who = "{seat%d}" % view["nations"].index(colour)
    return gettext("%(who)s's submarine %(sub)s", who=who, sub=name)


def label(view: Mapping[str, Any], part: str) -> str:
    kind, _, detail = part.partition(":")
    if kind == "hand":
        info = FLEET_INFO[detail]
        value = "%+d" % info["value"]
        return gettext(
            "your Fleet card %(colour)s %(value)s (%(symbol)s, calls %(arrow)s)",
            colour=_colour(info["colour"]),
            value=value,
            symbol=_symbol(info["symbol"]),
            arrow=_symbol(info["arrow"]),
        )
    if kind == "sub":
        return gettext(
            "%(submarine)s on rung %(rung)s",
            submarine=_submarine(view, detail),
            rung=view["ladder"][detail],
        )
    if kind == "sunk":
        return gettext("submarine %(sub)s, sunk", sub=detail)
    if kind == "rung":
        number, colour = detail.split(":")
        return gettext(
            "rung %(rung)s of the %(colour)s column", rung=number, colour=_colour(colour)
        )
    if kind == "torpedo":
        card = TORPEDO_INFO[detail]
        return ngettext(
            "Torpedo card %(colour)s %(num)d (%(num)d torpedo, shows %(symbol)s)",
            "Torpedo card %(colour)s %(num)d (%(num)d torpedoes, shows %(symbol)s)",
            card["torpedoes"],
            colour=_colour(card["colour"]),
            symbol=_symbol(card["symbol"]),
        )
    if part == TORPEDO_DECK:
        return gettext("the bottom of the Torpedo deck (delay the card)")
    if part == DEFUSED:
        return gettext("the defused cards (defuse it: it leaves the game)")
    if part == END:
        return gettext("End your turn without a Torpedo card")
    return part


def marks(view: Mapping[str, Any], happened: Sequence[Any]) -> set[str]:
    """The submarines the others moved, fired at or sank, the Torpedo cards turned face up, and
    where a card went that was defused or delayed."""
    marked: set[str] = set()
    ladder = view["ladder"]
    row = {c["card"] for c in view["torpedo_row"]}
    for event in happened:
        if event.seat == view["you"]:
            continue  # the reader's own turn tells nothing new of the others'
        for data in event.data:
            name = data.get("sub")
            if name in ladder:
                marked.add(sub(name) if ladder[name] is not None else sunk(name))
            elif set(data) == {"card"} and data["card"] in row:  # turned face up
                marked.add(torpedo(data["card"]))
            elif set(data) == {"seat", "card"}:  # defused or delayed
                marked.add(DEFUSED if data["card"] in view["torpedo_removed"] else TORPEDO_DECK)
    return marked
