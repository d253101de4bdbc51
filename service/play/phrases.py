"""The games' own words in the reader's language: the lines the engine writes into a game's
log, its outcomes' reasons and its moves' descriptions (`describe`), which the engine writes
in English (it is pure: no catalogue) and the log keeps as they were written.

For a reader of another language, a title's phrasebook recognises each of its sentences
(`Phrase.pattern`, over the engine's text with its seat tokens, {seat0} ...) and says it again
with the service's catalogue (service/words.py): the matched parts (numbers, cards, colours,
seats) go into a message of the catalogue, those that are words through `Phrase.parts`. The
seat that does the thing (the group `who`) is said as "you" to its own player (`to_you`, a
message of its own, as the languages conjugate it) and by name to the others. English is the
engine's own text (logview's voice), so an English reader reads what they always did; a
sentence no phrase knows stays in English (tests/service/test_phrases.py plays every title's
games to find none)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from service.words import N_, N_plural, gettext, ngettext, pgettext

SEAT = r"\{seat\d\}"


Message = str | tuple[str, str]
"""A message, or a message and its plural (`N_plural`), said by the group `num`."""


@dataclass(frozen=True)
class Phrase:
    pattern: re.Pattern[str]
    said: Message
    """The message, a seat's name as %(who)s and each group of the pattern by its name."""
    to_you: Message | None = None
    """The message when the reader is the seat `who`."""
    parts: Mapping[str, Part] = field(default_factory=dict)
    """How a group is said (a colour's name, a list of cells), by its name."""


@dataclass(frozen=True)
class Seated:
    """A part said knowing the seats' names and the reader: whose side, whose column ("your
    column 2", "Bo's column 2": the languages put the owner in the words around it)."""

    say: Callable[[str, list[str], int | None], str]


Part = Callable[[str], str] | Seated


def phrase(pattern: str, said: Message, to_you: Message | None = None, **parts: Part) -> Phrase:
    return Phrase(re.compile(pattern + "$"), said, to_you, parts)


def exactly(*sentences: str) -> tuple[Phrase, ...]:
    """Phrases for sentences said always the same, each written once: a title's fixed log lines,
    outcomes and moves, its notation help."""
    return tuple(phrase(re.escape(sentence), sentence) for sentence in sentences)


FIELD_WORDS = {
    "row": N_("row"),
    "column": N_("column"),
    "card": N_("card"),
    "submarine": N_("submarine"),
    # Nautilus
    "side": N_("side"),
    "pin with the Anchor": N_("pin with the Anchor"),
    "Special": N_("Special"),
    "from side": N_("from side"),
    "from column": N_("from column"),
    "to side": N_("to side"),
    "to column": N_("to column"),
    # The Nine Domains
    "left slot": N_("left slot"),
    "middle slot": N_("middle slot"),
    "right slot": N_("right slot"),
    "card from your hand": N_("card from your hand"),
    "used card": N_("used card"),
    "your domain": N_("your domain"),
    "their domain": N_("their domain"),
}
"""The titles' names for their moves' fields (GameInfo.field_words), said in the composer's
forms."""


def field_words(words: Mapping[str, str]) -> dict[str, str]:
    """A title's field words in the language spoken now."""
    return {key: gettext(FIELD_WORDS[w]) if w in FIELD_WORDS else w for key, w in words.items()}


def translated(
    book: tuple[Phrase, ...], text: str, names: list[str], reader: int | None
) -> str | None:
    """`text` (an engine's sentence with its seat tokens) said again from `book` in the
    language spoken now; None when no phrase knows it."""
    for known in book:
        found = known.pattern.match(text)
        if found is None:
            continue
        values = found.groupdict()
        mine = reader is not None and values.get("who") == "{seat%d}" % reader
        said = {
            name: _part(known.parts[name], value, names, reader)
            if name in known.parts
            else _seat(value, names, reader)
            if re.fullmatch(SEAT, value)
            else value
            for name, value in values.items()
        }
        message = known.to_you if mine and known.to_you else known.said
        if isinstance(message, tuple):
            num = int(values["num"])
            said.pop("num")
            return ngettext(message[0], message[1], num, **said)
        return gettext(message, **said)
    return None


def _part(part: Part, value: str, names: list[str], reader: int | None) -> str:
    return part.say(value, names, reader) if isinstance(part, Seated) else part(value)


def _seat(token: str, names: list[str], reader: int | None) -> str:
    seat = int(token[5:-1])
    return gettext("you") if seat == reader else names[seat]


# -- Buttons (its original page is Russian: пуговицы, кубики, звёзды, отказаться от участия,
# вылететь) --------------------------------------------------------------------------------------

BUTTONS_COLOURS = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "none": N_("none"),
}


def _buttons_colours(names: str) -> str:
    return ", ".join(gettext(BUTTONS_COLOURS[n]) for n in names.split(", "))


def _cells(cells: str) -> str:
    """ "row 1, column 2; row 3, column 4" in words."""
    return "; ".join(
        gettext("row %(row)s, column %(col)s", row=r, col=c)
        for r, c in re.findall(r"row (\d), column (\d)", cells)
    )


CELL = r"row (?P<row>\d), column (?P<col>\d)"
WHO = r"(?P<who>\{seat\d\})"

