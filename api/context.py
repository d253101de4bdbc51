"""What a request needs: the services the app was built with, and who is calling."""
from __future__ import annotations

from flask import current_app, g, request

from service.games import GameService
from service.players import PlayerService


def games() -> GameService:
    return current_app.extensions["turnpost"]["games"]


def players() -> PlayerService:
    return current_app.extensions["turnpost"]["players"]


def caller() -> str:
    """The calling player's id, from 'Authorization: Bearer <token>' (401 without); read once
    per request."""
    if "caller" not in g:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        g.caller = players().authenticate(token.strip() if scheme.lower() == "bearer" else None)
    return g.caller
