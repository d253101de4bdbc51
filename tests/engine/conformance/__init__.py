"""Checks every game must pass: tests/engine/test_conformance.py runs them over every
registered title, with what is particular to a title in its hook module here,
`tests/engine/conformance/<name>.py` (`hooks_of(name)`; nautilus.py is the model).

A hook module declares, as module-level names:
- `check_step(before, seat, action, after, entries)`, the title's invariants after every step
  of `PLAYS`' random games, and `check_end(match, history)` at the end of each;
- `MAX_STEPS`, the moves within which a random game must end;
- `perturb(g, seat, rng)`: a copy of `g` changed in what `seat` cannot know (-1: every seat);
- the seeded games of each check, as `Run`s: `PLAYS`, `NO_LEAK`, `REPLAYS`, `NOTATION`,
  `SEED_HIDDEN`, `BOTS_LEGAL`, `GOLDEN` (one), and `BOT_MATCHES`, pairs of a `Run` and the
  heuristic's least number of outright wins over 200 games against the random bot;
- `SPECIFICS`: the title's own checks, functions without arguments.

Each function here raises AssertionError with a message that says which step of which seeded
game broke which promise.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from engine import match as runner
from engine.core import Game, Log
from engine.rng import Rng

GOLDEN_DIR = Path(__file__).parents[1] / "golden"


def seed_of(i: int) -> bytes:
    return i.to_bytes(4, "big") * 8


def no_options(i: int) -> dict | None:
    return None


@dataclass(frozen=True)
class Run:
    """Seeded games of one check: game i (from `first`) has the seed `seed_of(i)`, `players`
    seats and the options `options(i)`, and its moves picked by `chooser` (None: uniformly)."""

    players: int
    games: int
    options: Callable[[int], dict | None] = no_options
    first: int = 0
    chooser: Callable | None = None
    label: str = ""  # told apart from the title's other runs of the check

    def __str__(self) -> str:
        return f"{self.players} players{' ' + self.label if self.label else ''}"

    def seeds(self) -> list[tuple[int, bytes]]:
        return [(i, seed_of(i)) for i in range(self.first, self.first + self.games)]


def hooks_of(name: str) -> ModuleType:
    """The conformance hook module of the registered title `name`."""
    module = f"{__name__}.{name}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name != module:
            raise
        raise AssertionError(
            f"{name} is registered but has no conformance hooks: write "
            f"tests/engine/conformance/{name}.py (as nautilus.py there)"
        ) from missing


def play(
    game: Game,
    n: int,
    options: dict | None,
    seed: bytes,
    chooser: Callable | None = None,
    max_steps: int = 10_000,
    on_step: Callable | None = None,
):
    """Play one whole game. `chooser(view, legal, rng, seat)` picks moves (default: uniform).

    Seats acting at the same time act in an order drawn from the game's own seed, so
    simultaneous choices are exercised in every order. Returns (match, history) where history
    is the list of (seat, action) applied.
    """
    picker = Rng(b"picker:" + seed)
    m, _ = runner.start(game, n, options, seed, 1)
    history = []
    version = 1
    while m["outcome"] is None:
        active = sorted(runner.active_seats(game, m))
        assert active, f"dead end: no seat can act and the game is not over (step {version})"
        seat = picker.choice(active)
        legal = runner.legal_actions(game, m, seat)
        assert legal, f"dead end: seat {seat} is active with no legal action (step {version})"
        if chooser is None:
            action = picker.choice(legal)
        else:
            action = chooser(game.view(m["state"], seat), legal, picker, seat)
        version += 1
        before = m
        m, entries = runner.act(game, m, seat, action, seed, version)
        history.append((seat, action))
        if on_step is not None:
            on_step(before, seat, action, m, entries)
        assert version < max_steps, f"the game did not end within {max_steps} moves"
    return m, history


def replay(game: Game, n: int, options: dict | None, seed: bytes, history) -> dict:
    m, _ = runner.start(game, n, options, seed, 1)
    for version, (seat, action) in enumerate(history, start=2):
        m, _ = runner.act(game, m, seat, action, seed, version)
    return m


def check_replay_and_json(
    game: Game, n: int, options: dict | None, seed: bytes, chooser: Callable | None = None
) -> None:
    """Replaying the recorded actions gives the live match; the state is JSON at every step."""

    def step(before, seat, action, after, entries):
        assert json.loads(json.dumps(after)) == after, "the state is not plain JSON"
        for e in entries:
            json.dumps(e.to_json())

    live, history = play(game, n, options, seed, chooser, on_step=step)
    assert replay(game, n, options, seed, history) == live


def check_notation(game: Game, g_match: dict, seat: int) -> None:
    """parse(format(a)) == a for every legal action, and every text is distinct."""
    legal = runner.legal_actions(game, g_match, seat)
    texts = [game.format(a) for a in legal]
    assert len(set(texts)) == len(texts), "two legal actions share one notation"
    for a, t in zip(legal, texts):
        assert game.parse(t) == a, f"notation {t!r} does not read back as {a}"


def check_views_hide_seed(game: Game, m: dict, seed: bytes) -> None:
    for seat in [None, *range(m["seats"])]:
        text = json.dumps(game.view(m["state"], seat))
        assert seed.hex() not in text and "rng" not in text and "seed" not in text.lower()


def check_no_leak(
    game: Game,
    n: int,
    options: dict | None,
    seed: bytes,
    perturb: Callable[[dict, int, Rng], dict],
    chooser: Callable | None = None,
) -> None:
    """At every step, for every seat: changing only what the seat cannot know (via `perturb`,
    which returns a modified copy of the state) leaves that seat's view unchanged."""
    shaker = Rng(b"perturb:" + seed)

    def step(before, seat, action, after, entries):
        for s in range(n):
            g = json.loads(json.dumps(after["state"]))
            changed = perturb(g, s, shaker)
            assert game.view(changed, s) == game.view(after["state"], s), (
                f"seat {s} can see something it should not (after {game.format(action)})"
            )

    play(game, n, options, seed, chooser, on_step=step)


