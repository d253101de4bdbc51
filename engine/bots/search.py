"""`expert`: a bot that searches, playing from what its seat may know.

Determinized Monte Carlo search: the bot is given the parts its title's bot module declares
(`EXPERT`, an `ExpertParts`), among them `determinize(state, seat, rng)`, a state the seat
cannot tell from the real one (everything it cannot see drawn again at random from what it
could be, from what it can see only). For each try it draws such a world, plays one of its
candidate moves in it, and plays the game on to the end with the heuristic bots for every
seat and fresh dice (or up to where the parts' `cutoff` values the position: Buttons stops at
the end of the round). The UCB1 rule spends the tries
on the candidates that win most often; the heuristic's own choice is played unless the most
tried other candidate, tried enough, won clearly more often. The candidates enter the search
one by one (progressive widening), so that the few tries of a short budget go to few moves,
each tried often enough to be judged. The search stops when `more()` says so: the server gives it a
budget of CPU time (service.play.games.cpu_budget), a test a count of tries.

Parts that say `paired=True` get the paired search instead (`_paired`): each try plays every
candidate still in the race in one drawn world with one `Luck`, and judges them by their
differences, which the dice no longer blur. Their `choice_confidence` (default
PAIRED_CONFIDENCE) is the margin by which a move must beat the heuristic's to be played:
Con Sonar! asks for one standard error, since its better moves gain a few hundredths at
many positions, too little to show at two in a second.

A title has the expert when its bot module declares its parts: engine.registry's `EXPERTS`
says which, and holds them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Action, Game, Log, Outcome, Rng, State, View

Determinizer = Callable[[State, int, Rng], State]
Ranker = Callable[[View, list[Action]], list[Action]]
Cutoff = Callable[[State, int], Callable[[State], float | None]]
"""An optional `cutoff(start, seat)`: for a playout from `start`, a function that says where it
may stop (a state) with the seat's chance to win there (None: play on)."""

MAX_CANDIDATES = 24
"""At most this many of the legal moves are searched: the heuristic's choice and the others
in the order of the parts' `rank(view, legal)` (best first) if they have one, else drawn at
random (The Nine Domains opens with 504)."""
EXPLORATION = 0.7
CONFIDENCE = 2.0
PAIRED_CONFIDENCE = 2.0  # the paired search's margin, in standard errors of the differences
MIN_TRIES = 10  # another move is played only after at least this many tries of it
WIDEN_EVERY = MIN_TRIES  # one more candidate enters the search every this many tries
ROLLOUT_STEPS = 5000  # a safety net: every game here ends long before


@dataclass(frozen=True)
class ExpertParts:
    """What a title's bot module gives the expert, declared in one value beside its `BOTS`
    (`EXPERT = ExpertParts(determinize, ...)`): only `determinize` is needed, the rest have
    defaults that leave the plain search as it is."""

    determinize: Determinizer
    rank: Ranker | None = None
    """The legal moves best first, the order in which they enter the search (else random)."""
    cutoff: Cutoff | None = None
    paired: bool = False
    """Compare the moves on the same dice: the paired search (`_paired`)."""
    choice_confidence: float = PAIRED_CONFIDENCE
    """The paired search's margin: by how many standard errors a move must beat the
    heuristic's to be played."""


def clone(state: State) -> State:
    result: State = json.loads(json.dumps(state))
    return result


