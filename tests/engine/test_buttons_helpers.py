"""Helpers for the Buttons tests (no tests here): states from a readable description, fixed dice."""

from engine.core import Log, validate_options
from engine.games import buttons as B
from engine.rng import Rng

GAME = B.GAME
SEED = b"buttons-test-seed-0123456789abcd"


def board(*rows: str) -> str:
    """A board from up to 6 rows of 6 marks ('.' empty, 'o' button, '*' star); rest empty."""
    rows = list(rows) + ["......"] * (B.SIZE - len(rows))
    assert all(len(r) == B.SIZE for r in rows)
    return "".join(rows)


def make(n=2, boards=None, layouts=None, bonus=None, status=None, turn=0, rnd=1, options=None):
    """A state at the start of a turn of `turn`, with the given boards (default empty) etc.;
    `options` as a new game has them (None: none at all, as a game older than the options)."""
    log = Log()
    full = {} if options is None else validate_options(GAME.info, options)
    g = GAME.setup(n, full, Rng(SEED), log)
    g["layouts"] = list(layouts) if layouts is not None else list(range(n))
    if bonus is not None:
        g["bonus"] = [list(b) for b in bonus]
    if boards is not None:
        g["boards"] = list(boards)
    if status is not None:
        g["status"] = list(status)
    g["round"] = rnd
    g["phase"] = "turn"
    g["turn"] = turn
    return g


class Dice:
    """A stand-in generator that rolls the given values in order: white, gold, then black dice."""

    def __init__(self, *values):
        self.values = list(values)

    def between(self, low, high):
        value = self.values.pop(0)
        assert low <= value <= high
        return value


def roll(g, seat, *values, log=None):
    """`seat` rolls the given dice; returns the log."""
    log = log or Log()
    g = GAME.apply(g, seat, {"type": "roll"}, Dice(*values), log)
    return log


def act(g, seat, text, log=None):
    log = log or Log()
    action = GAME.parse(text)
    assert action in GAME.legal_actions(g, seat), (text, GAME.legal_actions(g, seat))
    GAME.apply(g, seat, action, None, log)
    return log


def texts(g, seat):
    return [GAME.format(a) for a in GAME.legal_actions(g, seat)]
