"""The Nine Domains' bots (rules: docs/games/rules/ninedomains.md, code:
engine/games/ninedomains.py)."""

from __future__ import annotations

from engine.bots import random_bot
from engine.bots.search import ExpertParts, clone
from engine.core import Action, Bot, Rng, State, View
from engine.games.ninedomains import (
    BASE_CARDS,
    DOMAIN_POINTS,
    ELEMENTS,
    FOUR_PLUS_LAST_ROUND,
    ROUNDS,
    SLOTS,
    SPECIAL_KINDS,
    THREE_PLUS_MARGIN,
    THREE_PLUS_POINTS,
    card_symbol,
    card_value,
    combat_bonuses,
    deck_of,
    elements_of,
    fight_slot,
    sort_cards,
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


SPEND_COST = 0.15
"""What spending a card costs per round still to come, times its strength (measured against the
bot of 2026-11-24, whose 0.3 kept strong cards too long: 0.1, 0.15, 0.2 and 0.5 won 56.0%, 58.3%,
50.5% and 30.7% of bench/bots.py's 1,000 games; 0.15 won 57.7% of 2,000)."""
ELEMENT_WIN = 50.0
"""What a domain is worth that gives a player all four elements: the game, at once."""


def _domain_worth(view: View, me: int, domain: str) -> float:
    """Its points, and the game when winning it completes my elements or losing it completes
    the opponent's (the element race; nothing once both reached them in one round)."""
    worth = float(DOMAIN_POINTS[domain])
    if view["elements_void"]:
        return worth
    for seat in (me, 1 - me):
        if len(elements_of([*view["domains"][seat], domain])) == len(ELEMENTS):
            worth += ELEMENT_WIN
    return worth


def _heuristic_play(view: View, legal: list[Action], me: int, rng: Rng) -> Action:
    r = view["round"]
    opp = _opponent_cards(view, me)
    values = [_domain_worth(view, me, d) for d in view["face_up"]]
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
            cache[key] = total / len(opp) - SPEND_COST * later * _card_worth(card)
        return cache[key]

    scored = []
    for a in legal:
        cards = a["cards"]
        bonuses = combat_bonuses(cards, view["carry"][me], r)
        scored.append((sum(expect(i, cards[i], bonuses[i]) for i in range(len(SLOTS))), a))
    best = max(score for score, _ in scored)
    # equal triples, one at random: two copies of the bot no longer mirror each other
    return rng.choice([a for score, a in scored if score == best])


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
                elif len(elements_of(mine)) == len(ELEMENTS):
                    score += 100  # a swap that gives me all four elements wins at once
            return score
        if a["type"] == "swap-card":
            return _card_worth(a["used"]) - _card_worth(a["hand"])
        return 0.0

    return max(legal, key=gain)


def heuristic_bot(view: View, legal: list[Action], rng: Rng) -> Action:
    """Plays the triple with the best expected domain worth (points, and the game for a domain
    that completes either player's elements) against the opponent's remaining cards, less a
    cost for spending strong cards early; takes any swap that helps, first one that wins."""
    me = view["you"]
    if legal[0]["type"] == "play":
        return _heuristic_play(view, legal, me, rng)
    return _heuristic_decision(view, legal, me)


def determinize(g: State, seat: int, rng: Rng) -> State:
    """A state `seat` cannot tell from `g`, for the expert's search: the domains still face
    down dealt again into the piles, the special kinds not yet dealt shuffled again, and the
    opponent's cards (known: all they were dealt minus what they used) split again between
    their hand and the three they laid face down, if they have. Each drawn from what `seat`
    can see only, so the search knows nothing more than the seat does."""
    d = clone(g)
    seen = [x for x in g["face_up"] if x] + g["discarded"] + g["domains"][0] + g["domains"][1]
    unseen = sorted(x for x in deck_of(g) if x not in seen)
    rng.shuffle(unseen)
    d["piles"] = []
    for pile in g["piles"]:
        d["piles"].append(unseen[: len(pile)])
        del unseen[: len(pile)]
    kinds = sorted(k for k in SPECIAL_KINDS if k not in g["specials"])
    rng.shuffle(kinds)
    d["special_deck"] = kinds[: len(g["special_deck"])]
    other = 1 - seat
    cards = list(BASE_CARDS) + list(g["specials"])
    for c in g["used"][other]:
        cards.remove(c)
    cards = sort_cards(cards)
    if g["committed"][other] is not None:
        rng.shuffle(cards)
        d["committed"][other] = cards[: len(SLOTS)]
        cards = sort_cards(cards[len(SLOTS) :])
    d["hands"][other] = cards
    return d


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
EXPERT = ExpertParts(determinize)
