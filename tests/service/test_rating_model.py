"""The rating system against its published definitions: the openskill documentation's worked
example, and Weng and Lin's Algorithm 4 (Plackett-Luce) written out here from the paper, with
ties; the uncertainty shrinking with games; places and ties from real Con Sonar! games."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from engine import match as runner
from engine import registry
from service.ratings.model import MODEL, Skill, combined, places, rate

BETA, KAPPA, TAU = 25 / 6, 0.0001, 25 / 300


def algorithm_4(priors: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Weng & Lin (JMLR 12, 2011), Algorithm 4, the Plackett-Luce model, each team one player,
    with gamma_i = sigma_i / c (the paper's suggestion) and the additive dynamics tau that
    openskill adds to every sigma before the update (sigma^2 + tau^2)."""
    mus = [mu for mu, _ in priors]
    variances = [sigma**2 + TAU**2 for _, sigma in priors]
    k = len(priors)
    c = math.sqrt(sum(v + BETA**2 for v in variances))
    a = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    sum_q = [sum(math.exp(mus[s] / c) for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    after = []
    for i in range(k):
        p = [math.exp(mus[i] / c) / sum_q[q] for q in range(k)]
        before_i = [q for q in range(k) if ranks[q] <= ranks[i]]
        omega = variances[i] / c * sum(((q == i) - p[q]) / a[q] for q in before_i)
        gamma = math.sqrt(variances[i]) / c
        delta = gamma * variances[i] / c**2 * sum(p[q] * (1 - p[q]) / a[q] for q in before_i)
        after.append((mus[i] + omega, math.sqrt(variances[i] * max(1 - delta, KAPPA))))
    return after


def with_ties(priors: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """Algorithm 4 over every order of the tied seats, averaged (mu, and sigma^2)."""
    orders = [
        list(ranks)
        for ranks in itertools.permutations(range(1, len(places) + 1))
        if all(
            (places[a] < places[b]) <= (ranks[a] < ranks[b])
            for a in range(len(places))
            for b in range(len(places))
        )
    ]
    found = [algorithm_4(priors, ranks) for ranks in orders]
    return [
        (
            sum(f[i][0] for f in found) / len(found),
            math.sqrt(sum(f[i][1] ** 2 for f in found) / len(found)),
        )
        for i in range(len(places))
    ]


def test_the_documentations_worked_example():
    """openskill's README: two teams of two new players, the first team wins:
    mu 26.964294621803063, sigma 8.177962604389991 for the winners."""
    r = MODEL.rating
    [[a, b], [x, _y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert (b.mu, b.sigma) == (a.mu, a.sigma)
    assert x.mu == pytest.approx(25 - (26.964294621803063 - 25), abs=1e-12)


@pytest.mark.parametrize(
    "priors, ranks",
    [
        ([(25, 25 / 3), (25, 25 / 3)], [1, 2]),
        ([(31.2, 4.1), (22.0, 7.5)], [2, 1]),  # an upset
        ([(27, 6), (25, 8.3), (20, 3), (24, 5)], [3, 1, 4, 2]),
        ([(25, 25 / 3)] * 3, [1, 2, 2]),  # a tie for second
        ([(25, 5), (25, 5), (30, 2), (18, 7), (18, 7), (22, 4)], [2, 2, 1, 4, 4, 6]),
        ([(30, 3), (20, 8), (25, 5)], [1, 1, 3]),
        ([(28, 4), (22, 6)], [1, 1]),  # a draw
    ],
)
def test_rate_follows_algorithm_4(priors, ranks):
    """Strict ranks: the paper's update; ties: its mean over the orders of the tied seats."""
    found = rate([Skill(mu, sigma) for mu, sigma in priors], ranks)
    expected = (
        algorithm_4(priors, ranks) if len(set(ranks)) == len(ranks) else with_ties(priors, ranks)
    )
    for skill, (mu, sigma) in zip(found, expected):
        assert skill.mu == pytest.approx(mu, abs=1e-9)
        assert skill.sigma == pytest.approx(sigma, abs=1e-9)
        assert skill.games == 1


def test_a_tie_for_second_gains_more_than_fourth_place():
    """Six equal players, two tied for second. The paper's rule for ties (A_q) would give the
    tied seats less than the fourth (25.41 against 25.91): a tie is read as either order."""
    paper = algorithm_4([(25, 25 / 3)] * 6, [1, 2, 2, 4, 5, 6])
    assert paper[1][0] < paper[3][0], "the paper's rule, which turnpost does not follow"
    mu = [s.mu for s in rate([Skill()] * 6, [1, 2, 2, 4, 5, 6])]
    assert mu[0] > mu[1] == mu[2] > mu[3] > mu[4] > mu[5]
    assert sum(mu) == pytest.approx(6 * 25)


def test_a_draw_between_equals_moves_no_rating_and_shrinks_both_uncertainties():
    a, b = rate([Skill(), Skill()], [1, 1])
    assert a.mu == pytest.approx(25) and b.mu == pytest.approx(25)
    assert a.sigma == b.sigma < Skill().sigma


def test_the_uncertainty_shrinks_with_games():
    """A player's sigma (and the uncertainty shown) falls with every rated game, whatever the
    results, and the rating stops being provisional after about a dozen two-player games."""
    rnd = random.Random(7)
    me = Skill()
    sigmas, uncertainties, provisional = [me.sigma], [me.uncertainty], [me.provisional]
    for _ in range(30):
        other = Skill(rnd.uniform(20, 30), rnd.uniform(2, 8))
        me = rate([me, other], rnd.choice([[1, 2], [2, 1], [1, 1]]))[0]
        sigmas.append(me.sigma)
        uncertainties.append(me.uncertainty)
        provisional.append(me.provisional)
    assert all(later < earlier for earlier, later in itertools.pairwise(sigmas))
    assert all(later <= earlier for earlier, later in itertools.pairwise(uncertainties))
    assert uncertainties[0] == 250 and uncertainties[-1] < 150
    assert provisional[:5] == [True] * 5 and provisional[-1] is False
    assert 8 <= provisional.index(False) <= 20
    assert me.games == 30


def test_the_scale():
    assert Skill().rating == 1500 and Skill().uncertainty == 250 and Skill().provisional
    assert Skill(mu=25 + 10).rating == 1800
    assert Skill(sigma=2).ordinal == pytest.approx(19)


def _con_sonar_with_a_tie(rnd: random.Random):
    """A random six-player Con Sonar! game, played to its end by the runner, whose scores tie
    two seats that did not win, with one seat that resigned on the way."""
    game = registry.GAMES["consonar"]
    while True:
        seed = rnd.randbytes(32)
        m, _ = runner.start(game, 6, None, seed, 1)
        version, leaver = 2, rnd.randrange(6)
        while m["outcome"] is None:
            if version == 20 and leaver not in m["resigned"]:
                m, _ = runner.resign(game, m, leaver, version)
            else:
                seat = rnd.choice(sorted(runner.active_seats(game, m)))
                action = rnd.choice(game.legal_actions(m["state"], seat))
                m, _ = runner.act(game, m, seat, action, seed, version)
            version += 1
        outcome = m["outcome"]
        others = [s for s in range(6) if s not in outcome["winners"] and s not in m["resigned"]]
        scores = [outcome["scores"][s] for s in others]
        if len(set(scores)) < len(scores) and m["resigned"]:
            return m


def test_ties_in_a_six_player_con_sonar_game():
    m = _con_sonar_with_a_tie(random.Random(3))
    outcome, left = m["outcome"], m["resigned"]
    found = places(6, outcome["winners"], outcome["scores"], left)
    assert all(found[w] == 1 for w in outcome["winners"])
    assert found[left[0]] == 6, "the seat that resigned is last"
    for a in range(6):
        for b in range(6):
            if a in left or b in left or a in outcome["winners"] or b in outcome["winners"]:
                continue
            # the others by score: a tie shares a place
            assert (found[a] == found[b]) == (outcome["scores"][a] == outcome["scores"][b])
            assert (found[a] < found[b]) == (outcome["scores"][a] > outcome["scores"][b])
    assert sorted(found) == [p for p in sorted(found)]  # 1, 2, 2, 4, ...: competition ranks
    for p in set(found):
        assert sum(1 for x in found if x < p) == p - 1
    after = rate([Skill()] * 6, found)
    for a in range(6):
        for b in range(6):
            if found[a] == found[b]:
                assert after[a].mu == pytest.approx(after[b].mu)
                assert after[a].sigma == pytest.approx(after[b].sigma)
            elif found[a] < found[b]:
                assert after[a].mu > after[b].mu
    assert sum(s.mu - 25 for s in after) == pytest.approx(0, abs=1e-9)  # equal priors


def test_places():
    assert places(2, [0], [3, 2], []) == [1, 2]
    assert places(2, [0, 1], [3, 3], []) == [1, 1]  # a draw
    assert places(2, [1], None, [0]) == [2, 1]  # resigned
    assert places(4, [2], [5, 7, 6, 7], []) == [4, 2, 1, 2]  # a winner by a tie-break
    assert places(4, [3], [9, 1, 1, 2], [0, 2]) == [4, 2, 3, 1]  # seat 0 left first


def test_a_player_in_two_seats_gets_both_updates():
    prior = Skill(25, 6, 3)
    first, second = rate([prior, prior, Skill()], [1, 3, 2])[:2]
    both = combined(prior, [first, second])
    assert both.games == 5
    assert both.mu == pytest.approx(first.mu + second.mu - 25)
    assert both.sigma < min(first.sigma, second.sigma)
    assert combined(prior, [first]) == first
