"""Con Sonar! drawn from one seat's view: the ladder (a column per nation, rung 8 at the top),
the face-up Torpedo cards, the Fleet cards played this turn, the reader's hand, and each
player's scoring area and score."""

from __future__ import annotations

from functools import cache, lru_cache

from service.play.boards.common import (
    FOOTER,
    INK,
    LINE,
    MUTED,
    Html,
    board_frame,
    card_start,
    cards_in_a_row,
    data_table,
    escape,
    fluid_start,
    heading,
    hyphenated,
    joined,
    paragraph,
    part_el,
    part_start,
    start_tag,
    strong_paragraph,
    table,
    wrap,
)
from service.play.boards.table import Table
from service.play.parts import consonar as named
from service.words import N_, gettext, language, ngettext, pgettext

COLOURS = ("b", "g", "o", "p", "r", "y")
COLOUR_NAMES = {
    "b": N_("blue"),
    "g": N_("green"),
    "o": N_("orange"),
    "p": N_("purple"),
    "r": N_("red"),
    "y": N_("yellow"),
}
PAINT = {
    "b": "#1f5fbf",
    "g": "#2e7d32",
    "o": "#e07b1a",
    "p": "#7b3fa0",
    "r": "#c62828",
    "y": "#f2c200",
}
TEXT_ON = {"y": INK, "o": INK}  # white on yellow or orange is too faint to read
SYMBOLS = ("destroyer", "carrier", "pt", "frigate", "sub", "transport")
SYMBOL_WORDS = {
    "destroyer": N_("destroyer"),
    "carrier": N_("carrier"),
    "pt": N_("PT boat"),
    "frigate": N_("frigate"),
    "sub": N_("sub"),
    "transport": N_("transport"),
}
RUNGS = range(8, 0, -1)
COLUMN = 7


def symbol(name: str | None) -> str:
    return symbol_word(name).replace("|", "")


def symbol_word(name: str | None) -> str:
    """A ship symbol's name, with "|" where it may break in a card's narrow column (a
    language's long words: "sotto|ma|ri|no")."""
    said = symbol_words(language()).get(name)
    return (name or "-") if said is None else said


@cache  # six symbols in each language
def symbol_words(spoken: str) -> dict[str | None, str]:
    """The ship symbols' names in the language spoken (`spoken`: the cache's key)."""
    return {name: gettext(word) for name, word in SYMBOL_WORDS.items()}


def colour_of(seat_or_colour) -> str:
    said = colour_words(language()).get(seat_or_colour)
    return str(seat_or_colour) if said is None else said


@cache  # six colours in each language
def colour_words(spoken: str) -> dict[str, str]:
    """The nations' colours in the language spoken (`spoken`: the cache's key)."""
    return {c: gettext(word) for c, word in COLOUR_NAMES.items()}


def nation(t: Table, seat: int) -> str:
    """The seat's nation: "red", "red (left)"."""
    colour = colour_of(t.view["nations"][seat])
    return gettext("%(colour)s (left)", colour=colour) if seat in t.view["removed"] else colour


def nation_label(t: Table, seat: int) -> str:
    return f"{t.name(seat)}, {nation(t, seat)}"


def situation(t: Table) -> str:
    v = t.view
    if v["phase"] == "over":
        return t.result() or gettext("The game is over: %(reason)s.", reason=v["end_reason"])
    mine = bool(t.active) and t.active == [t.you]
    shown = symbol(v["next_symbol"])
    if v["phase"] == "fleet":
        if mine:
            return gettext("You play a Fleet card to move a submarine of its colour.")
        return gettext("%(who)s plays a Fleet card.", who=t.who(t.active))
    if mine:
        return gettext(
            "You may queue a Fleet card showing %(symbol)s, or end the turn: fire or defuse a "
            "Torpedo card showing %(symbol)s, delay one, or end.",
            symbol=shown,
        )
    return gettext(
        "%(who)s goes on: the next card or Torpedo card must show %(symbol)s.",
        who=t.who(t.active),
        symbol=shown,
    )


def played_line(t: Table) -> str | None:
    played = t.view["played"]
    if not played:
        return None
    moves = [
        gettext(
            "%(card)s moved %(sub)s from rung %(low)s to %(high)s",
            card=p["card"],
            sub=p["sub"],
            low=p["from"],
            high=p["to"],
        )
        for p in played
    ]
    return gettext("Played this turn: %(moves)s.", moves="; ".join(moves))


