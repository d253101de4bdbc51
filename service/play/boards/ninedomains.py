"""The Nine Domains drawn from one seat's view: the three slots with the domains at stake and
the cards laid before them (face down until both have laid), the reader's hand, every battle
fought so far, and each player's domains, elements and points."""

from __future__ import annotations

from functools import cache

from service.play.boards.common import (
    INK,
    LINE,
    MUTED,
    Html,
    board_frame,
    data_table,
    escape,
    fluid_start,
    heading,
    joined,
    paragraph,
    part_start,
    start_tag,
    strong_paragraph,
    table,
    wrap,
)
from service.play.boards.table import Table
from service.play.parts import ninedomains as named
from service.words import N_, gettext, language, ngettext, pgettext

ELEMENTS = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "purple": N_("purple")}
HOW = {
    "effect": N_("effect"),
    "strength": N_("strength"),
    "bonus": N_("bonus"),
    "identical": N_("identical"),
    "symbol": N_("symbol"),
}
"""What decided a slot's fight."""
MODES = {"per_game": N_("per game"), "per_round": N_("per round")}


def slot_word(slot: int) -> str:
    """ "left", "middle", "right" in the language spoken now."""
    return slot_words(language())[slot]


@cache  # three words in each language
def slot_words(spoken: str) -> tuple[str, str, str]:
    """The slots' names in the language spoken (`spoken`: the cache's key)."""
    return pgettext("slot", "left"), pgettext("slot", "middle"), pgettext("slot", "right")


@cache  # five words in each language
def how_words(spoken: str) -> dict[str, str]:
    """What decided a slot's fight (HOW), in the language spoken (`spoken`: the cache's key)."""
    return {how: gettext(word) for how, word in HOW.items()}


def capitalised(word: str) -> str:
    return word[:1].upper() + word[1:]


def element_words(d: dict) -> str:
    if not d["element"]:
        return gettext("no element")
    return gettext("half purple") if d["half"] else gettext(ELEMENTS[d["element"]])


PAINT = {
    "red": "#c62828",
    "blue": "#1f5fbf",
    "green": "#2e7d32",
    "purple": "#7b3fa0",
    None: "#6b6f76",
}


def domain_info(t: Table) -> dict[str, dict]:
    return {d["id"]: d for d in t.view["domain_table"]}


def domain_words(d: dict) -> str:
    """ "red4 (red, 4 points)", "purple3a (half purple, 3 points)", "plain6 (no element, 6)"
    (`d`: the domain's entry in the view's `domain_table`)."""
    return ngettext(
        "%(domain)s (%(element)s, %(num)d point)",
        "%(domain)s (%(element)s, %(num)d points)",
        d["points"],
        domain=d["id"],
        element=element_words(d),
    )


def other(seat: int) -> int:
    return 1 - seat


def situation(t: Table) -> list[str]:
    v = t.view
    if v["phase"] == "over":
        return [t.result() or gettext("The game is over.")]
    if v["phase"] == "commit":
        waiting = [s for s in (0, 1) if not v["committed"][s]]
        if t.active and t.active == [t.you]:
            lines = [gettext("You lay three cards face down, one before each domain.")]
        elif len(t.active) > 1:
            lines = [
                gettext(
                    "%(who)s lay three cards face down, one before each domain, at the same time.",
                    who=t.who(t.active),
                )
            ]
        else:
            lines = [gettext("%(who)s lays three cards face down.", who=t.who(t.active))]
        done = [s for s in (0, 1) if v["committed"][s]]
        if done:
            lines.append(
                gettext(
                    "Already laid: %(done)s; still to lay: %(waiting)s.",
                    done=t.who(done),
                    waiting=t.who(waiting),
                )
            )
        return lines
    decision = v["decision"]
    mine = decision["seat"] == t.you
    card = "2-" if decision["kind"] == "swap-domain" else "3-"
    slot = slot_word(decision["slot"])
    if decision["kind"] == "swap-domain":
        said = (
            N_(
                "Your %(card)s won the %(slot)s slot: you may swap one of your domains with one "
                "of the opponent's (swap-domain) or pass."
            )
            if mine
            else N_(
                "%(owner)s's %(card)s won the %(slot)s slot: %(who)s may swap one of their "
                "domains with one of the opponent's (swap-domain) or pass."
            )
        )
    else:
        said = (
            N_(
                "Your %(card)s won the %(slot)s slot: you may swap a card in hand with a used "
                "card (swap-card) or pass."
            )
            if mine
            else N_(
                "%(owner)s's %(card)s won the %(slot)s slot: %(who)s may swap a card in hand "
                "with a used card (swap-card) or pass."
            )
        )
    if mine:
        return [gettext(said, card=card, slot=slot)]
    owner = t.bare_name(decision["seat"])
    return [gettext(said, owner=owner, card=card, slot=slot, who=t.who(t.active))]


