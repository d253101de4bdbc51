"""Buttons (Benjamin Schwer, Noris Spiele 2015): roll, place buttons, opt out in time, earn stars.

2 to 4 players. Rules: docs/games/rules/buttons.md (the copy of the rules text in this
repository); the seed page is the authority (see docs/games/buttons.md).

Each player has a 6x6 board of coloured printed buttons. On a turn a player rolls the white die
(the row) and the black dice (columns) and must place a button on their own board, or opts out
of the round once they have a button. After every roll the other players still in the round may
place a button with the gold pair of dice (white die, gold black die) at the same time. A button
blocks its orthogonal neighbours. A roller who cannot place busts and loses the round's buttons.
Opting out earns stars at the round end; a line of 5 stars or 12 stars ends the game.

The rules map to functions here: Setup: `setup`, `deal_layouts`, `deal_bonus_cards`,
`start_round`; a turn: `roll`, `opt_out`, `bust`, `set_aside_dice`, `next_turn` (phase
"turn"); the gold dice and the roller's placement: `choose`, `resolve_roll` (phase "place");
the round end: `end_round`, `award_stars`, `pick_star`, `finish_round` (phase "stars"),
`pass_bonus_cards`; the end and the score: `has_line`, `score`, `outcome`; a player leaving:
`remove_seat`.

State (plain JSON):
- boards: per seat one 36-character string, row by row, "." empty, "o" button, "*" star;
  cell index (row - 1) * 6 + (col - 1), rows by the white die, columns by a black die.
- layouts: per seat an index into LAYOUTS; bonus: per seat the bonus-colour cards held.
- phase: "turn" (the seat `turn` rolls or opts out), "place" (the seats in `waiting` decide on
  the roll `dice`; `choices` holds the decisions made so far), "stars" (the seats in `waiting`
  put their `stars_due` stars; `star_picks` holds the cells picked so far), "over".
- status: per seat "in" (still in the round), "opted_out", "bust" or "left" (resigned).
- aside: white-pip black dice set aside this round.
- two_player_aside (2 players only): the option of that name, the dice a leaver sets aside;
  absent from a game created before the option, which keeps the rule it began with (two).
Seats take turns clockwise, in increasing seat order.
"""

from __future__ import annotations

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
    best_scores,
)

# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------

COLOURS = ("R", "Y", "G", "B")
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}

# The 8 board layouts (4 double-sided boards), row 1 first; each has 9 cells of every colour and
# every colour in every row and column. The printed ones are not public: these are ours.
LAYOUTS = (
    ("GRYBYR", "YYBRYG", "RGGGBY", "BGRBRY", "BBRYGG", "BYRGRB"),
    ("RBYGRG", "YRRYGB", "YBGRYG", "GYBRBG", "RGBYRY", "BYGBBR"),
    ("GRYGBR", "GYRRYB", "RBYBRG", "BGBRBY", "YYRYGB", "BYGGRG"),
    ("BBYYRG", "GYGBBR", "GRYRYB", "RGRGYB", "RGBRGY", "YGYBBR"),
    ("GYGBRB", "YGRRYB", "GYRBGR", "GYYRBY", "BRBGYR", "RBBYGG"),
    ("RGYYBB", "RYBGGB", "RRBYGR", "GBRRYG", "YBRBYG", "BGGYRY"),
    ("YYRGYB", "BRRBGY", "GRYBYG", "GBYRGB", "RRBYRG", "BGGYBR"),
    ("RYBGBB", "BGGGRY", "YGRBGR", "RRBRYG", "YBBGYR", "GRYYYB"),
)

SIZE = 6
_FLAT_LAYOUTS = tuple("".join(rows) for rows in LAYOUTS)  # cell i's colour is [layout][i]
EMPTY, BUTTON, STAR = ".", "o", "*"
IN, OPTED_OUT, BUST, LEFT = "in", "opted_out", "bust", "left"
STATUSES = (IN, OPTED_OUT, BUST, LEFT)
MARKS = (EMPTY, BUTTON, STAR)
WHITE_PIP_DICE = 4  # black dice with white pips; the gold black die is never set aside
LEGACY_TWO_PLAYER_ASIDE = 2  # the 2-player rule of the games created before the option
COLOUR_TARGET = 3  # buttons of one colour that earn its star
LINE_LENGTH = 5
STAR_TARGET = 12
LINE_POINTS = 100
PHASES = ("turn", "place", "stars", "over")
ACTION_TYPES = ("roll", "optout", "place", "skip", "star")

