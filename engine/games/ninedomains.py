"""The Nine Domains: two players bid cards, face down and at the same time, for three domains
a round over three rounds; all four elements win at once, otherwise the most points.

Source: seed 004_7263d34c41f9c066 (French help page, the authority) and
shared/rules/ninedomains.md. The sections of the rules map to the functions below:
`start_round` (a round, step 1), `commit_cards` (step 2), `resolve_round` and `fight_slot`
(step 3, combat in one slot), `effect_winner` (combat step 1), `combat_bonuses` (the carried
and adjacent bonuses of the specials), `resolve_effects` (step 4), `check_elements` (step 5)
and `final_result` (step 6).

Hidden information: each hand (a count for the others), the cards a seat has committed this
round until both have committed (only *that* it has committed is public), the order of the
domain piles under their face-up tops, and the special kinds not dealt yet.
"""
from __future__ import annotations

from itertools import permutations

from engine.core import GameInfo, InvalidOptions, MalformedAction, OptionSpec, Outcome

SLOTS = ("left", "middle", "right")
ROUNDS = 3

# The domain deck [choice: the real values are not public]. (id, element, points, half):
# `half` marks the two half-purple domains; purple counts only with both halves.
DOMAINS = (
    ("red2", "red", 2, False),
    ("red4", "red", 4, False),
    ("blue2", "blue", 2, False),
    ("blue4", "blue", 4, False),
    ("green2", "green", 2, False),
    ("green4", "green", 4, False),
    ("purple3a", "purple", 3, True),
    ("purple3b", "purple", 3, True),
    ("plain6", None, 6, False),
)
DOMAIN_IDS = tuple(d[0] for d in DOMAINS)
DOMAIN_POINTS = {d[0]: d[2] for d in DOMAINS}
ELEMENTS = ("red", "blue", "green", "purple")
HALF_PURPLE = tuple(d[0] for d in DOMAINS if d[3])

BASE_CARDS = ("0", "1", "2", "3", "4", "5")
SPECIAL_KINDS = ("1-", "1+", "2-", "2+", "3-", "3+", "4-", "4+", "*")
CARD_ORDER = BASE_CARDS + SPECIAL_KINDS
CARD_RANK = {c: i for i, c in enumerate(CARD_ORDER)}
SPECIALS_PER_DEAL = 3

# Pairings that a card's special effect decides, as (winner, loser). Besides these, the *
# loses to every card other than itself (see `effect_winner`).
EFFECT_WINS = frozenset({
    ("0", "5"),
    ("1", "4-"), ("*", "4-"),
    ("*", "3"), ("*", "4"), ("*", "5"),
})
# Bonus a card gives to its owner's card in the same slot next round (1+, 2+, 4+).
CARRY = {"1+": 2, "2+": 1, "4+": -1}
FOUR_PLUS_LAST_ROUND = -2  # the 4+ played in round 3 has -2 itself
ONE_MINUS_BONUS = {1: 2, 2: 1}  # by the number of neighbours of the 1-'s slot
THREE_PLUS_POINTS = 7
THREE_PLUS_MARGIN = 2

SPECIALS_MODES = ("per_game", "per_round")


def card_value(card: str) -> int:
    """The printed strength; the * has none (modifiers do not count for it)."""
    return 0 if card == "*" else int(card[0])


def card_symbol(card: str) -> int:
    """+1 for a '+' card, -1 for a '-' card, 0 for a base card (which sits between)."""
    return {"+": 1, "-": -1}.get(card[-1], 0)


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=CARD_RANK.__getitem__)


def sort_domains(domains) -> list[str]:
    return sorted(domains, key=DOMAIN_IDS.index)


def elements_of(domains) -> list[str]:
    """The elements a set of domains shows: purple only with both half-purple domains."""
    have = {d[1] for d in DOMAINS if d[0] in domains and d[1] and not d[3]}
    if all(h in domains for h in HALF_PURPLE):
        have.add("purple")
    return [e for e in ELEMENTS if e in have]


def points_of(g, seat: int) -> int:
    return sum(DOMAIN_POINTS[d] for d in g["domains"][seat]) + g["bonus"][seat]


