"""The Nine Domains drawn from one seat's view: the three slots with the domains at stake and
the cards laid before them (face down until both have laid), the reader's hand, every battle
fought so far, and each player's domains, elements and points."""

from __future__ import annotations

from service.play.boards.common import (
    INK,
    LINE,
    MUTED,
    Html,
    board_frame,
    data_table,
    el,
    fluid_grid,
    heading,
    joined,
    paragraph,
    part_el,
    table,
    wrap,
)
from service.play.boards.table import Table
from service.play.parts import ninedomains as named

SLOTS = ("left", "middle", "right")
PAINT = {
    "red": "#c62828",
    "blue": "#1f5fbf",
    "green": "#2e7d32",
    "purple": "#7b3fa0",
    None: "#6b6f76",
}


def domain_info(t: Table) -> dict[str, dict]:
    return {d["id"]: d for d in t.view["domain_table"]}


def domain_words(t: Table, domain: str) -> str:
    """ "red4 (red, 4 points)", "purple3a (half purple, 3 points)", "plain6 (no element, 6)"."""
    d = domain_info(t)[domain]
    element = ("half purple" if d["half"] else d["element"]) if d["element"] else "no element"
    return f"{domain} ({element}, {d['points']} points)"


def other(seat: int) -> int:
    return 1 - seat


def situation(t: Table) -> list[str]:
    v = t.view
    if v["phase"] == "over":
        return [t.result() or "The game is over."]
    if v["phase"] == "commit":
        waiting = [s for s in (0, 1) if not v["committed"][s]]
        lines = [
            t.acting(
                "You lay three cards face down, one before each domain.",
                "lays three cards face down.",
                "lay three cards face down, one before each domain, at the same time.",
            )
        ]
        done = [s for s in (0, 1) if v["committed"][s]]
        if done:
            lines.append(f"Already laid: {t.who(done)}; still to lay: {t.who(waiting)}.")
        return lines
    decision = v["decision"]
    what = (
        "swap one of their domains with one of the opponent's (swap-domain) or pass"
        if decision["kind"] == "swap-domain"
        else "swap a card in hand with a used card (swap-card) or pass"
    )
    winner = "Your" if decision["seat"] == t.you else f"{t.bare_name(decision['seat'])}'s"
    card = "2-" if decision["kind"] == "swap-domain" else "3-"
    return [
        f"{winner} {card} won the {SLOTS[decision['slot']]} slot: "
        + t.acting(f"you may {what.replace('their', 'your')}.", f"may {what}.")
    ]


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
    return battle["cards"][seat] + (" takes it" if battle["winner"] == seat else "")


def slot_rows(t: Table) -> list[list[str]]:
    v = t.view
    rows = [[""] + list(SLOTS)]
    seats = [t.you, other(t.you)] if t.you is not None else [0, 1]
    fought = last_fought(t)
    if fought is not None:
        rows.append(
            [f"Round {v['battles'][-1]['round']}"]
            + [fought[s]["domain"] if s in fought else "-" for s in range(3)]
        )
        rows += [
            [t.name(seat, 14)] + [fought_card(fought.get(s), seat) for s in range(3)]
            for seat in seats
        ]
        return rows
    rows.append(["At stake"] + [d or "fought" for d in v["face_up"]])
    rows.append(["Face down"] + [f"{n} below" for n in v["pile_sizes"]])
    for seat in seats:
        if seat == t.you and v["my_cards"] is not None:
            cards = list(v["my_cards"])
        elif v["committed"][seat]:
            cards = ["(laid)"] * 3
        else:
            cards = ["-"] * 3
        rows.append([t.name(seat, 14)] + cards)
        if any(v["carry"][seat]):
            rows.append(["  carried"] + [f"{b:+d}" if b else "" for b in v["carry"][seat]])
    return rows


