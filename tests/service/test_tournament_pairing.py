"""The pairings of a tournament (service/tournaments/pairing.py), pure: the round-robin's
schedule, and the Swiss system's rounds: score groups (top half against bottom half), no
rematch while a pairing without one exists, the bye to the lowest-ranked player without one."""

import itertools
import random

import pytest

from service.tournaments.pairing import SwissPlayer, round_robin, swiss


def names(n):
    return [f"p{i}" for i in range(1, n + 1)]


# -- round-robin ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 13))
def test_a_round_robin_pairs_everyone_once_with_the_first_seats_shared(n):
    games = round_robin(names(n))
    assert len(games) == n * (n - 1) // 2
    assert {frozenset(g) for g in games} == {
        frozenset(p) for p in itertools.combinations(names(n), 2)
    }
    for p in names(n):
        firsts = sum(1 for a, _ in games if a == p)
        assert abs(2 * firsts - (n - 1)) <= 1, f"{p} has the first seat {firsts} of {n - 1} times"


def test_a_round_robin_of_four_by_hand():
    """The circle method: d stays put, a b c turn one place a round; each round the first
    board is the one against d (d has the first seat in odd rounds), then the pairs inward
    (the left one first). Round 1: a b c | d -> a-d, b-c; round 2: b c a | d -> d-b, c-a;
    round 3: c a b | d -> c-d, a-b."""
    assert round_robin(["a", "b", "c", "d"]) == [
        ("a", "d"),
        ("b", "c"),
        ("d", "b"),
        ("c", "a"),
        ("c", "d"),
        ("a", "b"),
    ]


# -- Swiss -----------------------------------------------------------------------------------


def fresh(n):
    return [SwissPlayer(p, 0.0) for p in names(n)]


def test_the_first_round_pairs_the_top_half_against_the_bottom_half():
    pairing = swiss(fresh(8), 1)
    assert pairing.bye is None
    assert [frozenset(p) for p in pairing.pairs] == [
        frozenset(p) for p in (("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8"))
    ]
    assert pairing.rematches == 0


def test_the_first_seat_alternates_down_the_boards_in_the_first_round():
    pairing = swiss(fresh(8), 1)
    assert pairing.pairs == (("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"))


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked():
    pairing = swiss(fresh(9), 1)
    assert pairing.bye == "p9"
    assert sorted(p for pair in pairing.pairs for p in pair) == sorted(names(8))


def test_the_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one():
    players = [
        SwissPlayer("a", 2.0, frozenset({"c", "e"})),
        SwissPlayer("b", 1.0, frozenset({"d", "e"})),
        SwissPlayer("c", 1.0, frozenset({"a"}), byes=1),
        SwissPlayer("d", 1.0, frozenset({"b"}), byes=1),
        SwissPlayer("e", 0.0, frozenset({"a", "b"})),
    ]
    # e is last but has had no bye: e gets it
    assert swiss(players, 3).bye == "e"
    had = [
        SwissPlayer(p.player, p.points, p.opponents, byes=1) if p.player in "be" else p
        for p in players
    ]
    # everyone but a has had one: a gets it although ranked first
    assert swiss(had, 3).bye == "a"


def test_the_bye_skips_a_player_whose_bye_would_force_a_rematch():
    """The lowest-ranked player without a bye gets it only if the others can then all meet
    someone new; else the next one up does."""
    players = [
        SwissPlayer("a", 2.0, frozenset({"b", "c"})),
        SwissPlayer("b", 1.0, frozenset({"a", "e"})),
        SwissPlayer("c", 1.0, frozenset({"a", "e"})),
        SwissPlayer("d", 1.0, frozenset({"e"})),
        SwissPlayer("e", 0.0, frozenset({"b", "c", "d"})),
    ]
    # bye to e: a, b, c, d; a met b and c, so a-d, then b-c: possible. So e gets it.
    assert swiss(players, 3).bye == "e"
    blocked = [
        p if p.player != "a" else SwissPlayer("a", 2.0, frozenset({"b", "c", "d"})) for p in players
    ]
    blocked = [
        p if p.player != "d" else SwissPlayer("d", 1.0, frozenset({"e", "a"})) for p in blocked
    ]
    # now a has met b, c, d: with e out, a meets no one new; with d out (d is next-lowest),
    # a-e is new and b-c is new
    pairing = swiss(blocked, 3)
    assert pairing.bye == "d" and pairing.rematches == 0
    assert {frozenset(p) for p in pairing.pairs} == {frozenset("ae"), frozenset("bc")}