def owners(t: Table) -> dict[str, int]:
    v = t.view
    return {colour: seat for seat, colour in enumerate(v["nations"]) if seat not in v["removed"]}


SUBMARINES = tuple(f"{c}{number}" for c in COLOURS for number in (1, 2))


def ladder_rows(ladder: dict) -> list[list[list[str]]]:
    """Per rung (8 down to 1), per colour, the submarines there (`ladder`: the view's, each
    submarine's rung, None when sunk)."""
    at: dict[tuple, list[str]] = {}
    for sub in SUBMARINES:
        at.setdefault((ladder.get(sub), sub[0]), []).append(sub)
    return [[at.get((rung, c), []) for c in COLOURS] for rung in RUNGS]


def sunk_by_colour(ladder: dict) -> list[list[str]]:
    return [[s for s in (f"{c}1", f"{c}2") if ladder.get(s) is None] for c in COLOURS]


def score_rows(t: Table) -> list[list[str]]:
    v = t.view
    rows = [list(score_heads(language()))]
    for seat in range(len(v["nations"])):
        rows.append(
            [
                t.name(seat),
                nation(t, seat),
                str(v["hand_sizes"][seat]),
                " ".join(v["sunk"][seat]) or "-",
                " ".join(v["misses"][seat]) or "-",
                str(v["scores"][seat]),
            ]
        )
    return rows


@cache  # in each language
def score_heads(spoken: str) -> tuple[str, ...]:
    """The scoring table's column heads in the language spoken (`spoken`: the cache's key)."""
    return (
        pgettext("scoring area", "Player"),
        pgettext("scoring area", "nation"),
        pgettext("scoring area", "hand"),
        pgettext("scoring area", "sunk"),
        pgettext("scoring area", "missed"),
        pgettext("scoring area", "score"),
    )


def strike_line(t: Table) -> str | None:
    strike = t.view["last_strike"]
    if strike is None:
        return None
    rolls = ", ".join(map(str, strike["rolls"]))
    outcome = gettext("hit: sunk") if strike["hit"] else gettext("all missed")
    return gettext(
        "Last torpedo: %(who)s fired %(card)s at %(sub)s on rung %(rung)s; rolled %(rolls)s "
        "(%(outcome)s).",
        who=t.bare_name(strike["seat"]),
        card=strike["card"],
        sub=strike["sub"],
        rung=strike["rung"],
        rolls=rolls,
        outcome=outcome,
    )


def torpedo_words(card: dict) -> str:
    return ngettext(
        "%(card)s: %(colour)s, %(num)d torpedo, shows %(symbol)s",
        "%(card)s: %(colour)s, %(num)d torpedoes, shows %(symbol)s",
        card["torpedoes"],
        card=card["card"],
        colour=colour_of(card["colour"]),
        symbol=symbol(card["symbol"]),
    )


def deck_words(v: dict) -> str:
    """ "Fleet deck: 20, discard pile: 3." and, with the option, when the game ends."""
    said = gettext(
        "Fleet deck: %(deck)s, discard pile: %(discard)s.",
        deck=v["fleet_deck"],
        discard=v["fleet_discard"],
    )
    if v["end_subs_left"]:
        said += " " + gettext(
            "The game ends when %(count)s or fewer submarines are left.", count=v["end_subs_left"]
        )
    return said


def ladder_lines(t: Table) -> tuple[str, ...]:
    """The ladder in text: a column per nation, a row per rung (8 at the top), the sunk."""
    ladder = t.view["ladder"]
    return _ladder_lines(tuple(ladder.get(sub) for sub in SUBMARINES), language())


@lru_cache(maxsize=256)  # about 2 KB an entry; every reader of a position sees the same ladder
def _ladder_lines(rungs: tuple, spoken: str) -> tuple[str, ...]:
    """`ladder_lines` of the submarines' rungs (in SUBMARINES' order) in `spoken`."""
    ladder = dict(zip(SUBMARINES, rungs))
    rows = [[gettext("Ladder")] + [colour_of(c) for c in COLOURS]]
    for rung, cells in zip(RUNGS, ladder_rows(ladder)):
        rows.append([gettext("rung %(rung)s", rung=rung)] + [" ".join(c) or "." for c in cells])
    rows.append([gettext("sunk")] + [" ".join(c) for c in sunk_by_colour(ladder)])
    return tuple(table(rows))