BUTTONS = (
    *exactly(N_("each player receives a board layout and bonus colour cards")),
    phrase(
        rf"round (?P<round>\d+) begins; {WHO} holds the red card and starts",
        N_("round %(round)s begins; %(who)s holds the red card and starts"),
        N_("round %(round)s begins; you hold the red card and start"),
    ),
    phrase(
        rf"{WHO} rolled white (?P<white>\d), gold (?P<gold>\d), black (?P<black>[\d -]+)",
        N_("%(who)s rolled white %(white)s, gold %(gold)s, black %(black)s"),
        N_("you rolled white %(white)s, gold %(gold)s, black %(black)s"),
    ),
    phrase(
        rf"{WHO} cannot place and busts: their buttons of this round are removed",
        N_("%(who)s cannot place and busts: their buttons of this round are removed"),
        N_("you cannot place and bust: your buttons of this round are removed"),
    ),
    phrase(
        rf"{WHO} opted out of the round",
        N_("%(who)s opted out of the round"),
        N_("you opted out of the round"),
    ),
    phrase(
        rf"{WHO} placed a button at {CELL}",
        N_("%(who)s placed a button at row %(row)s, column %(col)s"),
        N_("you placed a button at row %(row)s, column %(col)s"),
    ),
    phrase(
        rf"{WHO} let the gold dice pass",
        N_("%(who)s let the gold dice pass"),
        N_("you let the gold dice pass"),
    ),
    phrase(
        rf"{WHO} earns (?P<num>\d+) stars?: 1 for opting out, (?P<count>\d+) for colours "
        r"(?P<colours>[a-z, ]+), (?P<bonus>\d+) bonus",
        N_plural(
            "%(who)s earns %(num)d star: 1 for opting out, %(count)s for colours %(colours)s, "
            "%(bonus)s bonus",
            "%(who)s earns %(num)d stars: 1 for opting out, %(count)s for colours "
            "%(colours)s, %(bonus)s bonus",
        ),
        N_plural(
            "you earn %(num)d star: 1 for opting out, %(count)s for colours %(colours)s, "
            "%(bonus)s bonus",
            "you earn %(num)d stars: 1 for opting out, %(count)s for colours "
            "%(colours)s, %(bonus)s bonus",
        ),
        colours=_buttons_colours,
    ),
    phrase(
        rf"{WHO} placed stars at (?P<cells>.+)",
        N_("%(who)s placed stars at %(cells)s"),
        N_("you placed stars at %(cells)s"),
        cells=_cells,
    ),
    *exactly(N_("the game is over"), N_("the bonus cards are passed clockwise")),
    phrase(
        rf"{WHO} left the game; their bonus cards go to (?P<heir>{SEAT})",
        N_("%(who)s left the game; their bonus cards go to %(heir)s"),
        N_("you left the game; your bonus cards go to %(heir)s"),
    ),
    # its outcomes
    *exactly(N_("a player completed a line of 5 stars"), N_("a player reached 12 stars")),
    # its moves, as said to the mover
    *exactly(N_("Roll the dice")),
    # how its moves are written (the notation itself stays, at each line's start)
    *exactly(
        N_("roll: on your turn, roll the dice"),
        N_("optout: on your turn, leave the round keeping your buttons (needs a button placed)"),
        N_("place 3 5: put a button at row 3 (the white die), column 5 (a black die)"),
        N_("skip: do not use the gold dice of another player's roll"),
        N_("star 3 5: turn your button at row 3, column 5 into a star (round end)"),
    ),
    phrase(
        r"Opt out of the round, keeping your (?P<num>\d+) buttons?",
        N_plural(
            "Opt out of the round, keeping your %(num)d button",
            "Opt out of the round, keeping your %(num)d buttons",
        ),
    ),
    *exactly(N_("Let the gold dice pass")),
    phrase(
        rf"Turn your button at {CELL} \((?P<colour>\w+)\) into a star",
        N_("Turn your button at row %(row)s, column %(col)s (%(colour)s) into a star"),
        colour=_buttons_colours,
    ),
    phrase(
        rf"Place a button at {CELL} \((?P<colour>\w+)\)",
        N_("Place a button at row %(row)s, column %(col)s (%(colour)s)"),
        colour=_buttons_colours,
    ),
    phrase(
        rf"Use the gold dice: place a button at {CELL} \((?P<colour>\w+)\)",
        N_("Use the gold dice: place a button at row %(row)s, column %(col)s (%(colour)s)"),
        colour=_buttons_colours,
    ),
)


# -- Con Sonar! (its original page is Italian: carte Flotta, carte Siluro, la plancia e i suoi
# livelli, rimuovere una carta Siluro, metterla sul fondo del mazzo) -------------------------------

CONSONAR_COLOURS = {
    "blue": N_("blue"),
    "green": N_("green"),
    "orange": N_("orange"),
    "purple": N_("purple"),
    "red": N_("red"),
    "yellow": N_("yellow"),
}


def _consonar_colour(name: str) -> str:
    return gettext(CONSONAR_COLOURS[name])


def _card_words(words: str) -> str:
    """ "red +2" (a card by its colour's name and value) in words."""
    colour, value = words.split(" ")
    return gettext("%(colour)s %(value)s", colour=_consonar_colour(colour), value=value)


def _nations(names: list[str], reader: int | None) -> Callable[[str], str]:
    def said(nations: str) -> str:
        return ", ".join(
            gettext(
                "%(colour)s for %(who)s",
                colour=_consonar_colour(colour),
                who=_seat(token, names, reader),
            )
            for colour, token in re.findall(r"(\w+) for (\{seat\d\})", nations)
        )

    return said