def battle_rows(t: Table) -> list[list[str]]:
    """One row per slot fought: the cards with their strength (and bonus), who took it, how."""
    v = t.view
    rows = [["Round", "slot", "domain", t.name(0, 12), "", t.name(1, 12), "won by", "how"]]
    for b in v["battles"]:
        cards = [
            f"{b['cards'][s]} ({b['strengths'][s]}"
            + (f", {b['bonuses'][s]:+d}" if b["bonuses"][s] else "")
            + ")"
            for s in (0, 1)
        ]
        winner = (
            "nobody"
            if b["winner"] is None
            else "you"
            if b["winner"] == t.you
            else t.bare_name(b["winner"])[:12]
        )
        rows.append(
            [
                str(b["round"]),
                SLOTS[b["slot"]],
                b["domain"],
                cards[0],
                "vs",
                cards[1],
                winner,
                b["how"],
            ]
        )
    return rows


def battle_lines(t: Table) -> list[str]:
    """The battles as text: the card columns headed by the short names, strength in brackets."""
    rows = battle_rows(t)
    rows[0][3], rows[0][5] = rows[0][3][:10], rows[0][5][:10]
    return ["Battles (each card with its strength in brackets):"] + table(rows, gap=1)


def player_rows(t: Table) -> list[list[str]]:
    v = t.view
    rows = [["Player", "points", "bonus", "domains", "elements"]]
    for seat in (0, 1):
        rows.append(
            [
                t.name(seat, 14),
                str(v["points"][seat]),
                str(v["bonus_points"][seat]),
                " ".join(v["domains"][seat]) or "-",
                joined(v["elements"][seat], "-"),
            ]
        )
    return rows


def card_lines(t: Table) -> list[str]:
    v = t.view
    lines = []
    if v["hand"] is not None:
        lines.append(f"Your hand: {' '.join(v['hand']) or 'empty'}")
    for seat in (0, 1):
        if seat != t.you:
            lines.append(f"{t.bare_name(seat)} holds {v['hand_sizes'][seat]} cards.")
    used = [f"{t.bare_name(s)} {' '.join(v['used'][s]) or 'none'}" for s in (0, 1)]
    lines.append(f"{PLAYED} {'; '.join(used)}.")
    lines.append(
        f"Special cards dealt: {' '.join(v['specials']) or 'none'} "
        f"({v['specials_mode'].replace('_', ' ')})."
    )
    if v["discarded"]:
        lines.append(f"Out of the game: {' '.join(v['discarded'])}.")
    if v["elements_void"]:
        lines.append("Both players reached all four elements at once: elements no longer count.")
    return lines


PLAYED = "Played so far:"


def card_chip(t: Table, card: str, part: str) -> Html:
    """A card of a hand, or a used one."""
    return part_el(
        "span",
        card,
        part=part,
        marked=t.marked(part),
        style=f"display:inline-block;min-width:22px;padding:4px 6px;"
        f"margin:0 4px 4px 0;text-align:center;"
        f"border:2px solid #b8962e;border-radius:5px;"
        f"background:#fffdf5;color:{INK};font-weight:bold",
    )


def used_html(t: Table) -> Html:
    """The cards each player has played, face up (a 3- takes one back)."""
    v = t.view
    return el(
        "div",
        paragraph(PLAYED),
        [
            paragraph(
                f"{t.name(seat, 16)}: ",
                [card_chip(t, card, named.used(seat, card)) for card in v["used"][seat]] or "none",
            )
            for seat in (0, 1)
        ],
    )


def stake_lines(t: Table) -> list[str]:
    return [f"  {slot}: {domain_words(t, d)}" for slot, d in zip(SLOTS, t.view["face_up"]) if d]


def text(t: Table) -> str:
    v = t.view
    out = [f"THE NINE DOMAINS - round {v['round']} of {v['rounds']}"] + situation(t) + [""]
    out += table(slot_rows(t))
    if stake_lines(t):
        out.append("Domains at stake:")
        out += stake_lines(t)
    out.append("")
    out += card_lines(t)
    out.append("")
    out += table(player_rows(t), right=(1, 2))
    out.append(
        "All four elements (red, blue, green, both half purples) win at once; else "
        "most points after round 3."
    )
    if v["battles"]:
        out.append("")
        out += battle_lines(t)
    return "\n".join(wrap(out)) + "\n"


