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

import ast
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from babel.lists import format_list
from flask import Flask, current_app, g, request
from flask_babel import (
    Babel,
    force_locale,
    format_date,
    format_time,
    get_locale,
    get_translations,
    gettext,
    ngettext,
)
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
    app.jinja_env.globals.update(
        page_language=lambda: str(get_locale() or DEFAULT), script_words=script_words
    )
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


def said_in(text: str, language: str) -> str:
    """`text`, an English message (a literal, its own message id, or service.errors.Words, an
    id and its values), in `language`: from this catalogue, else from the service's (the
    engine's refusals, service/play/refusals.py), else English. A value that is words too is
    said in `language` as well (a tournament's format)."""
    if language == DEFAULT:
        return str(text)
    msgid = getattr(text, "msgid", str(text))
    values = {  # a value may be words too
        name: said_in(value, language) if hasattr(value, "msgid") else value
        for name, value in getattr(text, "values", {}).items()
    }
    with force_locale(language):
        translated = get_translations().gettext(msgid)
    if translated == msgid:  # not a message of the pages: perhaps of the service
        translated = service_words.words(language).gettext(msgid)
    return translated % values if values else translated


def refusal(text: str) -> str:
    """A refusal (a ServiceError's message) in the page's language."""
    return said_in(text, reader_language())


def and_list(names: list[str]) -> str:
    """ "Ada, Bo and Cy" in the page's language ("Ada, Bo и Cy", "Ada, Bo e Cy")."""
    return format_list(list(names), locale=get_locale() or DEFAULT) if names else ""


def language_choices() -> list[tuple[str, str]]:
    """(code, name in itself) of each language, for the settings' list."""
    return [(code, NAMES[code]) for code in LANGUAGES]


def script_words() -> dict[str, str]:
    """The words the scripts of web/static write on a page, in the page's language. A page
    that runs a script gives them as data (`<script type="application/json" id="words">`,
    _script_words.html), so that no script holds words of its own; the script fills in a
    `%(name)s` itself."""
    return {
        "pick_start": gettext("Pick a highlighted part of the board to start your move."),
        "pick_start_or_button": gettext(
            "Pick a highlighted part of the board to start your move, or a button here."
        ),
        "pick_next": gettext("Now pick %(parts)s."),
        "pick_next_or": gettext(", or "),
        "pick_one": gettext("Now pick one of the highlighted parts."),
        "chat_sending": gettext("Sending…"),
        "chat_sent": gettext("Sent."),
        "chat_not_sent": gettext("Not sent: try again."),
        "chat_not_reached": gettext("Not sent: the server could not be reached. Try again."),
        "game_moved_reload": gettext("The game has moved on: reload the page to see it."),
        "game_moved_shown": gettext("The game has moved on: the page shows it now."),
        "tournament_moved_reload": gettext(
            "The tournament has moved on: reload the page to see it."
        ),
        "tournament_moved_shown": gettext("The tournament has moved on: the page shows it now."),
        "push_unable": gettext("This browser cannot show turnpost's notifications."),
        "push_renewed": gettext(
            "Notifications are on again on this device (the server's key had changed)."
        ),
        "push_blocked": gettext(
            "This browser blocks turnpost's notifications: allow them in its settings for this "
            "site, then press the button again."
        ),
        "push_not_allowed": gettext(
            "Notifications were not allowed, so none will come to this device."
        ),
        "push_failed": gettext("Notifications could not be turned on here: %(why)s."),
        "push_no_worker": gettext(
            "This browser would not start turnpost's notifications: %(why)s."
        ),
    }


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


def extract_literals(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """babel.cfg's extraction of the messages of the API, the services and the engine: the
    calls of `keywords` (`Words(...)`, `ServiceError(code, ...)`, an engine refusal), with
    each argument that is a string literal. An argument built at run time (an f-string, a
    sum, a choice) is no message id: it is not extracted (the API says it in English), where
    babel's own extractor would take its literal pieces for messages. A section's `only`
    option narrows the keywords to its own (babel adds gettext and the like to every section:
    in service/ those are the service's own catalogue's, service/words.py)."""
    if options.get("only"):
        keywords = set(keywords) & set(options["only"].split())
    calls: list[tuple[int, str, tuple[str | None, ...], list[str]]] = []
    for node in ast.walk(ast.parse(fileobj.read())):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name: str = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in keywords:
            literals = tuple(
                arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                for arg in node.args
            )
            calls.append((node.lineno, name, literals, []))
    yield from sorted(calls, key=lambda call: call[0])