def last_fought(t: Table) -> dict[int, dict] | None:
    """Once a round is fought and before the next one's domains are dealt (a 2-/3- decision,
    the end of the game): that round's battles by slot, to show in the slots; else None."""
    v = t.view
    if any(v["face_up"]) or not v["battles"]:
        return None
    last = v["battles"][-1]["round"]
    return {b["slot"]: b for b in v["battles"] if b["round"] == last}


def fought_card(battle: dict | None, seat: int) -> str:
    if battle is None:
        return "-"
    return battle["cards"][seat] + (" " + gettext("takes it") if battle["winner"] == seat else "")


def slot_rows(t: Table) -> list[list[str]]:
    v = t.view
    rows = [[""] + [slot_word(s) for s in range(3)]]
    seats = [t.you, other(t.you)] if t.you is not None else [0, 1]
    fought = last_fought(t)
    if fought is not None:
        rows.append(
            [gettext("Round %(round)s", round=v["battles"][-1]["round"])]
            + [fought[s]["domain"] if s in fought else "-" for s in range(3)]
        )
        rows += [
            [t.name(seat, 14)] + [fought_card(fought.get(s), seat) for s in range(3)]
            for seat in seats
        ]
        return rows
    rows.append([gettext("At stake")] + [d or gettext("fought") for d in v["face_up"]])
    rows.append([gettext("Face down")] + [gettext("%(num)s below", num=n) for n in v["pile_sizes"]])
    for seat in seats:
        if seat == t.you and v["my_cards"] is not None:
            cards = list(v["my_cards"])
        elif v["committed"][seat]:
            cards = [gettext("(laid)")] * 3
        else:
            cards = ["-"] * 3
        rows.append([t.name(seat, 14)] + cards)
        if any(v["carry"][seat]):
            rows.append(
                ["  " + gettext("carried")] + [f"{b:+d}" if b else "" for b in v["carry"][seat]]
            )
    return rows


def battle_rows(t: Table) -> list[list[str]]:
    """One row per slot fought: the cards with their strength (and bonus), who took it, how."""
    v = t.view
    spoken = language()
    round_, slot, domain, won_by, how = battle_heads(spoken)
    rows = [[round_, slot, domain, t.name(0, 12), "", t.name(1, 12), won_by, how]]
    slots, hows = slot_words(spoken), how_words(spoken)
    vs, nobody, you = gettext("vs"), gettext("nobody"), gettext("you")
    winners = [you if seat == t.you else t.bare_name(seat)[:12] for seat in (0, 1)]
    for b in v["battles"]:
        cards = [
            f"{card} ({strength}{f', {bonus:+d}' if bonus else ''})"
            for card, strength, bonus in zip(b["cards"], b["strengths"], b["bonuses"])
        ]
        rows.append(
            [
                str(b["round"]),
                slots[b["slot"]],
                b["domain"],
                cards[0],
                vs,
                cards[1],
                nobody if b["winner"] is None else winners[b["winner"]],
                hows.get(b["how"], b["how"]),
            ]
        )
    return rows


@cache  # in each language
def battle_heads(spoken: str) -> tuple[str, ...]:
    """The battles' column heads but the players' in the language spoken (`spoken`: the
    cache's key)."""
    return gettext("Round"), gettext("slot"), gettext("domain"), gettext("won by"), gettext("how")


def battle_lines(t: Table) -> list[str]:
    """The battles as text: the card columns headed by the short names, strength in brackets."""
    rows = battle_rows(t)
    rows[0][3], rows[0][5] = rows[0][3][:10], rows[0][5][:10]
    return [gettext("Battles (each card with its strength in brackets):")] + table(rows, gap=1)


def player_rows(t: Table) -> list[list[str]]:
    v = t.view
    rows = [list(player_heads(language()))]
    for seat in (0, 1):
        rows.append(
            [
                t.name(seat, 14),
                str(v["points"][seat]),
                str(v["bonus_points"][seat]),
                " ".join(v["domains"][seat]) or "-",
                joined([gettext(ELEMENTS[e]) for e in v["elements"][seat]], "-"),
            ]
        )
    return rows