CARD = r"(?P<card>[bgopry][+-]?\d)"
SUB = r"(?P<sub>[bgopry]\d)"
NAMED_CARD = r"(?P<card>(?:blue|green|orange|purple|red|yellow) [+-]?\d)"
OWNER = r"(?P<owner>your|the neutral|\{seat\d\}'s)"


def _owned(owner: str, sub: str, names: list[str], reader: int | None) -> str:
    if owner == "your":
        return gettext("your %(sub)s", sub=sub)
    if owner == "the neutral":
        return gettext("the neutral %(sub)s", sub=sub)
    return gettext("%(who)s's %(sub)s", who=_seat(owner[:-2], names, reader), sub=sub)


CONSONAR = (
    phrase(r"you were dealt (?P<cards>.+)", N_("you were dealt %(cards)s")),
    phrase(
        rf"{WHO} is dealt (?P<num>\d+) Fleet cards",
        N_plural("%(who)s is dealt %(num)d Fleet card", "%(who)s is dealt %(num)d Fleet cards"),
    ),
    phrase(r"face-up Torpedo cards: (?P<cards>.+)", N_("face-up Torpedo cards: %(cards)s")),
    phrase(rf"{WHO} plays first", N_("%(who)s plays first"), N_("you play first")),
    phrase(
        rf"{WHO} plays {CARD}, moving {SUB} from rung (?P<low>\d) to (?P<high>\d)",
        N_("%(who)s plays %(card)s, moving %(sub)s from rung %(low)s to %(high)s"),
        N_("you play %(card)s, moving %(sub)s from rung %(low)s to %(high)s"),
    ),
    phrase(
        rf"{WHO} plays {CARD}, {SUB} stays on rung (?P<rung>\d)",
        N_("%(who)s plays %(card)s, %(sub)s stays on rung %(rung)s"),
        N_("you play %(card)s, %(sub)s stays on rung %(rung)s"),
    ),
    phrase(
        rf"{WHO} fires {CARD} at {SUB} on rung (?P<rung>\d): rolled (?P<rolls>[\d ]+), sunk!",
        N_("%(who)s fires %(card)s at %(sub)s on rung %(rung)s: rolled %(rolls)s, sunk!"),
        N_("you fire %(card)s at %(sub)s on rung %(rung)s: rolled %(rolls)s, sunk!"),
    ),
    phrase(
        rf"{WHO} fires {CARD} at {SUB} on rung (?P<rung>\d): rolled (?P<rolls>[\d ]+), missed",
        N_("%(who)s fires %(card)s at %(sub)s on rung %(rung)s: rolled %(rolls)s, missed"),
        N_("you fire %(card)s at %(sub)s on rung %(rung)s: rolled %(rolls)s, missed"),
    ),
    phrase(rf"{WHO} defuses {CARD}", N_("%(who)s defuses %(card)s"), N_("you defuse %(card)s")),
    phrase(
        rf"{WHO} puts {CARD} at the bottom of the Torpedo deck",
        N_("%(who)s puts %(card)s at the bottom of the Torpedo deck"),
        N_("you put %(card)s at the bottom of the Torpedo deck"),
    ),
    phrase(rf"{WHO} ends the turn", N_("%(who)s ends the turn"), N_("you end the turn")),
    phrase(rf"{CARD} is turned face up", N_("%(card)s is turned face up")),
    *exactly(N_("the Fleet discard pile is shuffled into a new deck")),
    phrase(
        rf"{WHO} draws (?P<num>\d+) Fleet cards?",
        N_plural("%(who)s draws %(num)d Fleet card", "%(who)s draws %(num)d Fleet cards"),
    ),
    phrase(r"you drew (?P<cards>.+)", N_("you drew %(cards)s")),
    phrase(
        rf"{WHO} has left: (?P<colour>\w+) is now neutral",
        N_("%(who)s has left: %(colour)s is now neutral"),
        N_("you have left: %(colour)s is now neutral"),
        colour=_consonar_colour,
    ),
    # its outcomes
    *exactly(N_("all submarines have been sunk")),
    phrase(
        r"only (?P<num>\d+) submarines are left",
        N_plural("only %(num)d submarine is left", "only %(num)d submarines are left"),
    ),
    *exactly(N_("a used Torpedo card could not be replaced")),
    # its moves, as said to the mover
    *exactly(N_("End your turn without a Torpedo card")),
    *exactly(
        N_(
            "fleet CARD@SUB: play a Fleet card (colour b g o p r y and value -1 +2 -3 +4 -5 +6) "
            "moving a submarine (colour and 1 or 2), e.g. fleet r+2@r1"
        ),
        N_(
            "torpedo CARD@SUB: fire the Torpedo card (colour and 1-3 torpedoes) the last arrow "
            "points to at a submarine, e.g. torpedo b2@y1"
        ),
        N_("defuse CARD: remove a Torpedo card of your own colour from the game, e.g. defuse r1"),
        N_(
            "delay CARD: put the Torpedo card the last arrow points to at the bottom of the "
            "Torpedo deck, e.g. delay p3"
        ),
        N_("end: end the turn without a Torpedo action (pass-torpedo is the same), e.g. end"),
        N_(
            "a whole turn on one line (by email): steps separated by ';', several Fleet cards "
            "after one 'fleet', e.g. fleet r+2@r1 g-3@g2; torpedo b2@y1"
        ),
    ),
    phrase(
        rf"Defuse {NAMED_CARD}: it leaves the game",
        N_("Defuse %(card)s: it leaves the game"),
        card=_card_words,
    ),
    phrase(
        rf"Put {NAMED_CARD} at the bottom of the Torpedo deck",
        N_("Put %(card)s at the bottom of the Torpedo deck"),
        card=_card_words,
    ),
)
"""The sentences that name a submarine's owner ("your r1", "{seat1}'s b2") are said by
`_consonar_moves`, as the owner changes the words around it."""

