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

from service.words import N_, N_plural, gettext, ngettext

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
    parts: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    """How a group is said (a colour's name, a list of cells), by its name."""


def phrase(
    pattern: str, said: Message, to_you: Message | None = None, **parts: Callable[[str], str]
) -> Phrase:
    return Phrase(re.compile(pattern + "$"), said, to_you, parts)


def exactly(*sentences: str) -> tuple[Phrase, ...]:
    """Phrases for sentences said always the same (a title's notation help)."""
    return tuple(phrase(re.escape(sentence), sentence) for sentence in sentences)


FIELD_WORDS = {
    "row": N_("row"),
    "column": N_("column"),
    "card": N_("card"),
    "submarine": N_("submarine"),
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
            name: known.parts[name](value)
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
    phrase(
        r"each player receives a board layout and bonus colour cards",
        N_("each player receives a board layout and bonus colour cards"),
    ),
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
    phrase(r"the game is over", N_("the game is over")),
    phrase(r"the bonus cards are passed clockwise", N_("the bonus cards are passed clockwise")),
    phrase(
        rf"{WHO} left the game; their bonus cards go to (?P<heir>{SEAT})",
        N_("%(who)s left the game; their bonus cards go to %(heir)s"),
        N_("you left the game; your bonus cards go to %(heir)s"),
    ),
    # its outcomes
    phrase(r"a player completed a line of 5 stars", N_("a player completed a line of 5 stars")),
    phrase(r"a player reached 12 stars", N_("a player reached 12 stars")),
    # its moves, as said to the mover
    phrase(r"Roll the dice", N_("Roll the dice")),
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
    phrase(r"Let the gold dice pass", N_("Let the gold dice pass")),
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
    phrase(
        r"the Fleet discard pile is shuffled into a new deck",
        N_("the Fleet discard pile is shuffled into a new deck"),
    ),
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
    phrase(r"all submarines have been sunk", N_("all submarines have been sunk")),
    phrase(
        r"only (?P<num>\d+) submarines are left",
        N_plural("only %(num)d submarine is left", "only %(num)d submarines are left"),
    ),
    phrase(
        r"a used Torpedo card could not be replaced",
        N_("a used Torpedo card could not be replaced"),
    ),
    # its moves, as said to the mover
    phrase(r"End your turn without a Torpedo card", N_("End your turn without a Torpedo card")),
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


def say(game: str, text: str, names: list[str], reader: int | None) -> str | None:
    """One of `game`'s sentences in the language spoken now, as `reader` reads it (their
    own seat is "you"); None when its phrasebook does not know it (or it has none)."""
    if game == "buttons":
        return translated(BUTTONS, text, names, reader)
    if game == "consonar":
        return _consonar_special(text, names, reader) or translated(CONSONAR, text, names, reader)
    return None