@cache  # in each language
def player_heads(spoken: str) -> tuple[str, ...]:
    """The players' table's column heads in the language spoken (`spoken`: the cache's key)."""
    return (
        gettext("Player"),
        gettext("points"),
        pgettext("victory points", "bonus"),
        gettext("domains"),
        gettext("elements"),
    )


def card_lines(t: Table) -> list[str]:
    v = t.view
    lines = []
    if v["hand"] is not None:
        lines.append(gettext("Your hand: %(cards)s", cards=" ".join(v["hand"]) or gettext("empty")))
    for seat in (0, 1):
        if seat != t.you:
            lines.append(
                ngettext(
                    "%(who)s holds %(num)d card.",
                    "%(who)s holds %(num)d cards.",
                    v["hand_sizes"][seat],
                    who=t.bare_name(seat),
                )
            )
    used = [f"{t.bare_name(s)} {' '.join(v['used'][s]) or gettext('none')}" for s in (0, 1)]
    lines.append(f"{played()} {'; '.join(used)}.")
    mode = v["specials_mode"]
    lines.append(
        gettext(
            "Special cards dealt: %(cards)s (%(mode)s).",
            cards=" ".join(v["specials"]) or gettext("none"),
            mode=gettext(MODES[mode]) if mode in MODES else mode,
        )
    )
    if v["discarded"]:
        lines.append(gettext("Out of the game: %(cards)s.", cards=" ".join(v["discarded"])))
    if v["elements_void"]:
        lines.append(
            gettext("Both players reached all four elements at once: elements no longer count.")
        )
    return lines


def played() -> str:
    return gettext("Played so far:")


CARD_CHIP = (
    "display:inline-block;min-width:22px;padding:4px 6px;margin:0 4px 4px 0;text-align:center;"
    f"border:2px solid #b8962e;border-radius:5px;background:#fffdf5;color:{INK};font-weight:bold"
)


def card_chip(t: Table, card: str, part: str) -> Html:
    """A card of a hand, or a used one."""
    return Html(f"{part_start('span', part, t.marked(part), CARD_CHIP)}{escape(card)}</span>")


def used_html(t: Table) -> Html:
    """The cards each player has played, face up (a 3- takes one back)."""
    v = t.view
    none = gettext("none")
    seats = [
        paragraph(
            f"{t.name(seat, 16)}: ",
            [card_chip(t, card, named.used(seat, card)) for card in v["used"][seat]] or none,
        )
        for seat in (0, 1)
    ]
    return Html(f"<div>{paragraph(played())}{''.join(seats)}</div>")


def stake_lines(t: Table) -> list[str]:
    info = domain_info(t)
    return [
        f"  {slot_word(slot)}: {domain_words(info[d])}"
        for slot, d in enumerate(t.view["face_up"])
        if d
    ]


def text(t: Table) -> str:
    v = t.view
    out = (
        [
            gettext(
                "THE NINE DOMAINS - round %(round)s of %(rounds)s",
                round=v["round"],
                rounds=v["rounds"],
            )
        ]
        + situation(t)
        + [""]
    )
    out += table(slot_rows(t))
    if stakes := stake_lines(t):
        out.append(gettext("Domains at stake:"))
        out += stakes
    out.append("")
    out += card_lines(t)
    out.append("")
    out += table(player_rows(t), right=(1, 2))
    out.append(goal())
    if v["battles"]:
        out.append("")
        out += battle_lines(t)
    return "\n".join(wrap(out)) + "\n"


def goal() -> str:
    return gettext(
        "All four elements (red, blue, green, both half purples) win at once; else most points "
        "after round 3."
    )


# ------------------------------------------------------------------------------ HTML


CARD = "max-width:110px;margin:0 auto;text-align:center"
"""A card in the slots: as wide as its column, up to 110 px."""
FOUGHT = start_tag(
    "div", f"{CARD};padding:16px 0;color:{MUTED};border:1px dashed {LINE};border-radius:8px"
)
DOMAIN_CARD = {
    element: start_tag(
        "div",
        f"{CARD};padding:8px 0;border-radius:8px;"
        f"background:{paint};color:#ffffff;border:2px solid #ffffff",
        bgcolor=paint,
    )
    for element, paint in PAINT.items()
}
SMALL_DOMAIN = {
    element: "display:inline-block;padding:2px 6px;margin:1px 3px 1px 0;border-radius:4px;"
    f"background:{paint};color:#ffffff;font-size:12px;font-weight:bold;white-space:nowrap"
    for element, paint in PAINT.items()
}
POINTS = start_tag("div", "font-size:26px;font-weight:bold")
POINT_WORD = start_tag("div", "font-size:11px")
ELEMENT = start_tag("div", "font-size:12px;margin-top:4px")
DOMAIN_NAME = POINT_WORD


