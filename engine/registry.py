"""The games this server hosts, each with its bots: a title is registered by one line below,
its rules module's `GAME` with its bots module's `BOTS` and `EXPERT`. The modules are
imported plainly, so the import linter sees every arrow (engine.registry -> engine.bots ->
engine.games -> engine.core)."""

from __future__ import annotations

from .bots import buttons as buttons_bots
from .bots import consonar as consonar_bots
from .bots import nautilus as nautilus_bots
from .bots import ninedomains as ninedomains_bots
from .bots.search import ExpertParts
from .core import Bot, Game, GameModule
from .games import buttons, consonar, nautilus, ninedomains

GAMES: dict[str, Game] = {}
EXPERTS: dict[str, ExpertParts] = {}
"""The titles that have the expert (bot:expert), each with the parts its bots module declares."""


def _register(game: GameModule, bots: dict[str, Bot], expert: ExpertParts | None) -> None:
    game.bots = bots
    GAMES[game.info.name] = game
    if expert is not None:
        EXPERTS[game.info.name] = expert


_register(buttons.GAME, buttons_bots.BOTS, buttons_bots.EXPERT)
_register(consonar.GAME, consonar_bots.BOTS, consonar_bots.EXPERT)
_register(nautilus.GAME, nautilus_bots.BOTS, nautilus_bots.EXPERT)
_register(ninedomains.GAME, ninedomains_bots.BOTS, ninedomains_bots.EXPERT)


def get(name: str) -> Game | None:
    return GAMES.get(name)
