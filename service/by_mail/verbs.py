"""The words of a move a player may write in a reply by email in their own language (issue 38):
the first word of each step, the verb ("бросить" for Buttons' `roll`, "flotta" for Con Sonar!'s
`fleet`, "поставить" for Nautilus' `place`, "recupero" for The Nine Domains' `swap-card`), read as the notation's verb; the rest of the step (rows, columns, cards) is notation
in every language. The words are the `service` catalogue's (a translation may give several,
separated by commas, each a single word); the notation itself is always read too.

A word is never read as a move when it could mean two: a word two verbs share, or a notation's
verb of another move, is left as it was written (and refused as a move, in the title's words)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache

from service.words import language_of, pgettext, speaking


def _buttons() -> list[tuple[str, str]]:
    return [
        (pgettext("words of a Buttons move, comma-separated", "roll"), "roll"),
        (pgettext("words of a Buttons move, comma-separated", "optout"), "optout"),
        (pgettext("words of a Buttons move, comma-separated", "place"), "place"),
        (pgettext("words of a Buttons move, comma-separated", "skip"), "skip"),
        (pgettext("words of a Buttons move, comma-separated", "star"), "star"),
    ]


def _consonar() -> list[tuple[str, str]]:
    return [
        (pgettext("words of a Con Sonar! move, comma-separated", "fleet"), "fleet"),
        (pgettext("words of a Con Sonar! move, comma-separated", "torpedo"), "torpedo"),
        (pgettext("words of a Con Sonar! move, comma-separated", "defuse"), "defuse"),
        (pgettext("words of a Con Sonar! move, comma-separated", "delay"), "delay"),
        (pgettext("words of a Con Sonar! move, comma-separated", "end"), "end"),
    ]


def _nautilus() -> list[tuple[str, str]]:
    return [
        (pgettext("words of a Nautilus move, comma-separated", "keep"), "keep"),
        (pgettext("words of a Nautilus move, comma-separated", "eye"), "eye"),
        (pgettext("words of a Nautilus move, comma-separated", "submarine"), "submarine"),
        (pgettext("words of a Nautilus move, comma-separated", "harpoon"), "harpoon"),
        (pgettext("words of a Nautilus move, comma-separated", "pass"), "pass"),
        (pgettext("words of a Nautilus move, comma-separated", "place"), "place"),
        (pgettext("words of a Nautilus move, comma-separated", "move"), "move"),
    ]


def _ninedomains() -> list[tuple[str, str]]:
    return [
        (pgettext("words of a Nine Domains move, comma-separated", "play"), "play"),
        (pgettext("words of a Nine Domains move, comma-separated", "swap-domain"), "swap-domain"),
        (pgettext("words of a Nine Domains move, comma-separated", "swap-card"), "swap-card"),
        (pgettext("words of a Nine Domains move, comma-separated", "pass"), "pass"),
    ]


SAID: dict[str, Callable[[], list[tuple[str, str]]]] = {
    "buttons": _buttons,
    "consonar": _consonar,
    "nautilus": _nautilus,
    "ninedomains": _ninedomains,
}
"""Per title, the verbs of its notation as the language spoken says them."""


@cache
def verbs(game: str, language: str | None) -> dict[str, str]:
    """The words of `game`'s moves in `language` (casefolded), each with the notation's verb it
    stands for; empty for a title or language without any."""
    said = SAID.get(game)
    if said is None:
        return {}
    notations = {verb for _, verb in said()}
    with speaking(language_of(language)):
        pairs = [
            (word.strip().casefold(), verb)
            for words, verb in said()
            for word in words.split(",")
            if word.strip()
        ]
    return unambiguous(pairs, notations)


def unambiguous(pairs: Iterable[tuple[str, str]], notations: set[str]) -> dict[str, str]:
    """word -> verb, without a word that stands for two verbs or is another move's notation."""
    meanings: dict[str, set[str]] = {}
    for word, verb in pairs:
        meanings.setdefault(word, set()).add(verb)
    return {
        word: next(iter(verbs))
        for word, verbs in meanings.items()
        if len(verbs) == 1 and " " not in word and (word not in notations or word in verbs)
    }


_STEP = re.compile(r"(^|;)(\s*)(\S+)")


def notation_of(game: str, language: str | None, line: str) -> str:
    """`line` with the first word of each of its steps (separated by ';') in the notation when
    it is a word of a move in `language`; any other word stays as it was written."""
    said = verbs(game, language)
    if not said:
        return line
    return _STEP.sub(
        lambda m: m.group(1) + m.group(2) + said.get(m.group(3).casefold(), m.group(3)), line
    )
