"""What a request needs: the services the app was built with, and who is calling."""

from __future__ import annotations

from flask import current_app, g, request

from service.assembly import Services
from service.play.games import GameService
from service.players.accounts import PlayerService
from store.front_door import StreamSlots
from web import session as web_session

from .front_door import FrontDoor


def games() -> GameService:
    return current_app.extensions["turnpost"]["games"]


def stream_games() -> GameService:
    """The game service on a Redis client whose reads wait out a stream's blocking read."""
    return current_app.extensions["turnpost"]["stream_games"]


def stream_slots() -> StreamSlots:
    return current_app.extensions["turnpost"]["stream_slots"]


def front_door() -> FrontDoor:
    return current_app.extensions["turnpost"]["front_door"]


def services() -> Services:
    return current_app.extensions["turnpost"]["services"]


def players() -> PlayerService:
    return current_app.extensions["turnpost"]["players"]


def caller() -> str:
    """The calling player's id, from 'Authorization: Bearer <token>' (401 without); looked up
    once per request (the rate limits need it before the view does)."""
    if "caller" not in g:
        header = request.headers.get("Authorization", "")
        if not header and request.endpoint in TICKETED_ENDPOINTS:
            ticket = request.args.get("ticket")
            if ticket:
                g.caller = players().redeem_stream_ticket(ticket)
                return g.caller
            if web_player():
                g.caller = web_player()
                return g.caller
        scheme, _, token = header.partition(" ")
        g.caller = players().authenticate(token.strip() if scheme.lower() == "bearer" else None)
    return g.caller


TICKETED_ENDPOINTS = frozenset({"games.Stream", "players.MyStream", "tournaments.Stream"})
"""The event streams, which also take a stream ticket (`?ticket=`) instead of the token: a
browser's EventSource cannot send the Authorization header."""


def web_player() -> str | None:
    """The player signed in to the web client in this browser, if any (and their session is
    live: web/session.py; not a suspended player): a page of the same origin follows its
    game's event stream with the session cookie (an EventSource sends cookies, not headers).
    Only the event streams take it: the API's other operations want the token, so that no
    other site can make a browser act through the cookie."""
    found = web_session.from_cookie()
    profile = players().players.get(found) if found is not None else None
    if profile is not None and not profile.get("suspended"):
        return found
    return None