def expert_move(
    game: Game,
    expert: ExpertParts,
    state: State,
    seat: int,
    legal: list[Action],
    rng: Rng,
    more: Callable[[], bool],
) -> Action:
    """The move the search, with the title's parts `expert`, prefers among `legal` (the seat's
    legal moves in `state`)."""
    heuristic = game.bots["heuristic"]
    first = heuristic(game.view(state, seat), legal, rng)
    if len(legal) == 1:
        return first
    others = [a for a in legal if a != first]
    if expert.rank is not None:
        others = expert.rank(game.view(state, seat), others)
    else:
        rng.shuffle(others)
    candidates = [first, *others[: MAX_CANDIDATES - 1]]
    if expert.paired:
        return candidates[_paired(game, expert, state, seat, candidates, rng, more)]
    wins = [0.0] * len(candidates)
    tries = [0] * len(candidates)
    total = 0
    while more():
        widened = min(len(candidates), 2 + total // WIDEN_EVERY)
        i = _pick(wins[:widened], tries[:widened], total)
        world = expert.determinize(state, seat, rng)
        wins[i] += playout(game, world, seat, candidates[i], OneStream(rng), expert.cutoff)
        tries[i] += 1
        total += 1
    return candidates[_chosen(wins, tries)]


class OneStream:
    """A playout's draws all from one generator, as the search's own (the plain search)."""

    def __init__(self, rng: Rng):
        self.turns = rng

    def of(self, seat: int) -> Rng:
        return self.turns


class Luck:
    """The dice of one try of the paired search, the same whichever move is tried: each seat's
    k-th action draws from a stream of its own, and the turn order from another, so that two
    candidate moves meet the same fortune as far as the game lets them (common random
    numbers: their difference then shows the move, not the dice)."""

    def __init__(self, seed: bytes):
        self.seed = seed
        self.turns = Rng(seed + b"turns")
        self.actions: dict[int, int] = {}

    def of(self, seat: int) -> Rng:
        k = self.actions.get(seat, 0)
        self.actions[seat] = k + 1
        return Rng(self.seed + bytes([seat]) + k.to_bytes(4, "big"))


def _paired(
    game: Game,
    expert: ExpertParts,
    state: State,
    seat: int,
    candidates: list[Action],
    rng: Rng,
    more: Callable[[], bool],
) -> int:
    """The paired search: each try draws one world and one Luck, and plays every candidate
    still in the race in that same world with that same luck; a candidate is judged by the
    mean of its result minus the heuristic's (candidate 0) over the tries they shared. One
    replaces the heuristic's move only when that mean exceeds the parts' `choice_confidence`
    standard errors; one that falls PAIRED_CONFIDENCE below is dropped from the race."""
    n = [0] * len(candidates)
    total = [0.0] * len(candidates)
    squares = [0.0] * len(candidates)
    dropped: set[int] = set()
    tries = 0
    while more():
        widened = min(len(candidates), 2 + tries // WIDEN_EVERY)
        racing = [i for i in range(1, widened) if i not in dropped]
        if not racing:
            if widened == len(candidates):
                break
            tries += WIDEN_EVERY - tries % WIDEN_EVERY
            continue
        world_seed = rng.below(1 << 128).to_bytes(16, "big")
        luck_seed = rng.below(1 << 128).to_bytes(16, "big")
        results = {}
        for i in [0, *racing]:  # the world drawn again from its seed: a playout changes it
            world = expert.determinize(state, seat, Rng(world_seed))
            results[i] = playout(game, world, seat, candidates[i], Luck(luck_seed), expert.cutoff)
        for i in racing:
            d = results[i] - results[0]
            n[i] += 1
            total[i] += d
            squares[i] += d * d
            if n[i] >= MIN_TRIES and _paired_margin(n[i], total[i], squares[i]) < 0:
                dropped.add(i)
        tries += 1
    return paired_choice(n, total, squares, expert.choice_confidence)


def paired_choice(n: list[int], total: list[float], squares: list[float], confidence: float) -> int:
    """The candidate played: of those tried at least MIN_TRIES times whose mean difference to
    the heuristic's move (candidate 0) is more than `confidence` standard errors above 0, the
    best on average; else the heuristic's."""
    best, best_mean = 0, 0.0
    for i in range(1, len(n)):
        if n[i] >= MIN_TRIES and _paired_margin(n[i], total[i], squares[i], confidence) > 0:
            mean = total[i] / n[i]
            if mean > best_mean:
                best, best_mean = i, mean
    return best


def _paired_margin(
    n: int, total: float, squares: float, confidence: float = PAIRED_CONFIDENCE
) -> int:
    """+1 when the mean difference is more than `confidence` standard errors above 0, -1 when
    as far below, else 0."""
    mean = total / n
    variance = max(squares / n - mean * mean, 1e-4) * n / max(n - 1, 1)
    spread = confidence * math.sqrt(variance / n)
    return 1 if mean > spread else -1 if mean < -spread else 0


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
    game: Game,
    world: State,
    seat: int,
    action: Action,
    luck: OneStream | Luck,
    cutoff: Cutoff | None = None,
) -> float:
    """Play `action` for `seat` in `world`, then the game on with the heuristic bots, each
    action drawing from `luck.of(its seat)` and the turn order from `luck.turns`: 1 for an
    outright win of `seat`, a share of 1 for a shared win, 0 otherwise; or, with the title's
    `cutoff`, stop where it says with its estimate of the seat's chance."""
    heuristic = game.bots["heuristic"]
    log = Log()
    estimate = cutoff(world, seat) if cutoff else None
    world = game.apply(world, seat, action, luck.of(seat), log)
    for _ in range(ROLLOUT_STEPS):
        outcome = game.outcome(world)
        if outcome is not None:
            return _score(outcome, seat)
        chance = estimate(world) if estimate else None
        if chance is not None:
            return chance
        mover = luck.turns.choice(sorted(game.active_seats(world)))
        legal = game.legal_actions(world, mover)
        dice = luck.of(mover)
        choice = heuristic(game.view(world, mover), legal, dice)
        world = game.apply(world, mover, choice, dice, log)
    return 0.0


def _score(outcome: Outcome, seat: int) -> float:
    winners = outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0