PLAY = re.compile(
    rf"Play {NAMED_CARD} on {OWNER} {SUB}: "
    r"(?:it stays on rung (?P<rung>\d)|rung (?P<low>\d) (?P<way>up|down) to (?P<high>\d))$"
)
FIRE = re.compile(
    rf"Fire {NAMED_CARD} \((?P<num>\d+) torpedoe?s?\) at {OWNER} {SUB} on rung (?P<rung>\d)$"
)
GAME_OVER = re.compile(r"the game is over: (?P<reason>.+)$")


def _consonar_special(text: str, names: list[str], reader: int | None) -> str | None:
    found = PLAY.match(text)
    if found is not None:
        card = _card_words(found["card"])
        target = _owned(found["owner"], found["sub"], names, reader)
        if found["rung"] is not None:
            return gettext(
                "Play %(card)s on %(target)s: it stays on rung %(rung)s",
                card=card,
                target=target,
                rung=found["rung"],
            )
        message = (
            N_("Play %(card)s on %(target)s: rung %(low)s up to %(high)s")
            if found["way"] == "up"
            else N_("Play %(card)s on %(target)s: rung %(low)s down to %(high)s")
        )
        return gettext(message, card=card, target=target, low=found["low"], high=found["high"])
    found = FIRE.match(text)
    if found is not None:
        return ngettext(
            "Fire %(card)s (%(num)d torpedo) at %(target)s on rung %(rung)s",
            "Fire %(card)s (%(num)d torpedoes) at %(target)s on rung %(rung)s",
            int(found["num"]),
            card=_card_words(found["card"]),
            target=_owned(found["owner"], found["sub"], names, reader),
            rung=found["rung"],
        )
    found = GAME_OVER.match(text)
    if found is not None:
        reason = translated(CONSONAR, found["reason"], names, reader) or found["reason"]
        return gettext("the game is over: %(reason)s", reason=reason)
    if text.startswith("nations: "):
        return gettext("nations: %(nations)s", nations=_nations(names, reader)(text[9:]))
    return None


# -- Nautilus (its pages are Japanese and English: Divers, Specials, Domain cards, the Nemo
# token; the Specials are named as on their cards) ------------------------------------------------

NAUTILUS_SPECIALS = {
    "anchor": N_("the Anchor"),
    "eye": N_("the Eye"),
    "fishbone": N_("the Fishbone"),
    "harpoon": N_("the Harpoon"),
    "kraken": N_("the Kraken"),
    "submarine": N_("the Submarine"),
}
"""A Special (or the Kraken or the Fishbone on the board) named in a sentence, with its
article (the languages' articles and cases differ from card to card)."""

NAUTILUS_CARD_NAMES = {"kraken": N_("Kraken"), "fishbone": N_("Fishbone")}

NAUTILUS_DOMAINS = {
    "science": N_("science"),
    "exploration": N_("exploration"),
    "navigation": N_("navigation"),
    "engineering": N_("engineering"),
    "war": N_("war"),
}


def _the_special(name: str) -> str:
    return gettext(NAUTILUS_SPECIALS[name.lower()])


def _the_card(card: str) -> str:
    """ "the 12", "the Kraken": a card named in a sentence."""
    if card.lower() in NAUTILUS_SPECIALS:
        return _the_special(card)
    return gettext("the %(card)s card", card=card)


def _bare_card(card: str) -> str:
    """A card as a value ("kraken against 4")."""
    return gettext(NAUTILUS_CARD_NAMES[card]) if card in NAUTILUS_CARD_NAMES else card


def _cards_list(cards: str) -> str:
    return " ".join(_bare_card(c) for c in cards.split(" "))


def _domain(name: str) -> str:
    return gettext(NAUTILUS_DOMAINS[name])


def _domain_cards(cards: str) -> str:
    """ "engineering +1, war -1" in words."""
    return ", ".join(
        gettext("%(domain)s %(points)s", domain=_domain(domain), points=points)
        for domain, points in re.findall(r"(\w+) ([+-]\d)", cards)
    )


def _owner(mine: str, theirs: str) -> Seated:
    """A seat, a side or a column by its owner, from the group "your", "{seat1}'s" or
    "{seat1}'s column 2": `mine` when it is the reader's, else `theirs` with the owner's name
    as %(who)s (and the column as %(col)s)."""

    def said(value: str, names: list[str], reader: int | None) -> str:
        owner, _, column = value.partition(" column ")
        seat = owner.removesuffix("'s")
        more = {"col": column} if column else {}
        if seat == "your" or (reader is not None and seat == "{seat%d}" % reader):
            return gettext(mine, **more)
        return gettext(theirs, who=_seat(seat, names, reader), **more)

    return Seated(said)


