"""A tournament's standings: points (a win 1, a draw 1/2, a loss 0, a bye 1) and the format's
tiebreak. Pure (standard library only); tests/service/test_tournament_standings.py checks them
against tables computed by hand.

- **Sonneborn-Berger** (round-robin): the sum, over a player's games, of their score in the
  game times the opponent's points: the points of everyone they beat, and half the points of
  everyone they drew with.
- **Buchholz** (Swiss): the sum of the points of every opponent the player met; a bye counts
  as an opponent with the player's own points, so that a bye neither raises nor lowers it.

Standings are by points, then the tiebreak; players equal on both share a place (1, 2, 2, 4),
listed in seed order. Points and tiebreaks are multiples of 1/4: exact as floats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

BYE_POINTS = 1.0
TIEBREAKS = ("sonneborn_berger", "buchholz")


@dataclass(frozen=True)
class Played:
    """A finished game: who had the first seat, who the second, and the first seat's score
    (1, 1/2 or 0; the second's is 1 minus it)."""

    first: str
    second: str
    score: float


@dataclass(frozen=True)
class Row:
    place: int
    player: str
    points: float
    tiebreak: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int


def standings(
    players: Sequence[str],
    played: Sequence[Played],
    byes: Mapping[str, int],
    tiebreak: str,
) -> list[Row]:
    """The standings of `players` (in seed order) after the games `played` and the byes."""
    if tiebreak not in TIEBREAKS:
        raise ValueError(f"no tiebreak {tiebreak!r}")
    results: dict[str, list[tuple[str, float]]] = {p: [] for p in players}
    for game in played:
        results[game.first].append((game.second, game.score))
        results[game.second].append((game.first, 1 - game.score))
    points = {
        p: sum(score for _, score in results[p]) + BYE_POINTS * byes.get(p, 0) for p in players
    }

    def broken(p: str) -> float:
        if tiebreak == "sonneborn_berger":
            return sum(score * points[other] for other, score in results[p])
        return sum(points[other] for other, _ in results[p]) + byes.get(p, 0) * points[p]

    ties = {p: broken(p) for p in players}
    order = sorted(players, key=lambda p: (-points[p], -ties[p]))  # stable: seed order kept
    rows: list[Row] = []
    for i, p in enumerate(order):
        same = rows and (rows[-1].points, rows[-1].tiebreak) == (points[p], ties[p])
        scores = [score for _, score in results[p]]
        rows.append(
            Row(
                place=rows[-1].place if same else i + 1,
                player=p,
                points=points[p],
                tiebreak=ties[p],
                games=len(scores),
                wins=scores.count(1),
                draws=scores.count(0.5),
                losses=scores.count(0),
                byes=byes.get(p, 0),
            )
        )
    return rows
