"""Con Sonar!'s bots (rules: docs/games/rules/consonar.md, code: engine/games/consonar.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.bots.search import ExpertParts, clone
from engine.core import Action, Bot, Rng, State, View
from engine.games.consonar import DIE, FLEET_INFO, HIGH, LOW


def _hit_chance(rung: int, torpedoes: int) -> float:
    miss = (DIE - (rung - 1)) / DIE
    return 1 - miss**torpedoes


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Greedy: sink others' exposed submarines, defuse own-colour threats, dive own submarines,
    push others' up; keep queueing while a card helps, and line up a good Torpedo shot."""
    me = view["my_colour"]
    ladder = view["ladder"]
    row = {t["card"]: t for t in view["torpedo_row"]}
    mine = view["sunk"][view["you"]]
    colours_sunk = {s[0] for s in mine}

    def shot_value(card: str, sub: str, rung: int) -> float:
        """Expected points: +1 for a sinking (but -2 for losing an own survivor), +1 more when
        it completes a pair, a share of a group's +2 for a new colour; -1 a miss."""
        p = _hit_chance(rung, row[card]["torpedoes"])
        if sub[0] == me:
            gain = -1.0
        else:
            partner = sub[0] + ("2" if sub[1] == "1" else "1")
            gain = 1.0 + (partner in mine) + (0.5 if sub[0] not in colours_sunk else 0.0)
        return p * gain - (1 - p)

    def best_shot_after(
        arrow: str, moved: str | None = None, rung_after: int | None = None
    ) -> float:
        best = 0.0
        for t in row.values():
            if t["symbol"] != arrow:
                continue
            if t["colour"] == me:
                best = max(best, 1.0)
                continue
            subs = [s for s in (t["colour"] + "1", t["colour"] + "2") if ladder[s] is not None]
            for s in subs or [s for s in ladder if ladder[s] is not None and s[0] != me]:
                rung = rung_after if s == moved and rung_after is not None else ladder[s]
                best = max(best, shot_value(t["card"], s, rung))
        return best

    def value(a: Action) -> float:
        kind = a["type"]
        if kind == "end":
            return 0.0
        if kind == "defuse":
            return 1.2
        if kind == "delay":
            return 0.3 if row[a["card"]]["colour"] == me else -0.5
        if kind == "torpedo":
            return shot_value(a["card"], a["sub"], ladder[a["sub"]])
        info = FLEET_INFO[a["card"]]
        rung = ladder[a["sub"]]
        after = min(HIGH, max(LOW, rung + info["value"]))
        move: float = (after - rung) * (-0.4 if a["sub"][0] == me else 0.15)
        return move + best_shot_after(info["arrow"], a["sub"], after) - 0.05

    best = max(value(a) for a in legal)
    choices = [a for a in legal if value(a) >= best - 1e-9]
    return choices[0]


def determinize(g: State, seat: int, rng: Rng) -> State:
    """A state `seat` cannot tell from `g`, for the expert's search: the Fleet cards it cannot
    see (the other players' hands and the Fleet deck) dealt again at random, each hand and
    the deck keeping their sizes, and the Torpedo deck shuffled (the search then forgets the
    order of the cards delayed under it, which it might have remembered; it learns nothing).
    The dice to come are the search's own."""
    d = clone(g)
    others = [s for s in range(len(g["hands"])) if s != seat]
    unseen = sorted([c for s in others for c in g["hands"][s]] + g["fleet_deck"])
    rng.shuffle(unseen)
    for s in others:
        size = len(g["hands"][s])
        d["hands"][s] = sorted(unseen[:size])
        del unseen[:size]
    d["fleet_deck"] = unseen
    torpedoes = sorted(g["torpedo_deck"])
    rng.shuffle(torpedoes)
    d["torpedo_deck"] = torpedoes
    return d


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
EXPERT = ExpertParts(determinize, paired=True, choice_confidence=1.0)
"""The expert compares its moves on the same deals and dice (engine.bots.search._paired), and
plays the move that did best on average against the heuristic's once that lead exceeds one
standard error: at many positions a better Fleet play or shot gains a few hundredths, which a
second of playouts cannot show at two standard errors (bench/expert_gain.py margins: the true
gain of its choice is lower at 1.5 and 2 than at 0 to 1, where it changes far fewer moves on
noise than at 0; bench/RESULTS.md, bot:expert)."""