ON_SIDE = _owner(N_("on your side"), N_("on %(who)s's side"))
FROM_COLUMN = _owner(N_("from your column %(col)s"), N_("from %(who)s's column %(col)s"))
TO_COLUMN = _owner(N_("to your column %(col)s"), N_("to %(who)s's column %(col)s"))
TO_SEAT = _owner(N_("to you"), N_("to %(who)s"))
FROM_SEAT = _owner(N_("from you"), N_("from %(who)s"))
DIVERS_OF = _owner(N_("your Divers"), N_("%(who)s's Divers"))
"""Seats as the objects of a sentence: the languages decline "you" there ("вам", "a te")."""
DIVER = r"(?P<card>\d+|kraken|fishbone)"
SPECIAL = r"(?P<special>anchor|eye|fishbone|harpoon|kraken|submarine)"
MOVED = (
    r"from (?P<source>(?:your|\{seat\d\}'s) column \d) "
    r"to (?P<target>(?:your|\{seat\d\}'s) column \d)"
)

NAUTILUS = (
    phrase(
        rf"{WHO} takes the Nemo token",
        N_("%(who)s takes the Nemo token"),
        N_("you take the Nemo token"),
    ),
    phrase(
        r"round (?P<round>\d+): five Domain cards are dealt face up",
        N_("round %(round)s: five Domain cards are dealt face up"),
    ),
    phrase(
        r"round (?P<round>\d+): the Domain cards are (?P<cards>.+)",
        N_("round %(round)s: the Domain cards are %(cards)s"),
        cards=_domain_cards,
    ),
    phrase(r"you were dealt (?P<cards>.+)", N_("you were dealt %(cards)s"), cards=_cards_list),
    phrase(
        rf"{WHO} draws 2 Special cards",
        N_("%(who)s draws 2 Special cards"),
        N_("you draw 2 Special cards"),
    ),
    phrase(
        rf"you drew the {SPECIAL} and the (?P<other>\w+)",
        N_("you drew %(special)s and %(other)s"),
        special=_the_special,
        other=_the_special,
    ),
    phrase(r"you drew (?P<cards>[\d a-z]+)", N_("you drew %(cards)s"), cards=_cards_list),
    phrase(rf"you kept the {SPECIAL}", N_("you kept %(special)s"), special=_the_special),
    phrase(
        rf"{WHO} gave (?P<to>{SEAT}) the {SPECIAL}",
        N_("%(who)s gave %(special)s %(to)s"),
        N_("you gave %(special)s %(to)s"),
        special=_the_special,
        to=TO_SEAT,
    ),
    phrase(
        rf"{WHO} kept one Special card and gave the other to (?P<to>{SEAT})",
        N_("%(who)s kept one Special card and gave the other %(to)s"),
        N_("you kept one Special card and gave the other %(to)s"),
        to=TO_SEAT,
    ),
    phrase(
        rf"{WHO} uses the Eye and looks at (?P<whose>{SEAT})'s Divers",
        N_("%(who)s uses the Eye and looks at %(whose)s"),
        N_("you use the Eye and look at %(whose)s"),
        whose=DIVERS_OF,
    ),
    phrase(
        rf"(?P<whose>{SEAT}) holds (?P<cards>[\d a-z]+)",
        N_("%(whose)s holds %(cards)s"),
        cards=_cards_list,
    ),
    phrase(
        rf"{WHO} uses the Submarine and draws 2 Divers from the pile",
        N_("%(who)s uses the Submarine and draws 2 Divers from the pile"),
        N_("you use the Submarine and draw 2 Divers from the pile"),
    ),
    phrase(
        rf"{WHO} uses the Harpoon and takes a Diver from (?P<source>{SEAT})",
        N_("%(who)s uses the Harpoon and takes a Diver %(source)s"),
        N_("you use the Harpoon and take a Diver %(source)s"),
        source=FROM_SEAT,
    ),
    phrase(
        rf"{WHO} harpooned the {DIVER} from (?P<source>{SEAT})",
        N_("%(who)s harpooned %(card)s %(source)s"),
        N_("you harpooned %(card)s %(source)s"),
        card=_the_card,
        source=FROM_SEAT,
    ),
    phrase(
        rf"{WHO} uses no Special now",
        N_("%(who)s uses no Special now"),
        N_("you use no Special now"),
    ),
    phrase(
        r"you kept the (?P<card>\d+) and put the (?P<back>\d+) back",
        N_("you kept %(card)s and put %(back)s back"),
        card=_the_card,
        back=_the_card,
    ),
    phrase(
        rf"{WHO} keeps one Diver and puts the other back face down",
        N_("%(who)s keeps one Diver and puts the other back face down"),
        N_("you keep one Diver and put the other back face down"),
    ),
    phrase(
        rf"{WHO} gave the {DIVER} to (?P<to>{SEAT})",
        N_("%(who)s gave %(card)s %(to)s"),
        N_("you gave %(card)s %(to)s"),
        card=_the_card,
        to=TO_SEAT,
    ),
    phrase(
        rf"{WHO} gives a Diver to (?P<to>{SEAT})",
        N_("%(who)s gives a Diver %(to)s"),
        N_("you give a Diver %(to)s"),
        to=TO_SEAT,
    ),
    phrase(
        rf"{WHO} placed {DIVER} on (?P=who)'s side, column (?P<col>\d)",
        N_("%(who)s placed %(card)s on their own side, column %(col)s"),
        N_("you placed %(card)s on your own side, column %(col)s"),
        card=_bare_card,
    ),
    phrase(
        rf"{WHO} placed {DIVER} on (?P<side>your|\{{seat\d\}}'s) side, column (?P<col>\d)",
        N_("%(who)s placed %(card)s %(side)s, column %(col)s"),
        N_("you placed %(card)s %(side)s, column %(col)s"),
        card=_bare_card,
        side=ON_SIDE,
    ),
    phrase(
        rf"{WHO} anchors the {DIVER}",
        N_("%(who)s anchors %(card)s"),
        N_("you anchor %(card)s"),
        card=_the_card,
    ),
    phrase(
        r"no card can move: the (?P<card>\d+)'s arrow does nothing",
        N_("no card can move: the %(card)s's arrow does nothing"),
    ),
    phrase(
        rf"{WHO} moved the {DIVER} {MOVED}",
        N_("%(who)s moved %(card)s %(source)s %(target)s"),
        N_("you moved %(card)s %(source)s %(target)s"),
        card=_the_card,
        source=FROM_COLUMN,
        target=TO_COLUMN,
    ),
    phrase(
        rf"{WHO} wins column (?P<col>\d) \((?P<mine>\w+) against (?P<theirs>\w+)\) and takes "
        r"the (?P<domain>\w+) (?P<points>[+-]\d) card",
        N_(
            "%(who)s wins column %(col)s (%(mine)s against %(theirs)s) and takes the "
            "%(domain)s %(points)s card"
        ),
        N_(
            "you win column %(col)s (%(mine)s against %(theirs)s) and take the "
            "%(domain)s %(points)s card"
        ),
        mine=_bare_card,
        theirs=_bare_card,
        domain=_domain,
    ),
    phrase(
        rf"{WHO} wins column (?P<col>\d) \((?P<mine>\w+) against (?P<theirs>\w+)\)",
        N_("%(who)s wins column %(col)s (%(mine)s against %(theirs)s)"),
        N_("you win column %(col)s (%(mine)s against %(theirs)s)"),
        mine=_bare_card,
        theirs=_bare_card,
    ),
    phrase(
        r"you take the (?P<domain>\w+) (?P<points>[+-]\d) card",
        N_("you take the %(domain)s %(points)s card"),
        domain=_domain,
    ),
    phrase(
        rf"{WHO} has won (?P<domain>\w+)",
        N_("%(who)s has won %(domain)s"),
        N_("you have won %(domain)s"),
        domain=_domain,
    ),
    phrase(rf"{WHO} took nothing", N_("%(who)s took nothing"), N_("you took nothing")),
    phrase(
        rf"{WHO} took (?P<cards>.+)",
        N_("%(who)s took %(cards)s"),
        N_("you took %(cards)s"),
        cards=_domain_cards,
    ),
    # its outcomes
    *exactly(N_("a player won 3 domains"), N_("six rounds played")),
    # how its moves are written (the notation itself stays, at each line's start)
    *exactly(
        N_(
            "keep SPECIAL: the Nemo holder keeps one of the two drawn Specials and gives the "
            "other, e.g. 'keep kraken'"
        ),
        N_("eye: use the Eye and see the opponent's Divers, e.g. 'eye'"),
        N_("submarine: use the Submarine and draw 2 Divers from the pile, e.g. 'submarine'"),
        N_(
            "submarine keep N: keep one of the 2 drawn Divers, the other goes back, e.g. "
            "'submarine keep 4'"
        ),
        N_("harpoon: use the Harpoon and take a random Diver from the opponent, e.g. 'harpoon'"),
        N_("harpoon give N: give the opponent one of your Divers, e.g. 'harpoon give 9'"),
        N_("pass: do not use your start-of-round Special (or you have none), e.g. 'pass'"),
        N_(
            "place CARD SIDE+COLUMN [anchor CARD]: place a Diver (or kraken/fishbone) on side "
            "me/opp, column 1-5, optionally pinning a card with the Anchor, e.g. 'place 7 opp3' "
            "or 'place 12 me2 anchor 5'"
        ),
        N_(
            "move SIDE+COLUMN SIDE+COLUMN: the move an arrow card (6, 7, 8, 9) forces, e.g. "
            "'move me2 opp2'"
        ),
    ),
    # its moves, as said to the mover
    phrase(
        rf"Keep the (?P<special>\w+) and give the (?P<other>\w+) to (?P<to>{SEAT})",
        N_("Keep %(special)s and give %(other)s %(to)s"),
        special=_the_special,
        other=_the_special,
        to=TO_SEAT,
    ),
    phrase(
        rf"Use the Eye: see (?P<whose>{SEAT})'s Divers",
        N_("Use the Eye: see %(whose)s"),
        whose=DIVERS_OF,
    ),
    *exactly(N_("Use the Submarine: draw 2 Divers from the pile and keep one")),
    phrase(
        rf"Use the Harpoon: take a Diver at random from (?P<source>{SEAT})",
        N_("Use the Harpoon: take a Diver at random %(source)s"),
        source=FROM_SEAT,
    ),
    *exactly(N_("Use no Special now")),
    phrase(
        r"Keep the (?P<card>\d+) and put the (?P<back>\d+) back",
        N_("Keep %(card)s and put %(back)s back"),
        card=_the_card,
        back=_the_card,
    ),
    phrase(
        rf"Give your (?P<card>\d+) to (?P<to>{SEAT})",
        N_("Give your %(card)s %(to)s"),
        card=_the_card,
        to=TO_SEAT,
    ),
    phrase(
        rf"Move the (?P<card>\w+) {MOVED}",
        N_("Move %(card)s %(source)s %(target)s"),
        card=_the_card,
        source=FROM_COLUMN,
        target=TO_COLUMN,
    ),
)
"""A card's placing ("Place your 8 on Bo's side, column 3, and pin the Kraken with the
Anchor") is said by `_nautilus_place`, as it may pin a card or not."""

