"""The engine's refusals in the reader's language (issue 38). The engine is pure (no
catalogue): it refuses a move in English, and a refusal with values ("cannot read 'rol': write
'roll', ...", "place 7 opp3 is not allowed now") is built with them. As service/play/phrases.py
does for its log sentences, each such refusal is recognised here by its pattern and becomes
`service.errors.Words`: the message of the `service` catalogue (service.po) and its values, so
that the API, the pages and the answers to emailed moves say it in their reader's language;
English, the words themselves, reads as the engine wrote it. A value that is words of its own
(the reason of a Con Sonar! turn's step, the form a Nautilus space is written in) is `Words` too.

A refusal the engine words without values is its own message id: babel-service.cfg extracts
them from the engine into the same catalogue. A refusal no pattern knows stays English
(tests/service/test_refusals.py makes the engine refuse in every way it words, and fails while
one is left)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.core import GameError
from service.errors import ErrorCode, ServiceError, Words
from service.words import N_

QUOTED = r"(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
"""A value the engine writes with repr(): the text a player sent, a word of it."""


@dataclass(frozen=True)
class Reason:
    pattern: re.Pattern[str]
    said: str
    """The message, each group of the pattern by its name (%(name)s)."""
    parts: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    """How a group that is words is said (as Words), by its name."""


def reason(pattern: str, said: str, **parts: Callable[[str], str]) -> Reason:
    return Reason(re.compile(pattern), said, parts)


def worded(message: str) -> str:
    """An engine's refusal as `Words` when a pattern knows it; else the message itself (a
    literal refusal is its own message id)."""
    for known in REASONS:
        found = known.pattern.fullmatch(message)
        if found is None:
            continue
        values = {
            name: known.parts[name](value) if name in known.parts else value
            for name, value in found.groupdict().items()
        }
        said = Words(known.said, **values)
        return said if said == message else message  # English is the engine's own text
    return message


def refused(err: GameError) -> ServiceError:
    """The service's refusal of a move (or of options) that the engine refused."""
    return ServiceError(ErrorCode.of(err.code), worded(err.message))


NONE = N_("none")
NAUTILUS_FORMS = {
    "'move SIDECOLUMN SIDECOLUMN', e.g. 'move me2 opp2'": N_(
        "'move SIDECOLUMN SIDECOLUMN', e.g. 'move me2 opp2'"
    ),
    "'place CARD SIDECOLUMN' or 'place CARD SIDECOLUMN anchor CARD'": N_(
        "'place CARD SIDECOLUMN' or 'place CARD SIDECOLUMN anchor CARD'"
    ),
}


def _none_or_as_is(value: str) -> str:
    return Words(NONE) if value == "none" else value


def _nautilus_form(form: str) -> str:
    return Words(NAUTILUS_FORMS[form]) if form in NAUTILUS_FORMS else form


TEXT = rf"(?P<text>{QUOTED})"
TYPE = rf"(?P<type>{QUOTED})"
CONSONAR_FORMS = r"write 'fleet r\+2@r1', 'torpedo b2@y1', 'defuse r1', 'delay p3' or 'end'"

