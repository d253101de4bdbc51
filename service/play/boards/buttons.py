"""Buttons drawn from one seat's view: every player's 6 x 6 board (printed colours, this
round's buttons, stars), the dice, who still has to decide, and the reader's own pending
choice or star picks (the others' stay hidden until all are in)."""

from __future__ import annotations

from functools import cache, lru_cache

from service.play.boards.common import (
    FOOTER,
    INK,
    MUTED,
    Html,
    board_frame,
    card_box,
    cards_in_a_row,
    el,
    escape,
    layout_start,
    pad,
    paragraph,
    part_el,
    start_tag,
    strong_paragraph,
    wrap,
)
from service.play.boards.table import Table
from service.play.parts import buttons as named
from service.words import N_, gettext, language, ngettext

COLOUR_NAMES = {"R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue")}
PAINT = {"R": "#d64545", "Y": "#f2c94c", "G": "#4caf6a", "B": "#3f7fd1"}
STATUS = {
    "in": N_("in the round"),
    "opted_out": N_("opted out"),
    "bust": N_("bust"),
    "left": N_("left the game"),
}
BLOCK = 24  # one board in text: 3 for the row number, 6 cells of 3, then a gap
# The cached drawings below take the language spoken (service/words.py) as a key: the same
# board reads differently in each.


def colours(letters) -> str:
    return ", ".join(gettext(COLOUR_NAMES[c]) for c in letters) or gettext("none")


def cell_text(colour: str, mark: str) -> str:
    if mark == "o":
        return f"({colour})"
    if mark == "*":
        return f"*{colour}*"
    return f" {colour.lower()} "


PLAYER_FIELDS = (
    "colours",
    "board",
    "status",
    "bonus",
    "stars",
    "line",
    "score",
    "stars_due",
    "stars_picked",
)


def player_of(t: Table, seat: int) -> tuple:
    """A player's part of the view as a hashable tuple (in PLAYER_FIELDS order): a board that
    did not change since the last position is drawn from the cache."""
    p = t.view["players"][seat]
    return tuple(tuple(p[k]) if isinstance(p[k], list) else p[k] for k in PLAYER_FIELDS)


def player_facts(player: tuple) -> list[str]:
    """Status, bonus cards, stars and score, stars being picked: short lines for a block."""
    p = dict(zip(PLAYER_FIELDS, player))
    status = gettext(STATUS[p["status"]])
    facts = [
        gettext("%(status)s, five in a line", status=status) if p["line"] else status,
        gettext("bonus %(colours)s", colours=colours(p["bonus"]))
        if p["bonus"]
        else gettext("no bonus card"),
        ngettext(
            "%(num)d star, score %(score)s", "%(num)d stars, score %(score)s", p["stars"],
            score=p["score"],
        ),
    ]  # fmt: skip
    if p["stars_due"]:
        facts.append(
            gettext(
                "%(picked)s of %(due)s stars picked", picked=p["stars_picked"], due=p["stars_due"]
            )
        )
    return facts


@lru_cache(maxsize=64)  # about 1.3 KB an entry
def board_block(label: str, player: tuple, spoken: str = "en") -> tuple[str, ...]:
    """One player's board in text: name, four lines of facts, the 6 x 6 grid; each line
    padded to the block's width and the gap beside it (two blocks go side by side)."""
    p = dict(zip(PLAYER_FIELDS, player))
    facts = player_facts(player)
    lines = [label] + facts[:3] + [facts[3] if p["stars_due"] else ""]
    lines.append("   " + "".join(f" {c} " for c in range(1, 7)))
    for r in range(6):
        lines.append(row_text(r + 1, p["colours"][r], p["board"][r]))
    return tuple(pad(line, BLOCK + 2) + "  " for line in lines)


@lru_cache(maxsize=1024)  # about 240 bytes an entry
def row_text(number: int, colours_: str, marks: str) -> str:
    return f"{number}  " + "".join(cell_text(c, m) for c, m in zip(colours_, marks))


