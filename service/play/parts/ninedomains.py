"""The Nine Domains' board parts (see the package's docstring).

- `hand:CARD`: a card of the reader's hand (`hand:3+`);
- `slot:S:I`: seat S's card before slot I (0 left, 1 middle, 2 right);
- `stake:I`: the domain at stake in slot I (or the one just fought for there);
- `domain:ID`: a domain a player holds (`domain:red4`);
- `used:S:CARD`: a card seat S has played;
- `do:pass`: do not use the effect of a winning 2- or 3-.

Laying the three cards picks a card, then its slot, for the left, middle and right slots in
turn; the 2-'s swap picks the reader's domain, then the opponent's; the 3-'s picks the card in
hand, then the used card it takes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import chain
from typing import Any

from engine.games.ninedomains import SLOTS
from service.words import N_, gettext

SLOT_WORDS = (N_("on the left"), N_("in the middle"), N_("on the right"))
"""A card's place, in words (as the engine's SLOT_WORDS)."""

PASS = "do:pass"


def hand(card: str) -> str:
    return f"hand:{card}"


def slot(seat: int, index: int) -> str:
    return f"slot:{seat}:{index}"


def stake(index: int) -> str:
    return f"stake:{index}"


def domain(name: str) -> str:
    return f"domain:{name}"


def used(seat: int, card: str) -> str:
    return f"used:{seat}:{card}"


def picks(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    kind = action["type"]
    you = view["you"]
    if kind == "play":
        return _laying(you, action["cards"])
    if kind == "swap-domain":
        return (domain(action["mine"]), domain(action["theirs"]))
    if kind == "swap-card":
        return (hand(action["hand"]), used(you, action["used"]))
    return (PASS,)


def _laying(you: int, cards: Sequence[str]) -> tuple[str, ...]:
    """The parts that pick a laying of `cards`: a turn has a hundred such moves, and a turn
    email or page asks them all; each card's pair of parts is made once."""
    return tuple(chain.from_iterable(_laid(you, i, card) for i, card in enumerate(cards)))


@cache  # a seat, a slot and a kind of card: 2 x 3 x 15 keys
def _laid(you: int, index: int, card: str) -> tuple[str, str]:
    return hand(card), slot(you, index)


def changes(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    if action["type"] == "play":
        return _own_slots(view["you"])
    return () if action["type"] == "pass" else picks(view, action)


@cache  # a key a seat
def _own_slots(you: int) -> tuple[str, ...]:
    return tuple(slot(you, i) for i in range(len(SLOTS)))


def label(view: Mapping[str, Any], part: str) -> str:
    kind, _, detail = part.partition(":")
    you = view["you"]
    if kind == "hand":
        return gettext("your %(card)s in hand", card=detail)
    if kind == "slot":
        seat, index = (int(x) for x in detail.split(":"))
        where = gettext(SLOT_WORDS[index])
        at_stake = view["face_up"][index]
        if seat == you:
            if at_stake:
                return gettext("your card %(slot)s, for %(domain)s", slot=where, domain=at_stake)
            return gettext("your card %(slot)s", slot=where)
        who = "{seat%d}" % seat
        if at_stake:
            return gettext(
                "%(who)s's card %(slot)s, for %(domain)s", who=who, slot=where, domain=at_stake
            )
        return gettext("%(who)s's card %(slot)s", who=who, slot=where)
    if kind == "stake":
        where = gettext(SLOT_WORDS[int(detail)])
        at_stake = view["face_up"][int(detail)]
        if at_stake:
            return gettext("the domain %(slot)s: %(domain)s", slot=where, domain=at_stake)
        return gettext("the domain %(slot)s", slot=where)
    if kind == "domain":
        owner = next((s for s, held in enumerate(view["domains"]) if detail in held), None)
        if owner == you:
            return gettext("your domain %(domain)s", domain=detail)
        if owner is not None:
            return gettext("%(who)s's domain %(domain)s", who="{seat%d}" % owner, domain=detail)
        return gettext("the domain %(domain)s", domain=detail)
    if kind == "used":
        user, card = detail.split(":", 1)
        if int(user) == you:
            return gettext("your used %(card)s", card=card)
        return gettext("%(who)s's used %(card)s", who="{seat%s}" % user, card=card)
    if part == PASS:
        decision = view.get("decision") or {}
        card = "2-" if decision.get("kind") == "swap-domain" else "3-"
        return gettext("Do not use your %(card)s", card=card)
    return part


def marks(view: Mapping[str, Any], happened: Sequence[Any]) -> set[str]:
    """The others' cards laid face down, their cards revealed (by the reader's own move too,
    when it was the second to lay) while the round just fought is in view, the domains taken,
    and the domains and cards the others' 2- or 3- swapped."""
    marked: set[str] = set()
    you = view["you"]
    fought_in_view = not any(view["face_up"]) and bool(view["battles"])
    for event in happened:
        lines = [data for data in event.data if data]
        if event.seat != you and not lines and view["committed"][event.seat]:
            marked |= {slot(event.seat, i) for i in range(len(SLOTS))}  # laid face down
        for data in lines:
            if data.get("seat") == you:
                continue  # what the reader did (a swap)
            if _revealed(data):
                if fought_in_view:
                    marked |= {slot(s, i) for s in (0, 1) if s != you for i in range(len(SLOTS))}
            elif "slot" in data and "domain" in data:
                if fought_in_view:
                    marked.add(stake(data["slot"]))
                if data.get("winner") is not None:
                    marked.add(domain(data["domain"]))
            elif "mine" in data:
                marked |= {domain(data["mine"]), domain(data["theirs"])}
            elif "used" in data and "seat" in data:
                marked.add(used(data["seat"], data["hand"]))
    return marked


def _revealed(data: Mapping[str, Any]) -> bool:
    """The line that reveals both seats' cards (not the reader's own "you lay face down")."""
    cards = data.get("cards")
    return isinstance(cards, list) and bool(cards) and isinstance(cards[0], list)