# ---------------------------------------------------------------- combat in one slot

def effect_winner(a: str, b: str) -> int | None:
    """Combat step 1: 0 or 1 when a special effect decides the pairing (a, b), else None."""
    if (a, b) in EFFECT_WINS:
        return 0
    if (b, a) in EFFECT_WINS:
        return 1
    if b == "*" and a != "*":
        return 0
    if a == "*" and b != "*":
        return 1
    return None


def fight_slot(cards: list[str], bonuses: list[int]) -> dict:
    """Fight one slot: cards[s] with combat bonus bonuses[s] for seat s.

    Returns {winner (seat or None: the domain leaves the game), how ("effect", "strength",
    "bonus", "identical", "symbol"), strengths, bonuses}. Modifiers do not count for the *.
    Two cards of equal strength and equal bonus have equal printed values, so when they are
    not identical they differ by their symbol: a tie of two different cards cannot remain.
    """
    bonuses = [0 if c == "*" else b for c, b in zip(cards, bonuses)]
    strengths = [card_value(c) + b for c, b in zip(cards, bonuses)]
    result = {"strengths": strengths, "bonuses": bonuses}
    by_effect = effect_winner(*cards)
    if by_effect is not None:
        return {"winner": by_effect, "how": "effect", **result}
    if strengths[0] != strengths[1]:
        return {"winner": 0 if strengths[0] > strengths[1] else 1, "how": "strength", **result}
    if bonuses[0] != bonuses[1]:
        return {"winner": 0 if bonuses[0] > bonuses[1] else 1, "how": "bonus", **result}
    if cards[0] == cards[1]:
        return {"winner": None, "how": "identical", **result}
    symbols = [card_symbol(c) for c in cards]
    return {"winner": 0 if symbols[0] > symbols[1] else 1, "how": "symbol", **result}


def combat_bonuses(cards: list[str], carry: list[int], round_no: int) -> list[int]:
    """One seat's combat bonus in each slot: the carried bonus of its card in the same slot
    last round (1+ +2, 2+ +1, 4+ -1), its 1- in a neighbouring slot (+1, or +2 when the 1- is
    on an edge and so has one neighbour), and -2 for a 4+ played in round 3."""
    bonuses = list(carry)
    if "1-" in cards:
        j = cards.index("1-")
        neighbours = [i for i in (j - 1, j + 1) if 0 <= i < len(SLOTS)]
        for i in neighbours:
            bonuses[i] += ONE_MINUS_BONUS[len(neighbours)]
    for i, c in enumerate(cards):
        if c == "4+" and round_no == ROUNDS:
            bonuses[i] += FOUR_PLUS_LAST_ROUND
    return bonuses


# ---------------------------------------------------------------- the game

