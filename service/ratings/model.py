"""The rating system: Weng and Lin's Bayesian approximation for online ranking with the
Plackett-Luce model (JMLR 12, 2011, Algorithm 4), as the `openskill` package implements it,
free-for-all: each seat is a team of one, ranked by its place in the game.

Ties: a tie is read as every order of the tied seats being equally likely, and the update is the
mean of the updates for each such order (each computed by Algorithm 4 with strict ranks; the
means of mu and of sigma^2). The paper's own rule for ties (dividing by A_q, the number of seats
sharing a rank) gives a seat tied for second less than the seat that finished fourth, as if a
tied seat beat no one below it (tests/service/test_rating_model.py shows both); a two-player
draw between equals moves neither mu under either rule. At most 6! = 720 orders (six seats all
tied), 0.3 ms each.

A skill is a Gaussian belief N(mu, sigma^2), starting at mu 25, sigma 25/3 (openskill's
defaults, with its beta 25/6 and its additive dynamics tau 25/300, which keeps sigma from
reaching 0 so that a rating can still move).

Shown to people as one number on an Elo-like scale: rating = 1500 + 30 (mu - 25), with its
uncertainty, one sigma on the same scale (30 sigma: "1500 ± 250" for a newcomer). The factor 30
is chosen so that, as in Elo, 400 points mean odds of about 10 to 1 between two settled players:
under Plackett-Luce, P(a beats b) = 1 / (1 + exp(-(mu_a - mu_b) / c)) with c^2 = 2 beta^2 +
sigma_a^2 + sigma_b^2, so with sigmas of about 2, c is about 6.6, ln(10) c is about 15 mu, and
15 x 30 = 450: 400 points give odds between 7 and 10 to 1. A rating is *provisional* while sigma
is above PROVISIONAL_SIGMA (about a dozen two-player games; more in games of more players,
where each game teaches less about each seat)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300: openskill's published defaults."""
MU = MODEL.mu
SIGMA = MODEL.sigma
CENTRE = 1500
SCALE = 30
"""Rating points per unit of mu."""
PROVISIONAL_SIGMA = 6.0


@dataclass(frozen=True)
class Skill:
    """What is believed of one player's (or bot's) skill at one title."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    """Rated games of the title played."""

    @property
    def rating(self) -> int:
        return round(CENTRE + SCALE * (self.mu - MU))

    @property
    def uncertainty(self) -> int:
        """One standard deviation, in rating points."""
        return round(SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the conservative estimate (99.7% sure the skill is above it)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Skill:
        if not data:
            return cls()
        return cls(float(data["mu"]), float(data["sigma"]), int(data["games"]))

    def shown(self) -> dict[str, Any]:
        """As people and clients read it."""
        return {
            "rating": self.rating,
            "uncertainty": self.uncertainty,
            "provisional": self.provisional,
            "games": self.games,
        }


def rate(priors: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Each seat's skill after one game in which seat i, whose skill was `priors[i]`, took
    place `places[i]` (1 is first; equal places are a tie). Every seat's games count one more."""
    if len(priors) != len(places) or len(priors) < 2:
        raise ValueError("a rated game has at least two seats, each with a place")
    orders = strict_orders(places)
    mus, variances = [0.0] * len(priors), [0.0] * len(priors)
    for ranks in orders:
        teams = [[MODEL.create_rating([p.mu, p.sigma])] for p in priors]
        for i, team in enumerate(MODEL.rate(teams, ranks=[float(r) for r in ranks])):
            mus[i] += team[0].mu / len(orders)
            variances[i] += team[0].sigma ** 2 / len(orders)
    return [Skill(mu, math.sqrt(v), p.games + 1) for mu, v, p in zip(mus, variances, priors)]


def strict_orders(places: Sequence[int]) -> list[list[int]]:
    """Every strict ranking (1..n, no ties) that breaks the ties of `places` in some order."""
    groups: dict[int, list[int]] = {}
    for seat, place in enumerate(places):
        groups.setdefault(place, []).append(seat)
    orders: list[list[int]] = [[0] * len(places)]
    for place, seats in sorted(groups.items()):
        first = sum(len(g) for p, g in groups.items() if p < place) + 1
        orders = [
            [first + order.index(s) if s in order else rank for s, rank in enumerate(ranks)]
            for ranks in orders
            for order in itertools.permutations(seats)
        ]
    return orders


def combined(prior: Skill, updates: Sequence[Skill]) -> Skill:
    """One player's skill after a game in which they held several seats (a bot seated twice),
    each seat's update computed from the same prior: the shifts of mu add up, and so do the
    shrinkings of the variance (sigma^2 is multiplied by each seat's factor). One seat: its
    update as it is."""
    if len(updates) == 1:
        return updates[0]
    mu = prior.mu + sum(u.mu - prior.mu for u in updates)
    variance = prior.sigma**2
    for u in updates:
        variance *= u.sigma**2 / prior.sigma**2
    return Skill(mu, math.sqrt(variance), prior.games + len(updates))


def places(
    seats: int,
    winners: Sequence[int],
    scores: Sequence[float] | None,
    left: Sequence[int],
) -> list[int]:
    """Each seat's place (1 is first; tied seats share a place, the next place skipping them,
    as in 1, 2, 2, 4) from a finished game's outcome: the winners first; then the others
    still playing, by score (all tied when the game has no scores); then the seats that left
    (resigned, or forfeited on time: losses), the last to leave first, the first to leave
    last."""
    gone = list(dict.fromkeys(left))
    staying = [s for s in range(seats) if s not in gone]
    won = [s for s in staying if s in winners]
    rest = [s for s in staying if s not in winners]

    def key(seat: int) -> tuple[int, float]:
        if seat in won:
            return (0, 0.0)
        if seat in rest:
            return (1, -(scores[seat] if scores else 0.0))
        return (2, -float(gone.index(seat)))  # left later: better

    keyed = [key(s) for s in range(seats)]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]
