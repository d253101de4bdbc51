"""The web client's blueprint and what every page shares: who is signed in, rendering with the
page's layout, and errors as pages."""

from __future__ import annotations

from functools import wraps
from typing import Any
from urllib.parse import quote, unquote, urlencode

from flask import Blueprint, abort, current_app, redirect, render_template, request, session
from flask_babel import gettext, lazy_gettext, ngettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from service.assembly import Services
from service.errors import ServiceError

from . import session as web_session
from .i18n import refusal

pages = Blueprint(
    "web", __name__, template_folder="templates", static_folder="static", static_url_path="/assets"
)

NO_STORE = {"Cache-Control": "no-store"}
NEXT = "next"  # the session's key for the page to show after signing in


def services() -> Services:
    return current_app.extensions["turnpost"]["services"]


def me() -> str | None:
    return web_session.player_id(services())


def you() -> str:
    """The signed-in player, in a view marked @signed_in."""
    player = me()
    if player is None:
        raise RuntimeError("you() is for the views marked @signed_in")
    return player


def page(template: str, title: str, status: int = 200, **values: Any):
    """A page in the site's layout, never cached (it shows one player's view). `title` is its
    heading, and the tab's title unless a `tab_title` is given; the navigation counts the
    signed-in player's games that wait for them."""
    player = me()
    profile = services().players.profile(player) if player else None
    waiting = services().games.waiting_for(player) if player else 0
    html = render_template(template, title=title, me=profile, nav_waiting=waiting, **values)
    return html, status, NO_STORE


def message(title: str, text: str, status: int, link: tuple[str, str] | None = None):
    return page("message.html", title, status, text=text, link=link)


NOT_DONE = lazy_gettext("Not done")
ERROR_PAGES = {  # status -> the page's title and what it says, in plain words
    404: (
        lazy_gettext("Page not found"),
        lazy_gettext("There is no page at this address. Was it copied whole?"),
    ),
    405: (
        NOT_DONE,
        lazy_gettext("This page cannot be used that way: nothing was done. Go back and try again."),
    ),
    429: (
        lazy_gettext("Too many requests"),
        lazy_gettext("Too many requests came from here: wait a minute, then try again."),
    ),
    500: (
        lazy_gettext("Something went wrong"),
        lazy_gettext("The server failed, and nothing was changed. Try again in a moment."),
    ),
}


def _not_done_or_error(status: int) -> str:
    return str(NOT_DONE) if status < 500 else gettext("Error")


def wants_a_page() -> bool:
    """Whether the request is a person's browser, outside the API (/v1): the one that asks for
    HTML before JSON gets an error as a page; programs keep the API's JSON."""
    if request.path == "/v1" or request.path.startswith("/v1/"):
        return False
    chosen = request.accept_mimetypes.best_match(
        ["application/json", "application/problem+json", "text/html"]
    )
    return chosen == "text/html"


def error_page(status: int, text: str | None = None):
    """An error as a page in the site's layout, with its navigation: `text` says what went
    wrong (for a status without words of its own)."""
    title, said = ERROR_PAGES.get(status, (_not_done_or_error(status), ""))
    title, said = str(title), str(said)
    words = said or _sentence(text or "") or gettext("That could not be done.")
    link = ("/", gettext("Go to the front page"))
    try:
        html, status, headers = message(title, words, status, link)
    except Exception:  # the failure may be Redis's: the page then names no one
        html = render_template("message.html", title=title, me=None, text=words, link=link)
        headers = NO_STORE
    return html, status, {**headers, "Vary": "Accept"}


def find_player(text: str) -> tuple[str | None, str | None]:
    """The player a person means by a name (in any case) or an id: (their id, None), or
    (None, what is wrong)."""
    players = services().players
    text = text.strip()
    if text.startswith("p_") and players.players.get(text) is not None:
        return text, None
    found = [p for p in players.named(text, 50) if p["name"].casefold() == text.casefold()]
    if len(found) == 1:
        return found[0]["id"], None
    if not found:
        return None, gettext("No player is called %(name)s.", name=text)
    return None, ngettext(
        "%(num)d player is called %(name)s: write the id of the one you mean instead "
        "(it starts with p_; each player finds theirs on their settings page).",
        "%(num)d players are called %(name)s: write the id of the one you mean instead "
        "(it starts with p_; each player finds theirs on their settings page).",
        len(found),
        name=text,
    )


