"""Con Sonar! (Exequor Studios): hunt the other nations' submarines, keep your own alive.

2 to 6 players. Rules: docs/games/rules/consonar.md (the copy of the rules text in this
repository); the Italian seed page is the authority (see docs/games/consonar.md).

Twelve submarines (two per nation) sit on a ladder of 8 rungs. On a turn a player plays at
least one Fleet card (each moves a submarine of the card's colour), may queue more cards as
long as they connect (previous arrow symbol = new card's own symbol), and then may use the
face-up Torpedo Strike card whose symbol the last arrow points to: defuse it if it is of the
player's own colour, or fire it at a submarine of its colour (a d8 per torpedo, a roll below
the rung hits). Instead that card may be put at the bottom of the Torpedo deck.

The rules map to functions here: Setup: `setup`; a turn, steps 1 and 2: `fleet_movement`
(phase "fleet", then "queue"); step 3: `torpedo_strike`, `defuse`, `delay`, `end_turn`,
`torpedo_choices`; step 4: `end_of_turn`, `refill_hand`, `next_seat`; scoring: `score`,
`colour_groups`; a player leaving: `remove_seat`.

A turn is several actions by the same seat: `fleet` (one card), then more `fleet`, and finally
one of `torpedo`, `defuse`, `delay` or `end`. `split_turn` cuts a one-line whole turn (for play
by email) into those single steps.

The state `g` (plain JSON): n, nations (per seat its colour), removed (seats that left),
subs (submarine -> rung, None once sunk), hands (per seat its Fleet cards, sorted),
fleet_deck, fleet_discard, torpedo_row (the face-up Torpedo cards), torpedo_deck,
torpedo_removed (defused), torpedo_discard (that sank a submarine), sunk and misses (per seat
its scoring area), current (whose turn), turn (its number), played (the Fleet cards of this
turn: {"card", "sub", "from", "to"}), last_strike, end_subs_left (the option), over (why the
game ended, else None), and the options delay_any_card and own_colour_wild (absent from a game
created before them, which keeps the rules it began with: any card delayed, own colour never
fired). The phase is not stored: `phase_of` reads it from `over` and `played`.

Identifiers (also the notation): colours b g o p r y (blue, green, orange, purple, red,
yellow); submarine `r1` starts on rung 2 and `r2` on rung 4; Fleet card `r+2` (colour, value);
Torpedo card `b2` (colour, number of torpedoes).
"""

from __future__ import annotations

import re
from typing import Any, TypedDict

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
    best_scores,
)

# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------

COLOURS = ("b", "g", "o", "p", "r", "y")
COLOUR_NAMES = {"b": "blue", "g": "green", "o": "orange", "p": "purple", "r": "red", "y": "yellow"}

# The six ship symbols in arrow order: every Fleet card's arrow points to the next one.
SYMBOLS = ("destroyer", "carrier", "pt", "frigate", "sub", "transport")
ARROW = {s: SYMBOLS[(i + 1) % 6] for i, s in enumerate(SYMBOLS)}

FLEET_VALUES = (-1, 2, -3, 4, -5, 6)
# Own symbol of each Fleet card, per colour, in the order of FLEET_VALUES (the published table).
FLEET_SYMBOLS = {
    "b": ("transport", "destroyer", "carrier", "pt", "frigate", "sub"),
    "g": ("destroyer", "carrier", "pt", "frigate", "sub", "transport"),
    "o": ("carrier", "pt", "frigate", "sub", "transport", "destroyer"),
    "p": ("pt", "frigate", "sub", "transport", "destroyer", "carrier"),
    "r": ("frigate", "sub", "transport", "destroyer", "carrier", "pt"),
    "y": ("sub", "transport", "destroyer", "carrier", "pt", "frigate"),
}
# Symbol of each Torpedo Strike card, per colour, for 1, 2 and 3 torpedoes.
TORPEDO_SYMBOLS = {
    "b": ("pt", "carrier", "destroyer"),
    "g": ("frigate", "pt", "carrier"),
    "o": ("sub", "frigate", "pt"),
    "p": ("transport", "sub", "frigate"),
    "r": ("destroyer", "transport", "sub"),
    "y": ("carrier", "destroyer", "transport"),
}


