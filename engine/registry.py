"""The games this server hosts: every module of `engine.games` that defines `GAME`."""

from __future__ import annotations

import importlib
import pkgutil

from . import games
from .core import Game


def _discover() -> dict[str, Game]:
    found = {}
    for module_info in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{games.__name__}.{module_info.name}")
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.info.name] = game
    return found


GAMES: dict[str, Game] = _discover()


def get(name: str) -> Game | None:
    return GAMES.get(name)