class NineDomains:
    info = GameInfo(
        name="ninedomains", title="The Nine Domains", min_players=2, max_players=2,
        rules_version="1",
        options={"specials": OptionSpec(
            "per_game",
            "per_game: three special kinds for the whole game (hands of 9, all played); "
            "per_round: three new special kinds dealt each round (9 of 15 cards played)",
            choices=SPECIALS_MODES)},
        notation=(
            "play L M R: your cards for the left, middle and right slots, e.g. play 3+ 0 5",
            "swap-domain MINE THEIRS: after a winning 2-, swap domains, "
            "e.g. swap-domain red4 blue2",
            "swap-card HAND USED: after a winning 3-, swap a hand card for a used one, "
            "e.g. swap-card 2 4",
            "pass: decline the optional effect of your winning 2- or 3-",
        ),
    )

    # ------------------------------------------------------------ setup and rounds

    def setup(self, n, options, rng, log):
        if n != 2:
            raise InvalidOptions("The Nine Domains is played by 2 players")
        mode = options.get("specials", "per_game")
        if mode not in SPECIALS_MODES:
            raise InvalidOptions(f"option specials cannot be {mode!r}; "
                                 f"choose one of: {', '.join(SPECIALS_MODES)}")
        deck = list(DOMAIN_IDS)
        rng.shuffle(deck)
        kinds = list(SPECIAL_KINDS)
        rng.shuffle(kinds)
        g = {
            "specials_mode": mode, "round": 0, "phase": "commit",
            "piles": [deck[3 * i:3 * i + 3] for i in range(len(SLOTS))],
            "face_up": [None] * len(SLOTS),
            "special_deck": kinds, "specials": [],
            "hands": [list(BASE_CARDS), list(BASE_CARDS)],
            "committed": [None, None], "used": [[], []],
            "carry": [[0] * len(SLOTS), [0] * len(SLOTS)],
            "domains": [[], []], "discarded": [], "bonus": [0, 0],
            "pending": [], "battles": [],
            "elements_void": False, "element_winner": None,
        }
        log.public("the nine domains are dealt face down into three piles of three")
        if mode == "per_game":
            self.deal_specials(g, log)
        self.start_round(g, log)
        return g

    def deal_specials(self, g, log):
        """Both players get the same three kinds, the next ones of the hidden kind deck."""
        kinds = g["special_deck"][:SPECIALS_PER_DEAL]
        del g["special_deck"][:SPECIALS_PER_DEAL]
        g["specials"] += kinds
        for s in (0, 1):
            g["hands"][s] = sort_cards(g["hands"][s] + kinds)
        log.public("both players receive the special cards " + " ".join(sort_cards(kinds)),
                   specials=sort_cards(kinds))

    def start_round(self, g, log):
        """A round, step 1: the top domain of each pile turns face up."""
        g["round"] += 1
        g["phase"] = "commit"
        g["face_up"] = [pile.pop(0) for pile in g["piles"]]
        log.public(f"round {g['round']}: the domains at stake are " + ", ".join(
            f"{d} ({slot})" for slot, d in zip(SLOTS, g["face_up"])),
            round=g["round"], face_up=list(g["face_up"]))
        if g["specials_mode"] == "per_round":
            self.deal_specials(g, log)

    # ------------------------------------------------------------ who acts, what they may do

    def active_seats(self, g):
        if g["phase"] == "commit":
            return frozenset(s for s in (0, 1) if g["committed"][s] is None)
        if g["phase"] == "effects":
            return frozenset([g["pending"][0]["seat"]])
        return frozenset()

    def legal_actions(self, g, seat):
        if seat not in self.active_seats(g):
            return []
        if g["phase"] == "commit":
            # The hand is kept in card order, so the permutations come out sorted.
            return [{"type": "play", "cards": list(p)} for p in permutations(g["hands"][seat], 3)]
        return [{"type": "pass"}] + self.effect_options(g, g["pending"][0])

    def effect_options(self, g, pending) -> list[dict]:
        seat = pending["seat"]
        if pending["kind"] == "swap-domain":
            return [{"type": "swap-domain", "mine": m, "theirs": t}
                    for m in g["domains"][seat] for t in g["domains"][1 - seat]]
        return [{"type": "swap-card", "hand": h, "used": u}
                for h in g["hands"][seat] for u in g["used"][seat]]

    # ------------------------------------------------------------ apply

    def apply(self, g, seat, action, rng, log):
        kind = action["type"]
        if kind == "play":
            self.commit_cards(g, seat, action["cards"], log)
            if all(c is not None for c in g["committed"]):
                self.resolve_round(g, log)
                self.resolve_effects(g, log)
            return g
        pending = g["pending"].pop(0)
        slot = SLOTS[pending["slot"]]
        if kind == "pass":
            log.public("{seat%d} does not use the %s of the %s slot" % (
                seat, "2-" if pending["kind"] == "swap-domain" else "3-", slot))
        elif kind == "swap-domain":
            self.swap_domain(g, seat, action["mine"], action["theirs"], log)
        else:
            self.swap_card(g, seat, action["hand"], action["used"], log)
        self.resolve_effects(g, log)
        return g

    def commit_cards(self, g, seat, cards, log):
        """A round, step 2: a seat lays one card face down before each slot."""
        for c in cards:
            g["hands"][seat].remove(c)
        g["committed"][seat] = list(cards)
        log.private(seat, "you lay face down " + ", ".join(
            f"{c} ({slot})" for slot, c in zip(SLOTS, cards)), cards=list(cards))
        log.public("{seat%d} has laid their three cards face down" % seat)

    def resolve_round(self, g, log):
        """A round, step 3: reveal, fight each slot, the winner takes the domain face up."""
        cards = g["committed"]
        r = g["round"]
        log.public("the cards are revealed: {seat0} " + " ".join(cards[0])
                   + ", {seat1} " + " ".join(cards[1]), cards=[list(c) for c in cards])
        bonuses = [combat_bonuses(cards[s], g["carry"][s], r) for s in (0, 1)]
        for i, slot in enumerate(SLOTS):
            domain = g["face_up"][i]
            pair = [cards[0][i], cards[1][i]]
            fight = fight_slot(pair, [bonuses[0][i], bonuses[1][i]])
            w = fight["winner"]
            g["battles"].append({"round": r, "slot": i, "domain": domain, "cards": pair,
                                 **fight})
            if w is None:
                g["discarded"].append(domain)
                log.public(f"{slot}: {pair[0]} against {pair[1]}, identical cards: "
                           f"{domain} leaves the game", slot=i, domain=domain)
                continue
            g["domains"][w] = sort_domains(g["domains"][w] + [domain])
            log.public("%s: {seat0} %s (strength %d) against {seat1} %s (strength %d), "
                       "decided by %s: {seat%d} takes %s" % (
                           slot, pair[0], fight["strengths"][0], pair[1],
                           fight["strengths"][1], fight["how"], w, domain),
                       slot=i, domain=domain, winner=w, how=fight["how"])
            self.queue_win_effect(g, w, i, pair[w], fight, log)
        for s in (0, 1):
            g["carry"][s] = [CARRY.get(c, 0) if r < ROUNDS else 0 for c in cards[s]]
            g["used"][s] = sort_cards(g["used"][s] + cards[s])
        g["committed"] = [None, None]
        g["face_up"] = [None] * len(SLOTS)
        g["phase"] = "effects"

    def queue_win_effect(self, g, winner, slot, card, fight, log):
        """The win effects of the specials: 3+ scores at once; 2- and 3- are choices of
        their owner, resolved later from left to right."""
        if card == "3+" and fight["how"] == "strength" and \
                fight["strengths"][winner] - fight["strengths"][1 - winner] >= THREE_PLUS_MARGIN:
            g["bonus"][winner] += THREE_PLUS_POINTS
            log.public("{seat%d}'s 3+ won by %d or more: %d victory points" % (
                winner, THREE_PLUS_MARGIN, THREE_PLUS_POINTS), seat=winner,
                points=THREE_PLUS_POINTS)
        elif card == "2-":
            g["pending"].append({"seat": winner, "kind": "swap-domain", "slot": slot})
        elif card == "3-" and g["round"] < ROUNDS:
            # After the last round a swapped card could never be played: nothing to decide.
            g["pending"].append({"seat": winner, "kind": "swap-card", "slot": slot})

    def resolve_effects(self, g, log):
        """A round, step 4, then 5 and the next round: skip the optional effects that have no
        possible use, stop at the first that is a real choice; when none is left, check the
        elements and go on."""
        while g["pending"]:
            if self.effect_options(g, g["pending"][0]):
                return
            p = g["pending"].pop(0)
            log.public("{seat%d}'s %s in the %s slot has nothing to swap" % (
                p["seat"], "2-" if p["kind"] == "swap-domain" else "3-", SLOTS[p["slot"]]))
        if self.check_elements(g, log) or g["round"] == ROUNDS:
            g["phase"] = "over"
            return
        self.start_round(g, log)

    def swap_domain(self, g, seat, mine, theirs, log):
        g["domains"][seat].remove(mine)
        g["domains"][1 - seat].remove(theirs)
        g["domains"][seat] = sort_domains(g["domains"][seat] + [theirs])
        g["domains"][1 - seat] = sort_domains(g["domains"][1 - seat] + [mine])
        log.public("{seat%d} swaps their %s for {seat%d}'s %s" % (seat, mine, 1 - seat, theirs),
                   seat=seat, mine=mine, theirs=theirs)

    def swap_card(self, g, seat, hand_card, used_card, log):
        """The 3-: a hand card goes face up among the used cards, a used one back to hand."""
        g["hands"][seat].remove(hand_card)
        g["used"][seat].remove(used_card)
        g["hands"][seat] = sort_cards(g["hands"][seat] + [used_card])
        g["used"][seat] = sort_cards(g["used"][seat] + [hand_card])
        log.public("{seat%d} sets %s aside and takes back %s" % (seat, hand_card, used_card),
                   seat=seat, hand=hand_card, used=used_card)

    def check_elements(self, g, log) -> bool:
        """A round, step 5: all four elements win at once; both at once void the elements."""
        if g["elements_void"]:
            return False
        full = [s for s in (0, 1) if len(elements_of(g["domains"][s])) == len(ELEMENTS)]
        if len(full) == 2:
            g["elements_void"] = True
            log.public("both players show all four elements: elements are ignored from now on")
            return False
        if full:
            g["element_winner"] = full[0]
            log.public("{seat%d} shows all four elements and wins" % full[0], seat=full[0])
            return True
        return False

    # ------------------------------------------------------------ the end

    def outcome(self, g):
        if g["phase"] != "over":
            return None
        return self.final_result(g)

    def final_result(self, g) -> Outcome:
        """A round, step 6: the elements winner, else most points, then most domains."""
        scores = (points_of(g, 0), points_of(g, 1))
        if g["element_winner"] is not None:
            return Outcome((g["element_winner"],), scores, "all four elements")
        if scores[0] != scores[1]:
            return Outcome((0 if scores[0] > scores[1] else 1,), scores, "most victory points")
        counts = [len(g["domains"][s]) for s in (0, 1)]
        if counts[0] != counts[1]:
            return Outcome((0 if counts[0] > counts[1] else 1,), scores,
                           "equal points, more domains")
        return Outcome((0, 1), scores, "draw: equal points and domains")

    # ------------------------------------------------------------ view

    def view(self, g, seat):
        pending = g["pending"][0] if g["phase"] == "effects" else None
        return {
            "you": seat,
            "round": g["round"],
            "rounds": ROUNDS,
            "phase": g["phase"],
            "specials_mode": g["specials_mode"],
            "face_up": list(g["face_up"]),
            "pile_sizes": [len(p) for p in g["piles"]],
            "specials": sort_cards(g["specials"]),
            "hand": list(g["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in g["hands"]],
            "committed": [c is not None for c in g["committed"]],
            "my_cards": (list(g["committed"][seat])
                         if seat is not None and g["committed"][seat] is not None else None),
            "used": [list(u) for u in g["used"]],
            "carry": [list(c) for c in g["carry"]],
            "domains": [list(d) for d in g["domains"]],
            "elements": [elements_of(d) for d in g["domains"]],
            "points": [points_of(g, s) for s in (0, 1)],
            "bonus_points": list(g["bonus"]),
            "discarded": list(g["discarded"]),
            "elements_void": g["elements_void"],
            "battles": [{"round": b["round"], "slot": b["slot"], "domain": b["domain"],
                         "cards": list(b["cards"]), "strengths": list(b["strengths"]),
                         "bonuses": list(b["bonuses"]), "winner": b["winner"], "how": b["how"]}
                        for b in g["battles"]],
            "decision": (None if pending is None else
                         {"seat": pending["seat"], "kind": pending["kind"],
                          "slot": pending["slot"]}),
            "domain_table": [{"id": d, "element": e, "half": h, "points": p}
                             for d, e, p, h in DOMAINS],
        }

    # ------------------------------------------------------------ notation

    def parse(self, text):
        words = text.replace("\u2212", "-").lower().split()
        if not words:
            raise MalformedAction("the move is empty; write for example 'play 3+ 0 5'")
        kind, args = words[0], words[1:]
        if kind == "pass" and not args:
            return {"type": "pass"}
        if kind == "play":
            if len(args) != 3 or any(a not in CARD_RANK for a in args):
                raise MalformedAction(
                    f"cannot read {text!r}: write 'play L M R' with three cards for the left, "
                    "middle and right slots, e.g. 'play 3+ 0 5' (cards: "
                    + " ".join(CARD_ORDER) + ")")
            if len(set(args)) != 3:
                raise MalformedAction("each card can go before one slot only: "
                                      "write three different cards")
            return {"type": "play", "cards": args}
        if kind == "swap-domain":
            if len(args) != 2 or any(a not in DOMAIN_IDS for a in args):
                raise MalformedAction(
                    f"cannot read {text!r}: write 'swap-domain MINE THEIRS', e.g. "
                    "'swap-domain red4 blue2' (domains: " + " ".join(DOMAIN_IDS) + ")")
            return {"type": "swap-domain", "mine": args[0], "theirs": args[1]}
        if kind == "swap-card":
            if len(args) != 2 or any(a not in CARD_RANK for a in args):
                raise MalformedAction(
                    f"cannot read {text!r}: write 'swap-card HAND USED', e.g. 'swap-card 2 4' "
                    "(give up the hand card 2, take back the used card 4)")
            return {"type": "swap-card", "hand": args[0], "used": args[1]}
        raise MalformedAction(f"cannot read {text!r}: write 'play L M R', "
                              "'swap-domain MINE THEIRS', 'swap-card HAND USED' or 'pass'")

    def format(self, action):
        kind = action["type"]
        if kind == "play":
            cards = action["cards"]
            if not isinstance(cards, list) or len(cards) != 3 or \
                    any(not isinstance(c, str) or c not in CARD_RANK for c in cards):
                raise MalformedAction("a play has 'cards': a list of three cards "
                                      "(left, middle, right), e.g. [\"3+\", \"0\", \"5\"]")
            return "play " + " ".join(cards)
        if kind == "swap-domain":
            if action["mine"] not in DOMAIN_IDS or action["theirs"] not in DOMAIN_IDS:
                raise MalformedAction("swap-domain needs 'mine' and 'theirs', two domain ids")
            return f"swap-domain {action['mine']} {action['theirs']}"
        if kind == "swap-card":
            if action["hand"] not in CARD_RANK or action["used"] not in CARD_RANK:
                raise MalformedAction("swap-card needs 'hand' and 'used', two cards")
            return f"swap-card {action['hand']} {action['used']}"
        if kind == "pass":
            return "pass"
        raise MalformedAction(f"unknown action type {kind!r}; "
                              "the types are play, swap-domain, swap-card and pass")


# ---------------------------------------------------------------- bots

def _opponent_cards(view, me: int) -> list[str]:
    """The cards the opponent still holds (hand and face-down cards): everything they were
    dealt minus what they have used; all of it is public knowledge."""
    owned = list(BASE_CARDS) + list(view["specials"])
    for c in view["used"][1 - me]:
        owned.remove(c)
    return owned


def _card_worth(card: str) -> float:
    """A rough general strength of a card, used to keep strong cards for later."""
    return {"*": 2.5, "0": 1.0}.get(card, card_value(card) + 0.3 * card_symbol(card))


def _heuristic_play(view, legal, me):
    r = view["round"]
    opp = _opponent_cards(view, me)
    values = [DOMAIN_POINTS[d] for d in view["face_up"]]
    later = ROUNDS - r
    cache = {}

    def expect(slot, card, bonus):
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
                    if card == "3+" and f["how"] == "strength" and \
                            f["strengths"][0] - f["strengths"][1] >= THREE_PLUS_MARGIN:
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


def _heuristic_decision(view, legal, me):
    def gain(a):
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


def heuristic_bot(view, legal, rng):
    """Plays the triple with the best expected domain points against the opponent's
    remaining cards, less a cost for spending strong cards early; takes any swap that helps."""
    me = view["you"]
    if legal[0]["type"] == "play":
        return _heuristic_play(view, legal, me)
    return _heuristic_decision(view, legal, me)


def random_bot(view, legal, rng):
    return rng.choice(legal)


NineDomains.bots = {"random": random_bot, "heuristic": heuristic_bot}

GAME = NineDomains()
