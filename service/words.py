"""The words the service says to people, in the reader's language (issue 38).

A game's table (service/play/table.py: its log lines, board labels, move descriptions and
clocks) is built in one reader's language, outside any web request: the web pages, the turn
page and the emails built in the workers alike. The words are gettext messages of the domain
`service`, whose catalogues are `service/translations/<language>/LC_MESSAGES/service.po`
(extracted with `babel-service.cfg`; the web pages' own words are web/translations').

A surface says whose language it speaks with `speaking(language)` around what it builds; the
code that words things calls `gettext` / `ngettext` of this module (named placeholders,
`%(name)s`, as Flask-Babel's), which read the language of the moment from a context variable,
as Django's `translation.override` does. English is the messages themselves. `words(language)`
gives a language's catalogue for a caller that wants one explicitly.

The compiled catalogues (.mo) are not kept in git: `compile_catalogues` writes any that is
missing or older than its .po, on the first use of a language in a process."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from service.languages import DEFAULT, LANGUAGES

CATALOGUES = Path(__file__).parent / "translations"
DOMAIN = "service"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


def language_of(wanted: str | None) -> str:
    """One of LANGUAGES: `wanted` if we speak it, else English."""
    return wanted if wanted in LANGUAGES else DEFAULT


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Words said inside this block are in `language` (English if we do not speak it)."""
    token = _language.set(language_of(language))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def language() -> str:
    """The language spoken now (see `speaking`)."""
    return _language.get()


@cache
def words(language: str | None) -> NullTranslations:
    """The catalogue of `language` (English: the messages themselves)."""
    chosen = language_of(language)
    if chosen == DEFAULT:
        return NullTranslations()
    found = Translations.load(str(compile_catalogues(CATALOGUES)), [chosen], DOMAIN)
    return found


def gettext(message: str, **params: Any) -> str:
    """`message` in the language spoken now, its `%(name)s` placeholders filled in. English is
    the message itself, with no catalogue asked: a turn email says about 160 messages."""
    spoken = _language.get()
    said = message if spoken == DEFAULT else words(spoken).gettext(message)
    return said % params if params else said


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    """The form of `singular`/`plural` for `num` in the language spoken now (Russian has
    three), with `%(num)d` and the other placeholders filled in."""
    spoken = _language.get()
    if spoken == DEFAULT:
        said = singular if num == 1 else plural
    else:
        said = words(spoken).ngettext(singular, plural, num)
    return said % {"num": num, **params}


def pgettext(context: str, message: str, **params: Any) -> str:
    """`gettext` of a message that the languages may say differently in `context` (English
    says "sunk" under a ladder and atop a scoring column alike)."""
    spoken = _language.get()
    said = message if spoken == DEFAULT else str(words(spoken).pgettext(context, message))
    return said % params if params else said


def said(text: str) -> str:
    """A refusal in the language spoken now: `text` is a literal message (its own message id)
    or service.errors.Words (a message id and its values, some of them words too). English
    where the catalogue lacks it (the web's own refusals are the web catalogue's:
    web.i18n.said_in)."""
    msgid = getattr(text, "msgid", None)
    catalogue = words(_language.get())
    if msgid is None:
        return catalogue.gettext(str(text))
    values = {
        name: said(value) if hasattr(value, "msgid") else value
        for name, value in text.values.items()  # type: ignore[attr-defined]
    }
    translated = catalogue.gettext(msgid)
    return translated % values if values else translated


def number(value: float) -> str:
    """A number in the language spoken, as its locale writes it: 0.25 is "0,25" in Russian
    and Italian (Babel; no grouping of thousands, so that English reads as `{value:g}`)."""
    return format_decimal(value, locale=_language.get(), group_separator=False)


def N_(message: str) -> str:
    """A message marked for the catalogue, said later through `gettext` (a table of words)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """A message with its plural, marked for the catalogue, said later through `ngettext`."""
    return singular, plural


# -- the catalogues ------------------------------------------------------------------------------


def compile_catalogues(directory: Path) -> Path:
    """Compile each catalogue of `directory` whose .mo is missing or older than its .po (fuzzy
    entries are left out, as `pybabel compile` does), and return the folder that holds them.
    The .mo is written whole, then renamed, so that processes starting together never read
    half of one. Where the catalogues' folder cannot be written (an installed package), they
    are compiled into a folder of the temporary directory instead."""
    try:
        _compile(directory, directory)
        return directory
    except PermissionError:
        elsewhere = Path(tempfile.gettempdir()) / f"turnpost-translations-{directory.parent.name}"
        _compile(directory, elsewhere)
        return elsewhere


def _compile(source: Path, target: Path) -> None:
    for po in source.glob("*/LC_MESSAGES/*.po"):
        mo = target / po.relative_to(source).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as text:
            catalogue = read_po(text, locale=po.parent.parent.name)
        mo.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".mo.tmp")
        with os.fdopen(handle, "wb") as compiled:
            write_mo(compiled, catalogue)
        os.replace(temporary, mo)
