"""Buttons's board parts (see the package's docstring).

- `cell:S:R:C`: row R, column C of seat S's board (the API's seat number);
- `die:white`, `die:gold`, `die:black:I`: the dice of the last roll (I from 1, as shown);
- `do:roll`, `do:optout`, `do:skip`: roll, opt out of the round, let the gold dice pass.

Placing a button (with the roll or the gold dice) and turning a button into a star pick the
cell on the reader's own board: the dice decide its row and the columns it may be in, and the
board shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.buttons import COLOUR_NAMES
from service.words import N_, gettext

VERBS = {
    "roll": N_("Roll the dice"),
    "optout": N_("Opt out of the round, keeping your buttons"),
    "skip": N_("Let the gold dice pass"),
}
MARK_WORDS = {".": N_("empty"), "o": N_("a button"), "*": N_("a star")}
DICE_WORDS = {
    "white": N_("the white die"),
    "gold": N_("the gold die"),
    "black": N_("the black die"),
}


def cell(seat: int, row: int, col: int) -> str:
    return f"cell:{seat}:{row}:{col}"


def die(name: str, index: int | None = None) -> str:
    return f"die:{name}" if index is None else f"die:{name}:{index}"


def verb(kind: str) -> str:
    return f"do:{kind}"


def picks(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    kind = action["type"]
    if kind in VERBS:
        return (verb(kind),)
    return (cell(view["you"], action["row"], action["col"]),)


def changes(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    return () if action["type"] in VERBS else picks(view, action)


def label(view: Mapping[str, Any], part: str) -> str:
    kind, _, detail = part.partition(":")
    if kind == "cell":
        seat, row, col = (int(x) for x in detail.split(":"))
        player = view["players"][seat]
        whose = (
            gettext("your board")
            if seat == view["you"]
            else gettext("%(who)s's board", who="{seat%d}" % seat)
        )
        return gettext(
            "%(whose)s, row %(row)s, column %(col)s (%(colour)s): %(held)s",
            whose=whose,
            row=row,
            col=col,
            colour=gettext(COLOUR_NAMES[player["colours"][row - 1][col - 1]]),
            held=gettext(MARK_WORDS[player["board"][row - 1][col - 1]]),
        )
    if kind == "die":
        name = detail.split(":")[0]
        return gettext(DICE_WORDS[name]) if name in DICE_WORDS else f"the {name} die"
    if kind == "do":
        return gettext(VERBS[detail]) if detail in VERBS else detail
    return part


def marks(view: Mapping[str, Any], happened: Sequence[Any]) -> set[str]:
    """The dice of the others' last roll, and the buttons and stars they placed that are still
    on the boards (those placed with the gold dice are told when the last player decides,
    which may be the reader)."""
    marked: set[str] = set()
    for event in happened:
        for data in event.data:
            if data.get("seat") == view["you"]:
                continue  # what the reader did
            if "white" in data and "black" in data:  # a roll: the dice shown are its dice
                marked -= {p for p in marked if p.startswith("die:")}
                marked |= {die("white"), die("gold")}
                marked |= {die("black", i) for i in range(1, len(data["black"]) + 1)}
            elif "row" in data and "seat" in data:
                marked.add(cell(data["seat"], data["row"], data["col"]))
            elif "cells" in data and "seat" in data:
                marked |= {cell(data["seat"], r, c) for r, c in data["cells"]}
    players = view["players"]
    if view["dice"] is None:
        marked = {p for p in marked if not p.startswith("die:")}
    return {
        p
        for p in marked
        if not p.startswith("cell:") or _held(players, p) != "."  # a button gone is no mark
    }


def _held(players: Sequence[Mapping[str, Any]], part: str) -> str:
    seat, row, col = (int(x) for x in part.split(":")[1:])
    mark: str = players[seat]["board"][row - 1][col - 1]
    return mark