def _fleet_id(colour: str, value: int) -> str:
    return f"{colour}{value:+d}"


FLEET_CARDS = tuple(_fleet_id(c, v) for c in COLOURS for v in FLEET_VALUES)  # 36


class FleetCard(TypedDict):
    card: str
    colour: str
    value: int
    symbol: str
    arrow: str


class TorpedoCard(TypedDict):
    card: str
    colour: str
    torpedoes: int
    symbol: str


FLEET_INFO: dict[str, FleetCard] = {
    _fleet_id(c, v): {
        "card": _fleet_id(c, v),
        "colour": c,
        "value": v,
        "symbol": FLEET_SYMBOLS[c][i],
        "arrow": ARROW[FLEET_SYMBOLS[c][i]],
    }
    for c in COLOURS
    for i, v in enumerate(FLEET_VALUES)
}

TORPEDO_COUNTS = (1, 2, 3)
TORPEDO_CARDS = tuple(f"{c}{t}" for c in COLOURS for t in TORPEDO_COUNTS)  # 18
TORPEDO_INFO: dict[str, TorpedoCard] = {
    f"{c}{t}": {"card": f"{c}{t}", "colour": c, "torpedoes": t, "symbol": TORPEDO_SYMBOLS[c][t - 1]}
    for c in COLOURS
    for t in TORPEDO_COUNTS
}

SUBS = tuple(f"{c}{k}" for c in COLOURS for k in (1, 2))  # 12
START_RUNG = {1: 2, 2: 4}  # submarine 1 of each colour on rung 2, submarine 2 on rung 4
LOW, HIGH = 1, 8  # rung 1 is the deepest (never hit), rung 8 the most exposed
DIE = 8
HAND = 3
ROW = 3

END_SUBS_CHOICES = tuple(range(0, 11))
PHASES = ("fleet", "queue", "over")
ACTION_TYPES = ("fleet", "torpedo", "defuse", "delay", "end")

# The identifiers' shapes, as regular expressions (the notation and the API schemas use them).
_COLOUR_CLASS = "[" + "".join(COLOURS) + "]"
SUB_PATTERN = f"^{_COLOUR_CLASS}[12]$"
TORPEDO_CARD_PATTERN = f"^{_COLOUR_CLASS}[123]$"
FLEET_CARD_PATTERN = (
    f"^{_COLOUR_CLASS}(" + "|".join(f"{v:+d}".replace("+", "\\+") for v in FLEET_VALUES) + ")$"
)

INFO = GameInfo(
    name="consonar",
    title="Con Sonar!",
    min_players=2,
    max_players=6,
    rules_version="1",
    options={
        "end_subs_left": OptionSpec(
            0,
            "the game ends when this many submarines or fewer are left on the ladder "
            "(0: all sunk, as the seed says; 2: the site's English page)",
            choices=END_SUBS_CHOICES,
            kind=int,
        ),
        "delay_any_card": OptionSpec(
            False,
            "false: a delay puts under the deck only a Torpedo card the last arrow points to, "
            "the card you could play or defuse (the page: 'instead of playing or removing a TS "
            "card'); true: any face-up Torpedo card",
            choices=(False, True),
            kind=bool,
        ),
        "own_colour_wild": OptionSpec(
            False,
            "false: a Torpedo card of your own colour may only be removed (defused) or delayed, "
            "as the game's page says; true: once both your submarines are sunk, it may also be "
            "fired, at any submarine, like a colour with no submarine left (the site's English "
            "page)",
            choices=(False, True),
            kind=bool,
        ),
    },
    notation=(
        "fleet CARD@SUB: play a Fleet card (colour b g o p r y and value -1 +2 -3 +4 -5 +6) "
        "moving a submarine (colour and 1 or 2), e.g. fleet r+2@r1",
        "torpedo CARD@SUB: fire the Torpedo card (colour and 1-3 torpedoes) the last arrow "
        "points to at a submarine, e.g. torpedo b2@y1",
        "defuse CARD: remove a Torpedo card of your own colour from the game, e.g. defuse r1",
        "delay CARD: put the Torpedo card the last arrow points to at the bottom of the Torpedo "
        "deck, e.g. delay p3",
        "end: end the turn without a Torpedo action (pass-torpedo is the same), e.g. end",
        "a whole turn on one line (by email): steps separated by ';', several Fleet cards after "
        "one 'fleet', e.g. fleet r+2@r1 g-3@g2; torpedo b2@y1",
    ),
    field_words={"card": "card", "sub": "submarine"},
)


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


