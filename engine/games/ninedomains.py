"""The Nine Domains: two players bid cards, face down and at the same time, for three domains
a round over three rounds; all four elements win at once, otherwise the most points.

Rules: docs/games/rules/ninedomains.md (the copy of the rules text in this repository); the
seed 004_7263d34c41f9c066 (French help page) is the authority (see docs/games/ninedomains.md).
The sections of the rules map to the functions below: Setup: `setup`, `deal_specials`;
`start_round` (a round, step 1), `commit_cards` (step 2), `resolve_round` and `fight_slot`
(step 3, combat in one slot), `effect_winner` (combat step 1), `combat_bonuses` (the carried
and adjacent bonuses of the specials), `queue_win_effect`, `swap_domain`, `swap_card`,
`decline_effect` and `resolve_effects` (step 4), `check_elements` (step 5) and `final_result`
(step 6).

The state `g` (plain JSON): phase ("commit": the seats that have not laid their cards yet
choose them; "effects": the seat of `pending[0]` decides on an optional 2-/3- effect; "over"),
specials_mode (the option), round, piles (the face-down domains under each slot), face_up (the
domains at stake), special_deck (the kinds not dealt yet), specials (the kinds dealt), hands,
committed (per seat its face-down cards, or None), used (per seat its played cards), carry (per
seat the bonus carried to each slot), domains (per seat the domains won), discarded, bonus (per
seat its bonus points), pending (the optional effects to decide, in order), battles (every slot
fought), elements_void, element_winner.

Hidden information: each hand (a count for the others), the cards a seat has committed this
round until both have committed (only *that* it has committed is public), the order of the
domain piles under their face-up tops, and the special kinds not dealt yet.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any, NamedTuple

from engine.core import (
    OVER,
    Action,
    GameInfo,
    GameModule,
    InvalidOptions,
    Log,
    MalformedAction,
    Options,
    OptionSpec,
    Outcome,
    Phase,
    Rng,
    State,
    View,
)

# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------

SLOTS = ("left", "middle", "right")
SLOT_WORDS = ("on the left", "in the middle", "on the right")  # a card's place, in words
ROUNDS = 3


class Domain(NamedTuple):
    """One domain card. `half` marks the two half-purple domains; purple counts only with both
    halves."""

    id: str
    element: str | None
    points: int
    half: bool


# The domain deck [choice: the real values are not public]. Its 6-point domain shows a whole
# purple element, so that both players can reach all four elements in one round, as the page
# foresees; a game created before the option `full_purple` (or with it false) has `plain6`,
# which shows no element, instead.
DOMAINS = (
    Domain("red2", "red", 2, False),
    Domain("red4", "red", 4, False),
    Domain("blue2", "blue", 2, False),
    Domain("blue4", "blue", 4, False),
    Domain("green2", "green", 2, False),
    Domain("green4", "green", 4, False),
    Domain("purple3a", "purple", 3, True),
    Domain("purple3b", "purple", 3, True),
    Domain("purple6", "purple", 6, False),
    Domain("plain6", None, 6, False),
)
FULL_PURPLE_DECK = tuple(d.id for d in DOMAINS if d.id != "plain6")
PLAIN_DECK = tuple(d.id for d in DOMAINS if d.id != "purple6")
DOMAIN_IDS = tuple(d.id for d in DOMAINS)
DOMAIN_POINTS = {d.id: d.points for d in DOMAINS}
ELEMENTS = ("red", "blue", "green", "purple")
HALF_PURPLE = tuple(d.id for d in DOMAINS if d.half)

BASE_CARDS = ("0", "1", "2", "3", "4", "5")
SPECIAL_KINDS = ("1-", "1+", "2-", "2+", "3-", "3+", "4-", "4+", "*")
CARD_ORDER = BASE_CARDS + SPECIAL_KINDS
CARD_RANK = {c: i for i, c in enumerate(CARD_ORDER)}
CARD_SET = frozenset(CARD_ORDER)
SPECIALS_PER_DEAL = 3

# Pairings that a card's special effect decides, as (winner, loser). Besides these, the *
# loses to every card other than itself (see `effect_winner`).
EFFECT_WINS = frozenset(
    {
        ("0", "5"),
        ("1", "4-"),
        ("*", "4-"),
        ("*", "3"),
        ("*", "4"),
        ("*", "5"),
    }
)
# Bonus a card gives to its owner's card in the same slot next round (1+, 2+, 4+).
CARRY = {"1+": 2, "2+": 1, "4+": -1}
FOUR_PLUS_LAST_ROUND = -2  # the 4+ played in round 3 has -2 itself
ONE_MINUS_BONUS = {1: 2, 2: 1}  # by the number of neighbours of the 1-'s slot
THREE_PLUS_POINTS = 7
THREE_PLUS_MARGIN = 2

SPECIALS_MODES = ("per_game", "per_round")
# What decided a slot (see `fight_slot`), and the optional effects a winner decides on.
FIGHT_DECIDERS = ("effect", "strength", "bonus", "identical", "symbol")
EFFECT_KINDS = ("swap-domain", "swap-card")
PHASES = ("commit", "effects", "over")
ACTION_TYPES = ("play", "swap-domain", "swap-card", "pass")

INFO = GameInfo(
    name="ninedomains",
    title="The Nine Domains",
    min_players=2,
    max_players=2,
    rules_version="1",
    options={
        "specials": OptionSpec(
            "per_game",
            "per_game: three special kinds for the whole game (hands of 9, all played); "
            "per_round: three new special kinds dealt each round (9 of 15 cards played)",
            choices=SPECIALS_MODES,
        ),
        "full_purple": OptionSpec(
            True,
            "true: the 6-point domain shows a whole purple element, so both players can reach "
            "all four elements in the same round, as the page foresees, and the four elements "
            "win about three times as often (in 31 random games of 100, against 10); false: it "
            "shows no element (this server's deck until 2026-11-24)",
            choices=(False, True),
            kind=bool,
        ),
    },
    notation=(
        "play L M R: your cards for the left, middle and right slots, e.g. play 3+ 0 5",
        "swap-domain MINE THEIRS: after a winning 2-, swap domains, e.g. swap-domain red4 blue2",
        "swap-card HAND USED: after a winning 3-, swap a hand card for a used one, "
        "e.g. swap-card 2 4",
        "pass: decline the optional effect of your winning 2- or 3-",
    ),
    field_words={
        "cards.0": "left slot",
        "cards.1": "middle slot",
        "cards.2": "right slot",
        "hand": "card from your hand",
        "used": "used card",
        "mine": "your domain",
        "theirs": "their domain",
    },
)


def card_value(card: str) -> int:
    """The printed strength; the * has none (modifiers do not count for it)."""
    return 0 if card == "*" else int(card[0])


def card_symbol(card: str) -> int:
    """+1 for a '+' card, -1 for a '-' card, 0 for a base card (which sits between)."""
    return {"+": 1, "-": -1}.get(card[-1], 0)


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=CARD_RANK.__getitem__)


def sort_domains(domains: list[str]) -> list[str]:
    return sorted(domains, key=DOMAIN_IDS.index)


def elements_of(domains: list[str]) -> list[str]:
    """The elements a set of domains shows: purple only with both half-purple domains."""
    have = {d.element for d in DOMAINS if d.id in domains and d.element and not d.half}
    if all(h in domains for h in HALF_PURPLE):
        have.add("purple")
    return [e for e in ELEMENTS if e in have]


def deck_of(g: State) -> tuple[str, ...]:
    """The game's nine domains: the 6-point one is `purple6` or `plain6`, whichever it holds."""
    everywhere = [d for pile in g["piles"] for d in pile] + g["face_up"] + g["discarded"]
    everywhere += [d for seat in g["domains"] for d in seat]
    return PLAIN_DECK if "plain6" in everywhere else FULL_PURPLE_DECK