def text(t: Table) -> str:
    v = t.view
    head = gettext("CON SONAR! - turn %(turn)s", turn=v["turn"])
    if v["current"] is not None:
        head += gettext(" - %(who)s to play", who=t.name(v["current"]))
    out = [head, situation(t)]
    if played := played_line(t):
        out.append(played)
    out.append("")
    out += ladder_lines(t)
    held = owners(t)
    nations = [f"{colour_of(c)} {t.name(s)}" for c, s in held.items()]
    out.append(
        gettext(
            "Nations: %(nations)s; neutral: %(neutral)s.",
            nations=", ".join(nations),
            neutral=joined([colour_of(c) for c in v["neutral"]]),
        )
    )
    out.append(
        gettext(
            "(rung 8 is the most exposed; a torpedo hits with a d8 roll below the "
            "rung, so rung 1 is never hit)"
        )
    )
    out.append("")
    out.append(gettext("Torpedo row (%(count)s more in the deck):", count=v["torpedo_deck"]))
    empty = "  " + gettext("empty")
    out += [f"  {torpedo_words(c)}" for c in v["torpedo_row"]] or [empty]
    out.append(
        gettext(
            "Defused: %(defused)s. Used for a hit: %(used)s.",
            defused=joined(v["torpedo_removed"]),
            used=joined(v["torpedo_discard"]),
        )
    )
    if strike := strike_line(t):
        out.append(strike)
    out.append("")
    if v["hand"] is not None:
        out.append(gettext("Your hand (card: colour and move, its symbol > the symbol it calls):"))
        out += [
            f"  {c['card']}: {colour_of(c['colour'])} {c['value']:+d}, "
            f"{symbol(c['symbol'])} > {symbol(c['arrow'])}"
            for c in v["hand"]
        ] or [empty]
        out.append("")
    out += table(score_rows(t), right=(2, 5))
    out.append(deck_words(v))
    out.append(
        gettext(
            "Symbols in arrow order: %(symbols)s.",
            symbols=" > ".join(symbol(s) for s in (*SYMBOLS, SYMBOLS[0])),
        )
    )
    return "\n".join(wrap(out)) + "\n"


# ------------------------------------------------------------------------------ HTML


def sub_chip(sub: str, sunk: bool = False, marked: bool = False) -> Html:
    return _sub_chip(sub, sunk, marked, language())


@cache  # a marked chip's words are the language's
def _sub_chip(sub: str, sunk: bool, marked: bool, language: str) -> Html:
    colour = sub[0]
    if sunk:
        return part_el(
            "span",
            sub,
            part=named.sunk(sub),
            marked=marked,
            style="display:inline-block;padding:1px 4px;margin:1px;"
            "border:1px dashed #5b6775;border-radius:9px;color:#5b6775;"
            "font-size:12px;text-decoration:line-through",
        )
    return part_el(
        "span",
        "\u25ac " + sub,
        part=named.sub(sub),
        marked=marked,
        style=f"display:inline-block;padding:2px 4px;margin:1px;border-radius:9px;"
        f"background:{PAINT[colour]};color:{TEXT_ON.get(colour, '#ffffff')};"
        "font-size:12px;font-weight:bold;white-space:nowrap",
    )


LABEL_COLUMN = "width:24px;padding:3px 3px 3px 0;font-size:10px;text-align:right;white-space:nowrap"


NATION_WORDS = {
    "b": N_("Blue"),
    "g": N_("Green"),
    "o": N_("Ora|nge"),
    "p": N_("Pur|ple"),
    "r": N_("Red"),
    "y": N_("Yel|low"),
}
"""A nation's name atop its column, where "|" marks where it may break on a phone (each
language's own syllables: "Оран|же|вый", "Aran|cio|ne")."""


def nation_word(colour: str) -> Html:
    return hyphenated(gettext(NATION_WORDS[colour]))


def neutral_word() -> Html:
    """ "neutral" under a nation nobody plays ("|" where it may break, as a nation's name)."""
    return hyphenated(gettext("neutral"))


RUNG_HEAD = start_tag("td", f"{LABEL_COLUMN};color:#ffffff;vertical-align:bottom")
NATION_HEAD = {
    c: start_tag(
        "td",
        f"padding:4px 1px;text-align:center;vertical-align:top;background:{PAINT[c]};"
        f"color:{TEXT_ON.get(c, '#ffffff')};border-radius:4px 4px 0 0",
        bgcolor=PAINT[c],
    )
    for c in COLOURS
}
NATION = start_tag("div", "font-size:11px;font-weight:bold")
OWNER = start_tag("div", "font-size:11px")
SUNK_ROW = start_tag("tr", "background:#eef2f6", bgcolor="#eef2f6")
SUNK_LABEL = start_tag("td", f"{LABEL_COLUMN};color:#5b6775")
SUNK = start_tag("td", "padding:4px 2px;text-align:center")
LADDER = fluid_start(480, "border-collapse:collapse;background:#0b3d5a", bgcolor="#0b3d5a")