def setup(n: int, options: Options, rng: Rng, log: Log) -> State:
    """Nations dealt at random, 3 Fleet cards each, 3 Torpedo cards face up, first player drawn."""
    k = end_subs_left(n, options)
    colours = list(COLOURS)
    rng.shuffle(colours)
    nations = colours[:n]
    fleet = list(FLEET_CARDS)
    rng.shuffle(fleet)
    torpedoes = list(TORPEDO_CARDS)
    rng.shuffle(torpedoes)
    g: State = {
        "n": n,
        "nations": nations,
        "removed": [],
        "subs": {s: START_RUNG[int(s[1])] for s in SUBS},
        "hands": [],
        "fleet_deck": fleet,
        "fleet_discard": [],
        "torpedo_row": torpedoes[:ROW],
        "torpedo_deck": torpedoes[ROW:],
        "torpedo_removed": [],
        "torpedo_discard": [],
        "sunk": [[] for _ in range(n)],
        "misses": [[] for _ in range(n)],
        "current": rng.below(n),
        "turn": 1,
        "played": [],
        "last_strike": None,
        "end_subs_left": k,
        "over": None,
    }
    for rule in ("delay_any_card", "own_colour_wild"):
        if rule in options:
            g[rule] = options[rule]
    log.public(
        "nations: "
        + ", ".join("%s for {seat%d}" % (COLOUR_NAMES[c], s) for s, c in enumerate(nations)),
        nations=nations,
    )
    for s in range(n):
        g["hands"].append(sorted(fleet[HAND * s : HAND * s + HAND]))
        log.public("{seat%d} is dealt %d Fleet cards" % (s, HAND), but=[s], seat=s, count=HAND)
        log.private(s, "you were dealt " + " ".join(g["hands"][s]), cards=g["hands"][s])
    del fleet[: HAND * n]
    log.public("face-up Torpedo cards: " + " ".join(g["torpedo_row"]), row=g["torpedo_row"])
    log.public("{seat%d} plays first" % g["current"], seat=g["current"])
    return g


def end_subs_left(n: int, options: Options) -> int:
    """The option, checked again here for a caller that skips `engine.match.start`."""
    if not 2 <= n <= 6:
        raise InvalidOptions(f"Con Sonar! is played by 2 to 6 players, not {n}")
    k = options.get("end_subs_left", 0)
    if isinstance(k, bool) or not isinstance(k, int) or k not in END_SUBS_CHOICES:
        raise InvalidOptions("option end_subs_left must be a whole number from 0 to 10")
    return k


# ---------------------------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------------------------


def phase_of(g: State) -> str:
    """ "fleet" before the turn's first Fleet card, "queue" after it, "over" at the end."""
    if g["over"] is not None:
        return "over"
    return "queue" if g["played"] else "fleet"


def current_player(g: State) -> frozenset[int]:
    return frozenset((g["current"],))


def alive(g: State) -> list[str]:
    """Submarines still on the ladder, in fixed order."""
    return [s for s in SUBS if g["subs"][s] is not None]


def targets_of_colour(g: State, colour: str) -> list[str]:
    """The submarines a card of `colour` may move or hit: that colour's, or any if none is left."""
    subs = g["subs"]
    own = [s for s in (colour + "1", colour + "2") if subs[s] is not None]
    return own or alive(g)


