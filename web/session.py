"""Who is signed in on this browser, and the checks every form passes.

The session is Flask's signed cookie (HttpOnly, SameSite=Lax, Secure when the page came over
https), signed with a key derived from the server's link keys, so that every process of the
server reads it and rotating LINK_SIGNING_KEYS signs everyone out in time. It holds the
player's id, the secret of their server-side session (service/players/sessions.py: the
cookie counts only while that session lives, so signing out ends every copy of it) and the
CSRF secret of flask-wtf, whose token every form carries: a form posted from another site, or
without its token, is refused before its view runs.

The API's event streams also read the player from this cookie (api/context.py), so that a
page can follow its game with an EventSource on the same origin.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

from flask import Flask, Request, abort, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from flask_wtf.csrf import CSRFError, generate_csrf, validate_csrf

from service.assembly import Services
from service.players.sessions import SESSION_DAYS

PLAYER = "player_id"  # the session's key for the signed-in player
SESSION = "session"  # the secret of the player's server-side session
FORBIDDEN_CHARACTERS = frozenset(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)])


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed cookie, marked Secure exactly when the request came over https.

    Its key is derived from the link keys, whose default lives in Redis: so it is worked out
    only for a request that brings the cookie, writes it, or shows a web page, never for the
    API's requests without it (nor for the OpenAPI document or the health checks, which answer
    while Redis is down)."""

    def __init__(self, services: Services):
        self.services = services

    def use_keys(self, app: Flask) -> None:
        if app.secret_key is None:
            derived = [
                hmac.new(key, b"turnpost web session", hashlib.sha256).hexdigest()
                for key in self.services.players.keys.link_keys
            ]
            app.config["SECRET_KEY_FALLBACKS"] = derived[1:]
            app.secret_key = derived[0]  # flask-wtf signs its CSRF tokens with it too

    def open_session(self, app: Flask, request: Request):
        if (
            "HTTP_COOKIE" not in request.environ  # the API's calls: no cookies to parse
            or app.config["SESSION_COOKIE_NAME"] not in request.cookies
        ):
            return self.session_class()
        self.use_keys(app)
        return super().open_session(app, request)

    def get_signing_serializer(self, app: Flask):
        self.use_keys(app)
        return super().get_signing_serializer(app)

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure


def install(app: Flask, services: Services) -> None:
    app.config.update(
        SESSION_COOKIE_NAME="turnpost_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=SESSION_DAYS),
        WTF_CSRF_TIME_LIMIT=None,  # a game's page may stay open for days before a move
    )
    app.session_interface = CookieSessions(services)
    app.jinja_env.globals["csrf_token"] = generate_csrf


def sign_in(services: Services, player_id: str) -> None:
    """Start a new session for the player (a new CSRF secret too: nothing carries over)."""
    session.clear()
    session[PLAYER] = player_id
    session[SESSION] = services.sessions.start(player_id, request.user_agent.string)
    session.permanent = True
    g.web_player = player_id


def sign_out(services: Services) -> None:
    """End this browser's session (every copy of its cookie) and forget it here."""
    found = session.get(PLAYER)
    if isinstance(found, str):
        services.sessions.end(found, session.get(SESSION))
    session.clear()
    g.web_player = None


def current_session() -> str | None:
    """The secret of this browser's session (to tell it apart in the list of sessions)."""
    found = session.get(SESSION)
    return found if isinstance(found, str) else None


def player_id(services: Services) -> str | None:
    """The signed-in player: the cookie names a player who still exists and a session of
    theirs that is still live. A cookie whose session ended is dropped from the browser."""
    if "web_player" not in g:
        found = session.get(PLAYER)
        profile = services.players.players.get(found) if isinstance(found, str) else None
        live = (
            isinstance(found, str)
            and profile is not None
            and not profile.get("suspended")
            and services.sessions.check(found, session.get(SESSION))
        )
        if found is not None and not live:
            session.clear()  # an empty session: Flask deletes the cookie
        g.web_player = found if live else None
    return g.web_player


def from_cookie() -> str | None:
    """For the API's event streams (api/context.py): the player this browser is signed in
    as, if its cookie is live; only a request that brings the cookie looks."""
    if current_app.config["SESSION_COOKIE_NAME"] not in request.cookies:
        return None
    return player_id(current_app.extensions["turnpost"]["services"])


def use_keys(app: Flask) -> None:
    """Before a web page: the session's key, which its forms' CSRF tokens need."""
    interface = app.session_interface
    if isinstance(interface, CookieSessions):
        interface.use_keys(app)


def check_form(form_request: Request) -> None:
    """Every POST of the web client: its CSRF token, and no control characters in a field
    (a name or an address must never break a page, a header or an email)."""
    try:
        validate_csrf(form_request.form.get("csrf_token"))
    except Exception as err:  # flask-wtf raises wtforms' ValidationError
        raise CSRFError(str(err)) from err
    for value in form_request.form.values():
        if any(c in FORBIDDEN_CHARACTERS for c in value):
            abort(
                400,
                gettext("a field holds a control character (a line break, a tab...): remove it"),
            )