INFO = GameInfo(
    name="buttons",
    title="Buttons",
    min_players=2,
    max_players=4,
    rules_version="1",
    options={
        "two_player_aside": OptionSpec(
            1,
            "with 2 players, how many white-pip black dice a player leaving the round sets "
            "aside: 1, as the game's page says for any number of players, or 2, the published "
            "rulebook's 2-player rule",
            choices=(1, 2),
            kind=int,
        )
    },
    notation=(
        "roll: on your turn, roll the dice",
        "optout: on your turn, leave the round keeping your buttons (needs a button placed)",
        "place 3 5: put a button at row 3 (the white die), column 5 (a black die)",
        "skip: do not use the gold dice of another player's roll",
        "star 3 5: turn your button at row 3, column 5 into a star (round end)",
    ),
    field_words={"row": "row", "col": "column"},
)


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    return tuple(
        rr * SIZE + cc
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < SIZE and 0 <= cc < SIZE
    )


NEIGHBOURS = tuple(_neighbours(i) for i in range(SIZE * SIZE))


def cell(row: int, col: int) -> int:
    return (row - 1) * SIZE + (col - 1)


def put_mark(board: str, i: int, mark: str) -> str:
    return board[:i] + mark + board[i + 1 :]


def is_legal_cell(board: str, row: int, col: int) -> bool:
    """Free of buttons and stars, and no button orthogonally next to it (stars do not block)."""
    i = cell(row, col)
    return board[i] == EMPTY and all(board[j] != BUTTON for j in NEIGHBOURS[i])


def colour_of(layout: int, row: int, col: int) -> str:
    return LAYOUTS[layout][row - 1][col - 1]


def cells_marked(board: str, mark: str) -> list[int]:
    return [i for i, m in enumerate(board) if m == mark]


def _rc(i: int) -> str:
    return f"row {i // SIZE + 1}, column {i % SIZE + 1}"


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


def setup(n: int, options: Options, rng: Rng, log: Log) -> State:
    """Each player a layout and bonus cards; round 1 begins."""
    layouts = deal_layouts(n, rng)
    bonus, removed = deal_bonus_cards(n, rng)
    g = {
        "n": n,
        "layouts": layouts,
        "boards": [EMPTY * SIZE * SIZE] * n,
        "bonus": bonus,
        "removed_card": removed,
        "round": 1,
        "status": [IN] * n,
    }
    if n == 2 and "two_player_aside" in options:
        g["two_player_aside"] = options["two_player_aside"]
    log.public(
        "each player receives a board layout and bonus colour cards",
        layouts=[x + 1 for x in layouts],
        bonus=bonus,
        removed_card=removed,
    )
    start_round(g, log)
    return g


def deal_layouts(n: int, rng: Rng) -> list[int]:
    """Each player a different layout, drawn at random from the 8."""
    order = list(range(len(LAYOUTS)))
    rng.shuffle(order)
    return order[:n]


def deal_bonus_cards(n: int, rng: Rng) -> tuple[list[list[str]], str | None]:
    """4 players: one card each; 3: one card other than red is removed at random; 2: two each."""
    cards = list(COLOURS)
    removed = None
    if n == 3:
        removed = rng.choice([c for c in COLOURS if c != "R"])
        cards.remove(removed)
    rng.shuffle(cards)
    per = len(cards) // n
    hands = [sorted(cards[s * per : (s + 1) * per], key=COLOURS.index) for s in range(n)]
    return hands, removed


def start_round(g: State, log: Log) -> None:
    """Everyone still in the game enters the round; the holder of the red card starts."""
    n = g["n"]
    g["status"] = [LEFT if st == LEFT else IN for st in g["status"]]
    g["aside"] = 0
    g["dice"] = None
    g["roller"] = None
    g["choices"] = [None] * n
    g["stars_due"] = [0] * n
    g["star_picks"] = [[] for _ in range(n)]
    g["waiting"] = []
    g["phase"] = "turn"
    g["turn"] = next(s for s in range(n) if "R" in g["bonus"][s])
    log.public(
        "round %d begins; {seat%d} holds the red card and starts" % (g["round"], g["turn"]),
        round=g["round"],
        starts=g["turn"],
    )