def last_arrow(g: State) -> str | None:
    """The arrow symbol of the last Fleet card played this turn (None before the first)."""
    return FLEET_INFO[g["played"][-1]["card"]]["arrow"] if g["played"] else None


def neutral_colours(g: State) -> list[str]:
    held = {g["nations"][s] for s in range(g["n"]) if s not in g["removed"]}
    return [c for c in COLOURS if c not in held]


def connecting_fleet(g: State, seat: int, arrow: str | None) -> list[Action]:
    """The Fleet cards `seat` may play now (any before the first; after it, those whose own
    symbol the last arrow points to), each at every submarine it may move."""
    fleet: list[Action] = []
    for card in g["hands"][seat]:  # hands are kept sorted
        info = FLEET_INFO[card]
        if arrow is None or info["symbol"] == arrow:
            fleet.extend(
                {"type": "fleet", "card": card, "sub": sub}
                for sub in targets_of_colour(g, info["colour"])
            )
    return fleet


# -- phase "fleet": the turn's first Fleet card


def fleet_actions(g: State, seat: int) -> list[Action]:
    return connecting_fleet(g, seat, None)


def fleet_movement(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Steps 1 and 2: play a Fleet card and move a submarine by its value, stopping at 1 and 8."""
    card, sub = action["card"], action["sub"]
    g["hands"][seat].remove(card)
    value = FLEET_INFO[card]["value"]
    before = g["subs"][sub]
    after = min(HIGH, max(LOW, before + value))
    g["subs"][sub] = after
    g["played"].append({"card": card, "sub": sub, "from": before, "to": after})
    moved = (
        f"moving {sub} from rung {before} to {after}"
        if after != before
        else f"{sub} stays on rung {before}"
    )
    log.public(
        "{seat%d} plays %s, %s" % (seat, card, moved),
        seat=seat,
        card=card,
        sub=sub,
        rung_from=before,
        rung_to=after,
    )


# -- phase "queue": more connecting Fleet cards, or the Torpedo step that ends the turn


def queue_actions(g: State, seat: int) -> list[Action]:
    """Built in sorted order: defuse, delay, end, fleet, torpedo; then card, then sub."""
    arrow = last_arrow(g)
    assert arrow is not None, "the queue phase follows a Fleet card"
    return torpedo_choices(g, seat, arrow, connecting_fleet(g, seat, arrow))


def torpedo_choices(g: State, seat: int, arrow: str, fleet: list[Action]) -> list[Action]:
    """Step 3, once a Fleet card is down: the face-up Torpedo cards showing the last arrow's
    symbol may be fired (at a submarine of their colour, any if none is left), defused (your
    own colour) or delayed (with the option `delay_any_card`, any face-up card may be
    delayed); or the turn ends. `fleet` (the connecting cards) goes in between."""
    own = g["nations"][seat]
    own_wild = g.get("own_colour_wild", False) and not [
        s for s in (own + "1", own + "2") if g["subs"][s] is not None
    ]
    defuses: list[Action] = []
    delays: list[Action] = []
    torpedoes: list[Action] = []
    for card in sorted(g["torpedo_row"]):
        info = TORPEDO_INFO[card]
        opened = info["symbol"] == arrow
        if opened and info["colour"] == own:
            defuses.append({"type": "defuse", "card": card})
        if opened and (info["colour"] != own or own_wild):
            torpedoes.extend(
                {"type": "torpedo", "card": card, "sub": sub}
                for sub in targets_of_colour(g, info["colour"])
            )
        if opened or g.get("delay_any_card", True):
            delays.append({"type": "delay", "card": card})
    return defuses + delays + [{"type": "end"}] + fleet + torpedoes


def torpedo_strike(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Step 3: one d8 per torpedo; a roll strictly below the rung hits; the first hit sinks."""
    card, sub = action["card"], action["sub"]
    slot = take_from_row(g, card)
    rung = g["subs"][sub]
    rolls = []
    hit = False
    for _ in range(TORPEDO_INFO[card]["torpedoes"]):
        roll = rng.between(1, DIE)
        rolls.append(roll)
        if roll < rung:
            hit = True
            break
    if hit:
        g["subs"][sub] = None
        g["sunk"][seat].append(sub)
        g["torpedo_discard"].append(card)
    else:
        g["misses"][seat].append(card)
    g["last_strike"] = {
        "seat": seat,
        "card": card,
        "sub": sub,
        "rung": rung,
        "rolls": rolls,
        "hit": hit,
    }
    log.public(
        "{seat%d} fires %s at %s on rung %d: rolled %s, %s"
        % (seat, card, sub, rung, " ".join(map(str, rolls)), "sunk!" if hit else "missed"),
        seat=seat,
        card=card,
        sub=sub,
        rung=rung,
        rolls=rolls,
        hit=hit,
    )
    end_of_turn(g, seat, slot, rng, log)


def defuse(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Step 3, own colour: the Torpedo card leaves the game (no roll, no score)."""
    card = action["card"]
    slot = take_from_row(g, card)
    g["torpedo_removed"].append(card)
    log.public("{seat%d} defuses %s" % (seat, card), seat=seat, card=card)
    end_of_turn(g, seat, slot, rng, log)


def delay(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Step 3 alternative: the Torpedo card goes to the bottom of the Torpedo deck."""
    card = action["card"]
    slot = take_from_row(g, card)
    g["torpedo_deck"].append(card)
    log.public(
        "{seat%d} puts %s at the bottom of the Torpedo deck" % (seat, card), seat=seat, card=card
    )
    end_of_turn(g, seat, slot, rng, log)


def take_from_row(g: State, card: str) -> int:
    """Take a used Torpedo card from the face-up row; its slot gets the next card at the end
    of the turn."""
    slot: int = g["torpedo_row"].index(card)
    del g["torpedo_row"][slot]
    return slot


def end_turn(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Step 3 left out: the turn ends without a Torpedo action."""
    log.public("{seat%d} ends the turn" % seat, seat=seat)
    end_of_turn(g, seat, None, rng, log)


def end_of_turn(g: State, seat: int, used_slot: int | None, rng: Rng, log: Log) -> None:
    """Step 4: discard the Fleet cards played, draw back up to 3, replace a used Torpedo card,
    check the end of the game, pass the turn clockwise."""
    g["fleet_discard"].extend(p["card"] for p in g["played"])
    g["played"] = []
    refill_hand(g, seat, rng, log)
    if used_slot is not None:
        if g["torpedo_deck"]:
            new = g["torpedo_deck"].pop(0)
            g["torpedo_row"].insert(used_slot, new)
            log.public("%s is turned face up" % new, card=new)
        else:
            g["over"] = "a used Torpedo card could not be replaced"
    if len(alive(g)) <= g["end_subs_left"]:
        g["over"] = (
            "all submarines have been sunk"
            if not alive(g)
            else "only %d submarines are left" % len(alive(g))
        )
    if g["over"]:
        log.public("the game is over: " + g["over"], reason=g["over"])
        return
    g["current"] = next_seat(g, seat)
    g["turn"] += 1


def refill_hand(g: State, seat: int, rng: Rng, log: Log) -> None:
    """Draw up to 3; an empty Fleet deck is rebuilt from the shuffled discard pile."""
    hand = g["hands"][seat]
    drawn: list[str] = []
    while len(hand) + len(drawn) < HAND:
        if not g["fleet_deck"]:
            g["fleet_deck"] = g["fleet_discard"]
            g["fleet_discard"] = []
            rng.shuffle(g["fleet_deck"])
            log.public("the Fleet discard pile is shuffled into a new deck")
        drawn.append(g["fleet_deck"].pop(0))
    if drawn:
        g["hands"][seat] = sorted(hand + drawn)
        log.public(
            "{seat%d} draws %d Fleet card%s" % (seat, len(drawn), "s"[: len(drawn) - 1]),
            but=[seat],
            seat=seat,
            count=len(drawn),
        )
        log.private(seat, "you drew " + " ".join(drawn), cards=drawn)


def next_seat(g: State, seat: int) -> int:
    s: int = (seat + 1) % g["n"]
    while s in g["removed"]:
        s = (s + 1) % g["n"]
    return s


# -- takebacks (engine.match.can_take_back)


def reveals_nothing(before: State, seat: int, action: Action, after: State) -> bool:
    """Playing a Fleet card shows that card and moves a submarine in public; every move that
    ends the turn draws Fleet cards (and the torpedo fired rolls dice, a used Torpedo card is
    replaced from the deck)."""
    return action["type"] == "fleet"


PHASE_RULES = {
    "fleet": Phase(current_player, fleet_actions, {"fleet": fleet_movement}),
    "queue": Phase(
        current_player,
        queue_actions,
        {
            "fleet": fleet_movement,
            "torpedo": torpedo_strike,
            "defuse": defuse,
            "delay": delay,
            "end": end_turn,
        },
        continues=lambda g, seat: True,  # the turn's first Fleet card is played
    ),
    "over": OVER,
}


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


def colour_groups(counts: list[int]) -> int:
    """The largest number of disjoint groups of 4 submarines of 4 different colours.

    k groups can be formed exactly when sum(min(count, k)) >= 4k: take at most k of each
    colour, sort by colour and deal them round-robin into the k groups.
    """
    k = sum(counts) // 4
    while k > 0 and sum(min(c, k) for c in counts) < 4 * k:
        k -= 1
    return k


def score(g: State, seat: int) -> int:
    """+1 per sunk, -1 per miss, +2 per own survivor, +1 per same-colour pair, +2 per group."""
    sunk = g["sunk"][seat]
    total = len(sunk) - len(g["misses"][seat])
    if len(sunk) > 1:
        counts = [0] * len(COLOURS)
        for sub in sunk:
            counts[COLOURS.index(sub[0])] += 1
        total += sum(c // 2 for c in counts) + 2 * colour_groups(counts)
    if seat not in g["removed"]:
        colour = g["nations"][seat]
        subs = g["subs"]
        total += 2 * ((subs[colour + "1"] is not None) + (subs[colour + "2"] is not None))
    return total


def outcome(g: State) -> Outcome | None:
    if g["over"] is None:
        return None
    scores = tuple(score(g, s) for s in range(g["n"]))
    return best_scores(scores, [s for s in range(g["n"]) if s not in g["removed"]], g["over"])


def remove_seat(g: State, seat: int, log: Log) -> State:
    """The seat's nation becomes neutral, its hand goes face down to the Fleet discard
    pile; its scoring area stays (it scores, without survivors, and cannot win). If it was
    its turn, the cards it played stay played and the turn passes on."""
    g["removed"].append(seat)
    g["removed"].sort()
    g["fleet_discard"].extend(g["hands"][seat])
    g["hands"][seat] = []
    colour = COLOUR_NAMES[g["nations"][seat]]
    log.public("{seat%d} has left: %s is now neutral" % (seat, colour), seat=seat)
    if g["current"] == seat:
        g["fleet_discard"].extend(p["card"] for p in g["played"])
        g["played"] = []
        g["current"] = next_seat(g, seat)
        g["turn"] += 1
    return g


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------

_CARD = r"([bgopry])([+-]?)([1-6])"
_FLEET_RE = re.compile(r"^fleet " + _CARD + r"@([bgopry][12])$")
_TORPEDO_RE = re.compile(r"^torpedo ([bgopry][123])@([bgopry][12])$")
_ONE_CARD_RE = re.compile(r"^(defuse|delay) ([bgopry][123])$")
_SUB_RE = re.compile(SUB_PATTERN)
_TCARD_RE = re.compile(TORPEDO_CARD_PATTERN)

_EXPECTED = "write 'fleet r+2@r1', 'torpedo b2@y1', 'defuse r1', 'delay p3' or 'end'"


def _normalise(text: str) -> str:
    if not isinstance(text, str):
        raise MalformedAction("a move is a line of text; " + _EXPECTED)
    text = " ".join(text.lower().split())
    return re.sub(r" ?@ ?", "@", text)


def parse(text: str) -> Action:
    t = _normalise(text)
    if t in ("end", "pass-torpedo", "pass torpedo", "pass"):
        return {"type": "end"}
    m = _FLEET_RE.match(t)
    if m:
        colour, sign, digit, sub = m.groups()
        value = int(digit) if int(digit) % 2 == 0 else -int(digit)
        if sign and (sign == "-") != (value < 0):
            raise MalformedAction(
                f"there is no Fleet card {colour}{sign}{digit}: the values "
                "are -1 +2 -3 +4 -5 +6; write e.g. 'fleet r+2@r1'"
            )
        return {"type": "fleet", "card": _fleet_id(colour, value), "sub": sub}
    m = _TORPEDO_RE.match(t)
    if m:
        return {"type": "torpedo", "card": m.group(1), "sub": m.group(2)}
    m = _ONE_CARD_RE.match(t)
    if m:
        return {"type": m.group(1), "card": m.group(2)}
    if t.startswith("fleet ") and len(t.split()) > 2:
        raise MalformedAction(
            "one Fleet card per move: write 'fleet r+2@r1', then "
            "'fleet g-3@g2' (a whole turn on one line is split at ';')"
        )
    raise MalformedAction(f"cannot read {text!r}: {_EXPECTED}")


def format_action(action: Action) -> str:
    kind = action["type"]
    if kind == "end":
        return "end"
    if kind == "fleet":
        if action["card"] not in FLEET_INFO or not _SUB_RE.match(action["sub"]):
            raise MalformedAction("a fleet action has a card like 'r+2' and a sub like 'r1'")
        return f"fleet {action['card']}@{action['sub']}"
    if kind == "torpedo":
        if not _TCARD_RE.match(action["card"]) or not _SUB_RE.match(action["sub"]):
            raise MalformedAction("a torpedo action has a card like 'b2' and a sub like 'y1'")
        return f"torpedo {action['card']}@{action['sub']}"
    if kind in ("defuse", "delay"):
        if not _TCARD_RE.match(action["card"]):
            raise MalformedAction(f"a {kind} action has a Torpedo card like 'p3'")
        return f"{kind} {action['card']}"
    raise MalformedAction(
        f"unknown action type {kind!r}: the types are fleet, torpedo, defuse, delay and end"
    )


def split_turn(text: str) -> list[str]:
    """A whole turn on one line -> the single-step notations, in order.

    Steps are separated by ';' (or new lines); one `fleet` step may list several cards:
    "fleet r+2@r1 g-3@g2; torpedo b2@y1" -> ["fleet r+2@r1", "fleet g-3@g2", "torpedo b2@y1"].
    Every step is checked with `parse`; a bad one raises MalformedAction naming it.
    """
    if not isinstance(text, str):
        raise MalformedAction("a turn is a line of text, e.g. 'fleet r+2@r1 g-3@g2; end'")
    steps: list[str] = []
    for part in re.split(r"[;\n]", text):
        words = _normalise(part).split()
        if not words:
            continue
        if words[0] == "fleet" and len(words) > 2:
            steps.extend("fleet " + w for w in words[1:])
        else:
            steps.append(" ".join(words))
    if not steps:
        raise MalformedAction("the turn is empty; write e.g. 'fleet r+2@r1 g-3@g2; torpedo b2@y1'")
    for i, step in enumerate(steps, start=1):
        try:
            parse(step)
        except MalformedAction as err:
            raise MalformedAction(f"step {i} ({step!r}): {err.message}") from None
    return [format_action(parse(s)) for s in steps]


def describe(view: View, action: Action) -> str:
    """The action in words, as the seat of `view` makes it: each card by its colour and value,
    each submarine with its owner ("your", a player's, or neutral) and its rung."""
    kind = action["type"]
    if kind == "end":
        return "End your turn without a Torpedo card"
    card = action["card"]
    if kind == "fleet":
        value = FLEET_INFO[card]["value"]
        sub = action["sub"]
        before = view["ladder"][sub]
        after = min(HIGH, max(LOW, before + value))
        moved = (
            f"it stays on rung {before}"
            if after == before
            else f"rung {before} {'up' if after > before else 'down'} to {after}"
        )
        return f"Play {_card_words(card)} on {_owner_words(view, sub)} {sub}: {moved}"
    if kind == "torpedo":
        sub = action["sub"]
        torpedoes = TORPEDO_INFO[card]["torpedoes"]
        count = "1 torpedo" if torpedoes == 1 else f"{torpedoes} torpedoes"
        return (
            f"Fire {_card_words(card)} ({count}) at {_owner_words(view, sub)} {sub} "
            f"on rung {view['ladder'][sub]}"
        )
    if kind == "defuse":
        return f"Defuse {_card_words(card)}: it leaves the game"
    return f"Put {_card_words(card)} at the bottom of the Torpedo deck"


def _card_words(card: str) -> str:
    """'r+2' -> 'red +2', 'b2' -> 'blue 2'."""
    return f"{COLOUR_NAMES[card[0]]} {card[1:]}"


def _owner_words(view: View, sub: str) -> str:
    """Whose the submarine is, to the seat of `view`: 'your', '{seatN}'s' or 'the neutral'."""
    colour = sub[0]
    if colour == view["my_colour"]:
        return "your"
    if colour in view["neutral"]:
        return "the neutral"
    return "{seat%d}'s" % view["nations"].index(colour)


# ---------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------


def _strike_view(strike: dict[str, Any] | None) -> dict[str, Any] | None:
    if strike is None:
        return None
    return {
        "seat": strike["seat"],
        "card": strike["card"],
        "sub": strike["sub"],
        "rung": strike["rung"],
        "rolls": list(strike["rolls"]),
        "hit": strike["hit"],
    }


def view(g: State, seat: int | None) -> View:
    """Whitelisted: the ladder, the Torpedo row, scoring areas and played cards are public; a
    seat sees its own hand; decks and the Fleet discard pile are counts."""
    over = g["over"] is not None
    arrow = last_arrow(g)
    return {
        "you": seat,
        "me": seat,  # the name of `you` before every game said `you`; kept for older clients
        "my_colour": g["nations"][seat] if seat is not None else None,
        "nations": list(g["nations"]),
        "removed": list(g["removed"]),
        "neutral": neutral_colours(g),
        "current": None if over else g["current"],
        "turn": g["turn"],
        "phase": phase_of(g),
        "ladder": dict(g["subs"]),
        "hand": ([dict(FLEET_INFO[c]) for c in g["hands"][seat]] if seat is not None else None),
        "hand_sizes": [len(h) for h in g["hands"]],
        "played": [dict(p) for p in g["played"]],
        "next_symbol": arrow,
        "torpedo_row": [dict(TORPEDO_INFO[c]) for c in g["torpedo_row"]],
        "torpedo_deck": len(g["torpedo_deck"]),
        "torpedo_removed": list(g["torpedo_removed"]),
        "torpedo_discard": list(g["torpedo_discard"]),
        "fleet_deck": len(g["fleet_deck"]),
        "fleet_discard": len(g["fleet_discard"]),
        "sunk": [list(s) for s in g["sunk"]],
        "misses": [list(m) for m in g["misses"]],
        "scores": [score(g, s) for s in range(g["n"])],
        "last_strike": _strike_view(g["last_strike"]),
        "end_subs_left": g["end_subs_left"],
        "end_reason": g["over"],
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
    remove_seat=remove_seat,
    split_turn=split_turn,
    reveals_nothing=reveals_nothing,
)