def domain_card(t: Table, domain: str | None, small: bool = False) -> Html:
    if domain is None:
        fought = gettext("fought")  # outside the f-string: Babel reads no call inside one
        return Html(f"{FOUGHT}{escape(fought)}</div>")
    d = domain_info(t)[domain]
    if small:
        part = named.domain(domain)
        start = part_start("span", part, t.marked(part), SMALL_DOMAIN[d["element"]])
        words = f"{domain} \u00b7 {d['points']}"
        return Html(f"{start}{escape(words)}</span>")
    points = ngettext("point", "points", d["points"])
    return Html(
        f"{DOMAIN_CARD[d['element']]}{POINTS}{d['points']}</div>{POINT_WORD}{escape(points)}</div>"
        f"{ELEMENT}{escape(element_words(d))}</div>{DOMAIN_NAME}{escape(domain)}</div></div>"
    )


FACE_DOWN = start_tag(
    "div", f"{CARD};padding:9px 0;border-radius:6px;background:#3b4a5a;color:#cfd8e3;font-size:12px"
)
FACE_UP = start_tag(
    "div",
    f"{CARD};padding:5px 0;border-radius:6px;background:#fffdf5;color:{INK};"
    "border:2px solid #b8962e;font-size:18px;font-weight:bold",
)


def laid_card(text_: str, face_down: bool) -> Html:
    if face_down:
        words = gettext("face down")  # outside the f-string: Babel reads no call inside one
        return Html(f"{FACE_DOWN}{escape(words)}</div>")
    return Html(f"{FACE_UP}{escape(text_)}</div>")


SLOT = "padding:4px;vertical-align:top"
SLOT_NAME = start_tag("td", f"font-size:12px;color:{MUTED};text-align:center")
LABEL = start_tag("td", f"padding:2px 4px;font-size:12px;color:{MUTED}", colspan="3")
TAKES_IT = start_tag("div", "font-size:11px;font-weight:bold;text-align:center")
NOT_LAID = start_tag(
    "div",
    f"{CARD};padding:8px 0;font-size:12px;color:{MUTED};border:1px dashed {LINE};border-radius:6px",
)
NOTE = start_tag("div", f"font-size:11px;color:{MUTED}")
STAKE = "padding:4px"
BELOW = start_tag("div", f"font-size:11px;color:{MUTED};text-align:center")
SLOTS_FRAME = fluid_start(
    390,
    "border-collapse:separate;background:#f3efe4;border-radius:8px;padding:6px",
    bgcolor="#f3efe4",
)


def slots_html(t: Table) -> Html:
    v = t.view
    seats = [other(t.you), t.you] if t.you is not None else [1, 0]

    def label_row(text_):
        return f"<tr>{LABEL}{escape(text_)}</td></tr>"

    fought = last_fought(t)
    takes_it, not_laid = gettext("takes it"), gettext("not laid yet")

    def slot_cell(seat, slot):
        """The card `seat` laid in `slot` (or the one it fought with), and a word below."""
        part = named.slot(seat, slot)
        start = part_start("td", part, t.marked(part), SLOT)
        if fought is not None:
            battle = fought.get(slot)
            card = laid_card(battle["cards"][seat], False) if battle else ""
            won = battle is not None and battle["winner"] == seat
            return f"{start}{card}{f'{TAKES_IT}{escape(takes_it)}</div>' if won else ''}</td>"
        if seat == t.you and v["my_cards"] is not None:
            card = laid_card(v["my_cards"][slot], False)
        elif v["committed"][seat]:
            card = laid_card("", True)
        else:
            card = Html(f"{NOT_LAID}{escape(not_laid)}</div>")
        carry = v["carry"][seat][slot]
        if carry:
            next_card = gettext("next card here %(bonus)s", bonus=f"{carry:+d}")
            return f"{start}{card}{NOTE}{escape(next_card)}</div></td>"
        return f"{start}{card}</td>"

    def seat_row(seat):
        return f"<tr>{''.join(slot_cell(seat, slot) for slot in range(3))}</tr>"

    head = "".join(f"{SLOT_NAME}{escape(capitalised(slot_word(s)))}</td>" for s in range(3))
    stakes = []
    if fought is not None:
        stakes_label = gettext("Round %(round)s", round=v["battles"][-1]["round"])
        for s in range(3):
            card = domain_card(t, fought[s]["domain"]) if s in fought else ""
            start = part_start("td", named.stake(s), t.marked(named.stake(s)), STAKE)
            stakes.append(f"{start}{card}</td>")
    else:
        stakes_label = gettext("At stake")
        for i, (d, n) in enumerate(zip(v["face_up"], v["pile_sizes"])):
            below = gettext("%(num)s face down below", num=n)
            start = part_start("td", named.stake(i), t.marked(named.stake(i)), STAKE)
            stakes.append(f"{start}{domain_card(t, d)}{BELOW}{escape(below)}</div></td>")
    return Html(
        f"{SLOTS_FRAME}<tr>{head}</tr>{label_row(t.name(seats[0], 16))}{seat_row(seats[0])}"
        f"{label_row(stakes_label)}<tr>{''.join(stakes)}</tr>"
        f"{seat_row(seats[1])}{label_row(t.name(seats[1], 16))}</table>"
    )