def test_winners_meet_winners_and_losers_losers():
    after_one = [
        SwissPlayer("p1", 1.0, frozenset({"p5"})),
        SwissPlayer("p2", 1.0, frozenset({"p6"})),
        SwissPlayer("p3", 1.0, frozenset({"p7"})),
        SwissPlayer("p4", 1.0, frozenset({"p8"})),
        SwissPlayer("p5", 0.0, frozenset({"p1"})),
        SwissPlayer("p6", 0.0, frozenset({"p2"})),
        SwissPlayer("p7", 0.0, frozenset({"p3"})),
        SwissPlayer("p8", 0.0, frozenset({"p4"})),
    ]
    pairing = swiss(after_one, 2)
    assert {frozenset(p) for p in pairing.pairs} == {
        frozenset(p) for p in (("p1", "p3"), ("p2", "p4"), ("p5", "p7"), ("p6", "p8"))
    }


def test_a_rematch_in_the_score_group_is_avoided_within_the_group():
    """p1 and p3 (the top half against the bottom half of the winners) met already: p1 meets
    p4 and p2 meets p3, all still among the winners."""
    after = [
        SwissPlayer("p1", 2.0, frozenset({"p5", "p3"})),
        SwissPlayer("p2", 2.0, frozenset({"p6", "p8"})),
        SwissPlayer("p3", 2.0, frozenset({"p7", "p1"})),
        SwissPlayer("p4", 2.0, frozenset({"p8", "p6"})),
        SwissPlayer("p5", 0.0, frozenset({"p1", "p7"})),
        SwissPlayer("p6", 0.0, frozenset({"p2", "p4"})),
        SwissPlayer("p7", 0.0, frozenset({"p3", "p5"})),
        SwissPlayer("p8", 0.0, frozenset({"p4", "p2"})),
    ]
    pairs = {frozenset(p) for p in swiss(after, 3).pairs}
    assert frozenset(("p1", "p3")) not in pairs
    assert frozenset(("p1", "p4")) in pairs and frozenset(("p2", "p3")) in pairs


def test_the_odd_player_of_a_score_group_floats_down_to_the_next_group():
    players = [
        SwissPlayer("a", 1.0, frozenset({"d"})),
        SwissPlayer("b", 1.0, frozenset({"e"})),
        SwissPlayer("c", 1.0, frozenset({"f"})),
        SwissPlayer("d", 0.0, frozenset({"a"})),
        SwissPlayer("e", 0.0, frozenset({"b"})),
        SwissPlayer("f", 0.0, frozenset({"c"})),
    ]
    pairs = {frozenset(p) for p in swiss(players, 2).pairs}
    # a-b in the top group; c, its lowest, floats to the top of the next: c-d; then e-f
    assert pairs == {frozenset("ab"), frozenset("cd"), frozenset("ef")}


def test_the_first_seat_goes_to_who_had_it_less_often():
    players = [
        SwissPlayer("a", 1.0, frozenset({"x"}), firsts=1, last_seat=0),
        SwissPlayer("b", 1.0, frozenset({"y"}), seconds=1, last_seat=1),
    ]
    assert swiss(players, 2).pairs == (("b", "a"),)


def test_with_no_pairing_left_without_a_rematch_the_fewest_rematches_are_played():
    """Three rounds of four players met everyone: a fourth round must repeat; it is paired,
    and says so."""
    everyone = frozenset("abcd")
    players = [SwissPlayer(p, 1.5, everyone - {p}) for p in "abcd"]
    pairing = swiss(players, 4)
    assert len(pairing.pairs) == 2 and pairing.rematches == 2


@pytest.mark.parametrize("seed", range(40))
def test_random_swiss_tournaments_never_rematch_and_give_each_bye_once(seed):
    """Whole Swiss tournaments of 5 to 16 players over up to n/2 rounds with random results
    (and a player now and then gone): every player is paired or has the bye each round, no
    two meet twice, nobody has two byes."""
    rnd = random.Random(seed)
    n = rnd.randrange(5, 17)
    rounds = rnd.randrange(2, n // 2 + 1)
    points = {p: 0.0 for p in names(n)}
    met = {p: set() for p in names(n)}
    byes = {p: 0 for p in names(n)}
    firsts = {p: 0 for p in names(n)}
    gone: set[str] = set()
    for round_no in range(1, rounds + 1):
        if rnd.random() < 0.2:
            gone.add(rnd.choice(names(n)))
        playing = [
            SwissPlayer(p, points[p], frozenset(met[p]), byes[p], firsts[p], 0)
            for p in names(n)
            if p not in gone
        ]
        pairing = swiss(playing, round_no)
        seated = [p for pair in pairing.pairs for p in pair] + (
            [pairing.bye] if pairing.bye else []
        )
        assert sorted(seated) == sorted(p.player for p in playing)
        assert pairing.rematches == 0, f"round {round_no}: {pairing}"
        for a, b in pairing.pairs:
            assert b not in met[a]
            met[a].add(b)
            met[b].add(a)
            firsts[a] += 1
            score = rnd.choice((0.0, 0.5, 1.0))
            points[a] += score
            points[b] += 1 - score
        if pairing.bye:
            byes[pairing.bye] += 1
            points[pairing.bye] += 1
    assert all(count <= 1 for count in byes.values())
