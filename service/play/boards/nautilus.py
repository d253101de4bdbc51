"""Nautilus drawn from one seat's view: the 2 x 5 grid with the Domain cards between the two
sides (the reader's own side at the bottom, as at a real table), the points per domain, the
reader's hand and Specials, and what the round's Specials revealed to this seat."""

from __future__ import annotations

from functools import cache

from service.play.boards.common import (
    FOOTER,
    INK,
    MUTED,
    Html,
    board_frame,
    breakable,
    chip,
    data_table,
    el,
    escape,
    fluid_start,
    heading,
    hyphenated,
    joined,
    pad,
    paragraph,
    part_start,
    start_tag,
    strong_paragraph,
    table,
    width,
    wrap,
)
from service.play.boards.table import Table
from service.play.parts import nautilus as named
from service.words import N_, gettext, language, ngettext, pgettext


def short(domain: str) -> str:
    """A domain's name in a text board's column (with its points: at most 10 letters)."""
    return _short(domain, language())


@cache  # five domains in each language
def _short(domain: str, spoken: str) -> str:
    return {
        "science": pgettext("domain, short", "Sci"),
        "exploration": pgettext("domain, short", "Expl"),
        "navigation": pgettext("domain, short", "Nav"),
        "engineering": pgettext("domain, short", "Eng"),
        "war": pgettext("domain, short", "War"),
    }[domain]


DOMAIN_COLOUR = {
    "science": "#2f6db5",
    "exploration": "#26734a",
    "navigation": "#0c7373",
    "engineering": "#a4550f",
    "war": "#b3262e",
}
ARROWS = {6: "vertical", 9: "vertical", 7: "horizontal", 8: "horizontal"}
COLUMN = 10
GRID_NAME = 15  # a name beside the grid: 15 + " (you)" + 5 columns of 10 fit in 72


def special(name: str) -> str:
    return special_words(language())[name]


@cache  # six names in each language
def special_words(spoken: str) -> dict[str, str]:
    """The Specials' names in the language spoken (`spoken`: the cache's key)."""
    return {name: gettext(word) for name, word in named.SPECIAL_NAMES.items()}


@cache  # five words in each language
def column_words(spoken: str) -> tuple[str, ...]:
    """The text grid's column heads, "col 1" to "col 5", in the language spoken."""
    return tuple(gettext("col %(col)s", col=c) for c in range(1, 6))


def card_words(card) -> str:
    if card is None:
        return "."
    return special(CARD_NAME[card]) if card in CARD_NAME else str(card)


CARD_NAME = {0: "fishbone", 15: "kraken"}


def domain_card_words(card: dict) -> str:
    points = card["points"]
    value = gettext("ink") if points < 0 else f"+{points}"
    return f"{short(card['domain'])} {value}"


def domain_name(domain: str) -> str:
    """A domain's name, capitalised (without its marks of where it may break)."""
    return gettext(DOMAIN_WORDS[domain]).replace("|", "")


def acting(t: Table, yours: str, theirs: str, **params) -> str:
    """`yours` when only the reader may act, else `theirs` with the names as %(who)s."""
    if t.active and t.active == [t.you]:
        return gettext(yours, **params)
    return gettext(theirs, who=t.who(t.active), **params)


def divers(count: int) -> str:
    return ngettext("%(num)d Diver", "%(num)d Divers", count)


def specials(count: int) -> str:
    return ngettext("%(num)d Special", "%(num)d Specials", count)


def domain_cards(count: int) -> str:
    return ngettext("%(num)d Domain card", "%(num)d Domain cards", count)


def sides(t: Table) -> tuple[int, int]:
    """(top, bottom): the reader's side at the bottom; a spectator sees seat 0 at the bottom."""
    bottom = t.you if t.you is not None else 0
    return 1 - bottom, bottom


CHOOSING = {
    "draft": (
        N_("You keep one of the two Specials you drew; the other is given."),
        N_("%(who)s keeps one of two Specials; the other is given."),
    ),
    "start": (
        N_("Start of the round: you may use a start-of-round Special or pass."),
        N_("%(who)s may use a start-of-round Special or pass."),
    ),
    "submarine": (
        N_("You keep one of the two Divers your Submarine drew."),
        N_("%(who)s keeps one of two Divers the Submarine drew."),
    ),
    "harpoon": (
        N_("You give one Diver back after your Harpoon."),
        N_("%(who)s gives one Diver back after the Harpoon."),
    ),
}
"""The phases in which a seat chooses: the words for the reader, and for the others."""


