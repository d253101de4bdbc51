"""The language of a page (issue 38): the signed-in player's setting, else the best of the
browser's Accept-Language among service.languages.LANGUAGES, else English. The words are
gettext catalogues (web/translations/<language>/LC_MESSAGES/messages.po, extracted with
babel.cfg at the repository's root), read through Flask-Babel: `_()`, `ngettext()` and
`{% trans %}` in the templates, gettext / lazy_gettext in the modules. Dates and times are
written by Babel in the page's language and the reader's time zone.

The compiled catalogues (.mo) are not kept in git: `make serve` and `make test` compile them,
and the app compiles any that is missing or older than its .po when it starts, so a fresh
clone (or an edited catalogue) works either way."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from babel.lists import format_list
from flask import Flask, current_app, g, request
from flask_babel import Babel, format_date, format_time, get_locale, gettext, ngettext
from redis.exceptions import RedisError

from service import words as service_words
from service.assembly import Services
from service.languages import DEFAULT, LANGUAGES, NAMES
from service.timefmt import time_zones

from . import session as web_session

TRANSLATIONS = Path(__file__).parent / "translations"


def install(app: Flask, services: Services) -> None:
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compile_catalogues())
    compile_catalogues(service_words.CATALOGUES)  # the service's words (a table's), ready at once
    app.config["BABEL_DEFAULT_LOCALE"] = DEFAULT
    Babel(app, locale_selector=lambda: page_language(services), timezone_selector=reader_zone)
    # whitespace inside {% trans %} is folded, as babel.cfg extracts it (trimmed = true)
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals.update(page_language=lambda: str(get_locale() or DEFAULT))
    app.jinja_env.filters["and_list"] = and_list
    app.jinja_env.filters["deadline"] = deadline_words


def page_language(services: Services) -> str:
    """The signed-in player's language, else the browser's, else English."""
    chosen = _reader(services).get("language")
    return chosen if chosen in LANGUAGES else browser_language()


def _reader(services: Services) -> dict:
    """The signed-in reader's profile, once a request ({} for a stranger, and while Redis
    cannot be read: the error page that says so is then in the browser's language)."""
    if "web_reader" not in g:
        try:
            player = web_session.from_cookie()
            g.web_reader = services.players.profile(player) if player else {}
        except RedisError:
            return {}
    return g.web_reader


def reader_language() -> str:
    """The page's language, for the service's words (a game's table: service/words.py)."""
    return str(get_locale() or DEFAULT)


def browser_language() -> str:
    """The language among ours that the browser's Accept-Language prefers (English if none)."""
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def reader_zone() -> str:
    """The signed-in reader's time zone (UTC without one)."""
    zone = _reader(current_app.extensions["turnpost"]["services"]).get("time_zone")
    return zone if zone in time_zones() else "UTC"


def and_list(names: list[str]) -> str:
    """ "Ada, Bo and Cy" in the page's language ("Ada, Bo и Cy", "Ada, Bo e Cy")."""
    return format_list(list(names), locale=get_locale() or DEFAULT) if names else ""


def language_choices() -> list[tuple[str, str]]:
    """(code, name in itself) of each language, for the settings' list."""
    return [(code, NAMES[code]) for code in LANGUAGES]


# -- times in words, in the page's language ----------------------------------------------------


def stamp(ms: int) -> str:
    """'Monday 23 November 2026, 15:05 Europe/Rome' in the page's language and the reader's
    time zone."""
    when = datetime.fromtimestamp(ms / 1000, UTC)
    zone = reader_zone()
    return gettext(
        "%(date)s, %(time)s %(zone)s",
        date=format_date(when, "full"),
        time=format_time(when, "HH:mm"),
        zone=zone,
    )


UNITS = (  # the largest two are said: "in 2 days and 3 hours"
    (7 * 86400, lambda n: ngettext("%(num)d week", "%(num)d weeks", n)),
    (86400, lambda n: ngettext("%(num)d day", "%(num)d days", n)),
    (3600, lambda n: ngettext("%(num)d hour", "%(num)d hours", n)),
    (60, lambda n: ngettext("%(num)d minute", "%(num)d minutes", n)),
    (1, lambda n: ngettext("%(num)d second", "%(num)d seconds", n)),
)


def deadline_words(deadline_ms: int | None) -> str | None:
    """A deadline from now in words ("in 2 days and 3 hours (...)"), None without one."""
    return None if deadline_ms is None else in_words(deadline_ms, int(time.time() * 1000))


def in_words(deadline_ms: int, now_ms: int) -> str:
    """'in 2 days and 3 hours (Monday 23 November 2026, 14:05 UTC)'."""
    seconds = (deadline_ms - now_ms) // 1000
    parts = []
    for size, words in UNITS:
        count, seconds = divmod(seconds, size)
        if count > 0:
            parts.append(words(count))
        if len(parts) == 2:
            break
    when = stamp(deadline_ms)
    if not parts:
        return gettext("now (%(when)s)", when=when)
    if len(parts) == 1:
        return gettext("in %(span)s (%(when)s)", span=parts[0], when=when)
    return gettext(
        "in %(first)s and %(second)s (%(when)s)", first=parts[0], second=parts[1], when=when
    )


# -- the catalogues ------------------------------------------------------------------------------


def compile_catalogues(directory: Path = TRANSLATIONS) -> Path:
    """Compile the pages' catalogues (see `service.words.compile_catalogues`)."""
    return service_words.compile_catalogues(directory)