# ---------------------------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------------------------


def phase_of(g: State) -> str:
    return g["phase"]


def waiting_seats(g: State) -> frozenset[int]:
    """The seats that still have to decide on a roll or to pick their stars."""
    return frozenset(g["waiting"])


# -- phase "turn": the seat `turn` rolls, or opts out once it has a button


def turn_seat(g: State) -> frozenset[int]:
    return frozenset([g["turn"]])


def turn_actions(g: State, seat: int) -> list[Action]:
    if BUTTON in g["boards"][seat]:
        return [{"type": "optout"}, {"type": "roll"}]
    return [{"type": "roll"}]


def roll(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Roll the white die and every black die in play, then ask the roller and the others."""
    white = rng.between(1, 6)
    gold = rng.between(1, 6)
    black = [rng.between(1, 6) for _ in range(WHITE_PIP_DICE - g["aside"])]
    g["dice"] = {"white": white, "gold": gold, "black": black}
    g["roller"] = seat
    log.public(
        "{seat%d} rolled white %d, gold %d, black %s"
        % (seat, white, gold, " ".join(map(str, black)) or "-"),
        seat=seat,
        white=white,
        gold=gold,
        black=black,
    )
    board = g["boards"][seat]
    waiting = []
    if any(is_legal_cell(board, white, c) for c in roller_columns(g)):
        waiting.append(seat)
    else:
        bust(g, seat, log)
    for s in range(g["n"]):
        if s != seat and g["status"][s] == IN and is_legal_cell(g["boards"][s], white, gold):
            waiting.append(s)
    g["waiting"] = sorted(waiting)
    g["choices"] = [None] * g["n"]
    if waiting:
        g["phase"] = "place"
    else:
        next_turn(g, seat, log)


def roller_columns(g: State) -> list[int]:
    """The columns the roller may combine with the white die: any black die, gold included."""
    d = g["dice"]
    return sorted(set(d["black"]) | {d["gold"]})


def bust(g: State, seat: int, log: Log) -> None:
    """No legal cell: the round's buttons go, a die is set aside, the player is out of the round."""
    g["boards"][seat] = g["boards"][seat].replace(BUTTON, EMPTY)
    g["status"][seat] = BUST
    set_aside_dice(g)
    log.public(
        "{seat%d} cannot place and busts: their buttons of this round are removed" % seat, seat=seat
    )


def opt_out(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Leave the round keeping this round's buttons (they earn stars at the round end)."""
    g["status"][seat] = OPTED_OUT
    set_aside_dice(g)
    log.public("{seat%d} opted out of the round" % seat, seat=seat)
    next_turn(g, seat, log)


def set_aside_dice(g: State) -> None:
    """A player leaving the round sets aside one white-pip black die; with 2 players, as many
    as the option `two_player_aside` says (a game older than the option: two)."""
    each = g.get("two_player_aside", LEGACY_TWO_PLAYER_ASIDE) if g["n"] == 2 else 1
    g["aside"] = min(WHITE_PIP_DICE, g["aside"] + each)


def next_turn(g: State, after: int, log: Log) -> None:
    """The dice pass clockwise to the next player still in the round; none left ends the round."""
    g["waiting"] = []
    nxt = _next_seat(g, after, (IN,))
    if nxt is None:
        end_round(g, log)
    else:
        g["phase"] = "turn"
        g["turn"] = nxt


def _next_seat(g: State, after: int, statuses: tuple[str, ...]) -> int | None:
    """The first seat clockwise after `after` (ending with `after` itself) whose status fits."""
    n = g["n"]
    for k in range(1, n + 1):
        s = (after + k) % n
        if g["status"][s] in statuses:
            return s
    return None


def _next_playing_seat(g: State, after: int) -> int:
    """The first seat clockwise after `after` still in the game. There is one: a game goes on
    only while two players or more remain (`engine.match.resign`)."""
    seat = _next_seat(g, after, (IN, OPTED_OUT, BUST))
    assert seat is not None, "a game goes on only with two players or more"
    return seat


# -- phase "place": the roller places a button; the others may use the gold dice at once


def place_actions(g: State, seat: int) -> list[Action]:
    board = g["boards"][seat]
    white = g["dice"]["white"]
    if seat == g["roller"]:
        return [_place(white, c) for c in roller_columns(g) if is_legal_cell(board, white, c)]
    return [_place(white, g["dice"]["gold"]), {"type": "skip"}]


def _place(row: int, col: int) -> Action:
    return {"type": "place", "row": row, "col": col}


def choose(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """Record one seat's decision on the roll; once all are in, apply them together."""
    g["choices"][seat] = action
    g["waiting"].remove(seat)
    if not g["waiting"]:
        resolve_roll(g, log)


def resolve_roll(g: State, log: Log) -> None:
    """Apply every decision on the roll together, then pass the dice on."""
    for s, choice in enumerate(g["choices"]):
        if choice is None:
            continue
        if choice["type"] == "place":
            i = cell(choice["row"], choice["col"])
            g["boards"][s] = put_mark(g["boards"][s], i, BUTTON)
            log.public(
                "{seat%d} placed a button at %s" % (s, _rc(i)),
                seat=s,
                row=choice["row"],
                col=choice["col"],
            )
        else:
            log.public("{seat%d} let the gold dice pass" % s, seat=s)
    g["choices"] = [None] * g["n"]
    next_turn(g, g["roller"], log)


# -- phase "stars": who opted out turns buttons into the stars earned, all at the same time


def star_actions(g: State, seat: int) -> list[Action]:
    picked = g["star_picks"][seat]
    return [
        {"type": "star", "row": i // SIZE + 1, "col": i % SIZE + 1}
        for i in cells_marked(g["boards"][seat], BUTTON)
        if i not in picked
    ]


def pick_star(g: State, seat: int, action: Action, rng: Rng, log: Log) -> None:
    """One star's cell; the stars are placed once every seat has picked all of its own."""
    row, col = action["row"], action["col"]
    g["star_picks"][seat].append(cell(row, col))
    if len(g["star_picks"][seat]) == g["stars_due"][seat]:
        g["waiting"].remove(seat)
        if not g["waiting"]:
            finish_round(g, log)


# -- takebacks (engine.match.can_take_back)

SECRET_PHASES = ("place", "stars")
"""The phases whose decisions stay secret until every seat has made its own."""


def reveals_nothing(before: State, seat: int, action: Action, after: State) -> bool:
    """Everything is public but the decisions of a roll and the star picks while others still
    decide: a move shows nothing hidden unless it was the last of those and so revealed them all
    (a roll is random, which the runner sees)."""
    return before["phase"] not in SECRET_PHASES or (
        after["phase"] == before["phase"] and after["round"] == before["round"]
    )


PHASE_RULES = {
    "turn": Phase(turn_seat, turn_actions, {"roll": roll, "optout": opt_out}),
    "place": Phase(
        waiting_seats,
        place_actions,
        {"place": choose, "skip": choose},
        continues=lambda g, seat: seat == g["roller"],  # the roller places after the roll
    ),
    "stars": Phase(
        waiting_seats,
        star_actions,
        {"star": pick_star},
        continues=lambda g, seat: bool(g["star_picks"][seat]),  # a star picked, more to go
    ),
    "over": OVER,
}


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


def end_round(g: State, log: Log) -> None:
    """Every player is out: those who opted out earn stars and place them (all at once)."""
    g["turn"] = None
    g["dice"] = None
    g["roller"] = None
    for s in range(g["n"]):
        if g["status"][s] != OPTED_OUT:
            continue
        total, colours, bonus_hit = award_stars(g["boards"][s], g["layouts"][s], g["bonus"][s])
        g["stars_due"][s] = total
        log.public(
            "{seat%d} earns %d star%s: 1 for opting out, %d for colours %s, %d bonus"
            % (
                s,
                total,
                "" if total == 1 else "s",
                len(colours),
                ", ".join(COLOUR_NAMES[c] for c in colours) or "none",
                len(bonus_hit),
            ),
            seat=s,
            stars=total,
            colours=colours,
            bonus=bonus_hit,
        )
    g["waiting"] = [s for s in range(g["n"]) if g["stars_due"][s] > 0]
    if g["waiting"]:
        g["phase"] = "stars"
    else:
        finish_round(g, log)


def award_stars(board: str, layout: int, bonus: list[str]) -> tuple[int, list[str], list[str]]:
    """The stars of a successful opt-out: (total, colours with 3+ buttons, bonus colours among them)."""
    colours_of_buttons = "".join(
        colour for colour, mark in zip(_FLAT_LAYOUTS[layout], board, strict=True) if mark == BUTTON
    )
    colours = [c for c in COLOURS if colours_of_buttons.count(c) >= COLOUR_TARGET]
    bonus_hit = [c for c in bonus if c in colours]
    return 1 + len(colours) + len(bonus_hit), colours, bonus_hit


def finish_round(g: State, log: Log) -> None:
    """Place the picked stars, return every button, check the end, else start the next round."""
    for s in range(g["n"]):
        board = g["boards"][s]
        picks = sorted(g["star_picks"][s])
        for i in picks:
            board = put_mark(board, i, STAR)
        g["boards"][s] = board.replace(BUTTON, EMPTY)
        if picks:
            log.public(
                "{seat%d} placed stars at %s" % (s, "; ".join(_rc(i) for i in picks)),
                seat=s,
                cells=[[i // SIZE + 1, i % SIZE + 1] for i in picks],
            )
    g["stars_due"] = [0] * g["n"]
    g["star_picks"] = [[] for _ in range(g["n"])]
    g["waiting"] = []
    if any(
        g["status"][s] != LEFT and (has_line(b) or b.count(STAR) >= STAR_TARGET)
        for s, b in enumerate(g["boards"])
    ):
        g["phase"] = "over"
        log.public("the game is over", scores=[score(b) for b in g["boards"]])
        return
    g["round"] += 1
    pass_bonus_cards(g, log)
    start_round(g, log)


def pass_bonus_cards(g: State, log: Log) -> None:
    """Every player passes their bonus card(s) to the next player clockwise (still in the game)."""
    new: list[list[str]] = [[] for _ in range(g["n"])]
    for s, cards in enumerate(g["bonus"]):
        if cards:
            new[_next_playing_seat(g, s)] += cards
    g["bonus"] = [sorted(c, key=COLOURS.index) for c in new]
    log.public("the bonus cards are passed clockwise", bonus=[list(c) for c in g["bonus"]])


def has_line(board: str) -> bool:
    """5 stars in an unbroken straight line in a row or a column (not diagonal)."""
    want = STAR * LINE_LENGTH
    return any(
        want in board[k * SIZE : (k + 1) * SIZE] or want in board[k::SIZE] for k in range(SIZE)
    )


def score(board: str) -> int:
    """As the site scores: 100 points for a line of 5 stars, plus one point per star."""
    return (LINE_POINTS if has_line(board) else 0) + board.count(STAR)


def outcome(g: State) -> Outcome | None:
    if g["phase"] != "over":
        return None
    scores = tuple(score(b) for b in g["boards"])
    playing = [s for s in range(g["n"]) if g["status"][s] != LEFT]
    line = any(has_line(g["boards"][s]) for s in playing)
    reason = "a player completed a line of 5 stars" if line else "a player reached 12 stars"
    return best_scores(scores, playing, reason)


def remove_seat(g: State, seat: int, log: Log) -> State:
    """A resigning player leaves: out of every round from now on, their pending decision
    dropped, their bonus cards handed to the next player clockwise; the others go on."""
    was_in = g["status"][seat] == IN
    g["status"][seat] = LEFT
    g["boards"][seat] = g["boards"][seat].replace(BUTTON, EMPTY)
    heir = _next_playing_seat(g, seat)
    g["bonus"][heir] = sorted(g["bonus"][heir] + g["bonus"][seat], key=COLOURS.index)
    g["bonus"][seat] = []
    log.public(
        "{seat%d} left the game; their bonus cards go to {seat%d}" % (seat, heir),
        seat=seat,
        bonus=[list(c) for c in g["bonus"]],
    )
    if was_in:
        set_aside_dice(g)
    phase = g["phase"]
    if phase == "turn" and g["turn"] == seat:
        next_turn(g, seat, log)
    elif phase == "place":
        g["choices"][seat] = None
        if seat in g["waiting"]:
            g["waiting"].remove(seat)
            if not g["waiting"]:
                resolve_roll(g, log)
    elif phase == "stars":
        g["stars_due"][seat] = 0
        g["star_picks"][seat] = []
        if seat in g["waiting"]:
            g["waiting"].remove(seat)
            if not g["waiting"]:
                finish_round(g, log)
    return g


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------


def parse(text: str) -> Action:
    words = text.lower().replace(",", " ").split()
    if words in (["roll"], ["skip"]):
        return {"type": words[0]}
    if words in (["optout"], ["opt", "out"], ["opt-out"]):
        return {"type": "optout"}
    if len(words) == 3 and words[0] in ("place", "star"):
        if all(w.isdecimal() and 1 <= int(w) <= SIZE for w in words[1:]):
            return {"type": words[0], "row": int(words[1]), "col": int(words[2])}
        raise MalformedAction(
            f"cannot read {text!r}: row and column are numbers 1 to 6, as in '{words[0]} 3 5'"
        )
    raise MalformedAction(
        f"cannot read {text!r}: write 'roll', 'optout', 'place ROW COL' "
        "(e.g. 'place 3 5'), 'skip' or 'star ROW COL' (e.g. 'star 3 5')"
    )


def format_action(action: Action) -> str:
    kind = action["type"]
    if kind in ("roll", "optout", "skip"):
        return kind
    if kind in ("place", "star"):
        row, col = action["row"], action["col"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
            raise MalformedAction(f"a {kind}'s row and column are whole numbers 1 to 6")
        return f"{kind} {row} {col}"
    raise MalformedAction(
        f"unknown action type {kind!r}; the types are roll, optout, place, skip and star"
    )


def describe(view: View, action: Action) -> str:
    """The action in words, as the seat of `view` makes it: a cell with its colour."""
    kind = action["type"]
    me = view["players"][view["you"]]
    if kind == "roll":
        return "Roll the dice"
    if kind == "optout":
        buttons = sum(row.count(BUTTON) for row in me["board"])
        return "Opt out of the round, keeping your %d button%s" % (
            buttons,
            "" if buttons == 1 else "s",
        )
    if kind == "skip":
        return "Let the gold dice pass"
    row, col = action["row"], action["col"]
    where = "row %d, column %d (%s)" % (row, col, COLOUR_NAMES[me["colours"][row - 1][col - 1]])
    if kind == "star":
        return f"Turn your button at {where} into a star"
    if view["roller"] == view["you"]:
        return f"Place a button at {where}"
    return f"Use the gold dice: place a button at {where}"


# ---------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------


def view(g: State, seat: int | None) -> View:
    """Everything is public but a seat's decision on the current roll and its star picks while
    others still decide."""
    players = []
    for s in range(g["n"]):
        board = g["boards"][s]
        players.append(
            {
                "layout": g["layouts"][s] + 1,
                "colours": list(LAYOUTS[g["layouts"][s]]),
                "board": [board[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)],
                "status": g["status"][s],
                "bonus": list(g["bonus"][s]),
                "stars": board.count(STAR),
                "line": has_line(board),
                "score": score(board),
                "stars_due": g["stars_due"][s],
                "stars_picked": len(g["star_picks"][s]),
            }
        )
    dice = g["dice"]
    mine = seat is not None
    choice = g["choices"][seat] if mine and g["phase"] == "place" else None
    return {
        "you": seat,
        "round": g["round"],
        "phase": g["phase"],
        "turn": g["turn"] if g["phase"] in ("turn", "place") else None,
        "roller": g["roller"] if g["phase"] == "place" else None,
        "waiting": list(g["waiting"]),
        "dice": None
        if dice is None
        else {"white": dice["white"], "gold": dice["gold"], "black": list(dice["black"])},
        "dice_in_play": WHITE_PIP_DICE - g["aside"],
        "removed_card": g["removed_card"],
        "players": players,
        "my_choice": None if choice is None else dict(choice),
        "my_star_picks": (
            [[i // SIZE + 1, i % SIZE + 1] for i in g["star_picks"][seat]] if mine else []
        ),
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
    reveals_nothing=reveals_nothing,
)