def situation(t: Table) -> str:
    v = t.view
    phase = v["phase"]
    if phase == "over":
        return t.result() or gettext("The game is over.")
    if phase in CHOOSING:
        return acting(t, *CHOOSING[phase])
    placed = gettext("%(num)s of 10 cards placed", num=v["placements"])
    if phase == "move":
        pending = v["pending_move"]
        mine = pending["side"] == t.you
        if pending["arrow"] == "vertical":
            yours, theirs = (
                (
                    N_(
                        "You must move a card of your side to the space opposite it (the arrow "
                        "in column %(col)s); %(placed)s."
                    ),
                    N_(
                        "%(who)s must move a card of your side to the space opposite it (the "
                        "arrow in column %(col)s); %(placed)s."
                    ),
                )
                if mine
                else (
                    N_(
                        "You must move a card of %(owner)s's side to the space opposite it (the "
                        "arrow in column %(col)s); %(placed)s."
                    ),
                    N_(
                        "%(who)s must move a card of %(owner)s's side to the space opposite it "
                        "(the arrow in column %(col)s); %(placed)s."
                    ),
                )
            )
        else:
            yours, theirs = (
                (
                    N_(
                        "You must move a card of your side to another space of that side (the "
                        "arrow in column %(col)s); %(placed)s."
                    ),
                    N_(
                        "%(who)s must move a card of your side to another space of that side "
                        "(the arrow in column %(col)s); %(placed)s."
                    ),
                )
                if mine
                else (
                    N_(
                        "You must move a card of %(owner)s's side to another space of that side "
                        "(the arrow in column %(col)s); %(placed)s."
                    ),
                    N_(
                        "%(who)s must move a card of %(owner)s's side to another space of that "
                        "side (the arrow in column %(col)s); %(placed)s."
                    ),
                )
            )
        owner = {} if mine else {"owner": t.bare_name(pending["side"])}
        return acting(t, yours, theirs, col=pending["col"], placed=placed, **owner)
    return acting(
        t,
        N_("You place a card (%(placed)s)."),
        N_("%(who)s places a card (%(placed)s)."),
        placed=placed,
    )


def points_rows(t: Table) -> list[list[str]]:
    v = t.view
    header = [gettext("Points")] + [short(d) + " " for d in v["domains"]] + [gettext("Won") + " "]
    rows = [header]
    top, bottom = sides(t)
    for seat in (bottom, top):
        points = v["points"][seat]
        row = [t.name(seat)]
        for d in range(len(v["domains"])):
            value = "?" if points is None else str(points[d])
            row.append(value + ("*" if v["won"][d] == seat else " "))
        won = v["domains_won"][seat]
        row.append(("?" if won is None else str(won)) + " ")
        rows.append(row)
    return rows


def hand_lines(t: Table) -> list[str]:
    v = t.view
    lines = []
    top, bottom = sides(t)
    if t.you is not None:
        held = joined([special(s) for s in v["specials"]])
        lines.append(
            gettext(
                "Your hand: %(cards)s   Your Specials: %(specials)s",
                cards=" ".join(str(c) for c in v["hand"]) or gettext("empty"),
                specials=held,
            )
        )
        seats = [top]
    else:
        seats = [bottom, top]
    for seat in seats:
        lines.append(
            gettext(
                "%(who)s holds %(divers)s and %(specials)s.",
                who=t.bare_name(seat),
                divers=divers(v["hand_sizes"][seat]),
                specials=specials(v["special_counts"][seat]),
            )
        )
    return lines


