"""The bots, one module per game (`engine/bots/<game>.py`, each with its `BOTS` table and
its expert's parts, `EXPERT`, for engine.bots.search).

A bot is `f(view, legal, rng) -> action`: it knows only what its seat may know. engine.registry
gives each game its module's table (`GAME.bots`).
"""

from __future__ import annotations

from engine.core import Action, Rng, View


def random_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Any legal action, drawn from the bot's own generator."""
    return rng.choice(legal)
