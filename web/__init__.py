"""The web client: the pages a person uses to sign up, find opponents and play in a browser
(issue 17), server-rendered from Jinja templates, with one stylesheet and one small script
that redraws a game's page when the game moves. It calls the service layer the way `api/`
does, and says what went wrong with the API's error codes and words."""

from __future__ import annotations

from flask import Flask

from service.assembly import Services

from . import (  # noqa: F401  (their routes register on the blueprint)
    account,
    feeds,
    how_to_play,
    matchmaking,
    play,
    push,
    ratings,
    tournaments,
    vacation,
)
from .blueprint import pages
from .i18n import install as install_languages
from .session import install as install_session


def install(app: Flask, services: Services) -> None:
    install_session(app, services)
    install_languages(app, services)
    app.register_blueprint(pages)
