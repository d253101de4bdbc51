"""Con Sonar!'s bots (rules: docs/games/rules/consonar.md, code: engine/games/consonar.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.bots.consonar import greedy_move, hit_chance
from engine.core import Action, Bot, Rng, View


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Greedy: sink others' exposed submarines, defuse own-colour threats, dive own submarines,
    push others' up; keep queueing while a card helps, and line up a good Torpedo shot."""
    me = view["my_colour"]
    row = {t["card"]: t for t in view["torpedo_row"]}

    def shot_value(card: str, sub: str, rung: int) -> float:
        """Expected points: +1 for a sinking (but -2 for losing an own survivor), -1 a miss."""
        p = hit_chance(rung, row[card]["torpedoes"])
        gain = -1 if sub[0] == me else 1
        return p * gain - (1 - p)

    return greedy_move(view, legal, shot_value)


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