def ladder_html(t: Table) -> Html:
    """The ladder: a column per nation sharing the board's width (each nation's owner, the
    reader's "(you)" among them, named at its top), a row per rung."""
    held = owners(t)
    rung_words, sunk_words = gettext("rung"), gettext("sunk")
    head = "".join(
        f"{NATION_HEAD[c]}{NATION}{nation_word(c)}</div>"
        f"{OWNER}{neutral_word() if held.get(c) is None else escape(t.name(held[c], 12))}</div>"
        "</td>"
        for c in COLOURS
    )
    rungs = []
    for rung, cells in zip(RUNGS, ladder_rows(t.view["ladder"])):
        marked = frozenset(p for p in t.marks if p.startswith(("sub:", "rung:" + str(rung) + ":")))
        rungs.append(rung_html(rung, tuple(tuple(subs) for subs in cells), marked))
    sunk = "".join(
        f"{SUNK}{''.join(sub_chip(s, True, t.marked(named.sunk(s))) for s in subs) or NBSP}</td>"
        for subs in sunk_by_colour(t.view["ladder"])
    )
    return Html(
        f"{LADDER}<tr>{RUNG_HEAD}{escape(rung_words)}</td>{head}</tr>{''.join(rungs)}"
        f"{SUNK_ROW}{SUNK_LABEL}{escape(sunk_words)}</td>{sunk}</tr></table>"
    )


NBSP = "\u00a0"
"""An empty cell's content (a cell without any keeps no height in some mail clients)."""
RUNG_LABEL = start_tag("td", f"{LABEL_COLUMN};color:#ffffff")
RUNG_CELL = "padding:3px 2px;text-align:center;border-top:1px solid #7fa7c4"


