"""Nautilus (Libellud, 2012; Charles Chevallier), for 2 players.

Rules: docs/games/rules/nautilus.md (the copy of the rules text in this repository); the seed
pages win where they differ (see docs/games/nautilus.md). The rules map to functions here:

- Setup: `setup`;
- A round, steps 1-2: `start_round`, `deal_specials` (step 8 for the next round);
- step 3, the start-of-round Specials: `use_start_special` (the Eye, Submarine, Harpoon),
  `submarine_keep`, `harpoon_give`;
- step 4, placing a card and the Anchor: `place_card`;
- step 5, the arrows: `arrow_moves`, `resolve_arrow`, `move_card`;
- steps 6-7, comparing the columns: `beats`, `compare_column`, `end_round`;
- Scoring and end: `domain_points`, `check_domains`, `final_domain_winners`, `finish`.

The state `g` (plain JSON):
- phase: "draft" (the Nemo holder keeps a Special), "start" (`start_turn` uses a start Special
  or passes), "submarine" / "harpoon" (the second step of those Specials), "place" (`placer`
  places), "move" (`pending` names the arrow whose move is due), "over";
- round, nemo (the seat holding the Nemo token), hidden (the hidden-domains option);
  anchor_placed_card (the option of that name; absent from a game created before it, which
  keeps the rule it began with: the Anchor may pin the card being placed too);
- hands: per seat its Divers; specials: per seat its Special cards; draft: the two drawn
  Specials; given: the Special the Nemo holder gave; diver_pile, special_deck, special_discard,
  domain_pile: the piles; domain_row: the round's 5 Domain cards ({"domain", "points"});
- board: `board[seat][column]`, a card or None; placements: cards placed this round;
  anchored: the card the Anchor pins; sub_drawn, harpoon_taken, eye: the Specials' secrets;
  used: the Specials used this round; taken: per seat the Domain cards won; won: per domain
  the seat that has won it for good; result: the end of the game ({"winners", "scores",
  "reason", "domains"}), else None; last_round: the round just played, as its tenth card left
  it ({"round", "board", "domain_row", "winners"}: who won each column), until the next
  placement (absent in a game recorded before it was kept).

Cards are integers everywhere: the Divers are 1..14, the Kraken is 15 and the Fishbone 0 once
they stand on the board (they are "placed as a Diver of value 15 / 0"). In a hand, the Kraken
and the Fishbone are Special cards, named by their lowercase names like the other four.
Columns are 0..4 inside the state and 1..5 in actions and notation. An action names a side
from the acting seat's point of view: "me" or "opp".
"""

from __future__ import annotations

import json
from typing import Any

