"""The Nine Domains' bots (rules: docs/games/rules/ninedomains.md, code:
engine/games/ninedomains.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.core import Action, Bot, Rng, View
from engine.games.ninedomains import (
    BASE_CARDS,
    DOMAIN_POINTS,
    ELEMENTS,
    FOUR_PLUS_LAST_ROUND,
    ROUNDS,
    SLOTS,
    THREE_PLUS_MARGIN,
    THREE_PLUS_POINTS,
    card_symbol,
    card_value,
    combat_bonuses,
    elements_of,
    fight_slot,
)


def _opponent_cards(view: View, me: int) -> list[str]:
    """The cards the opponent still holds (hand and face-down cards): everything they were
    dealt minus what they have used; all of it is public knowledge."""
    owned = list(BASE_CARDS) + list(view["specials"])
    for c in view["used"][1 - me]:
        owned.remove(c)
    return owned


def _card_worth(card: str) -> float:
    """A rough general strength of a card, used to keep strong cards for later."""
    return {"*": 2.5, "0": 1.0}.get(card, card_value(card) + 0.3 * card_symbol(card))


def _heuristic_play(view: View, legal: list[Action], me: int) -> Action:
    r = view["round"]
    opp = _opponent_cards(view, me)
    values = [DOMAIN_POINTS[d] for d in view["face_up"]]
    later = ROUNDS - r
    cache: dict[tuple[int, str, int], float] = {}

    def expect(slot: int, card: str, bonus: int) -> float:
        key = (slot, card, bonus)
        if key not in cache:
            total = 0.0
            for o in opp:
                theirs = view["carry"][1 - me][slot]
                if o == "4+" and r == ROUNDS:
                    theirs += FOUR_PLUS_LAST_ROUND
                f = fight_slot([card, o], [bonus, theirs])
                if f["winner"] == 0:
                    total += values[slot]
                    if (
                        card == "3+"
                        and f["how"] == "strength"
                        and f["strengths"][0] - f["strengths"][1] >= THREE_PLUS_MARGIN
                    ):
                        total += THREE_PLUS_POINTS
            cache[key] = total / len(opp) - 0.3 * later * _card_worth(card)
        return cache[key]

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
            return _card_worth(a["used"]) - _card_worth(a["hand"])
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