PLACE = re.compile(
    r"Place (?:your (?P<diver>\d+)|the (?P<special>Kraken|Fishbone)) on "
    r"(?P<side>your|\{seat\d\}'s) side, column (?P<col>\d)"
    r"(?:, and pin (?:(?P<itself>it)|the (?P<pinned>\w+)) with the Anchor)?$"
)


def _nautilus_place(text: str, names: list[str], reader: int | None) -> str | None:
    found = PLACE.match(text)
    if found is None:
        return None
    side = ON_SIDE.say(found["side"], names, reader)
    if found["diver"] is not None:
        card = gettext("your %(card)s", card=found["diver"])
    else:
        card = _the_special(found["special"])
    said = gettext(
        "Place %(card)s %(side)s, column %(col)s", card=card, side=side, col=found["col"]
    )
    if found["itself"] is not None:
        return gettext("%(place)s, and pin it with the Anchor", place=said)
    if found["pinned"] is not None:
        return gettext(
            "%(place)s, and pin %(card)s with the Anchor",
            place=said,
            card=_the_card(found["pinned"]),
        )
    return said


NAUTILUS_OVER = re.compile(
    r"the game ends \((?P<reason>.+)\): (?P<mine>\d) domains to (?P<theirs>\d)$"
)


def _nautilus_special(text: str, names: list[str], reader: int | None) -> str | None:
    found = NAUTILUS_OVER.match(text)
    if found is not None:
        reason = translated(NAUTILUS, found["reason"], names, reader) or found["reason"]
        return gettext(
            "the game ends (%(reason)s): %(first)s domains to %(second)s",
            reason=reason,
            first=found["mine"],
            second=found["theirs"],
        )
    return _nautilus_place(text, names, reader)