def situation(t: Table) -> list[str]:
    v = t.view
    lines = []
    if v["phase"] == "over":
        return [t.result() or gettext("The game is over.")]
    if v["phase"] == "turn":
        if t.active and t.active == [t.you]:
            lines.append(gettext("Your turn: roll, or opt out once you have a button this round."))
        else:
            lines.append(gettext("%(who)s rolls or opts out.", who=t.who(t.active)))
    elif v["phase"] == "place":
        roller = v["roller"]
        dice = v["dice"]
        others = gettext(
            "the others may place at row %(row)s, column %(col)s (the gold die) or skip",
            row=dice["white"],
            col=dice["gold"],
        )
        if roller == t.you:
            lines.append(
                gettext(
                    "You rolled: place a button at row %(row)s in the column of any black die "
                    "(the gold one included); %(others)s.",
                    row=dice["white"],
                    others=others,
                )
            )
        else:
            lines.append(
                gettext(
                    "%(who)s rolled and places at row %(row)s in the column of a black die; "
                    "%(others)s.",
                    who=t.bare_name(roller),
                    row=dice["white"],
                    others=others,
                )
            )
        lines.append(gettext("Still deciding: %(who)s.", who=t.who(v["waiting"])))
    elif v["phase"] == "stars":
        lines.append(
            gettext(
                "End of round %(round)s: those who opted out turn buttons into stars. "
                "Still picking: %(who)s.",
                round=v["round"],
                who=t.who(v["waiting"]),
            )
        )
    if v["my_choice"] is not None:
        choice = v["my_choice"]
        words = (
            gettext("skip")
            if choice["type"] == "skip"
            else gettext(
                "place at row %(row)s, column %(col)s", row=choice["row"], col=choice["col"]
            )
        )
        lines.append(
            gettext(
                "Your choice: %(words)s (the others see it when all have decided).", words=words
            )
        )
    if v["my_star_picks"]:
        picks = ", ".join(
            gettext("row %(row)s column %(col)s", row=r, col=c) for r, c in v["my_star_picks"]
        )
        lines.append(
            gettext("Your stars so far: %(picks)s (hidden until all are placed).", picks=picks)
        )
    return lines


def dice_line(t: Table) -> str:
    v = t.view
    dice = v["dice"]
    if dice is None:
        return gettext(
            "No roll yet this round; %(count)s white-pip black dice are in play.",
            count=v["dice_in_play"],
        )
    black = " ".join(map(str, dice["black"])) or gettext("none")
    return gettext(
        "Dice: white %(white)s, gold %(gold)s, black %(black)s "
        "(%(count)s white-pip black dice in play).",
        white=dice["white"],
        gold=dice["gold"],
        black=black,
        count=v["dice_in_play"],
    )


def text(t: Table) -> str:
    v = t.view
    turn = gettext(" - %(who)s to roll", who=t.name(v["turn"])) if v["turn"] is not None else ""
    out = [gettext("BUTTONS - round %(round)s", round=v["round"]) + turn] + situation(t)
    if v["phase"] in ("turn", "place"):
        out.append(dice_line(t))
    out.append("")
    seats = list(range(len(v["players"])))
    if t.you is not None:
        seats.remove(t.you)
        seats.insert(0, t.you)
    for first in range(0, len(seats), 2):
        blocks = [
            board_block(t.name(s, 20), player_of(t, s), language())
            for s in seats[first : first + 2]
        ]
        out += ["".join(row).rstrip() for row in zip(*blocks)]
        out.append("")
    out.append(gettext("Letters are the printed colours: r red, y yellow, g green, b blue;"))
    out.append(gettext("(R) a button of this round on red, *R* a star on red."))
    if v["removed_card"]:
        out.append(removed_card(v["removed_card"]))
    out.append(
        gettext(
            "Stars: 1 for opting out, +1 per colour with 3 buttons, +1 more if you hold "
            "that colour's bonus card. 5 stars in a line or 12 stars end the game."
        )
    )
    return "\n".join(wrap(out)) + "\n"


# ------------------------------------------------------------------------------ HTML


def removed_card(colour: str) -> str:
    return gettext("Bonus card out of the game: %(colour)s.", colour=gettext(COLOUR_NAMES[colour]))


@lru_cache(maxsize=1024)  # about 720 bytes an entry (a part per seat and cell; rows are cached)
def cell_html(
    colour: str, mark: str, part: str | None = None, marked: bool = False, spoken: str = "en"
) -> Html:
    """One space of a board: its printed colour, with a button or a star on it; `part`: its
    name as a board part."""
    if mark == "o":
        face = el("span", "\u25cf", style="font-size:20px;color:#ffffff;text-shadow:0 0 2px #000")
    elif mark == "*":
        face = el("span", "\u2605", style="font-size:20px;color:#1d2733")
    else:
        face = el("span", colour, style="font-size:10px;color:#3a3f45")
    return part_el(
        "td",
        face,
        part=part,
        marked=marked,
        title=gettext(COLOUR_NAMES[colour]),
        style=f"width:28px;height:28px;text-align:center;vertical-align:middle;"
        f"background:{PAINT[colour]};border:1px solid #ffffff;border-radius:4px",
        bgcolor=PAINT[colour],
    )


NUMBER_STYLE = f"font-size:10px;color:{MUTED};text-align:center"
COLUMN_NUMBER = start_tag("td", NUMBER_STYLE)
COLUMN_NUMBERS = Html(
    "<tr><td></td>" + "".join(f"{COLUMN_NUMBER}{c}</td>" for c in range(1, 7)) + "</tr>"
)
ROW_NUMBERS = [
    start_tag("td", NUMBER_STYLE + ";padding-right:3px") + f"{r}</td>" for r in range(1, 7)
]
PLAYER_NAME = start_tag("div", "font-weight:bold")
PLAYER_FACTS = start_tag("div", f"font-size:12px;color:{MUTED}")
SPACES = "border-collapse:separate;margin-top:4px"
IN_THE_ROUND = layout_start(SPACES)
OUT_OF_THE_ROUND = layout_start(SPACES + ";outline:2px dashed #5b6775;outline-offset:2px")
"""Out of the round: a dashed frame (fading it would make its letters hard to read)."""