# ------------------------------------------------------------------------------ HTML


CARD = "max-width:110px;margin:0 auto;text-align:center"
"""A card in the slots: as wide as its column, up to 110 px."""


def domain_card(t: Table, domain: str | None, small: bool = False) -> Html:
    if domain is None:
        return el(
            "div",
            "fought",
            style=f"{CARD};padding:16px 0;color:{MUTED};border:1px dashed {LINE};border-radius:8px",
        )
    d = domain_info(t)[domain]
    element = ("half purple" if d["half"] else d["element"]) if d["element"] else "no element"
    paint = PAINT[d["element"]]
    if small:
        part = named.domain(domain)
        return part_el(
            "span",
            f"{domain} \u00b7 {d['points']}",
            part=part,
            marked=t.marked(part),
            style=f"display:inline-block;padding:2px 6px;margin:1px 3px 1px 0;"
            f"border-radius:4px;background:{paint};color:#ffffff;font-size:12px;"
            "font-weight:bold;white-space:nowrap",
        )
    return el(
        "div",
        el("div", str(d["points"]), style="font-size:26px;font-weight:bold"),
        el("div", "points", style="font-size:11px"),
        el("div", element, style="font-size:12px;margin-top:4px"),
        el("div", domain, style="font-size:11px"),
        style=f"{CARD};padding:8px 0;border-radius:8px;"
        f"background:{paint};color:#ffffff;border:2px solid #ffffff",
        bgcolor=paint,
    )


def laid_card(text_: str, face_down: bool) -> Html:
    if face_down:
        return el(
            "div",
            "face down",
            style=f"{CARD};padding:9px 0;border-radius:6px;background:#3b4a5a;"
            "color:#cfd8e3;font-size:12px",
        )
    return el(
        "div",
        text_,
        style=f"{CARD};padding:5px 0;border-radius:6px;background:#fffdf5;color:{INK};"
        "border:2px solid #b8962e;font-size:18px;font-weight:bold",
    )


def slots_html(t: Table) -> Html:
    v = t.view
    seats = [other(t.you), t.you] if t.you is not None else [1, 0]
    label = f"padding:2px 4px;font-size:12px;color:{MUTED}"

    def label_row(text_):
        return el("tr", el("td", text_, colspan="3", style=label))

    fought = last_fought(t)

    def seat_row(seat):
        cells = []
        for slot in range(3):
            if fought is not None:
                battle = fought.get(slot)
                card = laid_card(battle["cards"][seat], False) if battle else None
                won = battle is not None and battle["winner"] == seat
                cells.append(
                    part_el(
                        "td",
                        card,
                        el(
                            "div",
                            "takes it",
                            style="font-size:11px;font-weight:bold;text-align:center",
                        )
                        if won
                        else None,
                        part=named.slot(seat, slot),
                        marked=t.marked(named.slot(seat, slot)),
                        style="padding:4px;vertical-align:top",
                    )
                )
                continue
            if seat == t.you and v["my_cards"] is not None:
                card = laid_card(v["my_cards"][slot], False)
            elif v["committed"][seat]:
                card = laid_card("", True)
            else:
                card = el(
                    "div",
                    "not laid yet",
                    style=f"{CARD};padding:8px 0;font-size:12px;"
                    f"color:{MUTED};border:1px dashed {LINE};"
                    "border-radius:6px",
                )
            carry = v["carry"][seat][slot]
            note = (
                el("div", f"next card here {carry:+d}", style=f"font-size:11px;color:{MUTED}")
                if carry
                else None
            )
            cells.append(
                part_el(
                    "td",
                    card,
                    note,
                    part=named.slot(seat, slot),
                    marked=t.marked(named.slot(seat, slot)),
                    style="padding:4px;vertical-align:top",
                )
            )
        return el("tr", cells)

    head = el(
        "tr",
        [
            el("td", s.capitalize(), style=f"font-size:12px;color:{MUTED};text-align:center")
            for s in SLOTS
        ],
    )
    if fought is not None:
        stakes_label = f"Round {v['battles'][-1]['round']}"
        stakes = el(
            "tr",
            [
                part_el(
                    "td",
                    domain_card(t, fought[s]["domain"]) if s in fought else None,
                    part=named.stake(s),
                    marked=t.marked(named.stake(s)),
                    style="padding:4px",
                )
                for s in range(3)
            ],
        )
    else:
        stakes_label = "At stake"
        stakes = el(
            "tr",
            [
                part_el(
                    "td",
                    domain_card(t, d),
                    el(
                        "div",
                        f"{n} face down below",
                        style=f"font-size:11px;color:{MUTED};text-align:center",
                    ),
                    part=named.stake(i),
                    marked=t.marked(named.stake(i)),
                    style="padding:4px",
                )
                for i, (d, n) in enumerate(zip(v["face_up"], v["pile_sizes"]))
            ],
        )
    return fluid_grid(
        [
            head,
            label_row(t.name(seats[0], 16)),
            seat_row(seats[0]),
            label_row(stakes_label),
            stakes,
            seat_row(seats[1]),
            label_row(t.name(seats[1], 16)),
        ],
        390,
        "border-collapse:separate;background:#f3efe4;border-radius:8px;padding:6px",
        bgcolor="#f3efe4",
    )


