"""Nautilus's bots (rules: docs/games/rules/nautilus.md, code: engine/games/nautilus.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.bots import random_bot
from engine.bots.search import ExpertParts, clone
from engine.core import Action, Bot, Rng, State, View
from engine.games.nautilus import COLUMNS, DOMAINS, beats, check_domains, other


def _column_value(view: View, seat: int, board: list[list[int | None]], col: int) -> float:
    """The heuristic's worth of one column to `seat`: the Domain card's points times a guess
    of the chance to win it (certain when both cards are down); nothing when its domain is
    already won for good (its card changes no one's domains)."""
    card = view["domain_row"][col]
    if view["won"][view["domains"].index(card["domain"])] is not None:
        return 0.0
    points = card["points"]
    mine, theirs = board[seat][col], board[other(seat)][col]
    if mine is not None and theirs is not None:
        chance = 1.0 if beats(mine, theirs) else 0.0
    elif mine is not None:
        chance = 0.05 if mine == 1 else mine / 15
    elif theirs is not None:
        chance = 0.95 if theirs == 1 else 1 - theirs / 15
    else:
        chance = 0.5
    return points * chance


def _placement_score(view: View) -> Callable[[Action], float]:
    """The heuristic's worth of a placement or a move: the board's expected Domain points for
    the seat after it (only the columns it changes valued again), less a little for spending a
    high card; the Anchor is worth something only on the card just placed on the seat's side."""
    seat = view["you"]
    board = view["board"]
    worth = [_column_value(view, seat, board, c) for c in range(COLUMNS)]

    def score(action: Action) -> float:
        changed = [list(board[0]), list(board[1])]
        if action["type"] == "place":
            side = seat if action["side"] == "me" else other(seat)
            cols = {action["col"] - 1}
            changed[side][action["col"] - 1] = action["card"]
        else:
            fs = seat if action["from_side"] == "me" else other(seat)
            ts = seat if action["to_side"] == "me" else other(seat)
            cols = {action["from_col"] - 1, action["to_col"] - 1}
            changed[ts][action["to_col"] - 1] = board[fs][action["from_col"] - 1]
            changed[fs][action["from_col"] - 1] = None
        value = sum(
            _column_value(view, seat, changed, c) if c in cols else worth[c] for c in range(COLUMNS)
        )
        bonus = 0.0
        if action.get("anchor") is not None:
            bonus = 0.1 if action["anchor"] == action["card"] and action["side"] == "me" else -1
        # Save strong cards: a small cost for spending a high card.
        spend = action["card"] / 100 if action["type"] == "place" else 0.0
        return value + bonus - spend

    return score


def rank(view: View, legal: list[Action]) -> list[Action]:
    """The legal placements and moves best first as the heuristic values them (the expert
    searches them in this order); other decisions as they come."""
    if legal and legal[0]["type"] in ("place", "move"):
        return sorted(legal, key=_placement_score(view), reverse=True)
    return legal


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Keep the Kraken, then the Fishbone (given away, it ruins one of this seat's columns), use
    every start Special, keep/give the best/worst Diver, and place or move so that the board's
    expected Domain points (for this seat) are highest, counting no column whose domain is
    decided. The Anchor only ever pins the card just placed on this seat's own side."""
    kind = legal[0]["type"]
    if kind == "keep":
        order = ("kraken", "fishbone", "harpoon", "submarine", "eye", "anchor")
        return min(legal, key=lambda a: order.index(a["special"]))
    if kind in ("pass", "eye", "submarine", "harpoon"):
        return next((a for a in legal if a["type"] != "pass"), legal[0])
    if kind == "submarine_keep":
        return max(legal, key=lambda a: a["card"])
    if kind == "harpoon_give":
        return min(legal, key=lambda a: a["card"])
    return max(legal, key=_placement_score(view))


def determinize(g: State, seat: int, rng: Rng) -> State:
    """A state `seat` cannot tell from `g`, for the expert's search, each part drawn again
    from what `seat` sees only:
    - the Divers it cannot see (the opponent's hand, the pile, and the two the opponent drew
      with the Submarine while they choose) dealt again, each place keeping its size;
    - the Specials it cannot see (the opponent's, the deck, and the two drafted while the
      opponent holds the Nemo token) dealt again likewise;
    - the Domain pile shuffled; with hidden domains, the opponent's won Domain cards dealt
      again with it, and the domains locked so far worked out again from both piles.
    What the Eye showed it is forgotten (the search knows less, never more)."""
    d = clone(g)
    them = other(seat)
    divers = [("hand", len(g["hands"][them])), ("pile", len(g["diver_pile"]))]
    sub_hidden = g["phase"] == "submarine" and g["start_turn"] != seat and g["sub_drawn"]
    if sub_hidden:
        divers.append(("sub", len(g["sub_drawn"])))
    pool = sorted(g["hands"][them] + g["diver_pile"] + (g["sub_drawn"] if sub_hidden else []))
    dealt = _deal(pool, [size for _, size in divers], rng)
    d["hands"][them] = sorted(dealt[0])
    d["diver_pile"] = dealt[1]
    if sub_hidden:
        d["sub_drawn"] = sorted(dealt[2])
    draft_hidden = g["draft"] and g["nemo"] != seat
    pool = sorted(g["specials"][them] + g["special_deck"] + (g["draft"] if draft_hidden else []))
    sizes = [len(g["specials"][them]), len(g["special_deck"])] + (
        [len(g["draft"])] if draft_hidden else []
    )
    dealt = _deal(pool, sizes, rng)
    d["specials"][them] = sorted(dealt[0])
    d["special_deck"] = dealt[1]
    if draft_hidden:
        d["draft"] = sorted(dealt[2])
    hidden_taken = g["hidden"] and g["phase"] != "over"
    cards = g["domain_pile"] + (g["taken"][them] if hidden_taken else [])
    pool = sorted(cards, key=lambda c: json.dumps(c, sort_keys=True))
    dealt = _deal(pool, [len(g["domain_pile"]), len(g["taken"][them]) if hidden_taken else 0], rng)
    d["domain_pile"] = dealt[0]
    if hidden_taken:
        d["taken"][them] = dealt[1]
        d["won"] = [None] * len(DOMAINS)
        check_domains(d)
    return d


def _deal(pool: list[Any], sizes: list[int], rng: Rng) -> list[list[Any]]:
    """The pool shuffled and cut into parts of these sizes."""
    cards = list(pool)
    rng.shuffle(cards)
    parts = []
    for size in sizes:
        parts.append(cards[:size])
        del cards[:size]
    return parts


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
EXPERT = ExpertParts(determinize, rank=rank)