def reveal_lines(t: Table) -> list[str]:
    """What this seat learnt from the round's Specials, and the Specials used in public."""
    v = t.view
    lines = []
    if v["draft"]:
        first, second = (special(s) for s in v["draft"])
        lines.append(
            gettext(
                "You drew %(first)s and %(second)s: keep one, the other goes to your opponent.",
                first=first,
                second=second,
            )
        )
    if v["special_given"]:
        lines.append(
            gettext(
                "The Special given this round: %(special)s.", special=special(v["special_given"])
            )
        )
    if v["submarine_drawn"]:
        first, second = v["submarine_drawn"]
        lines.append(
            gettext(
                "Your Submarine drew %(first)s and %(second)s: keep one.",
                first=first,
                second=second,
            )
        )
    if v["harpoon_taken"] is not None:
        lines.append(gettext("The Harpoon took the %(card)s.", card=v["harpoon_taken"]))
    if v["eye_seen"] is not None:
        seen = " ".join(map(str, v["eye_seen"])) or gettext("none")
        lines.append(gettext("Your Eye saw their Divers: %(cards)s.", cards=seen))
    if v["specials_used"]:
        used = [f"{t.bare_name(u['seat'])} {special(u['special'])}" for u in v["specials_used"]]
        lines.append(gettext("Specials used this round: %(used)s.", used=", ".join(used)))
    if v["anchored"] is not None:
        lines.append(
            gettext("Anchored (cannot move this round): %(card)s.", card=card_words(v["anchored"]))
        )
    return lines


def last_round_lines(t: Table) -> list[str]:
    """How the round just played ended, column by column, until the next card is placed."""
    last = t.view["last_round"]
    if last is None:
        return []
    board = last["board"]
    columns = [
        gettext(
            "column %(col)s (%(card)s) to %(who)s, %(mine)s against %(theirs)s",
            col=col,
            card=domain_card_words(card),
            who=t.bare_name(winner),
            mine=card_words(board[winner][col - 1]),
            theirs=card_words(board[1 - winner][col - 1]),
        )
        for col, (card, winner) in enumerate(zip(last["domain_row"], last["winners"]), start=1)
    ]
    return [
        gettext(
            "Round %(round)s ended: %(columns)s.", round=last["round"], columns="; ".join(columns)
        )
    ]


def taken_lines(t: Table) -> list[str]:
    v = t.view
    lines = []
    top, bottom = sides(t)
    for seat in (bottom, top):
        cards = v["taken"][seat]
        if cards is None:
            lines.append(
                gettext(
                    "%(who)s has taken %(cards)s (hidden).",
                    who=t.bare_name(seat),
                    cards=domain_cards(v["taken_counts"][seat]),
                )
            )
    if v["final_domains"] is not None:
        finals = [
            f"{domain_name(d)}: {gettext('nobody') if s is None else t.bare_name(s)}"
            for d, s in zip(v["domains"], v["final_domains"])
        ]
        lines.append(gettext("Domains at the end: %(domains)s.", domains=", ".join(finals)))
    return lines


def text(t: Table) -> str:
    v = t.view
    top, bottom = sides(t)
    out = [
        gettext(
            "NAUTILUS - round %(round)s of %(rounds)s - Nemo: %(who)s",
            round=v["round"],
            rounds=v["rounds"],
            who=t.name(v["nemo"]),
        )
        + (gettext(" - hidden domains") if v["hidden_domains"] else ""),
        situation(t),
        "",
    ]
    domains_label = gettext("Domains")
    label = max(width(domains_label), *(width(t.name(s, GRID_NAME)) for s in (0, 1))) + 2

    def row(title, cells):
        return (pad(title, label) + "".join([pad(c, COLUMN) for c in cells])).rstrip()

    def side(seat):
        cells = []
        for card in v["board"][seat]:
            mark = "@" if card is not None and card == v["anchored"] else ""
            cells.append(card_words(card) + mark)
        return row(t.name(seat, GRID_NAME), cells)

    out.append(row("", column_words(language())))
    out.append(side(top))
    row_cards = v["domain_row"]
    out.append(
        row(domains_label, [domain_card_words(c) for c in row_cards] if row_cards else ["-"] * 5)
    )
    out.append(side(bottom))
    out.append(gettext("(+2 two stars, +1 one star, ink = ink blot -1; @ anchored)"))
    out.append("")
    out += table(points_rows(t), right=range(1, 7))
    out.append(gettext("(* = domain won for good; 3 domains win the game)"))
    out.append("")
    out += hand_lines(t)
    out += last_round_lines(t)
    out += reveal_lines(t)
    out += taken_lines(t)
    out.append(face_down(v))
    return "\n".join(wrap(out)) + "\n"