from engine.core import (
    OVER,
    Action,
    GameInfo,
    GameModule,
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

DOMAINS = ("science", "exploration", "navigation", "engineering", "war")
# One domain's six cards: one 2-star, four 1-star, one ink blot.
DOMAIN_CARD_POINTS = (2, 1, 1, 1, 1, -1)
INK_BLOT = -1
DOMAIN_CARD_VALUES = tuple(dict.fromkeys(DOMAIN_CARD_POINTS))  # 2, 1, -1
DIVERS = tuple(range(1, 15))
SPECIALS = ("anchor", "eye", "fishbone", "harpoon", "kraken", "submarine")
START_SPECIALS = ("eye", "harpoon", "submarine")
# Specials placed on the board as if they were Divers, with these values.
PLACED_VALUE = {"kraken": 15, "fishbone": 0}
CARD_NAME = {15: "kraken", 0: "fishbone"}
ARROWS = {6: "vertical", 9: "vertical", 7: "horizontal", 8: "horizontal"}
ARROW_KINDS = tuple(dict.fromkeys(ARROWS.values()))  # vertical, horizontal
COLUMNS = 5
HAND_SIZE = 5
ROUNDS = 6
ROUNDS_PER_SPECIAL_CYCLE = 3
SPECIALS_PER_ROUND = 2
DOMAINS_TO_WIN = 3
WIN_POINTS = 4
WIN_POINTS_AFTER_BLOT = 3
SIDES = ("me", "opp")
PLACE_KEYS = {"type", "card", "side", "col", "anchor"}  # the fields of a placement
LEGACY_ANCHOR_PLACED_CARD = True  # the Anchor's rule of the games created before the option
PHASES = ("draft", "start", "submarine", "harpoon", "place", "move", "over")
ACTION_TYPES = (
    "keep",
    "eye",
    "submarine",
    "submarine_keep",
    "harpoon",
    "harpoon_give",
    "pass",
    "place",
    "move",
)

INFO = GameInfo(
    name="nautilus",
    title="Nautilus",
    min_players=2,
    max_players=2,
    rules_version="1",
    options={
        "anchor_placed_card": OptionSpec(
            False,
            "false: the Anchor, used as you place a card, pins one card already on the board, "
            "as the game's Japanese page says; true: it may pin the card being placed too "
            "(the French rulebook)",
            choices=(False, True),
            kind=bool,
        ),
        "hidden_domains": OptionSpec(
            False,
            "hide the won Domain cards, a memory game: each player sees only their own won "
            "cards and the number of the opponent's, the history does not say who took which, "
            "and domains are decided, and every card shown, when the game ends. It hides them "
            "from memory, not from sight: each round's five Domain cards lie face up during "
            "the round, and the round just played stays in view (who won each column) until "
            "the next card is placed, so a player or program that keeps the views it was shown "
            "can rebuild both won piles exactly",
            choices=(False, True),
            kind=bool,
        ),
    },
    notation=(
        "keep SPECIAL: the Nemo holder keeps one of the two drawn Specials and gives the other, "
        "e.g. 'keep kraken'",
        "eye: use the Eye and see the opponent's Divers, e.g. 'eye'",
        "submarine: use the Submarine and draw 2 Divers from the pile, e.g. 'submarine'",
        "submarine keep N: keep one of the 2 drawn Divers, the other goes back, "
        "e.g. 'submarine keep 4'",
        "harpoon: use the Harpoon and take a random Diver from the opponent, e.g. 'harpoon'",
        "harpoon give N: give the opponent one of your Divers, e.g. 'harpoon give 9'",
        "pass: do not use your start-of-round Special (or you have none), e.g. 'pass'",
        "place CARD SIDE+COLUMN [anchor CARD]: place a Diver (or kraken/fishbone) on side "
        "me/opp, column 1-5, optionally pinning a card with the Anchor, e.g. 'place 7 opp3' or "
        "'place 12 me2 anchor 5'",
        "move SIDE+COLUMN SIDE+COLUMN: the move an arrow card (6, 7, 8, 9) forces, e.g. "
        "'move me2 opp2'",
    ),
    field_words={
        "card": "card",
        "side": "side",
        "col": "column",
        "anchor": "pin with the Anchor",
        "special": "Special",
        "from_side": "from side",
        "from_col": "from column",
        "to_side": "to side",
        "to_col": "to column",
    },
)


def other(seat: int) -> int:
    """The opponent of `seat` (Nautilus has two seats, 0 and 1)."""
    return 1 - seat


def card_text(card: int) -> str:
    """A card as players write it: its number, or kraken / fishbone for 15 / 0."""
    return CARD_NAME.get(card, str(card))


def cards_text(cards: list[int]) -> str:
    """Cards as players write them, separated by spaces (`card_text` of each)."""
    return " ".join(card_text(c) for c in cards)


def domain_deck() -> list[dict[str, Any]]:
    """The 30 Domain cards, unshuffled: each domain's six ({"domain", "points"})."""
    return [{"domain": d, "points": p} for d in DOMAINS for p in DOMAIN_CARD_POINTS]


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


def setup(n: int, options: Options, rng: Rng, log: Log) -> State:
    """Shuffle the Domain deck, pick the Nemo holder at random, start round 1."""
    pile = domain_deck()
    rng.shuffle(pile)
    g = {
        "hidden": options["hidden_domains"],
        "round": 0,
        "nemo": rng.below(2),
        "phase": "draft",
        "hands": [[], []],
        "specials": [[], []],
        "draft": [],
        "given": None,
        "diver_pile": [],
        "special_deck": [],
        "special_discard": [],
        "domain_pile": pile,
        "domain_row": [],
        "taken": [[], []],
        "board": [[None] * COLUMNS, [None] * COLUMNS],
        "placements": 0,
        "anchored": None,
        "pending": None,
        "start_turn": None,
        "sub_drawn": [],
        "harpoon_taken": None,
        "eye": None,
        "used": [],
        "won": [None] * len(DOMAINS),
        "result": None,
    }
    if "anchor_placed_card" in options:
        g["anchor_placed_card"] = options["anchor_placed_card"]
    log.public("{seat%d} takes the Nemo token" % g["nemo"], nemo=g["nemo"])
    start_round(g, rng, log)
    return g


def start_round(g: State, rng: Rng, log: Log) -> None:
    """Deal 5 Domain cards face up, 5 secret Divers to each player, 2 Specials to Nemo."""
    g["round"] += 1
    g["board"] = [[None] * COLUMNS, [None] * COLUMNS]
    g["placements"] = 0
    g["anchored"] = None
    g["used"] = []
    g["eye"] = None
    g["given"] = None
    g["domain_row"] = g["domain_pile"][:COLUMNS]
    del g["domain_pile"][:COLUMNS]
    if g["hidden"]:  # face up on the table, but the history does not keep who took which
        log.public(f"round {g['round']}: five Domain cards are dealt face up", round=g["round"])
    else:
        log.public(
            f"round {g['round']}: the Domain cards are "
            + ", ".join(f"{c['domain']} {c['points']:+d}" for c in g["domain_row"]),
            round=g["round"],
            domain_row=g["domain_row"],
        )
    divers = list(DIVERS)
    rng.shuffle(divers)
    nemo = g["nemo"]
    for k, seat in enumerate((nemo, other(nemo))):
        g["hands"][seat] = sorted(divers[k * HAND_SIZE : (k + 1) * HAND_SIZE])
        log.private(seat, "you were dealt " + cards_text(g["hands"][seat]), cards=g["hands"][seat])
    g["diver_pile"] = divers[2 * HAND_SIZE :]
    deal_specials(g, rng)
    log.public("{seat%d} draws 2 Special cards" % nemo, but=[nemo])
    log.private(nemo, "you drew the %s and the %s" % tuple(g["draft"]), specials=g["draft"])
    g["phase"] = "draft"


def deal_specials(g: State, rng: Rng) -> None:
    """Rounds 1-3 use 2, 2 and the last 2 of the shuffled six; before round 4 all six are
    reshuffled and rounds 4-6 use them the same way."""
    if (g["round"] - 1) % ROUNDS_PER_SPECIAL_CYCLE == 0:
        g["special_deck"] = list(SPECIALS)
        g["special_discard"] = []
        rng.shuffle(g["special_deck"])
    g["draft"] = sorted(g["special_deck"][:SPECIALS_PER_ROUND])
    del g["special_deck"][:SPECIALS_PER_ROUND]


# ---------------------------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------------------------


def phase_of(g: State) -> str:
    """The name of the phase `g` is in, a key of `PHASE_RULES`."""
    return g["phase"]


_CANONICAL = json.JSONEncoder(sort_keys=True).encode  # json.dumps(a, sort_keys=True), made once


def in_order(actions: list[Action]) -> list[Action]:
    """Legal actions in their canonical order: by their JSON text, keys sorted."""
    return sorted(actions, key=_CANONICAL)


# -- phase "draft": the Nemo holder keeps one of the two drawn Specials


def nemo_holder(g: State) -> frozenset[int]:
    """Who acts in the draft: the Nemo holder alone."""
    return frozenset([g["nemo"]])


def draft_actions(g: State, seat: int) -> list[Action]:
    """The draft's moves: keep either of the two drawn Specials."""
    return in_order([{"type": "keep", "special": s} for s in g["draft"]])


def keep_special(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """The Nemo holder keeps one drawn Special and gives the other; the keep stays secret."""
    special = action["special"]
    given = next(s for s in g["draft"] if s != special)
    g["specials"][seat] = [special]
    g["specials"][other(seat)] = [given]
    g["given"] = given
    g["draft"] = []
    log.private(seat, f"you kept the {special}", special=special)
    log.private(
        [seat, other(seat)],
        "{seat%d} gave {seat%d} the %s" % (seat, other(seat), given),
        special=given,
    )
    log.public(
        "{seat%d} kept one Special card and gave the other to {seat%d}" % (seat, other(seat)),
        but=[seat, other(seat)],
    )
    g["phase"] = "start"
    g["start_turn"] = seat


# -- phase "start": each player in turn, Nemo first, uses a start-of-round Special or passes


def start_turn_seat(g: State) -> frozenset[int]:
    """Who acts in the start, submarine and harpoon phases: the seat whose start turn it is."""
    return frozenset([g["start_turn"]])


def start_actions(g: State, seat: int) -> list[Action]:
    """The start turn's moves: pass, or use a start-of-round Special the seat holds."""
    return in_order(
        [{"type": "pass"}] + [{"type": s} for s in g["specials"][seat] if s in START_SPECIALS]
    )


def use_start_special(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Eye, Submarine or Harpoon, used at the start of the round."""
    special = action["type"]
    spend_special(g, seat, special)
    opp = other(seat)
    if special == "eye":
        g["eye"] = {"seat": seat, "hand": sorted(g["hands"][opp])}
        log.public("{seat%d} uses the Eye and looks at {seat%d}'s Divers" % (seat, opp))
        log.private(
            seat, "{seat%d} holds %s" % (opp, cards_text(g["eye"]["hand"])), cards=g["eye"]["hand"]
        )
        finish_start_turn(g)
    elif special == "submarine":
        g["sub_drawn"] = sorted(g["diver_pile"][:2])
        del g["diver_pile"][:2]
        log.public("{seat%d} uses the Submarine and draws 2 Divers from the pile" % seat)
        log.private(seat, "you drew %s" % cards_text(g["sub_drawn"]), cards=g["sub_drawn"])
        g["phase"] = "submarine"
    else:
        taken = g["hands"][opp].pop(rng.below(len(g["hands"][opp])))
        g["hands"][seat] = sorted(g["hands"][seat] + [taken])
        g["harpoon_taken"] = taken
        log.public(
            "{seat%d} uses the Harpoon and takes a Diver from {seat%d}" % (seat, opp),
            but=[seat, opp],
        )
        log.private(
            [seat, opp], "{seat%d} harpooned the %s from {seat%d}" % (seat, taken, opp), card=taken
        )
        g["phase"] = "harpoon"


def pass_start(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """The seat uses no start-of-round Special now; the next start turn, or placing, follows."""
    log.public("{seat%d} uses no Special now" % seat)
    finish_start_turn(g)


def finish_start_turn(g: State) -> None:
    """Start-of-round Specials are used Nemo holder first; then placement begins."""
    if g["start_turn"] == g["nemo"]:
        g["start_turn"] = other(g["nemo"])
        g["phase"] = "start"
    else:
        g["start_turn"] = None
        g["phase"] = "place"


def spend_special(g: State, seat: int, special: str) -> None:
    """Discard a Special `seat` has used and record it among the round's used Specials."""
    g["specials"][seat].remove(special)
    g["special_discard"].append(special)
    g["used"].append({"seat": seat, "special": special})


# -- phase "submarine": the Submarine's user keeps one of the two drawn Divers


def submarine_actions(g: State, seat: int) -> list[Action]:
    """The Submarine's second step: keep either of the two drawn Divers."""
    return in_order([{"type": "submarine_keep", "card": c} for c in g["sub_drawn"]])


def submarine_keep(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """The seat keeps one drawn Diver and puts the other back, face down, under the pile;
    only the seat learns which."""
    card = action["card"]
    back = next(c for c in g["sub_drawn"] if c != card)
    g["hands"][seat] = sorted(g["hands"][seat] + [card])
    g["diver_pile"].append(back)
    g["sub_drawn"] = []
    log.private(seat, f"you kept the {card} and put the {back} back", card=card, back=back)
    log.public("{seat%d} keeps one Diver and puts the other back face down" % seat, but=[seat])
    finish_start_turn(g)


# -- phase "harpoon": the Harpoon's user gives one of its Divers back


def harpoon_actions(g: State, seat: int) -> list[Action]:
    """The Harpoon's second step: give the opponent any Diver of the seat's hand."""
    return in_order([{"type": "harpoon_give", "card": c} for c in g["hands"][seat]])


def harpoon_give(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """The seat gives a Diver to the opponent; the two of them learn which."""
    card = action["card"]
    opp = other(seat)
    g["hands"][seat].remove(card)
    g["hands"][opp] = sorted(g["hands"][opp] + [card])
    g["harpoon_taken"] = None
    log.private([seat, opp], "{seat%d} gave the %s to {seat%d}" % (seat, card, opp), card=card)
    log.public("{seat%d} gives a Diver to {seat%d}" % (seat, opp), but=[seat, opp])
    finish_start_turn(g)


# -- phase "place": the players place a card in turn, Nemo first


def placer(g: State) -> int:
    """The Nemo holder places first, then the players alternate."""
    return g["nemo"] if g["placements"] % 2 == 0 else other(g["nemo"])


def placer_seat(g: State) -> frozenset[int]:
    """Who acts in the place phase: the seat whose placement it is (`placer`)."""
    return frozenset([placer(g)])


def placeable(g: State, seat: int) -> list[int]:
    """The cards `seat` may place: its Divers, and its Kraken or Fishbone."""
    return sorted(
        g["hands"][seat] + [PLACED_VALUE[s] for s in g["specials"][seat] if s in PLACED_VALUE]
    )


def place_actions(g: State, seat: int) -> list[Action]:
    """Every placement `seat` may make: each placeable card on each empty space of either
    side, and with the Anchor, if the seat holds it, each pin it may set (a card on the board
    or the one placed)."""
    has_anchor = "anchor" in g["specials"][seat]
    on_board = [c for row in g["board"] for c in row if c is not None]
    actions: list[Action] = []
    for card in placeable(g, seat):
        anchors = [None] + (anchorable(g, on_board, card) if has_anchor else [])
        for side in (seat, other(seat)):
            name = "me" if side == seat else "opp"
            for col in range(COLUMNS):
                if g["board"][side][col] is None:
                    actions.extend(
                        {"type": "place", "card": card, "side": name, "col": col + 1, "anchor": a}
                        for a in anchors
                    )
    return sorted(actions, key=placement_order)


def placement_order(action: Action) -> tuple[str, str, str, str]:
    """A placement's place in `in_order`'s order, without writing its JSON text: the text
    compares its fields in the order of their keys (anchor, card, col, side), each as JSON
    writes it ("null" for no pin, which sorts after the digits), and a field that is a prefix
    of another's sorts first as the comma that follows it comes before any digit or letter,
    as a shorter string sorts first in a tuple. A few times faster than the text, and the
    lists of a placement are the longest of the game (up to some 900 actions)."""
    anchor = action["anchor"]
    return (
        "null" if anchor is None else str(anchor),
        str(action["card"]),
        str(action["col"]),
        action["side"],
    )


def place_choice(g: State, seat: int) -> list[Any]:
    """What decides a seat's place_actions, for the runner's digest of its choice without the
    list (up to some 900 actions): its placeable cards, the empty spaces of its side and the
    other's, and the cards the Anchor may pin with each card (none without the Anchor)."""
    on_board = [c for row in g["board"] for c in row if c is not None]
    has_anchor = "anchor" in g["specials"][seat]
    cards = placeable(g, seat)
    return [
        cards,
        [
            [col for col in range(COLUMNS) if g["board"][side][col] is None]
            for side in (seat, other(seat))
        ],
        [anchorable(g, on_board, card) if has_anchor else [] for card in cards],
    ]


def is_place_legal(g: State, seat: int, action: Action) -> bool:
    """Whether `action` is among place_actions, without listing them: a placeable card on an
    empty space of either side, pinning nothing or, with the Anchor, a card it may pin. Each
    field is compared with ==, as the list's membership does."""
    if not isinstance(action, dict) or action.keys() != PLACE_KEYS or action["type"] != "place":
        return False
    cards = [c for c in placeable(g, seat) if c == action["card"]]
    sides = [s for s, name in ((seat, "me"), (other(seat), "opp")) if name == action["side"]]
    cols = [c for c in range(COLUMNS) if c + 1 == action["col"]]
    if not (cards and sides and cols) or g["board"][sides[0]][cols[0]] is not None:
        return False
    pins: list[int | None] = [None]
    if "anchor" in g["specials"][seat]:
        on_board = [c for row in g["board"] for c in row if c is not None]
        pins += anchorable(g, on_board, cards[0])
    return action["anchor"] in pins


def anchorable(g: State, on_board: list[int], card: int) -> list[int]:
    """The cards the Anchor may pin as `card` is placed: one already on the board (the page);
    with the option `anchor_placed_card`, or in a game older than it, `card` itself too."""
    if g.get("anchor_placed_card", LEGACY_ANCHOR_PLACED_CARD):
        return sorted(on_board + [card])
    return sorted(on_board)


def place_card(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Place a card on an empty space (a Kraken or Fishbone is spent as a Special), pin a
    card with the Anchor if the action says so, then resolve the card's arrow."""
    card, col = action["card"], action["col"] - 1
    g["last_round"] = None  # the table of the round before is cleared by the first placement
    side = seat if action["side"] == "me" else other(seat)
    if card in CARD_NAME:
        g["specials"][seat].remove(CARD_NAME[card])
        g["special_discard"].append(CARD_NAME[card])
        g["used"].append({"seat": seat, "special": CARD_NAME[card]})
    else:
        g["hands"][seat].remove(card)
    g["board"][side][col] = card
    g["placements"] += 1
    log.public(
        "{seat%d} placed %s on {seat%d}'s side, column %d" % (seat, card_text(card), side, col + 1),
        card=card,
        side=side,
        col=col + 1,
    )
    if action["anchor"] is not None:
        spend_special(g, seat, "anchor")
        g["anchored"] = action["anchor"]
        log.public(
            "{seat%d} anchors the %s" % (seat, card_text(action["anchor"])), card=action["anchor"]
        )
    resolve_arrow(g, seat, card, side, col, rng, log)


def resolve_arrow(g: State, seat: int, card: int, side: int, col: int, rng: Rng, log: Log) -> None:
    """An arrow card forces a move when any move is possible; otherwise nothing happens."""
    arrow = ARROWS.get(card)
    if arrow is not None and arrow_moves(g["board"], g["anchored"], side, col, arrow):
        g["pending"] = {"seat": seat, "side": side, "col": col, "arrow": arrow}
        g["phase"] = "move"
    else:
        if arrow is not None:
            log.public(f"no card can move: the {card}'s arrow does nothing")
        after_placement(g, rng, log)


def after_placement(g: State, rng: Rng, log: Log) -> None:
    """The next placement, or the end of the round once all ten spaces hold a card."""
    g["phase"] = "place"
    if g["placements"] == 2 * COLUMNS:
        end_round(g, rng, log)


# -- phase "move": the player of an arrow card makes the move it forces


def arrow_player(g: State) -> frozenset[int]:
    """Who acts in the move phase: the seat that placed the arrow card."""
    return frozenset([g["pending"]["seat"]])


def arrow_moves(
    board: list[list[int | None]], anchored: int | None, side: int, col: int, arrow: str
) -> list[tuple[int, int, int, int]]:
    """The moves the arrow card at (side, col) forces: [(from_side, from_col, to_side, to_col)].

    Vertical (6, 9): another card of that side goes to the empty space directly opposite it.
    Horizontal (7, 8): another card of that side goes to another empty space of that side.
    Anchored cards do not move.
    """
    moves = []
    for c in range(COLUMNS):
        card = board[side][c]
        if c == col or card is None or card == anchored:
            continue
        if arrow == "vertical":
            if board[other(side)][c] is None:
                moves.append((side, c, other(side), c))
        else:
            moves.extend((side, c, side, to) for to in range(COLUMNS) if board[side][to] is None)
    return moves


def move_actions(g: State, seat: int) -> list[Action]:
    """The moves the pending arrow card forces, from the acting seat's point of view."""
    p = g["pending"]
    return in_order(
        [
            {
                "type": "move",
                "from_side": "me" if fs == seat else "opp",
                "from_col": fc + 1,
                "to_side": "me" if ts == seat else "opp",
                "to_col": tc + 1,
            }
            for fs, fc, ts, tc in arrow_moves(
                g["board"], g["anchored"], p["side"], p["col"], p["arrow"]
            )
        ]
    )


def move_card(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Move a card as the pending arrow forces, then go on as after a placement."""
    fs = seat if action["from_side"] == "me" else other(seat)
    ts = seat if action["to_side"] == "me" else other(seat)
    fc, tc = action["from_col"] - 1, action["to_col"] - 1
    card = g["board"][fs][fc]
    g["board"][fs][fc] = None
    g["board"][ts][tc] = card
    g["pending"] = None
    log.public(
        "{seat%d} moved the %s from {seat%d}'s column %d to {seat%d}'s column %d"
        % (seat, card_text(card), fs, fc + 1, ts, tc + 1),
        card=card,
        from_side=fs,
        from_col=fc + 1,
        to_side=ts,
        to_col=tc + 1,
    )
    after_placement(g, rng, log)


# -- takebacks (engine.match.can_take_back)

QUIET_ACTIONS = frozenset({"pass", "place", "move", "submarine_keep", "harpoon_give"})
"""The moves that show nothing hidden but themselves while the round goes on. The others show
a hidden card: the Eye the opponent's Divers, the Submarine the pile's top two, the draft the
Special given (the Harpoon's draw is random besides)."""


def reveals_nothing(before: State, seat: int, action: Action, after: State) -> bool:
    """A quiet move within the round: the round's end shows the columns' winners their Domain
    cards (in secret with hidden domains), and the next round is dealt."""
    return action["type"] in QUIET_ACTIONS and after["round"] == before["round"]


PHASE_RULES = {
    "draft": Phase(nemo_holder, draft_actions, {"keep": keep_special}),
    "start": Phase(
        start_turn_seat,
        start_actions,
        {
            "pass": pass_start,
            "eye": use_start_special,
            "submarine": use_start_special,
            "harpoon": use_start_special,
        },
    ),
    # the Special's choice after its use, and the arrow's move after a placement, go on with
    # the seat's turn
    "submarine": Phase(
        start_turn_seat,
        submarine_actions,
        {"submarine_keep": submarine_keep},
        continues=lambda g, seat: True,
    ),
    "harpoon": Phase(
        start_turn_seat,
        harpoon_actions,
        {"harpoon_give": harpoon_give},
        continues=lambda g, seat: True,
    ),
    "place": Phase(
        placer_seat,
        place_actions,
        {"place": place_card},
        is_legal=is_place_legal,
        choice_key=place_choice,
    ),
    "move": Phase(arrow_player, move_actions, {"move": move_card}, continues=lambda g, seat: True),
    "over": OVER,
}


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


def beats(a: int, b: int) -> bool:
    """Whether card value a beats b: the higher wins, except that the 1 beats the 14.
    (The Kraken is 15 and the Fishbone 0, so the 14 loses to the Kraken and the 1 beats the
    Fishbone.)"""
    if {a, b} == {1, 14}:
        return a == 1
    return a > b


def compare_column(board: list[list[int]], col: int) -> int:
    """The seat whose card wins column `col`."""
    return 0 if beats(board[0][col], board[1][col]) else 1


def domain_points(cards: list[dict[str, Any]]) -> list[int]:
    """Points per domain, in DOMAINS order, of a list of Domain cards."""
    points = [0] * len(DOMAINS)
    for c in cards:
        points[DOMAINS.index(c["domain"])] += c["points"]
    return points


def blot_taken(taken: list[list[dict[str, Any]]], d: int) -> bool:
    """Whether the ink blot of domain `d` (its index in DOMAINS) has been taken by anyone."""
    return any(
        c["domain"] == DOMAINS[d] and c["points"] == INK_BLOT for cards in taken for c in cards
    )


def check_domains(g: State) -> None:
    """Lock every domain a player has now won: 4+ points, or 3+ once its ink blot is taken.
    A domain once won stays won."""
    points = [domain_points(g["taken"][s]) for s in (0, 1)]
    for d in range(len(DOMAINS)):
        if g["won"][d] is not None:
            continue
        need = WIN_POINTS_AFTER_BLOT if blot_taken(g["taken"], d) else WIN_POINTS
        for s in (0, 1):
            if points[s][d] >= need:
                g["won"][d] = s


def domains_won(won: list[int | None]) -> list[int]:
    """How many domains each seat has won, from `won` (per domain its winner, or None)."""
    return [sum(1 for w in won if w == s) for s in (0, 1)]


def end_round(g: State, rng: Rng, log: Log) -> None:
    """Award each column's Domain card, discard the round's Specials, lock won domains, then
    end the game or start the next round with the Nemo token passed on. The round's final
    table stays in view (`last_round`) until the next placement."""
    g["last_round"] = {
        "round": g["round"],
        "board": [list(row) for row in g["board"]],
        "domain_row": [dict(c) for c in g["domain_row"]],
        "winners": [compare_column(g["board"], col) for col in range(COLUMNS)],
    }
    award_columns(g, log)
    g["domain_row"] = []
    for s in (0, 1):
        g["special_discard"].extend(g["specials"][s])
        g["specials"][s] = []
    before = list(g["won"])
    check_domains(g)
    if not g["hidden"]:
        for d in range(len(DOMAINS)):
            if before[d] is None and g["won"][d] is not None:
                log.public(
                    "{seat%d} has won %s" % (g["won"][d], DOMAINS[d]),
                    domain=DOMAINS[d],
                    seat=g["won"][d],
                )
    if max(domains_won(g["won"])) >= DOMAINS_TO_WIN:
        finish(g, "a player won %d domains" % DOMAINS_TO_WIN, log)
    elif g["round"] == ROUNDS:
        finish(g, "six rounds played", log)
    else:
        g["nemo"] = other(g["nemo"])
        log.public("{seat%d} takes the Nemo token" % g["nemo"], nemo=g["nemo"])
        start_round(g, rng, log)


def award_columns(g: State, log: Log) -> None:
    """Each column's winner takes its Domain card (in secret with hidden domains)."""
    for col in range(COLUMNS):
        winner = compare_column(g["board"], col)
        card = g["domain_row"][col]
        g["taken"][winner].append(card)
        text = "{seat%d} wins column %d (%s against %s)" % (
            winner,
            col + 1,
            card_text(g["board"][winner][col]),
            card_text(g["board"][other(winner)][col]),
        )
        if g["hidden"]:
            log.public(text, col=col + 1, winner=winner)
            log.private(
                winner, "you take the %s %+d card" % (card["domain"], card["points"]), card=card
            )
        else:
            log.public(
                text + " and takes the %s %+d card" % (card["domain"], card["points"]),
                col=col + 1,
                winner=winner,
                card=card,
            )


def final_domain_winners(g: State) -> list[int | None]:
    """Who has each domain when the game ends. Open play: the locked wins (after round 6
    every domain is decided, since all its cards are taken). Hidden domains: nothing was
    locked in view, so each domain goes to the higher total now (None if tied)."""
    if not g["hidden"]:
        return list(g["won"])
    points = [domain_points(g["taken"][s]) for s in (0, 1)]
    return [
        None if points[0][d] == points[1][d] else (0 if points[0][d] > points[1][d] else 1)
        for d in range(len(DOMAINS))
    ]


def finish(g: State, reason: str, log: Log) -> None:
    """End the game for `reason`: each domain to its final winner (`final_domain_winners`),
    and the seats with the most domains win; with hidden domains every player's Domain cards
    are shown now."""
    winners = final_domain_winners(g)
    scores = domains_won(winners)
    best = max(scores)
    g["phase"] = "over"
    g["result"] = {
        "winners": [s for s in (0, 1) if scores[s] == best],
        "scores": scores,
        "reason": reason,
        "domains": winners,
    }
    if g["hidden"]:  # the reveal: every Domain card each player took
        for s in (0, 1):
            log.public(
                "{seat%d} took %s"
                % (
                    s,
                    ", ".join(f"{c['domain']} {c['points']:+d}" for c in g["taken"][s])
                    or "nothing",
                ),
                seat=s,
                taken=g["taken"][s],
            )
    log.public(
        "the game ends (%s): %d domains to %d" % (reason, scores[0], scores[1]),
        domains=winners,
        scores=scores,
    )


def outcome(g: State) -> Outcome | None:
    """The game's outcome once it is over (from `result`), else None."""
    r = g["result"]
    if r is None:
        return None
    return Outcome(tuple(r["winners"]), tuple(r["scores"]), r["reason"])


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------


def read_card(word: str, text: str) -> int:
    """A card from a word of notation (1-14, kraken, fishbone); MalformedAction otherwise."""
    if word in PLACED_VALUE:
        return PLACED_VALUE[word]
    if word.isdecimal() and 1 <= int(word) <= 14:
        return int(word)
    raise MalformedAction(
        f"cannot read {text!r}: {word!r} is not a card; a card is a number 1-14, kraken or fishbone"
    )


def read_space(word: str, text: str, form: str) -> tuple[str, int]:
    """A space (side, column 1-5) from a word such as opp3; MalformedAction naming `form`
    otherwise."""
    for side in SIDES:
        rest = word[len(side) :]
        if word.startswith(side) and rest.isdecimal() and 1 <= int(rest) <= COLUMNS:
            return side, int(rest)
    raise MalformedAction(
        f"cannot read {text!r}: {word!r} is not a space; a space is me or opp "
        f"followed by a column 1-5 (e.g. opp3); write {form}"
    )


def parse(text: str) -> Action:
    """Notation to an action (`INFO.notation` lists the forms); MalformedAction with the form
    to write when it cannot be read."""
    words = text.lower().split()
    if not words:
        raise MalformedAction("the move is empty; write e.g. 'place 7 opp3'")
    head = words[0]
    if words in (["pass"], ["eye"], ["submarine"], ["harpoon"]):
        return {"type": head}
    if head == "keep":
        if len(words) == 2 and words[1] in SPECIALS:
            return {"type": "keep", "special": words[1]}
        raise MalformedAction(
            f"cannot read {text!r}: write 'keep SPECIAL' with one of " + ", ".join(SPECIALS)
        )
    if head == "submarine" and len(words) == 3 and words[1] == "keep":
        return {"type": "submarine_keep", "card": read_card(words[2], text)}
    if head == "harpoon" and len(words) == 3 and words[1] == "give":
        return {"type": "harpoon_give", "card": read_card(words[2], text)}
    if head == "place":
        return parse_place(words, text)
    if head == "move":
        form = "'move SIDECOLUMN SIDECOLUMN', e.g. 'move me2 opp2'"
        if len(words) != 3:
            raise MalformedAction(f"cannot read {text!r}: write {form}")
        fs, fc = read_space(words[1], text, form)
        ts, tc = read_space(words[2], text, form)
        return {"type": "move", "from_side": fs, "from_col": fc, "to_side": ts, "to_col": tc}
    raise MalformedAction(
        f"cannot read {text!r}: write one of keep SPECIAL, eye, submarine, "
        "submarine keep N, harpoon, harpoon give N, pass, "
        "place CARD SIDECOLUMN [anchor CARD], move SIDECOLUMN SIDECOLUMN"
    )


def parse_place(words: list[str], text: str) -> Action:
    """A `place CARD SIDECOLUMN [anchor CARD]` action from its words."""
    form = "'place CARD SIDECOLUMN' or 'place CARD SIDECOLUMN anchor CARD'"
    if len(words) not in (3, 5) or (len(words) == 5 and words[3] != "anchor"):
        raise MalformedAction(f"cannot read {text!r}: write {form}, e.g. 'place 7 opp3'")
    side, col = read_space(words[2], text, form)
    anchor = read_card(words[4], text) if len(words) == 5 else None
    return {
        "type": "place",
        "card": read_card(words[1], text),
        "side": side,
        "col": col,
        "anchor": anchor,
    }


def _card(value: Any) -> str:
    """A card of an action as notation; MalformedAction if it is no card."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (value not in CARD_NAME and not 1 <= value <= 14)
    ):
        raise MalformedAction(f"{value!r} is not a card: use 0-15 (0 fishbone, 15 kraken)")
    return card_text(value)


def _space(side: Any, col: Any) -> str:
    """A space of an action (side, column) as notation; MalformedAction if it is none."""
    if (
        side not in SIDES
        or isinstance(col, bool)
        or not isinstance(col, int)
        or not 1 <= col <= COLUMNS
    ):
        raise MalformedAction("a space is a side 'me' or 'opp' and a column 1-5")
    return f"{side}{col}"


def format_action(action: Action) -> str:
    """An action to its notation, the inverse of `parse`; MalformedAction for an action
    that cannot be written."""
    kind = action["type"]
    if kind in ("pass", "eye", "submarine", "harpoon"):
        return kind
    if kind == "keep":
        if action["special"] not in SPECIALS:
            raise MalformedAction("keep needs a special: " + ", ".join(SPECIALS))
        return f"keep {action['special']}"
    if kind == "submarine_keep":
        return f"submarine keep {_card(action['card'])}"
    if kind == "harpoon_give":
        return f"harpoon give {_card(action['card'])}"
    if kind == "place":
        text = f"place {_card(action['card'])} {_space(action['side'], action['col'])}"
        if action.get("anchor") is not None:
            text += f" anchor {_card(action['anchor'])}"
        return text
    if kind == "move":
        return "move %s %s" % (
            _space(action["from_side"], action["from_col"]),
            _space(action["to_side"], action["to_col"]),
        )
    raise MalformedAction(f"unknown action type {kind!r}")


def describe(view: View, action: Action) -> str:
    """The action in words, as the seat of `view` makes it; "me" and "opp" become your side
    and the opponent's by name."""
    kind = action["type"]
    you = view["you"]
    opponent = "{seat%d}" % other(you)
    if kind == "keep":
        given = next(s for s in view["draft"] if s != action["special"])
        return (
            f"Keep the {action['special'].capitalize()} and give the {given.capitalize()} "
            f"to {opponent}"
        )
    if kind == "eye":
        return f"Use the Eye: see {opponent}'s Divers"
    if kind == "submarine":
        return "Use the Submarine: draw 2 Divers from the pile and keep one"
    if kind == "harpoon":
        return f"Use the Harpoon: take a Diver at random from {opponent}"
    if kind == "pass":
        return "Use no Special now"
    if kind == "submarine_keep":
        back = next(c for c in view["submarine_drawn"] if c != action["card"])
        return f"Keep the {card_text(action['card'])} and put the {card_text(back)} back"
    if kind == "harpoon_give":
        return f"Give your {card_text(action['card'])} to {opponent}"
    if kind == "move":
        seat_of_side = {"me": you, "opp": other(you)}
        card = view["board"][seat_of_side[action["from_side"]]][action["from_col"] - 1]
        return "Move the %s from %s column %d to %s column %d" % (
            _card_words(card),
            _whose(action["from_side"], opponent),
            action["from_col"],
            _whose(action["to_side"], opponent),
            action["to_col"],
        )
    card = action["card"]
    what = f"the {_card_words(card)}" if card in CARD_NAME else f"your {card}"
    words = f"Place {what} on {_whose(action['side'], opponent)} side, column {action['col']}"
    anchor = action["anchor"]
    if anchor is None:
        return words
    pinned = "it" if anchor == card else f"the {_card_words(anchor)}"
    return f"{words}, and pin {pinned} with the Anchor"


def _card_words(card: int) -> str:
    """A card on the board as people name it: its value, or the Kraken or the Fishbone."""
    return CARD_NAME[card].capitalize() if card in CARD_NAME else str(card)


def _whose(side: str, opponent: str) -> str:
    """A side of an action ("me" or "opp") as its mover says it."""
    return "your" if side == "me" else f"{opponent}'s"


# ---------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------


def _last_round(g: State) -> dict[str, Any] | None:
    """A copy of the round just played, for the view (None once the next round began)."""
    last = g.get("last_round")
    if last is None:
        return None
    return {
        "round": last["round"],
        "board": [list(row) for row in last["board"]],
        "domain_row": [dict(c) for c in last["domain_row"]],
        "winners": list(last["winners"]),
    }


def view(g: State, seat: int | None) -> View:
    """Whitelisted: the board, the Domain row and the Specials used are public; a seat sees its
    own hand, Specials and the secrets of its own Specials; piles are counts; with hidden
    domains each seat sees only its own won Domain cards until the game ends."""
    over = g["phase"] == "over"
    hide = g["hidden"] and not over
    me = seat is not None

    def sees_taken(s: int) -> bool:
        return not hide or (me and s == seat)

    points = [domain_points(g["taken"][s]) if sees_taken(s) else None for s in (0, 1)]
    pending = g["pending"]
    return {
        "you": seat,
        "round": g["round"],
        "rounds": ROUNDS,
        "nemo": g["nemo"],
        "phase": g["phase"],
        "hidden_domains": g["hidden"],
        "domains": list(DOMAINS),
        "board": [list(row) for row in g["board"]],
        "anchored": g["anchored"],
        "pending_move": None
        if pending is None
        else {
            "seat": pending["seat"],
            "side": pending["side"],
            "col": pending["col"] + 1,
            "arrow": pending["arrow"],
        },
        "placements": g["placements"],
        "domain_row": [dict(c) for c in g["domain_row"]],
        "last_round": _last_round(g),
        "hand": list(g["hands"][seat]) if me else None,
        "hand_sizes": [len(h) for h in g["hands"]],
        "specials": list(g["specials"][seat]) if me else None,
        "special_counts": [len(s) for s in g["specials"]],
        "draft": list(g["draft"]) if me and seat == g["nemo"] else [],
        "special_given": g["given"] if me else None,
        "submarine_drawn": list(g["sub_drawn"])
        if me and g["phase"] == "submarine" and seat == g["start_turn"]
        else [],
        "harpoon_taken": g["harpoon_taken"] if me else None,
        "eye_seen": list(g["eye"]["hand"])
        if me and g["eye"] is not None and g["eye"]["seat"] == seat
        else None,
        "specials_used": [dict(u) for u in g["used"]],
        "diver_pile_size": len(g["diver_pile"]),
        "special_deck_size": len(g["special_deck"]),
        "domain_pile_size": len(g["domain_pile"]),
        "taken": [[dict(c) for c in g["taken"][s]] if sees_taken(s) else None for s in (0, 1)],
        "taken_counts": [len(t) for t in g["taken"]],
        "points": points,
        "won": [None] * len(DOMAINS) if hide else list(g["won"]),
        "domains_won": [None, None] if hide else domains_won(g["won"]),
        "final_domains": list(g["result"]["domains"]) if over else None,
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
