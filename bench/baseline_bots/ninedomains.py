"""The Nine Domains' bots (rules: docs/games/rules/ninedomains.md, code:
engine/games/ninedomains.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.bots.ninedomains import card_worth, slot_expectation
from engine.core import Action, Bot, Rng, View
from engine.games.ninedomains import DOMAIN_POINTS, ELEMENTS, SLOTS, combat_bonuses, elements_of


def _heuristic_play(view: View, legal: list[Action], me: int) -> Action:
    r = view["round"]
    values = [DOMAIN_POINTS[d] for d in view["face_up"]]
    expect = slot_expectation(view, me, values, 0.3)
    best, best_score = legal[0], None
    for a in legal:
        cards = a["cards"]
        bonuses = combat_bonuses(cards, view["carry"][me], r)
        score = sum(expect(i, cards[i], bonuses[i]) for i in range(len(SLOTS)))
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


def _heuristic_decision(view: View, legal: list[Action], me: int) -> Action:
    def gain(a: Action) -> float:
        if a["type"] == "swap-domain":
            mine = [d for d in view["domains"][me] if d != a["mine"]] + [a["theirs"]]
            theirs = [d for d in view["domains"][1 - me] if d != a["theirs"]] + [a["mine"]]
            score = 2 * (DOMAIN_POINTS[a["theirs"]] - DOMAIN_POINTS[a["mine"]])
            if not view["elements_void"]:
                score += 3 * (len(elements_of(mine)) - len(elements_of(view["domains"][me])))
                score -= 3 * (len(elements_of(theirs)) - len(elements_of(view["domains"][1 - me])))
                if len(elements_of(theirs)) == len(ELEMENTS):
                    score -= 100
            return score
        if a["type"] == "swap-card":
            return card_worth(a["used"]) - card_worth(a["hand"])
        return 0.0

    return max(legal, key=gain)


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Plays the triple with the best expected domain points against the opponent's
    remaining cards, less a cost for spending strong cards early; takes any swap that helps."""
    me = view["you"]
    if legal[0]["type"] == "play":
        return _heuristic_play(view, legal, me)
    return _heuristic_decision(view, legal, me)


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