def face_down(v: dict) -> str:
    return gettext(
        "Face down: %(divers)s in the pile, %(specials)s, %(cards)s.",
        divers=divers(v["diver_pile_size"]),
        specials=specials(v["special_deck_size"]),
        cards=domain_cards(v["domain_pile_size"]),
    )


# ------------------------------------------------------------------------------ HTML


SPECIAL_FACES = {0: (N_("Fish|bone"), "#6b6f76"), 15: (N_("Kra|ken"), "#4b2a6b")}
"""The Specials that lie on the grid: their names, with "|" where they may break in a phone's
narrow column."""


def card_html(card, anchored=None) -> Html:
    """A card on the grid: as wide as its column, up to 72 px."""
    return _card_html(card, anchored, language())


@cache
def _card_html(card, anchored, language: str) -> Html:
    box = "max-width:72px;margin:0 auto;border-radius:6px;text-align:center"
    if card is None:
        return el(
            "div",
            "\u00a0",
            style=f"{box};height:44px;border:1px dashed #8fb3c9;background:#0d4a6b",
        )
    special = SPECIAL_FACES.get(card)
    face, background = (
        (hyphenated(gettext(special[0])), special[1]) if special else (str(card), "#ffffff")
    )
    colour = "#ffffff" if special else INK
    arrow = {"vertical": "\u2195", "horizontal": "\u2194"}.get(ARROWS.get(card, ""))
    red = card in (1, 14)
    size = "13px" if special else "22px"
    marks = [m for m in (arrow, "\u2693" if card == anchored else None) if m]
    return el(
        "div",
        face,
        el("span", " " + " ".join(marks), style="font-size:15px") if marks else None,
        style=f"{box};padding:8px 0;line-height:24px;"
        f"border:2px solid {'#c62828' if red else '#f0c34a'};"
        f"background:{background};color:{'#c62828' if red and not special else colour};"
        f"font-size:{size};font-weight:bold",
    )


DOMAIN_WORDS = {
    "science": N_("Science"),
    "exploration": N_("Explo|ration"),
    "navigation": N_("Navi|gation"),
    "engineering": N_("Engi|neering"),
    "war": N_("War"),
}
"""A domain's name on its card, with "|" where it may break in a phone's narrow column."""


def domain_html(card: dict | None) -> Html:
    return _domain_html(None if card is None else (card["domain"], card["points"]), language())


@cache
def _domain_html(card: tuple[str, int] | None, language: str) -> Html:
    box = "max-width:72px;margin:0 auto;text-align:center"
    if card is None:
        return el("div", "\u2014", style=f"{box};color:#8fb3c9")
    domain, points = card
    colour = DOMAIN_COLOUR[domain]
    mark = hyphenated(gettext("ink \u22121")) if points < 0 else "\u2605" * points
    return el(
        "div",
        el(
            "div",
            hyphenated(gettext(DOMAIN_WORDS[domain])),
            style="font-size:10px;line-height:13px",
        ),
        el("div", mark, style="font-size:13px;font-weight:bold"),
        style=f"{box};padding:4px 0;border-radius:6px;"
        f"background:{colour};color:#ffffff;border:2px solid #ffffff",
    )


COLUMN_LABEL = start_tag("td", "color:#d6e6f0;font-size:11px;text-align:center")
NAME_ROW = start_tag("td", "padding:2px 4px;color:#d6e6f0;font-size:12px", colspan="5")
SPACE = "padding:3px"
DOMAIN = start_tag("td", SPACE)
GRID = fluid_start(
    420,
    "background:#0b3d5a;border-radius:8px;padding:6px;border-collapse:separate",
    bgcolor="#0b3d5a",
)


def grid_html(t: Table) -> Html:
    """The two sides and the Domain cards between them, five columns sharing the board's
    width; each side's name above (the opponent's) or below (the reader's) its cards, as at a
    real table."""
    v = t.view
    top, bottom = sides(t)

    def name_row(seat):
        return f"<tr>{NAME_ROW}{escape(t.name(seat))}</td></tr>"

    def side(seat):
        spaces = []
        for col, card in enumerate(v["board"][seat], start=1):
            part = named.space(seat, col)
            drawn = card_html(card, v["anchored"] if card == v["anchored"] else None)
            spaces.append(f"{part_start('td', part, t.marked(part), SPACE)}{drawn}</td>")
        return f"<tr>{''.join(spaces)}</tr>"

    labels = [gettext("column %(col)s", col=c) for c in range(1, 6)]
    columns = "".join(f"{COLUMN_LABEL}{escape(label)}</td>" for label in labels)
    domains = "".join(f"{DOMAIN}{domain_html(c)}</td>" for c in v["domain_row"] or [None] * 5)
    return Html(
        f"{GRID}<tr>{columns}</tr>{name_row(top)}{side(top)}<tr>{domains}</tr>"
        f"{side(bottom)}{name_row(bottom)}</table>"
    )


