"""`expert`: a bot that searches, playing from what its seat may know.

Determinized Monte Carlo search: the bot asks the game's bot module for `determinize(state,
seat, rng)`, a state the seat cannot tell from the real one (everything it cannot see drawn
again at random from what it could be, from what it can see only). For each try it draws such
a world, plays one of its candidate moves in it, and plays the game on to the end with the
heuristic bots for every seat and fresh dice (or up to where the bot module's `cutoff`
values the position: Buttons stops at the end of the round). The UCB1 rule spends the tries
on the candidates that win most often; the heuristic's own choice is played unless the most
tried other candidate, tried enough, won clearly more often. The candidates enter the search
one by one (progressive widening), so that the few tries of a short budget go to few moves,
each tried often enough to be judged. The search stops when `more()` says so: the server gives it a
budget of CPU time (service.play.games.cpu_budget), a test a count of tries.

A title has the expert when its bot module defines `determinize`; `expert_for` says which.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
from collections.abc import Callable
from types import ModuleType

from engine.core import Action, Game, Log, Outcome, Rng, State, View

Determinizer = Callable[[State, int, Rng], State]
Ranker = Callable[[View, list[Action]], list[Action]]
Cutoff = Callable[[State, int], Callable[[State], float | None]]
"""A bot module's optional `cutoff(start, seat)`: for a playout from `start`, a function that
says where it may stop (a state) with the seat's chance to win there (None: play on)."""

MAX_CANDIDATES = 24
"""At most this many of the legal moves are searched: the heuristic's choice and the others
in the order of the bot module's `rank(view, legal)` (best first) if it has one, else drawn at
random (The Nine Domains opens with 504)."""
EXPLORATION = 0.7
CONFIDENCE = 2.0
MIN_TRIES = 10  # another move is played only after at least this many tries of it
WIDEN_EVERY = MIN_TRIES  # one more candidate enters the search every this many tries
ROLLOUT_STEPS = 5000  # a safety net: every game here ends long before


def _bot_module(game: Game) -> ModuleType | None:
    """The game's bot module here (a game defined elsewhere, such as the tests' own, has none)."""
    name = f"engine.bots.{game.info.name}"
    return importlib.import_module(name) if importlib.util.find_spec(name) else None


def expert_for(game: Game) -> Determinizer | None:
    """The game's determinizer, if its bot module has one: then the title has the expert."""
    found: Determinizer | None = getattr(_bot_module(game), "determinize", None)
    return found


def clone(state: State) -> State:
    result: State = json.loads(json.dumps(state))
    return result


def expert_move(
    game: Game,
    state: State,
    seat: int,
    legal: list[Action],
    rng: Rng,
    more: Callable[[], bool],
) -> Action:
    """The move the search prefers among `legal` (the seat's legal moves in `state`)."""
    determinize = expert_for(game)
    heuristic = game.bots["heuristic"]
    first = heuristic(game.view(state, seat), legal, rng)
    if len(legal) == 1 or determinize is None:
        return first
    others = [a for a in legal if a != first]
    module = _bot_module(game)
    rank: Ranker | None = getattr(module, "rank", None)
    cutoff: Cutoff | None = getattr(module, "cutoff", None)
    if rank is not None:
        others = rank(game.view(state, seat), others)
    else:
        rng.shuffle(others)
    candidates = [first, *others[: MAX_CANDIDATES - 1]]
    wins = [0.0] * len(candidates)
    tries = [0] * len(candidates)
    total = 0
    while more():
        widened = min(len(candidates), 2 + total // WIDEN_EVERY)
        i = _pick(wins[:widened], tries[:widened], total)
        world = determinize(state, seat, rng)
        wins[i] += playout(game, world, seat, candidates[i], rng, cutoff)
        tries[i] += 1
        total += 1
    return candidates[_chosen(wins, tries)]


def _chosen(wins: list[float], tries: list[int]) -> int:
    """The heuristic's move (candidate 0) unless the most tried other one, tried at least
    MIN_TRIES times, won clearly more often: by more than CONFIDENCE standard errors of the
    difference. With few tries the search keeps to the heuristic rather than follow noise."""
    if tries[0] == 0:
        return 0
    other = max(range(1, len(tries)), key=lambda i: (tries[i], wins[i]), default=0)
    if other == 0 or tries[other] < MIN_TRIES:
        return 0
    p0, p1 = wins[0] / tries[0], wins[other] / tries[other]
    pooled = (wins[0] + wins[other]) / (tries[0] + tries[other])
    spread = math.sqrt(max(pooled * (1 - pooled), 0.01) * (1 / tries[0] + 1 / tries[other]))
    return other if p1 - p0 > CONFIDENCE * spread else 0


def _pick(wins: list[float], tries: list[int], total: int) -> int:
    for i, n in enumerate(tries):
        if n == 0:
            return i
    log_total = math.log(total)
    return max(
        range(len(tries)),
        key=lambda i: wins[i] / tries[i] + EXPLORATION * math.sqrt(log_total / tries[i]),
    )


def playout(
    game: Game, world: State, seat: int, action: Action, rng: Rng, cutoff: Cutoff | None = None
) -> float:
    """Play `action` for `seat` in `world`, then the game on with the heuristic bots: 1 for an
    outright win of `seat`, a share of 1 for a shared win, 0 otherwise; or, with the bot
    module's `cutoff`, stop where it says with its estimate of the seat's chance."""
    heuristic = game.bots["heuristic"]
    log = Log()
    estimate = cutoff(world, seat) if cutoff else None
    world = game.apply(world, seat, action, rng, log)
    for _ in range(ROLLOUT_STEPS):
        outcome = game.outcome(world)
        if outcome is not None:
            return _score(outcome, seat)
        chance = estimate(world) if estimate else None
        if chance is not None:
            return chance
        mover = rng.choice(sorted(game.active_seats(world)))
        legal = game.legal_actions(world, mover)
        choice = heuristic(game.view(world, mover), legal, rng)
        world = game.apply(world, mover, choice, rng, log)
    return 0.0


def _score(outcome: Outcome, seat: int) -> float:
    winners = outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0
