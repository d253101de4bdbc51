"""Who plays whom: a round-robin's schedule and a Swiss round's pairing. Pure (standard library
only), so that tests/service/test_tournament_pairing.py checks them by hand.

Every tournament game is played by two players (see docs/tournaments.md); a pair is
(the player in the first seat, the player in the second).

**Round-robin**: the circle method (Berger's tables). One player stays put while the others turn
one place a round; each round pairs the first place with the one that stays, then the places
inward, left against right. Over the whole schedule every player has the first seat half of
their games (one more or one less with an odd number of games).

**Swiss**: the players, in order of points and then of their seed (their rating when the
tournament began), form score groups. A simplified Dutch system:
- with an odd number of players, the **bye** goes to the lowest-ranked player who has not had
  one and without whom the others can all be paired with someone new;
- the highest-ranked player left is paired within their score group, the top half against the
  bottom half (1 against m/2 + 1, 2 against m/2 + 2, ...), with the first opponent of that
  order they have **not met**; when no one is left in their group, they float down to the
  highest-ranked player of the groups below whom they have not met;
- a choice that leaves the rest unpairable is undone (a search, with a budget), so that no two
  players meet twice while any pairing without a rematch exists; when none exists (a small
  field late in the tournament) the pairing with the fewest rematches in that same order is
  played, and says how many (`rematches`).
The first seat goes to the player who has had it less often (first seats minus second seats),
then to the one who had the second seat last, then alternately down the boards (the higher
ranked first on boards 1, 3, 5...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SEARCH_BUDGET = 200_000
"""Pairings tried before a Swiss round gives up on avoiding rematches (never reached in
practice: a field of 64 is paired in a few hundred steps)."""


def round_robin(players: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of `players` once, round by round (the circle method), as (first, second)."""
    circle: list[str | None] = list(players)
    if len(circle) % 2:
        circle.append(None)  # a dummy: who meets it rests that round
    m = len(circle)
    fixed, turning = circle[-1], circle[:-1]
    games: list[tuple[str, str]] = []
    for r in range(m - 1):
        ring = turning[r:] + turning[:r] + [fixed]
        for i in range(m // 2):
            left, right = ring[i], ring[m - 1 - i]
            if left is None or right is None:
                continue
            if i == 0 and r % 2:
                left, right = right, left  # the one who stays has the first seat every other round
            games.append((left, right))
    return games


@dataclass(frozen=True)
class SwissPlayer:
    """A player as a Swiss round is paired: points so far, whom they met, their byes, and
    their seats so far."""

    player: str
    points: float
    opponents: frozenset[str] = frozenset()
    byes: int = 0
    firsts: int = 0
    """Games played in the first seat."""
    seconds: int = 0
    last_seat: int | None = None
    """The seat of their last game (0 first, 1 second), None before any."""


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[tuple[str, str], ...]
    """(first seat, second seat), board by board: the highest-ranked pair first."""
    bye: str | None
    rematches: int = 0
    """Pairs who met before (0 unless no pairing without a rematch exists)."""


class _OutOfBudget(Exception):
    pass


def swiss(players: Sequence[SwissPlayer], round_no: int) -> Pairing:
    """Pair a Swiss round. `players` are those still playing, in seed order (the best seed
    first); they are ranked by points, the seed order kept within equal points."""
    ranked = sorted(players, key=lambda p: -p.points)  # stable: seed order within a group
    if len(ranked) < 2:
        return Pairing((), ranked[0].player if ranked else None)
    for allow_rematches in (False, True):
        for bye in _bye_candidates(ranked, allow_rematches):
            rest = [p for p in ranked if p is not bye]
            pairs = _pair(rest, allow_rematches)
            if pairs is not None:
                rematches = sum(1 for a, b in pairs if b.player in a.opponents)
                return Pairing(
                    tuple(_seated(a, b, board) for board, (a, b) in enumerate(pairs)),
                    None if bye is None else bye.player,
                    rematches,
                )
    raise AssertionError("a pairing with rematches always exists")  # pragma: no cover


def _bye_candidates(ranked: list[SwissPlayer], any_player: bool) -> list[SwissPlayer | None]:
    """Who may have the bye, in the order tried: nobody in an even field; else the lowest
    ranked first, those without a bye before those with one (all of them when rematches are
    allowed, which means no one's bye left the others pairable)."""
    if len(ranked) % 2 == 0:
        return [None]
    lowest_first = ranked[::-1]
    without: list[SwissPlayer | None] = [p for p in lowest_first if p.byes == 0]
    return [*without, *[p for p in lowest_first if p.byes > 0]] if any_player else without


def _pair(ranked: list[SwissPlayer], allow_rematches: bool) -> list[tuple] | None:
    """The pairs of an even number of ranked players (higher ranked first in each), None when
    no pairing without a rematch exists (or the search ran out of budget)."""
    budget = [SEARCH_BUDGET]

    def solve(rest: list[SwissPlayer]) -> list[tuple] | None:
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        for other in _candidates(top, others, allow_rematches):
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfBudget
            paired = solve([p for p in others if p is not other])
            if paired is not None:
                return [(top, other), *paired]
        return None

    try:
        return solve(ranked)
    except _OutOfBudget:
        return None


def _candidates(
    top: SwissPlayer, others: list[SwissPlayer], allow_rematches: bool
) -> list[SwissPlayer]:
    """The opponents `top` (the highest ranked left) is offered, best first: its score group's
    bottom half from its top (the Dutch order), then the rest of the group upwards, then the
    groups below in rank order; without those met before, unless rematches are allowed, in
    which case those not met come first."""
    group = [p for p in others if p.points == top.points]
    below = [p for p in others if p.points != top.points]
    half = (len(group) + 1) // 2  # the group with `top` has len + 1 players; S2 starts there
    order = group[half - 1 :] + group[: half - 1][::-1] + below if group else below
    new = [p for p in order if p.player not in top.opponents]
    if not allow_rematches:
        return new
    return new + [p for p in order if p.player in top.opponents]


def _seated(a: SwissPlayer, b: SwissPlayer, board: int) -> tuple[str, str]:
    """(first seat, second seat) of a pair whose higher-ranked player is `a`."""
    balance_a, balance_b = a.firsts - a.seconds, b.firsts - b.seconds
    if balance_a != balance_b:
        return (a.player, b.player) if balance_a < balance_b else (b.player, a.player)
    if a.last_seat != b.last_seat and None not in (a.last_seat, b.last_seat):
        return (a.player, b.player) if a.last_seat == 1 else (b.player, a.player)
    return (a.player, b.player) if board % 2 == 0 else (b.player, a.player)