# -- The Nine Domains (its page is French: domaines, emplacements à gauche, au centre, à droite,
# force, éléments, points de victoire; domains and cards keep their notation, red4, 3-) ---------

DECIDERS = {
    "effect": N_("effect"),
    "strength": N_("strength"),
    "bonus": N_("bonus"),
    "identical": N_("identical cards"),
    "symbol": N_("symbol"),
}
"""What decided a slot's fight, as the log names it."""


def _slot(slot: str) -> str:
    """A slot's name at the start of a line ("left: ...")."""
    return {
        "left": pgettext("slot", "left"),
        "middle": pgettext("slot", "middle"),
        "right": pgettext("slot", "right"),
    }[slot]


def _in_slot(slot: str) -> str:
    """A card's place in a sentence ("on the left")."""
    return {
        "on the left": gettext("on the left"),
        "in the middle": gettext("in the middle"),
        "on the right": gettext("on the right"),
        "left": gettext("on the left"),
        "middle": gettext("in the middle"),
        "right": gettext("on the right"),
    }[slot]


def _decider(how: str) -> str:
    return gettext(DECIDERS[how])


NINE_CARD = r"[0-5*][+-]?"
DOMAIN_ID = r"(?:red|blue|green|purple|plain)\d[ab]?"
SLOT = r"(?P<slot>left|middle|right)"
PLACE_WORDS = r"(?:on the left|in the middle|on the right)"

