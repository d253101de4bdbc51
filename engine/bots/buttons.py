"""Buttons' bots (rules: docs/games/rules/buttons.md, code: engine/games/buttons.py)."""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.bots import random_bot
from engine.bots.search import ExpertParts, clone
from engine.core import Action, Bot, Rng, State, View
from engine.games.buttons import (
    BUTTON,
    COLOUR_TARGET,
    COLOURS,
    EMPTY,
    LAYOUTS,
    LINE_LENGTH,
    NEIGHBOURS,
    SIZE,
    STAR,
    award_stars,
    cell,
    cells_marked,
    colour_of,
    is_legal_cell,
    place_actions,
    put_mark,
)


def _bust_chance(board: str, black_dice: int) -> float:
    """The chance that a roll with `black_dice` black dice leaves no legal cell."""
    total = 0.0
    for row in range(1, SIZE + 1):
        free = sum(1 for col in range(1, SIZE + 1) if is_legal_cell(board, row, col))
        total += ((SIZE - free) / SIZE) ** black_dice
    return total / SIZE


BLOCKING_COST = 0.08
"""A button's cost for each free neighbour it blocks this round (0.15 before: 55.7%, 0.08:
56.6%, 0.25: 55.5% against the bot of 2026-11-24 over bench/bots.py's 1,000 games)."""
LINE_WORTH = 0.1
"""A button's worth for each star already in the best run of five through it (a star can go
only on a button of this round; 0.2: 55.0%, 0.35: 53.7%)."""


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
    value -= BLOCKING_COST * sum(1 for j in NEIGHBOURS[i] if board[j] == EMPTY)
    value += LINE_WORTH * _star_value(board, i)
    return value


BUTTON_WORTH = 0.25
"""A button's worth beyond the stars it adds now: it may help a colour to 3 later (measured:
0.1, 0.25 and 0.4 give 53.2%, 54.8% and 50.8% against the bot of 2026-11-24)."""


def _roll_gain(board: str, layout: int, bonus: list[str], stars: int, dice: int) -> float:
    """What one more roll may add to an opt-out: for each row of the white die, the chance
    some die gives a legal column there times the stars the best such button would add (a
    button adds a star when it brings its colour to COLOUR_TARGET, two for a bonus colour)."""
    have = {c: 0 for c in COLOURS}
    for i in cells_marked(board, BUTTON):
        have[LAYOUTS[layout][i // SIZE][i % SIZE]] += 1
    total = 0.0
    for row in range(1, SIZE + 1):
        free = [col for col in range(1, SIZE + 1) if is_legal_cell(board, row, col)]
        if not free:
            continue
        best = max(
            (1 + (colour in bonus)) * (have[colour] == COLOUR_TARGET - 1)
            for colour in (colour_of(layout, row, col) for col in free)
        )
        total += (1 - ((SIZE - len(free)) / SIZE) ** dice) * (best + BUTTON_WORTH)
    return total / SIZE


def _completes_a_line(board: str, stars: int) -> bool:
    """Whether `stars` stars put on this round's buttons would make 5 in an unbroken line."""
    lines = [[r * SIZE + c for c in range(SIZE)] for r in range(SIZE)]
    lines += [[r * SIZE + c for r in range(SIZE)] for c in range(SIZE)]
    for line in lines:
        for start in range(SIZE - LINE_LENGTH + 1):
            window = [board[i] for i in line[start : start + LINE_LENGTH]]
            if EMPTY not in window and window.count(BUTTON) <= stars:
                return True
    return False


def _star_value(board: str, i: int) -> int:
    """Stars go where they build a line: the most stars already in a run of five cells, along
    its row or its column, through this cell (buttons go at the round's end; stars stay)."""
    r, c = divmod(i, SIZE)
    best = 0
    for line, at in ((board[r * SIZE : (r + 1) * SIZE], c), (board[c::SIZE], r)):
        for start in range(max(0, at - LINE_LENGTH + 1), min(at, SIZE - LINE_LENGTH) + 1):
            best = max(best, line[start : start + LINE_LENGTH].count(STAR))
    return best


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Opt out when the stars it earns complete a line of five, or when what busting would
    cost (its chance times the stars at stake) outweighs what one more roll may add; place
    where a button helps most (or skip the gold dice when nowhere helps); put stars where
    lines grow."""
    me = view["players"][view["you"]]
    board = "".join(me["board"])
    layout = me["layout"] - 1
    kinds = {a["type"] for a in legal}
    if "roll" in kinds:
        if "optout" not in kinds:
            return {"type": "roll"}
        stars, _, _ = award_stars(board, layout, me["bonus"])
        if stars and _completes_a_line(board, stars):
            return {"type": "optout"}  # a line of five wins: never risk it on a roll
        dice = view["dice_in_play"] + 1
        risk = _bust_chance(board, dice)
        gain = _roll_gain(board, layout, me["bonus"], stars, dice)
        return {"type": "optout"} if risk * stars > gain else {"type": "roll"}
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


LEAD_SCALE = 2.0
"""How a lead at a round's end turns into a chance to win in the expert's playouts: a lead of
this many points of `_standing` is worth a 73% chance."""


def cutoff(start: State, seat: int) -> Callable[[State], float | None]:
    """Where the expert's playouts stop: when the round after `start`'s has begun, valued by
    the seat's lead in standing over the best other player (a logistic of it). A whole game
    of dice decides a roll or an opt-out with more noise than the few tries of a second can
    average away; a round's end, valued, much less (measured: 45% of 200 games against the
    heuristic at 0.25 s a move playing to the end, 67.5% of 40 games stopping at the round)."""
    first = start["round"]

    def chance(world: State) -> float | None:
        if world["round"] == first:
            return None
        boards = world["boards"]
        lead = _standing(boards[seat]) - max(
            _standing(b) for other, b in enumerate(boards) if other != seat
        )
        return 1 / (1 + math.exp(-lead / LEAD_SCALE))

    return chance


def _standing(board: str) -> float:
    """A board's worth towards winning: its stars, and twice the stars of its best run of
    five (a line of five wins outright)."""
    return board.count(STAR) + 2 * max(_star_value(board, i) for i in range(SIZE * SIZE))


def determinize(g: State, seat: int, rng: Rng) -> State:
    """A state `seat` cannot tell from `g`, for the expert's search. Buttons hides nothing
    but what the others decided on the current roll, or which of their buttons they picked
    for stars, while `seat` still decides: those are drawn again at random among what they
    could have done. The dice to come are the search's own."""
    d = clone(g)
    for other in range(g["n"]):
        if other == seat:
            continue
        if g["phase"] == "place" and g["choices"][other] is not None:
            d["choices"][other] = None
            d["choices"][other] = rng.choice(place_actions(d, other))
        if g["phase"] == "stars" and g["star_picks"][other]:
            buttons = cells_marked(g["boards"][other], BUTTON)
            rng.shuffle(buttons)
            d["star_picks"][other] = sorted(buttons[: len(g["star_picks"][other])])
    return d


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
EXPERT = ExpertParts(determinize, cutoff=cutoff, paired=True)
"""The expert ends its playouts with the round (`cutoff`) and compares its moves on the same
dice (engine.bots.search._paired)."""
