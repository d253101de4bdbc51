"""Buttons' bots (rules: docs/games/rules/buttons.md, code: engine/games/buttons.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.core import Action, Bot, Rng, View
from engine.games.buttons import (
    BUTTON,
    COLOUR_TARGET,
    EMPTY,
    LAYOUTS,
    NEIGHBOURS,
    SIZE,
    STAR,
    award_stars,
    cell,
    cells_marked,
    colour_of,
    is_legal_cell,
    put_mark,
)


def _bust_chance(board: str, black_dice: int) -> float:
    """The chance that a roll with `black_dice` black dice leaves no legal cell."""
    total = 0.0
    for row in range(1, SIZE + 1):
        free = sum(1 for col in range(1, SIZE + 1) if is_legal_cell(board, row, col))
        total += ((SIZE - free) / SIZE) ** black_dice
    return total / SIZE


def _cell_value(board: str, layout: int, bonus: list[str], row: int, col: int) -> float:
    """How much a button here helps: towards a colour's 3, more for a bonus colour, towards a
    line of stars; minus the free neighbours it blocks."""
    colour = colour_of(layout, row, col)
    have = sum(
        1 for i in cells_marked(board, BUTTON) if LAYOUTS[layout][i // SIZE][i % SIZE] == colour
    )
    value = 0.0
    if have < COLOUR_TARGET:
        value += (1.0 + (colour in bonus)) * (have + 1) / COLOUR_TARGET
    i = cell(row, col)
    value -= 0.15 * sum(1 for j in NEIGHBOURS[i] if board[j] == EMPTY)
    value += 0.1 * max(
        board[(row - 1) * SIZE : row * SIZE].count(STAR), board[col - 1 :: SIZE].count(STAR)
    )
    return value


def _star_value(board: str, i: int) -> int:
    """Stars go where they build the longest line: the row or column already richest in stars."""
    r, c = divmod(i, SIZE)
    return max(board[r * SIZE : (r + 1) * SIZE].count(STAR), board[c::SIZE].count(STAR))


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Opt out when the chance of busting outweighs the stars at stake; place where a button
    helps most (or skip the gold dice when nowhere helps); put stars where lines grow."""
    me = view["players"][view["you"]]
    board = "".join(me["board"])
    layout = me["layout"] - 1
    kinds = {a["type"] for a in legal}
    if "roll" in kinds:
        if "optout" not in kinds:
            return {"type": "roll"}
        stars, _, _ = award_stars(board, layout, me["bonus"])
        risk = _bust_chance(board, view["dice_in_play"] + 1)
        return {"type": "optout"} if risk * stars > (1 - risk) * 0.6 else {"type": "roll"}
    if "star" in kinds:
        for r, c in view["my_star_picks"]:
            board = put_mark(board, cell(r, c), STAR)
        return max(
            legal,
            key=lambda a: (_star_value(board, cell(a["row"], a["col"])), -cell(a["row"], a["col"])),
        )
    places = [a for a in legal if a["type"] == "place"]
    scored = [(_cell_value(board, layout, me["bonus"], a["row"], a["col"]), a) for a in places]
    value, best = max(scored, key=lambda va: va[0])
    if "skip" in kinds and value < 0.3:
        return {"type": "skip"}
    return best


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