NINEDOMAINS = (
    *exactly(N_("the nine domains are dealt face down into three piles of three")),
    phrase(
        r"both players receive the special cards (?P<cards>.+)",
        N_("both players receive the special cards %(cards)s"),
    ),
    phrase(
        rf"round (?P<round>\d+): the domains at stake are (?P<left>{DOMAIN_ID}) \(left\), "
        rf"(?P<middle>{DOMAIN_ID}) \(middle\), (?P<right>{DOMAIN_ID}) \(right\)",
        N_(
            "round %(round)s: the domains at stake are %(left)s (left), %(middle)s (middle), "
            "%(right)s (right)"
        ),
    ),
    phrase(
        rf"you lay face down (?P<left>{NINE_CARD}) \(left\), (?P<middle>{NINE_CARD}) \(middle\), "
        rf"(?P<right>{NINE_CARD}) \(right\)",
        N_("you lay face down %(left)s (left), %(middle)s (middle), %(right)s (right)"),
    ),
    phrase(
        rf"{WHO} has laid their three cards face down",
        N_("%(who)s has laid their three cards face down"),
        N_("you have laid your three cards face down"),
    ),
    phrase(
        rf"the cards are revealed: (?P<first>{SEAT}) (?P<mine>[^,]+), (?P<second>{SEAT}) "
        r"(?P<theirs>.+)",
        N_("the cards are revealed: %(first)s %(mine)s, %(second)s %(theirs)s"),
    ),
    phrase(
        rf"{SLOT}: (?P<mine>{NINE_CARD}) against (?P<theirs>{NINE_CARD}), identical cards: "
        rf"(?P<domain>{DOMAIN_ID}) leaves the game",
        N_("%(slot)s: %(mine)s against %(theirs)s, identical cards: %(domain)s leaves the game"),
        slot=_slot,
    ),
    phrase(
        rf"{SLOT}: (?P<first>{SEAT}) (?P<mine>{NINE_CARD}) \(strength (?P<one>-?\d+)\) against "
        rf"(?P<second>{SEAT}) (?P<theirs>{NINE_CARD}) \(strength (?P<two>-?\d+)\), decided by "
        rf"(?P<how>\w+): {WHO} takes (?P<domain>{DOMAIN_ID})",
        N_(
            "%(slot)s: %(first)s %(mine)s (strength %(one)s) against %(second)s %(theirs)s "
            "(strength %(two)s), decided by %(how)s: %(who)s takes %(domain)s"
        ),
        N_(
            "%(slot)s: %(first)s %(mine)s (strength %(one)s) against %(second)s %(theirs)s "
            "(strength %(two)s), decided by %(how)s: you take %(domain)s"
        ),
        slot=_slot,
        how=_decider,
    ),
    phrase(
        rf"{WHO}'s 3\+ won by (?P<margin>\d+) or more: (?P<num>\d+) victory points",
        N_plural(
            "%(who)s's 3+ won by %(margin)s or more: %(num)d victory point",
            "%(who)s's 3+ won by %(margin)s or more: %(num)d victory points",
        ),
        N_plural(
            "your 3+ won by %(margin)s or more: %(num)d victory point",
            "your 3+ won by %(margin)s or more: %(num)d victory points",
        ),
    ),
    phrase(
        rf"{WHO} does not use the (?P<card>[23]-) of the {SLOT} slot",
        N_("%(who)s does not use the %(card)s %(slot)s"),
        N_("you do not use the %(card)s %(slot)s"),
        slot=_in_slot,
    ),
    phrase(
        rf"{WHO} swaps their (?P<mine>{DOMAIN_ID}) for (?P<owner>{SEAT})'s "
        rf"(?P<theirs>{DOMAIN_ID})",
        N_("%(who)s swaps their %(mine)s for %(theirs)s %(owner)s"),
        N_("you swap your %(mine)s for %(theirs)s %(owner)s"),
        owner=FROM_SEAT,
    ),
    phrase(
        rf"{WHO} sets (?P<hand>{NINE_CARD}) aside and takes back (?P<used>{NINE_CARD})",
        N_("%(who)s sets %(hand)s aside and takes back %(used)s"),
        N_("you set %(hand)s aside and take back %(used)s"),
    ),
    phrase(
        rf"{WHO}'s (?P<card>[23]-) in the {SLOT} slot has nothing to swap",
        N_("%(who)s's %(card)s %(slot)s has nothing to swap"),
        N_("your %(card)s %(slot)s has nothing to swap"),
        slot=_in_slot,
    ),
    *exactly(N_("both players show all four elements: elements are ignored from now on")),
    phrase(
        rf"{WHO} shows all four elements and wins",
        N_("%(who)s shows all four elements and wins"),
        N_("you show all four elements and win"),
    ),
    # its outcomes
    *exactly(
        N_("all four elements"),
        N_("most victory points"),
        N_("equal points, more domains"),
        N_("draw: equal points and domains"),
    ),
    # how its moves are written (the notation itself stays, at each line's start)
    *exactly(
        N_("play L M R: your cards for the left, middle and right slots, e.g. play 3+ 0 5"),
        N_(
            "swap-domain MINE THEIRS: after a winning 2-, swap domains, e.g. swap-domain red4 blue2"
        ),
        N_(
            "swap-card HAND USED: after a winning 3-, swap a hand card for a used one, e.g. "
            "swap-card 2 4"
        ),
        N_("pass: decline the optional effect of your winning 2- or 3-"),
    ),
    # its moves, as said to the mover
    phrase(
        rf"Play (?P<left>{NINE_CARD}) on the left \((?P<one>{DOMAIN_ID})\), "
        rf"(?P<middle>{NINE_CARD}) in the middle \((?P<two>{DOMAIN_ID})\), "
        rf"(?P<right>{NINE_CARD}) on the right \((?P<three>{DOMAIN_ID})\)",
        N_(
            "Play %(left)s on the left (%(one)s), %(middle)s in the middle (%(two)s), "
            "%(right)s on the right (%(three)s)"
        ),
    ),
    phrase(
        rf"Swap your (?P<mine>{DOMAIN_ID}) for (?P<owner>{SEAT})'s (?P<theirs>{DOMAIN_ID})",
        N_("Swap your %(mine)s for %(theirs)s %(owner)s"),
        owner=FROM_SEAT,
    ),
    phrase(
        rf"Set your (?P<hand>{NINE_CARD}) aside and take back your used (?P<used>{NINE_CARD})",
        N_("Set your %(hand)s aside and take back your used %(used)s"),
    ),
    phrase(
        rf"Do not use your (?P<card>[23]-) (?P<slot>{PLACE_WORDS})",
        N_("Do not use your %(card)s %(slot)s"),
        slot=_in_slot,
    ),
)


def say(game: str, text: str, names: list[str], reader: int | None) -> str | None:
    """One of `game`'s sentences in the language spoken now, as `reader` reads it (their
    own seat is "you"); None when its phrasebook does not know it (or it has none)."""
    if game == "buttons":
        return translated(BUTTONS, text, names, reader)
    if game == "consonar":
        return _consonar_special(text, names, reader) or translated(CONSONAR, text, names, reader)
    if game == "nautilus":
        return _nautilus_special(text, names, reader) or translated(NAUTILUS, text, names, reader)
    if game == "ninedomains":
        return translated(NINEDOMAINS, text, names, reader)
    return None