ELEMENTS_HELD = start_tag("div", f"font-size:12px;color:{MUTED}")


def html(t: Table) -> Html:
    v = t.view
    rows = player_rows(t)
    players = []
    for seat, row in zip((0, 1), rows[1:]):
        domains = "".join(domain_card(t, d, small=True) for d in v["domains"][seat])
        elements = gettext("elements: %(elements)s", elements=row[4])
        players.append(
            [
                Html(
                    f"<div>{escape(row[0])}</div><div>{domains}</div>"
                    f"{ELEMENTS_HELD}{escape(elements)}</div>"
                ),
                Html(f"<strong>{escape(row[1])}</strong>"),
                row[2],
            ]
        )
    hand = None
    if v["hand"] is not None:
        chips = "".join(card_chip(t, card, named.hand(card)) for card in v["hand"])
        title, empty = gettext("Your hand"), gettext("empty")  # Babel reads no f-string's calls
        hand = Html(f"<div>{heading(title)}{chips or escape(empty)}</div>")
    lines = [
        used_html(t) if line.startswith(played()) else paragraph(line)
        for line in card_lines(t)[1 if hand else 0 :]
    ]
    parts = [
        Html(f"<div>{''.join(strong_paragraph(line) for line in situation(t))}</div>"),
        slots_html(t),
        hand,
        Html(f"<div>{''.join(lines)}</div>"),
        Html(
            "<div>"
            + heading(gettext("Players"))
            + data_table(rows[0][:3], players, align_right=(1, 2))
            + paragraph(goal(), style=f"font-size:12px;color:{MUTED}")
            + "</div>"
        ),
    ]
    if v["battles"]:
        battles = "".join(paragraph(line) for line in battle_sentences(t))
        title = gettext("Battles (strength in brackets)")  # Babel reads no f-string's calls
        parts.append(Html(f"<div>{heading(title)}{battles}</div>"))
    return board_frame(
        "The Nine Domains",
        gettext("Round %(round)s of %(rounds)s", round=v["round"], rounds=v["rounds"]),
        *parts,
    )


def battle_sentences(t: Table) -> list[str]:
    """Each slot fought as a sentence ("Round 1, left, purple3b: Ada 5 (5) vs Bo 4 (4); you
    took it by strength"), which wraps on a phone where a table of seven columns would not."""
    rows = battle_rows(t)
    first, second = rows[0][3], rows[0][5]
    lines = []
    for b, (round_, slot, domain, cards0, _, cards1, winner, how) in zip(
        t.view["battles"], rows[1:]
    ):
        took = (
            gettext("nobody took it")
            if b["winner"] is None
            else gettext("you took it")
            if b["winner"] == t.you
            else gettext("%(who)s took it", who=winner)
        )
        lines.append(
            gettext(
                "Round %(round)s, %(slot)s, %(domain)s: %(first)s %(mine)s vs %(second)s "
                "%(theirs)s; %(took)s (%(how)s).",
                round=round_,
                slot=slot,
                domain=domain,
                first=first,
                mine=cards0,
                second=second,
                theirs=cards1,
                took=took,
                how=how,
            )
        )
    return lines


def scores(view: dict) -> list:
    """Victory points: the domains' values plus bonus points."""
    return list(view["points"])