def check_log_visibility(entries, seat_secret: Callable[[int], list[str]], n: int) -> None:
    """No log entry readable by a seat contains a text that is secret to that seat."""
    for e in entries:
        for s in [None, *range(n)]:
            if e.visible_to(s):
                blob = json.dumps(e.to_json())
                for secret in seat_secret(s) if s is not None else seat_secret(-1):
                    assert secret not in blob, f"entry {e.text!r} shows {secret!r} to seat {s}"


def golden_playthrough(
    game: Game, n: int, options: dict | None, seed: bytes
) -> list[dict[str, Any]]:
    """Each step of one seeded game: active seats, legal actions (notation), each seat's view."""
    steps = []

    def snapshot(m, seat=None, action=None):
        entry = {
            "active": sorted(runner.active_seats(game, m)),
            "legal": {
                str(s): [game.format(a) for a in runner.legal_actions(game, m, s)]
                for s in sorted(runner.active_seats(game, m))
            },
            "views": {str(s): game.view(m["state"], s) for s in range(n)},
            "spectator": game.view(m["state"], None),
        }
        if action is not None:
            entry["played"] = {"seat": seat, "move": game.format(action)}
        steps.append(entry)

    m, _ = runner.start(game, n, options, seed, 1)
    snapshot(m)
    final, _ = play(game, n, options, seed, on_step=lambda b, s, a, after, e: snapshot(after, s, a))
    steps.append({"outcome": final["outcome"]})
    return steps


def check_golden(game: Game, n: int, options: dict | None, seed: bytes) -> None:
    """Compare with tests/engine/golden/<game>.json; UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN_DIR / f"{game.info.name}.json"
    actual = json.loads(json.dumps(golden_playthrough(game, n, options, seed)))
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n")
    assert path.exists(), f"no golden file {path.name}: run the test once with UPDATE_GOLDEN=1"
    assert json.loads(path.read_text()) == actual, f"{path.name} differs: the rules changed?"


def check_bot_beats_random(game: Game, run: Run) -> int:
    """Heuristic (seat rotates) against random over the games of `run`; returns the
    heuristic's number of outright wins."""
    wins = 0
    for k, (i, seed) in enumerate(run.seeds()):
        hero = k % run.players

        def choose(view, legal, rng, seat, hero=hero):
            bot = game.bots["heuristic"] if seat == hero else game.bots["random"]
            return bot(view, legal, rng)

        m, _ = play(game, run.players, run.options(i), seed, chooser=choose)
        winners = m["outcome"]["winners"]
        if winners == [hero]:
            wins += 1
    return wins


def new_log() -> Log:
    return Log()
