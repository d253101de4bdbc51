"""Buttons: seeded random games with invariants, the shared conformance checks, golden, bots."""

import pytest

from engine import match as runner
from engine.games import buttons as B
from engine.rng import Rng
from tests.engine import conformance
from tests.engine.test_buttons_helpers import GAME

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


def check_invariants(before, seat, action, after, entries):
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


@pytest.mark.parametrize("n", [2, 3, 4])
def test_thousand_random_games_keep_the_invariants(n):
    for i in range(1000):
        m, history = conformance.play(
            GAME, n, None, conformance.seed_of(i), max_steps=MAX_STEPS, on_step=check_invariants
        )
        assert m["outcome"] is not None and len(history) < MAX_STEPS


@pytest.mark.parametrize("n", [3, 4])
def test_random_games_with_resignations_go_on_and_never_ask_a_removed_seat(n):
    for i in range(60):
        seed = conformance.seed_of(50_000 + i)
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
                m, _ = runner.act(
                    GAME, m, seat, picker.choice(runner.legal_actions(GAME, m, seat)), seed, version
                )
            if m["outcome"] is None:
                active = runner.active_seats(GAME, m)
                assert active and not active & set(gone)
            assert version < MAX_STEPS
        if len(gone) < n - 1:
            assert not set(m["outcome"]["winners"]) & set(gone)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_replay_and_json(n):
    for i in range(10):
        conformance.check_replay_and_json(GAME, n, None, conformance.seed_of(100 + i))


@pytest.mark.parametrize("n", [2, 4])
def test_notation_round_trips_at_many_states(n):
    def step(before, seat, action, after, entries):
        for s in sorted(runner.active_seats(GAME, after)):
            conformance.check_notation(GAME, after, s)
        conformance.check_views_hide_seed(GAME, after, seed)

    for i in range(10):
        seed = conformance.seed_of(200 + i)
        conformance.play(GAME, n, None, seed, on_step=step)


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


@pytest.mark.parametrize("n", [2, 3, 4])
def test_views_do_not_leak_pending_choices(n):
    for i in range(20 if n < 4 else 12):
        conformance.check_no_leak(GAME, n, None, conformance.seed_of(300 + i), perturb)


def test_log_never_tells_a_choice_before_all_are_in():
    def step(before, seat, action, after, entries):
        assert all(e.to is None for e in entries), "Buttons has no private entries"
        if undecided(action, after["state"]):
            assert entries == [], f"{entries} told a choice before all were in"

    for n in (2, 3, 4):
        for i in range(10):
            conformance.play(GAME, n, None, conformance.seed_of(400 + i), on_step=step)


def test_golden_playthrough():
    conformance.check_golden(GAME, 2, None, conformance.seed_of(7))


def test_heuristic_beats_random_two_players():
    wins = conformance.check_bot_beats_random(GAME, 2, None)
    assert wins > 100, wins


def test_heuristic_beats_random_four_players():
    wins = conformance.check_bot_beats_random(GAME, 4, None)
    assert wins > 75, wins  # a fair share is 50