def signed_in(view):
    """For a page that needs a signed-in player: others go to sign in, and come back after."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if me() is None:
            if request.method == "GET":
                # the path as the browser sent it (Werkzeug hands it over decoded)
                query = request.query_string.decode("latin-1")
                here = checked_next(quote(request.path) + (f"?{query}" if query else ""))
                if here is not None:
                    session[NEXT] = here
            return redirect("/sign-in?" + urlencode({"why": "signed-out"}), 303)
        return view(*args, **kwargs)

    return wrapper


NEXT_LENGTH = 2000
"""The longest page address kept to come back to (no page of this site needs more)."""


def checked_next(place: str | None) -> str | None:
    """`place` if it is the address of a page of this site, to send a browser to with a
    Location header; else None.

    Only a path of printable ASCII that starts with one `/` passes, and it must still be one
    once every layer of percent-encoding is undone: no second `/` or a `\\` after the first
    (browsers read `\\` as `/`: `//host` and `/\\host` are another site), no control
    character (browsers drop tabs and line breaks, so `/<TAB>/host` is `//host`, and a line
    break in a header is a 500 or a header of its own) and no space but an encoded one,
    nothing outside ASCII (look-alikes of `/` and `.`). A scheme (`https:`, `javascript:`) cannot start with `/`. The
    value passed is kept as written: it is the checked text that goes in the header."""
    if not place or len(place) > NEXT_LENGTH or not _plain_path(place, space=False):
        return None
    decoded = place
    for _ in range(4):  # each layer of %-encoding; more than four is refused
        try:
            once = unquote(decoded, errors="strict")
        except UnicodeDecodeError:
            return None
        if once == decoded:
            return place
        if not _plain_path(once, space=True):  # a query's encoded space is no harm
            return None
        decoded = once
    return None


def _plain_path(text: str, space: bool) -> bool:
    lowest = 0x20 if space else 0x21
    return (
        text.startswith("/")
        and not text.startswith("//")
        and "\\" not in text
        and all(lowest <= ord(c) <= 0x7E for c in text)
    )


def safe_next(place: str | None) -> str:
    """The page to go to after signing in: `place` if checked_next passes it, else /games."""
    return checked_next(place) or "/games"


def remember_next() -> None:
    """A page that sends a stranger to sign up or in names where to come back (?next=): a
    page of this site, or the request is refused (400) before anything is remembered."""
    wanted = request.args.get("next")
    if wanted:
        place = checked_next(wanted)
        if place is None:
            abort(
                400,
                gettext(
                    "the page to come back to after signing in (next=) must be a page of this "
                    "site, such as /games; this link named another place, so nothing was done"
                ),
            )
        session[NEXT] = place


@pages.before_request
def check_forms():
    web_session.use_keys(current_app._get_current_object())  # type: ignore[attr-defined]
    if request.method == "POST":
        web_session.check_form(request)


@pages.errorhandler(ServiceError)
def service_error(err: ServiceError):
    return message(str(NOT_DONE), _sentence(refusal(err.message)), err.error.status)


@pages.errorhandler(CSRFError)
def csrf_error(err: CSRFError):
    return message(
        str(NOT_DONE),
        gettext(
            "This form is out of date or came from another site, so nothing was done. Go "
            "back, reload the page and try again."
        ),
        400,
    )


@pages.errorhandler(HTTPException)
def http_error(err: HTTPException):
    status = err.code or 500
    if status in ERROR_PAGES:
        return error_page(status)
    return message(_not_done_or_error(status), _sentence(err.description or err.name), status)


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text