def points_of(g: State, seat: int) -> int:
    return sum(DOMAIN_POINTS[d] for d in g["domains"][seat]) + g["bonus"][seat]


def effect_card(kind: str) -> str:
    """The special card whose win gives an optional effect of this kind."""
    return "2-" if kind == "swap-domain" else "3-"


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


def setup(n: int, options: Options, rng: Rng, log: Log) -> State:
    """The domains shuffled into three piles, the special kinds shuffled; round 1 begins."""
    if n != 2:
        raise InvalidOptions("The Nine Domains is played by 2 players")
    mode = options.get("specials", "per_game")
    if mode not in SPECIALS_MODES:
        raise InvalidOptions(
            f"option specials cannot be {mode!r}; choose one of: {', '.join(SPECIALS_MODES)}"
        )
    deck = list(FULL_PURPLE_DECK if options.get("full_purple", False) else PLAIN_DECK)
    rng.shuffle(deck)
    kinds = list(SPECIAL_KINDS)
    rng.shuffle(kinds)
    g = {
        "specials_mode": mode,
        "round": 0,
        "phase": "commit",
        "piles": [deck[3 * i : 3 * i + 3] for i in range(len(SLOTS))],
        "face_up": [None] * len(SLOTS),
        "special_deck": kinds,
        "specials": [],
        "hands": [list(BASE_CARDS), list(BASE_CARDS)],
        "committed": [None, None],
        "used": [[], []],
        "carry": [[0] * len(SLOTS), [0] * len(SLOTS)],
        "domains": [[], []],
        "discarded": [],
        "bonus": [0, 0],
        "pending": [],
        "battles": [],
        "elements_void": False,
        "element_winner": None,
    }
    log.public("the nine domains are dealt face down into three piles of three")
    if mode == "per_game":
        deal_specials(g, log)
    start_round(g, log)
    return g