def html(t: Table) -> Html:
    v = t.view
    rows = player_rows(t)
    players = []
    for seat, row in zip((0, 1), rows[1:]):
        players.append(
            [
                [
                    el("div", row[0]),
                    el("div", [domain_card(t, d, small=True) for d in v["domains"][seat]]),
                    el("div", f"elements: {row[4]}", style=f"font-size:12px;color:{MUTED}"),
                ],
                el("strong", row[1]),
                row[2],
            ]
        )
    hand = None
    if v["hand"] is not None:
        hand = el(
            "div",
            heading("Your hand"),
            [card_chip(t, card, named.hand(card)) for card in v["hand"]] or "empty",
        )
    parts = [
        el("div", [paragraph(el("strong", line)) for line in situation(t)]),
        slots_html(t),
        hand,
        el(
            "div",
            [
                used_html(t) if line.startswith(PLAYED) else paragraph(line)
                for line in card_lines(t)[1 if hand else 0 :]
            ],
        ),
        el(
            "div",
            heading("Players"),
            data_table(rows[0][:3], players, align_right=(1, 2)),
            paragraph(
                "All four elements (red, blue, green, both half purples) win at "
                "once; else most points after round 3.",
                style=f"font-size:12px;color:{MUTED}",
            ),
        ),
    ]
    if v["battles"]:
        parts.append(
            el(
                "div",
                heading("Battles (strength in brackets)"),
                [paragraph(line) for line in battle_sentences(t)],
            )
        )
    return board_frame("The Nine Domains", f"Round {v['round']} of {v['rounds']}", *parts)


def battle_sentences(t: Table) -> list[str]:
    """Each slot fought as a sentence ("Round 1, left, purple3b: Ada 5 (5) vs Bo 4 (4); you
    took it by strength"), which wraps on a phone where a table of seven columns would not."""
    rows = battle_rows(t)
    first, second = rows[0][3], rows[0][5]
    lines = []
    for round_, slot, domain, cards0, _, cards1, winner, how in rows[1:]:
        took = "nobody took it" if winner == "nobody" else f"{winner} took it"
        lines.append(
            f"Round {round_}, {slot}, {domain}: {first} {cards0} vs {second} {cards1}; "
            f"{took} ({how})."
        )
    return lines


def scores(view: dict) -> list:
    """Victory points: the domains' values plus bonus points."""
    return list(view["points"])