DOMAIN_NAME = {
    domain: start_tag("span", f"color:{colour};white-space:nowrap")
    for domain, colour in DOMAIN_COLOUR.items()
}


def points_html(t: Table) -> Html:
    """The points per domain, a row per domain and a column per side (the reader's first):
    narrow enough for a phone whatever the names."""
    rows = points_rows(t)
    v = t.view
    sides_ = rows[1:]
    header = [gettext("Points")] + [breakable(row[0]) for row in sides_]
    body = []
    for d, domain in enumerate(v["domains"]):
        cells: list = [Html(f"{DOMAIN_NAME[domain]}{escape(domain_name(domain))}</span>")]
        for row in sides_:
            value = row[1 + d]
            cells.append(
                Html(f"<strong>{escape(value[:-1])} \u2714</strong>")
                if value.endswith("*")
                else value.strip()
            )
        body.append(cells)
    won = [gettext("Won")] + [row[-1].strip() for row in sides_]
    body.append([Html(f"<strong>{escape(cell)}</strong>") for cell in won])
    return data_table(header, body, align_right=range(1, len(sides_) + 1))


def diver_chip(t: Table, card: int, part: str) -> Html:
    return chip(
        str(card), "#ffffff", INK, border="#f0c34a", size="15px", part=part, marked=t.marked(part)
    )


def special_chip(t: Table, name: str, part: str) -> Html:
    return chip(special(name), "#4b2a6b", part=part, marked=t.marked(part))


def hand_html(t: Table) -> Html | None:
    """The reader's hand and Specials, and the cards the reader is choosing from: the two
    Specials drawn (the Nemo holder) or the two Divers the Submarine drew."""
    v = t.view
    if t.you is None:
        return None
    cards = [diver_chip(t, c, named.hand(c)) for c in v["hand"]]
    held = [special_chip(t, s, named.special(s)) for s in v["specials"]]
    choosing = None
    if v["draft"]:
        choosing = paragraph(
            gettext("Drawn, keep one: "), [special_chip(t, s, named.draft(s)) for s in v["draft"]]
        )
    elif v["submarine_drawn"]:
        choosing = paragraph(
            gettext("Your Submarine drew, keep one: "),
            [diver_chip(t, c, named.drawn(c)) for c in v["submarine_drawn"]],
        )
    hand = paragraph(cards or gettext("no Divers"), "\u00a0\u00a0", held)
    title = heading(gettext("Your hand"))
    return Html(f"<div>{title}{hand}{choosing or ''}</div>")


def html(t: Table) -> Html:
    v = t.view
    subtitle = gettext(
        "Round %(round)s of %(rounds)s \u00b7 Nemo: %(who)s",
        round=v["round"],
        rounds=v["rounds"],
        who=t.name(v["nemo"]),
    ) + (gettext(" \u00b7 hidden domains") if v["hidden_domains"] else "")
    notes = [
        paragraph(line)
        for line in hand_lines(t)[1 if t.you is not None else 0 :]
        + last_round_lines(t)
        + reveal_lines(t)
        + taken_lines(t)
    ]
    notes.append(paragraph(face_down(v), style=f"color:{MUTED}"))
    return board_frame(
        "Nautilus",
        subtitle,
        strong_paragraph(situation(t)),
        grid_html(t),
        Html(
            "<div>"
            + heading(gettext("Points per domain"))
            + points_html(t)
            + paragraph(
                gettext("\u2714 won for good; three domains win the game."),
                style=f"color:{MUTED};font-size:12px",
            )
            + "</div>"
        ),
        hand_html(t),
        Html(f"{FOOTER}{''.join(notes)}</div>"),
    )


def scores(view: dict) -> list:
    """The score of the game: domains won (None while the hidden-domains option hides them)."""
    return list(view["domains_won"])