def deal_specials(g: State, log: Log) -> None:
    """Both players get the same three kinds, the next ones of the hidden kind deck."""
    kinds = g["special_deck"][:SPECIALS_PER_DEAL]
    del g["special_deck"][:SPECIALS_PER_DEAL]
    g["specials"] += kinds
    for s in (0, 1):
        g["hands"][s] = sort_cards(g["hands"][s] + kinds)
    log.public(
        "both players receive the special cards " + " ".join(sort_cards(kinds)),
        specials=sort_cards(kinds),
    )


def start_round(g: State, log: Log) -> None:
    """A round, step 1: the top domain of each pile turns face up."""
    g["round"] += 1
    g["phase"] = "commit"
    g["face_up"] = [pile.pop(0) for pile in g["piles"]]
    log.public(
        f"round {g['round']}: the domains at stake are "
        + ", ".join(f"{d} ({slot})" for slot, d in zip(SLOTS, g["face_up"])),
        round=g["round"],
        face_up=list(g["face_up"]),
    )
    if g["specials_mode"] == "per_round":
        deal_specials(g, log)


# ---------------------------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------------------------


def phase_of(g: State) -> str:
    return g["phase"]


# -- phase "commit": both seats lay a card before each slot, face down, at the same time


def uncommitted_seats(g: State) -> frozenset[int]:
    return frozenset(s for s in (0, 1) if g["committed"][s] is None)


def commit_actions(g: State, seat: int) -> list[Action]:
    # The hand is kept in card order, so the permutations come out sorted.
    return [{"type": "play", "cards": list(p)} for p in permutations(g["hands"][seat], 3)]


def notated_commit_actions(g: State, seat: int) -> list[tuple[str, Action]]:
    """commit_actions with their notation, written from the cards without checking them."""
    return [
        (f"play {a} {b} {c}", {"type": "play", "cards": [a, b, c]})
        for a, b, c in permutations(g["hands"][seat], 3)
    ]


def is_commit_legal(g: State, seat: int, action: Action) -> bool:
    """Whether `action` is among commit_actions, without listing the 504 of an opening: three
    cards of the hand, each at most as often as the hand holds it."""
    if not isinstance(action, dict) or set(action) != {"type", "cards"}:
        return False
    cards = action["cards"]
    return (
        action["type"] == "play"
        and isinstance(cards, list)
        and len(cards) == 3
        and all(isinstance(c, str) for c in cards)
        and not Counter(cards) - Counter(g["hands"][seat])
    )


def commit_choice(g: State, seat: int) -> list[str]:
    """What decides a seat's commit_actions: its hand."""
    hand: list[str] = g["hands"][seat]
    return hand