REASONS: tuple[Reason, ...] = (
    # every title (engine/match.py, engine/core.py)
    reason(
        r"(?P<title>.+) is played by (?P<least>\d+) to (?P<most>\d+) players, not (?P<count>\d+)",
        N_("%(title)s is played by %(least)s to %(most)s players, not %(count)s"),
    ),
    reason(
        rf"the action {TYPE} is missing a field or has a field of the wrong kind",
        N_("the action %(type)s is missing a field or has a field of the wrong kind"),
    ),
    reason(r"(?P<move>.+) is not allowed now", N_("%(move)s is not allowed now")),
    reason(
        r"(?P<title>.+) has no option (?P<options>.+); its options are: (?P<known>.+)",
        N_("%(title)s has no option %(options)s; its options are: %(known)s"),
        known=_none_or_as_is,
    ),
    reason(
        r"option (?P<name>\w+) must be a whole number", N_("option %(name)s must be a whole number")
    ),
    reason(
        r"option (?P<name>\w+) must be true or false", N_("option %(name)s must be true or false")
    ),
    reason(r"option (?P<name>\w+) must be text", N_("option %(name)s must be text")),
    reason(
        r"option (?P<name>\w+) cannot be (?P<value>.+); choose one of: (?P<allowed>.+)",
        N_("option %(name)s cannot be %(value)s; choose one of: %(allowed)s"),
    ),
    # Buttons
    reason(
        rf"cannot read {TEXT}: row and column are numbers 1 to 6, as in '(?P<example>\w+ 3 5)'",
        N_("cannot read %(text)s: row and column are numbers 1 to 6, as in '%(example)s'"),
    ),
    reason(
        rf"cannot read {TEXT}: write 'roll', 'optout', 'place ROW COL' \(e\.g\. 'place 3 5'\), "
        r"'skip' or 'star ROW COL' \(e\.g\. 'star 3 5'\)",
        N_(
            "cannot read %(text)s: write 'roll', 'optout', 'place ROW COL' (e.g. 'place 3 5'), "
            "'skip' or 'star ROW COL' (e.g. 'star 3 5')"
        ),
    ),
    reason(
        r"a (?P<type>\w+)'s row and column are whole numbers 1 to 6",
        N_("a %(type)s's row and column are whole numbers 1 to 6"),
    ),
    reason(
        rf"unknown action type {TYPE}; the types are roll, optout, place, skip and star",
        N_("unknown action type %(type)s; the types are roll, optout, place, skip and star"),
    ),
    # Con Sonar!
    reason(
        rf"a move is a line of text; {CONSONAR_FORMS}",
        N_(
            "a move is a line of text; write 'fleet r+2@r1', 'torpedo b2@y1', 'defuse r1', "
            "'delay p3' or 'end'"
        ),
    ),
    reason(
        r"there is no Fleet card (?P<card>\S+): the values are -1 \+2 -3 \+4 -5 \+6; write e\.g\. "
        r"'fleet r\+2@r1'",
        N_(
            "there is no Fleet card %(card)s: the values are -1 +2 -3 +4 -5 +6; write e.g. "
            "'fleet r+2@r1'"
        ),
    ),
    reason(
        rf"cannot read {TEXT}: {CONSONAR_FORMS}",
        N_(
            "cannot read %(text)s: write 'fleet r+2@r1', 'torpedo b2@y1', 'defuse r1', "
            "'delay p3' or 'end'"
        ),
    ),
    reason(
        r"a (?P<type>\w+) action has a Torpedo card like 'p3'",
        N_("a %(type)s action has a Torpedo card like 'p3'"),
    ),
    reason(
        rf"unknown action type {TYPE}: the types are fleet, torpedo, defuse, delay and end",
        N_("unknown action type %(type)s: the types are fleet, torpedo, defuse, delay and end"),
    ),
    reason(
        rf"step (?P<step>\d+) \((?P<text>{QUOTED})\): (?P<why>.+)",
        N_("step %(step)s (%(text)s): %(why)s"),
        why=worded,
    ),
    # Nautilus
    reason(
        rf"cannot read {TEXT}: (?P<word>{QUOTED}) is not a card; a card is a number 1-14, "
        r"kraken or fishbone",
        N_(
            "cannot read %(text)s: %(word)s is not a card; a card is a number 1-14, kraken or "
            "fishbone"
        ),
    ),
    reason(
        rf"cannot read {TEXT}: (?P<word>{QUOTED}) is not a space; a space is me or opp followed "
        r"by a column 1-5 \(e\.g\. opp3\); write (?P<form>.+)",
        N_(
            "cannot read %(text)s: %(word)s is not a space; a space is me or opp followed by a "
            "column 1-5 (e.g. opp3); write %(form)s"
        ),
        form=_nautilus_form,
    ),
    reason(
        rf"cannot read {TEXT}: write 'keep SPECIAL' with one of (?P<specials>[a-z, ]+)",
        N_("cannot read %(text)s: write 'keep SPECIAL' with one of %(specials)s"),
    ),
    reason(
        rf"cannot read {TEXT}: write 'move SIDECOLUMN SIDECOLUMN', e\.g\. 'move me2 opp2'",
        N_("cannot read %(text)s: write 'move SIDECOLUMN SIDECOLUMN', e.g. 'move me2 opp2'"),
    ),
    reason(
        rf"cannot read {TEXT}: write 'place CARD SIDECOLUMN' or 'place CARD SIDECOLUMN anchor "
        r"CARD', e\.g\. 'place 7 opp3'",
        N_(
            "cannot read %(text)s: write 'place CARD SIDECOLUMN' or 'place CARD SIDECOLUMN "
            "anchor CARD', e.g. 'place 7 opp3'"
        ),
    ),
    reason(
        rf"cannot read {TEXT}: write one of keep SPECIAL, eye, submarine, submarine keep N, "
        r"harpoon, harpoon give N, pass, place CARD SIDECOLUMN \[anchor CARD\], move SIDECOLUMN "
        r"SIDECOLUMN",
        N_(
            "cannot read %(text)s: write one of keep SPECIAL, eye, submarine, submarine keep N, "
            "harpoon, harpoon give N, pass, place CARD SIDECOLUMN [anchor CARD], move "
            "SIDECOLUMN SIDECOLUMN"
        ),
    ),
    reason(
        r"(?P<value>.+) is not a card: use 0-15 \(0 fishbone, 15 kraken\)",
        N_("%(value)s is not a card: use 0-15 (0 fishbone, 15 kraken)"),
    ),
    reason(
        r"keep needs a special: (?P<specials>[a-z, ]+)",
        N_("keep needs a special: %(specials)s"),
    ),
    reason(rf"unknown action type {TYPE}", N_("unknown action type %(type)s")),
    # The Nine Domains
    reason(
        rf"cannot read {TEXT}: write 'play L M R' with three cards for the left, middle and "
        r"right slots, e\.g\. 'play 3\+ 0 5' \(cards: (?P<cards>[^()]+)\)",
        N_(
            "cannot read %(text)s: write 'play L M R' with three cards for the left, middle "
            "and right slots, e.g. 'play 3+ 0 5' (cards: %(cards)s)"
        ),
    ),
    reason(
        rf"cannot read {TEXT}: write 'swap-domain MINE THEIRS', e\.g\. 'swap-domain red4 "
        r"blue2' \(domains: (?P<domains>[^()]+)\)",
        N_(
            "cannot read %(text)s: write 'swap-domain MINE THEIRS', e.g. 'swap-domain red4 "
            "blue2' (domains: %(domains)s)"
        ),
    ),
    reason(
        rf"cannot read {TEXT}: write 'swap-card HAND USED', e\.g\. 'swap-card 2 4' \(give up "
        r"the hand card 2, take back the used card 4\)",
        N_(
            "cannot read %(text)s: write 'swap-card HAND USED', e.g. 'swap-card 2 4' (give up "
            "the hand card 2, take back the used card 4)"
        ),
    ),
    reason(
        rf"cannot read {TEXT}: write 'play L M R', 'swap-domain MINE THEIRS', 'swap-card HAND "
        r"USED' or 'pass'",
        N_(
            "cannot read %(text)s: write 'play L M R', 'swap-domain MINE THEIRS', 'swap-card "
            "HAND USED' or 'pass'"
        ),
    ),
    reason(
        rf"unknown action type {TYPE}; the types are play, swap-domain, swap-card and pass",
        N_("unknown action type %(type)s; the types are play, swap-domain, swap-card and pass"),
    ),
)
"""The engine's refusals worded with values, by title (the first pattern that matches the
whole refusal says it)."""
