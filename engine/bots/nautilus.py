"""Nautilus's bots (rules: docs/games/rules/nautilus.md, code: engine/games/nautilus.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.core import Action, Bot, Rng, View
from engine.games.nautilus import COLUMNS, beats, other


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


def _board_value(view: View, seat: int, board: list[list[int | None]]) -> float:
    return sum(_column_value(view, seat, board, c) for c in range(COLUMNS))


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Keep the Kraken, then the Fishbone (given away, it ruins one of this seat's columns), use
    every start Special, keep/give the best/worst Diver, and place or move so that the board's
    expected Domain points (for this seat) are highest, counting no column whose domain is
    decided. The Anchor only ever pins the card just placed on this seat's own side."""
    seat = view["you"]
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

    def score(action: Action) -> float:
        board = [list(row) for row in view["board"]]
        if action["type"] == "place":
            side = seat if action["side"] == "me" else other(seat)
            board[side][action["col"] - 1] = action["card"]
        else:
            fs = seat if action["from_side"] == "me" else other(seat)
            ts = seat if action["to_side"] == "me" else other(seat)
            board[ts][action["to_col"] - 1] = board[fs][action["from_col"] - 1]
            board[fs][action["from_col"] - 1] = None
        bonus = 0.0
        if action.get("anchor") is not None:
            bonus = 0.1 if action["anchor"] == action["card"] and action["side"] == "me" else -1
        # Save strong cards: a small cost for spending a high card.
        spend = action["card"] / 100 if action["type"] == "place" else 0.0
        return _board_value(view, seat, board) + bonus - spend

    return max(legal, key=score)


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