def commit_cards(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """A round, step 2: a seat lays one card face down before each slot; once both have,
    the round is fought."""
    cards = action["cards"]
    for c in cards:
        g["hands"][seat].remove(c)
    g["committed"][seat] = list(cards)
    log.private(
        seat,
        "you lay face down " + ", ".join(f"{c} ({slot})" for slot, c in zip(SLOTS, cards)),
        cards=list(cards),
    )
    log.public("{seat%d} has laid their three cards face down" % seat, but=[seat])
    if all(c is not None for c in g["committed"]):
        resolve_round(g, log)
        resolve_effects(g, log)


def resolve_round(g: State, log: Log) -> None:
    """A round, step 3: reveal, fight each slot, the winner takes the domain face up."""
    cards = g["committed"]
    r = g["round"]
    log.public(
        "the cards are revealed: {seat0} " + " ".join(cards[0]) + ", {seat1} " + " ".join(cards[1]),
        cards=[list(c) for c in cards],
    )
    bonuses = [combat_bonuses(cards[s], g["carry"][s], r) for s in (0, 1)]
    for i in range(len(SLOTS)):
        fight_for_domain(g, i, [cards[0][i], cards[1][i]], [bonuses[0][i], bonuses[1][i]], log)
    for s in (0, 1):
        g["carry"][s] = [CARRY.get(c, 0) if r < ROUNDS else 0 for c in cards[s]]
        g["used"][s] = sort_cards(g["used"][s] + cards[s])
    g["committed"] = [None, None]
    g["face_up"] = [None] * len(SLOTS)
    g["phase"] = "effects"


def fight_for_domain(g: State, i: int, pair: list[str], bonuses: list[int], log: Log) -> None:
    """Slot `i`'s fight: its winner takes the domain; identical cards discard it."""
    slot = SLOTS[i]
    domain = g["face_up"][i]
    fight = fight_slot(pair, bonuses)
    w = fight["winner"]
    g["battles"].append({"round": g["round"], "slot": i, "domain": domain, "cards": pair, **fight})
    if w is None:
        g["discarded"].append(domain)
        log.public(
            f"{slot}: {pair[0]} against {pair[1]}, identical cards: {domain} leaves the game",
            slot=i,
            domain=domain,
        )
        return
    g["domains"][w] = sort_domains(g["domains"][w] + [domain])
    log.public(
        "%s: {seat0} %s (strength %d) against {seat1} %s (strength %d), "
        "decided by %s: {seat%d} takes %s"
        % (
            slot,
            pair[0],
            fight["strengths"][0],
            pair[1],
            fight["strengths"][1],
            fight["how"],
            w,
            domain,
        ),
        slot=i,
        domain=domain,
        winner=w,
        how=fight["how"],
    )
    queue_win_effect(g, w, i, pair[w], fight, log)


def queue_win_effect(
    g: State, winner: int, slot: int, card: str, fight: dict[str, Any], log: Log
) -> None:
    """The win effects of the specials: 3+ scores at once; 2- and 3- are choices of
    their owner, resolved later from left to right."""
    if (
        card == "3+"
        and fight["how"] == "strength"
        and fight["strengths"][winner] - fight["strengths"][1 - winner] >= THREE_PLUS_MARGIN
    ):
        g["bonus"][winner] += THREE_PLUS_POINTS
        log.public(
            "{seat%d}'s 3+ won by %d or more: %d victory points"
            % (winner, THREE_PLUS_MARGIN, THREE_PLUS_POINTS),
            seat=winner,
            points=THREE_PLUS_POINTS,
        )
    elif card == "2-":
        g["pending"].append({"seat": winner, "kind": "swap-domain", "slot": slot})
    elif card == "3-" and g["round"] < ROUNDS:
        # After the last round a swapped card could never be played: nothing to decide.
        g["pending"].append({"seat": winner, "kind": "swap-card", "slot": slot})


# -- phase "effects": the winner of a 2- or 3- decides on its optional effect, left to right


def deciding_seat(g: State) -> frozenset[int]:
    return frozenset([g["pending"][0]["seat"]])


def effect_actions(g: State, seat: int) -> list[Action]:
    return [{"type": "pass"}] + effect_options(g, g["pending"][0])


def effect_options(g: State, pending: dict[str, Any]) -> list[Action]:
    """The swaps the pending effect allows (none: it has nothing to swap)."""
    seat = pending["seat"]
    if pending["kind"] == "swap-domain":
        return [
            {"type": "swap-domain", "mine": m, "theirs": t}
            for m in g["domains"][seat]
            for t in g["domains"][1 - seat]
        ]
    return [
        {"type": "swap-card", "hand": h, "used": u}
        for h in g["hands"][seat]
        for u in g["used"][seat]
    ]


def decline_effect(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    pending = g["pending"].pop(0)
    log.public(
        "{seat%d} does not use the %s of the %s slot"
        % (seat, effect_card(pending["kind"]), SLOTS[pending["slot"]])
    )
    resolve_effects(g, log)


def swap_domain(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """The 2-: a domain of the winner's for one of the opponent's."""
    g["pending"].pop(0)
    mine, theirs = action["mine"], action["theirs"]
    g["domains"][seat].remove(mine)
    g["domains"][1 - seat].remove(theirs)
    g["domains"][seat] = sort_domains(g["domains"][seat] + [theirs])
    g["domains"][1 - seat] = sort_domains(g["domains"][1 - seat] + [mine])
    log.public(
        "{seat%d} swaps their %s for {seat%d}'s %s" % (seat, mine, 1 - seat, theirs),
        seat=seat,
        mine=mine,
        theirs=theirs,
    )
    resolve_effects(g, log)


def swap_card(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """The 3-: a hand card goes face up among the used cards, a used one back to hand."""
    g["pending"].pop(0)
    hand_card, used_card = action["hand"], action["used"]
    g["hands"][seat].remove(hand_card)
    g["used"][seat].remove(used_card)
    g["hands"][seat] = sort_cards(g["hands"][seat] + [used_card])
    g["used"][seat] = sort_cards(g["used"][seat] + [hand_card])
    log.public(
        "{seat%d} sets %s aside and takes back %s" % (seat, hand_card, used_card),
        seat=seat,
        hand=hand_card,
        used=used_card,
    )
    resolve_effects(g, log)


def resolve_effects(g: State, log: Log) -> None:
    """A round, step 4, then 5 and the next round: skip the optional effects that have no
    possible use, stop at the first that is a real choice; when none is left, check the
    elements and go on."""
    while g["pending"]:
        if effect_options(g, g["pending"][0]):
            return
        p = g["pending"].pop(0)
        log.public(
            "{seat%d}'s %s in the %s slot has nothing to swap"
            % (p["seat"], effect_card(p["kind"]), SLOTS[p["slot"]])
        )
    if check_elements(g, log) or g["round"] == ROUNDS:
        g["phase"] = "over"
        return
    start_round(g, log)


# -- takebacks (engine.match.can_take_back)


def reveals_nothing(before: State, seat: int, action: Action, after: State) -> bool:
    """The first of the two face-down commits of a round, or a 2- or 3- decided while others
    are still due: the second commit reveals both, and the round's end deals the next round's
    domains and kinds from hidden piles."""
    return after["round"] == before["round"] and after["phase"] == before["phase"]


PHASE_RULES = {
    "commit": Phase(
        uncommitted_seats,
        commit_actions,
        {"play": commit_cards},
        is_legal=is_commit_legal,
        choice_key=commit_choice,
        notated=notated_commit_actions,
    ),
    "effects": Phase(
        deciding_seat,
        effect_actions,
        {"pass": decline_effect, "swap-domain": swap_domain, "swap-card": swap_card},
    ),
    "over": OVER,
}


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


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


def fight_slot(cards: list[str], bonuses: list[int]) -> dict[str, Any]:
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


def check_elements(g: State, log: Log) -> bool:
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


def outcome(g: State) -> Outcome | None:
    if g["phase"] != "over":
        return None
    return final_result(g)


def final_result(g: State) -> Outcome:
    """A round, step 6: the elements winner, else most points, then most domains."""
    scores = (points_of(g, 0), points_of(g, 1))
    if g["element_winner"] is not None:
        return Outcome((g["element_winner"],), scores, "all four elements")
    if scores[0] != scores[1]:
        return Outcome((0 if scores[0] > scores[1] else 1,), scores, "most victory points")
    counts = [len(g["domains"][s]) for s in (0, 1)]
    if counts[0] != counts[1]:
        return Outcome((0 if counts[0] > counts[1] else 1,), scores, "equal points, more domains")
    return Outcome((0, 1), scores, "draw: equal points and domains")


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------


def parse(text: str) -> Action:
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
                "middle and right slots, e.g. 'play 3+ 0 5' (cards: " + " ".join(CARD_ORDER) + ")"
            )
        if len(set(args)) != 3:
            raise MalformedAction(
                "each card can go before one slot only: write three different cards"
            )
        return {"type": "play", "cards": args}
    if kind == "swap-domain":
        if len(args) != 2 or any(a not in DOMAIN_IDS for a in args):
            raise MalformedAction(
                f"cannot read {text!r}: write 'swap-domain MINE THEIRS', e.g. "
                "'swap-domain red4 blue2' (domains: " + " ".join(DOMAIN_IDS) + ")"
            )
        return {"type": "swap-domain", "mine": args[0], "theirs": args[1]}
    if kind == "swap-card":
        if len(args) != 2 or any(a not in CARD_RANK for a in args):
            raise MalformedAction(
                f"cannot read {text!r}: write 'swap-card HAND USED', e.g. 'swap-card 2 4' "
                "(give up the hand card 2, take back the used card 4)"
            )
        return {"type": "swap-card", "hand": args[0], "used": args[1]}
    raise MalformedAction(
        f"cannot read {text!r}: write 'play L M R', "
        "'swap-domain MINE THEIRS', 'swap-card HAND USED' or 'pass'"
    )


def format_action(action: Action) -> str:
    kind = action["type"]
    if kind == "play":
        cards = action["cards"]
        try:  # one set test per action: the legal list formats 504 of them at an opening
            valid = isinstance(cards, list) and len(cards) == 3 and CARD_SET.issuperset(cards)
        except TypeError:  # an unhashable value among the cards
            valid = False
        if not valid:
            raise MalformedAction(
                "a play has 'cards': a list of three cards "
                '(left, middle, right), e.g. ["3+", "0", "5"]'
            )
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
    raise MalformedAction(
        f"unknown action type {kind!r}; the types are play, swap-domain, swap-card and pass"
    )


def describe(view: View, action: Action) -> str:
    """The action in words, as the seat of `view` makes it: a play names each card with its
    slot and the domain at stake there."""
    kind = action["type"]
    if kind == "play":  # written out, not joined: an opening has 504 of them
        cards, domains = action["cards"], view["face_up"]
        return (
            f"Play {cards[0]} {SLOT_WORDS[0]} ({domains[0]}), {cards[1]} {SLOT_WORDS[1]} "
            f"({domains[1]}), {cards[2]} {SLOT_WORDS[2]} ({domains[2]})"
        )
    if kind == "swap-domain":
        opponent = "{seat%d}" % (1 - view["you"])
        return f"Swap your {action['mine']} for {opponent}'s {action['theirs']}"
    if kind == "swap-card":
        return f"Set your {action['hand']} aside and take back your used {action['used']}"
    decision = view["decision"]
    return "Do not use your %s %s" % (
        effect_card(decision["kind"]),
        SLOT_WORDS[decision["slot"]],
    )


# ---------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------


def view(g: State, seat: int | None) -> View:
    """Whitelisted: hands are counts but for the seat's own; committed cards show only that
    they are committed until both are revealed; piles are counts."""
    pending = g["pending"][0] if g["phase"] == "effects" else None
    deck = deck_of(g)
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
        "my_cards": (
            list(g["committed"][seat])
            if seat is not None and g["committed"][seat] is not None
            else None
        ),
        "used": [list(u) for u in g["used"]],
        "carry": [list(c) for c in g["carry"]],
        "domains": [list(d) for d in g["domains"]],
        "elements": [elements_of(d) for d in g["domains"]],
        "points": [points_of(g, s) for s in (0, 1)],
        "bonus_points": list(g["bonus"]),
        "discarded": list(g["discarded"]),
        "elements_void": g["elements_void"],
        "battles": [
            {
                "round": b["round"],
                "slot": b["slot"],
                "domain": b["domain"],
                "cards": list(b["cards"]),
                "strengths": list(b["strengths"]),
                "bonuses": list(b["bonuses"]),
                "winner": b["winner"],
                "how": b["how"],
            }
            for b in g["battles"]
        ],
        "decision": (
            None
            if pending is None
            else {"seat": pending["seat"], "kind": pending["kind"], "slot": pending["slot"]}
        ),
        "domain_table": [
            {"id": d, "element": e, "half": h, "points": p} for d, e, p, h in DOMAINS if d in deck
        ],
    }


# ---------------------------------------------------------------------------------------------
# The game object
# ---------------------------------------------------------------------------------------------

GAME = GameModule(
    INFO,
    setup=setup,
    phase_of=phase_of,
    phases=PHASE_RULES,
    outcome=outcome,
    view=view,
    parse=parse,
    format=format_action,
    describe=describe,
    reveals_nothing=reveals_nothing,
)
