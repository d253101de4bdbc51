"""Buttons' conformance hooks: its invariants at two to four players, what a seat cannot know
(the others' pending choices), and its own checks: resignations, and a log that tells no
choice before all are in."""

from engine import match as runner
from engine.games import buttons as B
from engine.games.buttons import GAME
from engine.rng import Rng
from tests.engine.conformance import Run, play, seed_of

MAX_STEPS = 3000  # random games take at most ~450 moves (4 players); rounds at most ~20
MAX_ROUNDS = 60
PHASES = {"turn", "place", "stars", "over"}


def undecided(action, g):
    """Whether `action` was a choice of a roll or a star pick that others still have to match."""
    return g["phase"] == {"place": "place", "skip": "place", "star": "stars"}.get(action["type"])


def touching(board):
    """Whether two buttons are orthogonal neighbours (in a row, or in a column)."""
    rows = [board[r * 6 : r * 6 + 6] for r in range(6)]
    cols = [board[c::6] for c in range(6)]
    return any("oo" in line for line in rows + cols)


def check_step(before, seat, action, after, entries):
    b, g = before["state"], after["state"]
    n = g["n"]
    assert g["phase"] in PHASES and g["round"] <= MAX_ROUNDS
    per = g.get("two_player_aside", 2) if n == 2 else 1
    outs = sum(1 for st in g["status"] if st in (B.OPTED_OUT, B.BUST))
    if B.LEFT not in g["status"]:
        assert g["aside"] == min(B.WHITE_PIP_DICE, per * outs)
    held = sorted(c for cards in g["bonus"] for c in cards)
    assert held == sorted(c for c in B.COLOURS if c != g["removed_card"])
    assert any("R" in g["bonus"][s] and g["status"][s] != B.LEFT for s in range(n))
    for s in range(n):
        board, old = g["boards"][s], b["boards"][s]
        if g["status"][s] in (B.BUST, B.LEFT):
            assert B.BUTTON not in board
        if board == old:
            continue
        assert len(board) == 36 and not set(board) - {".", "o", "*"}
        assert not touching(board), "two buttons touch"
        stars, old_stars = board.count(B.STAR), old.count(B.STAR)
        assert stars >= old_stars, "a star disappeared"
        if stars != old_stars:
            assert g["round"] == b["round"] + 1 or g["phase"] == "over"
        assert board.count(B.BUTTON) <= old.count(B.BUTTON) + 1
    if action["type"] == "optout":
        assert B.BUTTON in b["boards"][seat]
    if undecided(action, g):
        assert g["boards"] == b["boards"], "a choice was applied before all were in"
    phase = g["phase"]
    if phase == "turn":
        assert g["status"][g["turn"]] == B.IN and g["waiting"] == []
    elif phase == "place":
        d = g["dice"]
        rolled_with = B.WHITE_PIP_DICE - g["aside"]  # the roller's bust set dice aside after
        busted = g["status"][g["roller"]] == B.BUST
        assert rolled_with <= len(d["black"]) <= rolled_with + (per if busted else 0)
        assert all(1 <= v <= 6 for v in d["black"] + [d["white"], d["gold"]])
        for s in g["waiting"]:
            assert g["status"][s] == B.IN and g["choices"][s] is None
    elif phase == "stars":
        for s in g["waiting"]:
            assert g["status"][s] == B.OPTED_OUT
            assert g["stars_due"][s] <= g["boards"][s].count(B.BUTTON)
    else:
        out = GAME.outcome(g)
        assert out.scores == tuple(B.score(x) for x in g["boards"])
        playing = [s for s in range(n) if g["status"][s] != B.LEFT]
        assert any(
            B.has_line(g["boards"][s]) or g["boards"][s].count(B.STAR) >= 12 for s in playing
        )
        best = max(out.scores[s] for s in playing)
        assert out.winners == tuple(s for s in playing if out.scores[s] == best)


def check_end(m, history):
    assert m["outcome"] is not None and len(history) < MAX_STEPS


def perturb(g, seat, rng):
    """Change what `seat` cannot know: the other seats' pending roll choices and star picks."""
    for s in range(g["n"]):
        if s == seat:
            continue
        choice = g["choices"][s]
        if choice is not None:
            if s != g["roller"]:
                white, gold = g["dice"]["white"], g["dice"]["gold"]
                g["choices"][s] = (
                    {"type": "skip"}
                    if choice["type"] == "place"
                    else {"type": "place", "row": white, "col": gold}
                )
            else:
                g["choices"][s] = {"type": "place", "row": 6, "col": rng.between(1, 6)}
        picks = g["star_picks"][s]
        if picks:
            buttons = [i for i, m in enumerate(g["boards"][s]) if m == B.BUTTON]
            rng.shuffle(buttons)
            g["star_picks"][s] = buttons[: len(picks)]
    return g


PLAYS = [Run(n, 1000) for n in (2, 3, 4)]
NO_LEAK = [Run(n, 20 if n < 4 else 12, first=300) for n in (2, 3, 4)]
REPLAYS = [Run(n, 10, first=100) for n in (2, 3, 4)]
NOTATION = [Run(n, 10, first=200) for n in (2, 4)]
SEED_HIDDEN = NOTATION
BOTS_LEGAL = [Run(n, 10, first=500) for n in (2, 4)]
GOLDEN = Run(2, 1, first=7)
BOT_MATCHES = [(Run(2, 200, first=10_000), 101), (Run(4, 200, first=10_000), 76)]  # fair: 50


def random_games_with_resignations_go_on_and_never_ask_a_removed_seat():
    for n in (3, 4):
        for i in range(60):
            seed = seed_of(50_000 + i)
            picker = Rng(b"resign:" + seed)
            m, _ = runner.start(GAME, n, None, seed, 1)
            version, gone, resign_at = 1, [], picker.between(1, 200)
            while m["outcome"] is None:
                version += 1
                if version == resign_at or (len(gone) < n - 2 and picker.below(150) == 0):
                    seat = picker.choice([s for s in range(n) if s not in gone])
                    m, _ = runner.resign(GAME, m, seat, version)
                    gone.append(seat)
                else:
                    seat = picker.choice(sorted(runner.active_seats(GAME, m)))
                    action = picker.choice(runner.legal_actions(GAME, m, seat))
                    m, _ = runner.act(GAME, m, seat, action, seed, version)
                if m["outcome"] is None:
                    active = runner.active_seats(GAME, m)
                    assert active and not active & set(gone)
                assert version < MAX_STEPS
            if len(gone) < n - 1:
                assert not set(m["outcome"]["winners"]) & set(gone)


def log_never_tells_a_choice_before_all_are_in():
    def step(before, seat, action, after, entries):
        assert all(e.to is None for e in entries), "Buttons has no private entries"
        if undecided(action, after["state"]):
            assert entries == [], f"{entries} told a choice before all were in"

    for n in (2, 3, 4):
        for i in range(10):
            play(GAME, n, None, seed_of(400 + i), on_step=step)


SPECIFICS = (
    random_games_with_resignations_go_on_and_never_ask_a_removed_seat,
    log_never_tells_a_choice_before_all_are_in,
)
