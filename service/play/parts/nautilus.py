"""Nautilus's board parts (see the package's docstring).

- `space:S:C`: the space of seat S's side (the API's seat number), column C (1-5);
- `hand:N`: the Diver N in the reader's hand; `special:NAME`: a Special card the reader holds
  (the Kraken and the Fishbone are placed from there);
- `draft:NAME`: one of the two Specials the Nemo holder drew; `drawn:N`: one of the two Divers
  the reader's Submarine drew;
- `do:pass`: use no start-of-round Special.

A placement picks the card, then the space; with the Anchor it starts with the Anchor, then
the card it pins (a space, or the card being placed when the game's option allows it), then the
card placed and its space. An arrow's move picks the card's space, then the empty space.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.games.nautilus import CARD_NAME
from service.words import N_, gettext

SPECIAL_NAMES = {
    "anchor": N_("Anchor"),
    "eye": N_("Eye"),
    "fishbone": N_("Fishbone"),
    "harpoon": N_("Harpoon"),
    "kraken": N_("Kraken"),
    "submarine": N_("Submarine"),
}

PASS = "do:pass"
ANCHOR = "special:anchor"


def space(seat: int, col: int) -> str:
    return f"space:{seat}:{col}"


def hand(card: int) -> str:
    return f"hand:{card}"


def special(name: str) -> str:
    return f"special:{name}"


def draft(name: str) -> str:
    return f"draft:{name}"


def drawn(card: int) -> str:
    return f"drawn:{card}"


def source(card: int) -> str:
    """Where a card is placed from: the hand for a Diver, the Specials for the Kraken and the
    Fishbone (placed as 15 and 0)."""
    return special(CARD_NAME[card]) if card in CARD_NAME else hand(card)


def _seat_of(view: Mapping[str, Any], side: str) -> int:
    """An action's side ("me" or "opp", from the mover's view) as a seat."""
    you = view["you"]
    return you if side == "me" else 1 - you


def where(view: Mapping[str, Any], card: int) -> str | None:
    """The space that holds `card` now, if any."""
    for seat, row in enumerate(view["board"]):
        for col, held in enumerate(row, start=1):
            if held == card:
                return space(seat, col)
    return None


def picks(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    kind = action["type"]
    if kind == "keep":
        return (draft(action["special"]),)
    if kind in ("eye", "submarine", "harpoon"):
        return (special(kind),)
    if kind == "pass":
        return (PASS,)
    if kind == "submarine_keep":
        return (drawn(action["card"]),)
    if kind == "harpoon_give":
        return (hand(action["card"]),)
    if kind == "move":
        return (
            space(_seat_of(view, action["from_side"]), action["from_col"]),
            space(_seat_of(view, action["to_side"]), action["to_col"]),
        )
    card, anchor = action["card"], action["anchor"]
    placed = (source(card), space(_seat_of(view, action["side"]), action["col"]))
    if anchor is None:
        return placed
    if anchor == card:  # the Anchor pins the card being placed (an option)
        return (ANCHOR, *placed)
    pinned = where(view, anchor)
    assert pinned is not None, "the Anchor pins a card on the board"
    return (ANCHOR, pinned, *placed)


def changes(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    kind = action["type"]
    chosen = picks(view, action)
    if kind == "place":
        pinned = chosen[1:-2] if action["anchor"] is not None else ()
        return (chosen[-1], *(p for p in pinned if p.startswith("space:")))
    return chosen


def label(view: Mapping[str, Any], part: str) -> str:
    kind, _, detail = part.partition(":")
    if kind == "space":
        seat, col = (int(x) for x in detail.split(":"))
        card = view["board"][seat][col - 1]
        held = (
            gettext("empty")
            if card is None
            else gettext("the %(special)s", special=gettext(SPECIAL_NAMES[CARD_NAME[card]]))
            if card in CARD_NAME
            else gettext("the %(card)s", card=card)
        )
        if seat == view["you"]:
            return gettext("your side, column %(col)s: %(held)s", col=col, held=held)
        return gettext(
            "%(who)s's side, column %(col)s: %(held)s", who="{seat%d}" % seat, col=col, held=held
        )
    if kind == "hand":
        return gettext("your %(card)s in hand", card=detail)
    if kind == "special":
        return gettext("your %(special)s", special=_special(detail))
    if kind == "draft":
        return gettext("the %(special)s you drew", special=_special(detail))
    if kind == "drawn":
        return gettext("the %(card)s your Submarine drew", card=detail)
    if part == PASS:
        return gettext("Use no Special now")
    return part


def _special(name: str) -> str:
    return gettext(SPECIAL_NAMES[name]) if name in SPECIAL_NAMES else name


def marks(view: Mapping[str, Any], happened: Sequence[Any]) -> set[str]:
    """The spaces the others' placements and arrows filled or emptied this round, the card the
    Anchor pinned, a Diver the Harpoon gave the reader."""
    marked: set[str] = set()
    for event in happened:
        if event.seat == view["you"]:
            continue  # the reader's own move tells nothing new of the others'
        for data in event.data:
            if "round" in data:  # a new round: the board was cleared
                marked.clear()
            elif "side" in data and "col" in data:
                marked.add(space(data["side"], data["col"]))
            elif "from_side" in data:
                marked.add(space(data["from_side"], data["from_col"]))
                marked.add(space(data["to_side"], data["to_col"]))
            elif set(data) == {"card"}:
                marked |= set(_card_now(view, data["card"]))
    return marked


def _card_now(view: Mapping[str, Any], card: Any) -> Iterable[str]:
    """Where a card named alone in a line is now: on the board (the Anchor pinned it) or in
    the reader's hand (the Harpoon gave it)."""
    if not isinstance(card, int):
        return ()
    pinned = where(view, card)
    if pinned is not None:
        return (pinned,)
    if card in (view.get("hand") or ()):
        return (hand(card),)
    return ()