def rung_start(rung: int) -> Html:
    """The start of a rung's row, the water darker the deeper it is (dark enough at the top
    for its white label to read)."""
    depth = 150 - (8 - rung) * 12
    shade = "#%02x%02x%02x" % (depth // 3, depth // 2 + 40, depth + 40)
    return start_tag("tr", f"background:{shade}", bgcolor=shade)


RUNG_STARTS = {rung: rung_start(rung) for rung in RUNGS}


@lru_cache(maxsize=256)  # about 2.7 KB an entry; the ways subs share a rung are millions
def rung_html(
    rung: int, cells: tuple[tuple[str, ...], ...], marks: frozenset[str] = frozenset()
) -> Html:
    """One rung of the ladder; `marks`: the parts to mark among its submarines and cells."""
    drawn = []
    for colour, subs in zip(COLOURS, cells):
        part = named.rung(rung, colour)
        chips = "".join(sub_chip(s, False, named.sub(s) in marks) for s in subs)
        drawn.append(f"{part_start('td', part, part in marks, RUNG_CELL)}{chips or NBSP}</td>")
    return Html(f"{RUNG_STARTS[rung]}{RUNG_LABEL}{rung}</td>{''.join(drawn)}</tr>")


TORPEDO_NAME = start_tag("div", "font-size:16px;font-weight:bold")
TORPEDOES = start_tag("div", "font-size:14px;letter-spacing:2px")
TORPEDO = "\u25cf"  # one a torpedo the card fires
TORPEDO_SYMBOL = start_tag("div", "font-size:12px")


def torpedo_card(card: dict, marked: bool = False) -> Html:
    style = (
        f"width:86px;padding:6px;text-align:center;border:2px solid {PAINT[card['colour']]};"
        f"border-radius:6px;background:#fbfbf7;color:{INK}"
    )
    start = card_start(style, part=named.torpedo(card["card"]), marked=marked)
    return Html(
        f"{start}{TORPEDO_NAME}{escape(card['card'])}</div>"
        f"{TORPEDOES}{TORPEDO * card['torpedoes']}</div>"
        f"{TORPEDO_SYMBOL}{hyphenated(symbol_word(card['symbol']))}</div></div>"
    )


PILE = (
    f"width:86px;padding:6px;text-align:center;border:2px dashed {LINE};"
    f"border-radius:6px;background:#eef2f6;color:{INK}"
)
PILE_NAME = start_tag("div", "font-size:13px;font-weight:bold")
PILE_WORDS = start_tag("div", "font-size:12px")


def pile_cell(t: Table, part: str, title: str, words: str) -> Html:
    """A pile beside the Torpedo row, a target of a Torpedo card: the deck (delay) or the
    defused cards (defuse)."""
    return Html(
        f"{card_start(PILE, part=part, marked=t.marked(part))}"
        f"{PILE_NAME}{hyphenated(title)}</div>{PILE_WORDS}{escape(words)}</div></div>"
    )


FLEET_MOVE = start_tag("div", "font-size:20px;font-weight:bold")
FLEET_WORDS = start_tag("div", "font-size:11px")


def fleet_card(card: dict, marked: bool = False) -> Html:
    c = card["colour"]
    style = (
        f"width:96px;padding:6px;text-align:center;border-radius:6px;"
        f"background:{PAINT[c]};color:{TEXT_ON.get(c, '#ffffff')}"
    )
    start = card_start(style, part=named.hand(card["card"]), marked=marked)
    return Html(
        f"{start}{FLEET_MOVE}{card['value']:+d}</div>{FLEET_WORDS}{escape(card['card'])}</div>"
        f"{FLEET_WORDS}{hyphenated(symbol_word(card['symbol']))} \u2192 "
        f"{hyphenated(symbol_word(card['arrow']))}</div></div>"
    )


UNDER_THE_NAME = start_tag("div", f"font-size:12px;color:{MUTED}")


def players_html(t: Table) -> Html:
    """Each player's scoring area, the nation under the name (five columns fit a phone)."""
    rows = score_rows(t)
    header = [rows[0][0], *rows[0][2:]]
    body = [
        [
            Html(f"<div>{escape(row[0])}</div>{UNDER_THE_NAME}{escape(row[1])}</div>"),
            *row[2:],
        ]
        for row in rows[1:]
    ]
    return data_table(header, body, align_right=(1, 4))


def html(t: Table) -> Html:
    v = t.view
    subtitle = gettext("Turn %(turn)s", turn=v["turn"]) + (
        " \u00b7 " + gettext("%(who)s to play", who=t.name(v["current"]))
        if v["current"] is not None
        else ""
    )
    played, strike = played_line(t), strike_line(t)
    parts = [
        strong_paragraph(situation(t)),
        played and paragraph(played),
        ladder_html(t),
        paragraph(
            gettext(
                "Rung 8 is the most exposed; a torpedo hits with a d8 roll below the "
                "rung, so rung 1 is never hit."
            ),
            style=f"color:{MUTED};font-size:12px",
        ),
    ]
    torpedo_row = [torpedo_card(c, t.marked(named.torpedo(c["card"]))) for c in v["torpedo_row"]]
    piles = [
        pile_cell(
            t,
            named.TORPEDO_DECK,
            gettext("Deck"),
            gettext("%(count)s face down", count=v["torpedo_deck"]),
        ),
        pile_cell(
            t,
            named.DEFUSED,
            gettext("Defused"),
            " ".join(v["torpedo_removed"]) or gettext("none yet"),
        ),
    ]
    parts.append(
        Html(
            "<div>"
            + heading(gettext("Torpedo row \u00b7 %(count)s in the deck", count=v["torpedo_deck"]))
            + cards_in_a_row(torpedo_row + piles)
            + paragraph(
                # the defused: beside the row
                gettext("Used for a hit: %(used)s.", used=joined(v["torpedo_discard"])),
                style=f"color:{MUTED}",
            )
            + (paragraph(strike) if strike else "")
            + "</div>"
        )
    )
    if v["hand"] is not None:
        hand = (
            cards_in_a_row([fleet_card(c, t.marked(named.hand(c["card"]))) for c in v["hand"]])
            if v["hand"]
            else paragraph(gettext("empty"))
        )
        title = heading(gettext("Your hand (symbol \u2192 the symbol it calls)"))
        parts.append(Html(f"<div>{title}{hand}</div>"))
    players = heading(gettext("Players"))
    parts.append(Html(f"<div>{players}{players_html(t)}</div>"))
    symbols = " \u2192 ".join(symbol(s) for s in (*SYMBOLS, SYMBOLS[0]))
    parts.append(
        Html(
            FOOTER
            + paragraph(deck_words(v))
            + paragraph(
                gettext("Symbols in arrow order: %(symbols)s.", symbols=symbols),
                style=f"color:{MUTED};font-size:12px",
            )
            + "</div>"
        )
    )
    return board_frame("Con Sonar!", subtitle, *parts)


def scores(view: dict) -> list:
    """Each seat's score if the game ended now."""
    return list(view["scores"])