@lru_cache(maxsize=256)  # about 3.4 KB an entry (the key and the row)
def row_html(
    seat: int, row: int, colours_: str, buttons: str, marks: frozenset[str], spoken: str
) -> Html:
    """Row `row` of seat `seat`'s board: its number and its six spaces; `marks`: the parts to
    mark among the board's cells."""
    cells = "".join(
        cell_html(colour, mark, part, part in marks, spoken)
        for colour, mark, part in zip(
            colours_, buttons, (named.cell(seat, row, col) for col in range(1, 7))
        )
    )
    return Html(f"<tr>{ROW_NUMBERS[row - 1]}{cells}</tr>")


@lru_cache(maxsize=64)  # about 20 KB an entry
def board_html(
    label: str,
    player: tuple,
    seat: int = 0,
    marks: frozenset[str] = frozenset(),
    spoken: str = "en",
) -> Html:
    """Seat `seat`'s board as an HTML table of coloured spaces, with the facts above it;
    `marks`: the parts to mark among its cells."""
    p = dict(zip(PLAYER_FIELDS, player))
    rows = "".join(
        row_html(seat, r, colours_, buttons, marks, spoken)
        for r, (colours_, buttons) in enumerate(zip(p["colours"], p["board"]), start=1)
    )
    spaces = OUT_OF_THE_ROUND if p["status"] in ("bust", "left") else IN_THE_ROUND
    facts = " \u00b7 ".join(player_facts(player))
    return Html(
        f"<div>{PLAYER_NAME}{escape(label)}</div>{PLAYER_FACTS}{escape(facts)}</div>"
        f"{spaces}{COLUMN_NUMBERS}{rows}</table></div>"
    )


def html(t: Table) -> Html:
    v = t.view
    seats = list(range(len(v["players"])))
    if t.you is not None:
        seats.remove(t.you)
        seats.insert(0, t.you)
    grid = cards_in_a_row(
        [
            card_box(
                board_html(t.name(s, 20), player_of(t, s), s, cell_marks(t, s), language()),
                gap=18,
                style="width:200px",
            )
            for s in seats
        ]
    )
    dice = v["dice"]
    dice_cells = []
    if dice is not None:
        white, gold = named.die("white"), named.die("gold")
        dice_cells.append(
            die_html(dice["white"], "#ffffff", INK, gettext("white (row)"), white, t.marked(white))
        )
        dice_cells.append(
            die_html(dice["gold"], INK, "#f2c94c", gettext("gold"), gold, t.marked(gold))
        )
        for i, d in enumerate(dice["black"], start=1):
            black = named.die("black", i)
            dice_cells.append(die_html(d, INK, "#ffffff", gettext("black"), black, t.marked(black)))
    subtitle = gettext("Round %(round)s", round=v["round"]) + (
        " \u00b7 " + gettext("%(who)s to roll", who=t.name(v["turn"]))
        if v["turn"] is not None
        else ""
    )
    return board_frame(
        "Buttons",
        subtitle,
        Html(f"<div>{''.join(strong_paragraph(line) for line in situation(t))}</div>"),
        Html(
            "<div>"
            + (cards_in_a_row([card_box(d) for d in dice_cells]) if dice_cells else "")
            + f"{paragraph(dice_line(t), style=f'color:{MUTED}')}</div>"
        )
        if v["phase"] in ("turn", "place")
        else None,
        grid,
        Html(
            FOOTER
            + paragraph(
                gettext(
                    "\u25cf a button of this round, \u2605 a star; the letters name "
                    "the printed colours (R red, Y yellow, G green, B blue)."
                ),
                style=f"font-size:12px;color:{MUTED}",
            )
            + (paragraph(removed_card(v["removed_card"])) if v["removed_card"] else "")
            + "</div>"
        ),
    )


def cell_marks(t: Table, seat: int) -> frozenset[str]:
    """The marked cells of seat `seat`'s board."""
    prefix = f"cell:{seat}:"
    return frozenset(p for p in t.marks if p.startswith(prefix))


@cache
def die_html(
    value: int, background: str, colour: str, name: str, part: str, marked: bool = False
) -> Html:
    return el(
        "div",
        part_el(
            "div",
            str(value),
            part=part,
            marked=marked,
            title=gettext("%(name)s die", name=name),
            style=f"width:30px;height:30px;line-height:30px;text-align:center;"
            f"font-size:17px;font-weight:bold;border:2px solid #1d2733;"
            f"border-radius:6px;background:{background};color:{colour}",
        ),
        el("div", name, style=f"font-size:10px;color:{MUTED};text-align:center"),
    )


def scores(view: dict) -> list:
    """100 for a line of five stars, plus one per star."""
    return [p["score"] for p in view["players"]]
