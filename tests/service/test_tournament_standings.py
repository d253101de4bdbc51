"""A tournament's standings (service/tournaments/standings.py), pure, against tables computed by
hand: win 1, draw 1/2, loss 0, a bye 1; Sonneborn-Berger for a round-robin, Buchholz for a
Swiss; equal points and tiebreak share a place."""

from service.tournaments.standings import Played, standings


def table(rows):
    return [(r.place, r.player, r.points, r.tiebreak, r.wins, r.draws, r.losses) for r in rows]


def test_a_round_robin_of_five_by_hand():
    """p1-p2 1-0, p1-p3 1/2, p1-p4 0-1, p1-p5 1-0, p2-p3 1-0, p2-p4 1-0, p2-p5 1/2, p3-p4 1/2,
    p3-p5 1-0, p4-p5 0-1.

    Points: p1 1 + 1/2 + 0 + 1 = 2.5; p2 0 + 1 + 1 + 1/2 = 2.5; p3 1/2 + 0 + 1/2 + 1 = 2;
    p4 1 + 0 + 1/2 + 0 = 1.5; p5 0 + 1/2 + 0 + 1 = 1.5 (10 in all, one per game).
    Sonneborn-Berger, the points of those beaten plus half those of those drawn with:
    p1: p2 2.5 + p3 2/2 + p5 1.5 = 5; p2: p3 2 + p4 1.5 + p5 1.5/2 = 4.25;
    p3: p1 2.5/2 + p4 1.5/2 + p5 1.5 = 3.5; p4: p1 2.5 + p3 2/2 = 3.5;
    p5: p2 2.5/2 + p4 1.5 = 2.75."""
    played = [
        Played("p1", "p2", 1),
        Played("p1", "p3", 0.5),
        Played("p4", "p1", 1),
        Played("p1", "p5", 1),
        Played("p2", "p3", 1),
        Played("p2", "p4", 1),
        Played("p5", "p2", 0.5),
        Played("p3", "p4", 0.5),
        Played("p3", "p5", 1),
        Played("p4", "p5", 0),
    ]
    rows = standings(["p1", "p2", "p3", "p4", "p5"], played, {}, "sonneborn_berger")
    assert table(rows) == [
        (1, "p1", 2.5, 5.0, 2, 1, 1),
        (2, "p2", 2.5, 4.25, 2, 1, 1),
        (3, "p3", 2.0, 3.5, 1, 2, 1),
        (4, "p4", 1.5, 3.5, 1, 1, 2),
        (5, "p5", 1.5, 2.75, 1, 1, 2),
    ]


def test_equal_points_and_sonneborn_berger_share_a_place():
    """a-b 1-0, a-c 1/2, a-d 1-0, b-c 1-0, b-d 1/2, c-d 0-1. Points: a 2.5, b 1.5, d 1.5,
    c 0.5. SB: a 1.5 + 0.5/2 + 1.5 = 3.25; b 0.5 + 1.5/2 = 1.25; d 1.5/2 + 0.5 = 1.25;
    c 2.5/2 = 1.25. b and d share second place; c is fourth (1, 2, 2, 4)."""
    played = [
        Played("a", "b", 1),
        Played("c", "a", 0.5),
        Played("a", "d", 1),
        Played("b", "c", 1),
        Played("d", "b", 0.5),
        Played("c", "d", 0),
    ]
    rows = standings(["a", "b", "c", "d"], played, {}, "sonneborn_berger")
    assert [(r.place, r.player, r.points, r.tiebreak) for r in rows] == [
        (1, "a", 2.5, 3.25),
        (2, "b", 1.5, 1.25),
        (2, "d", 1.5, 1.25),
        (4, "c", 0.5, 1.25),
    ]


def test_a_swiss_of_five_over_three_rounds_with_byes_by_hand():
    """Round 1: a-d 1-0, b-e 1/2, c the bye. Round 2: a-c 0-1, b-d 1-0, e the bye.
    Round 3: c-b 1-0, e-a 0-1, d the bye.

    Points (a bye is 1): a 1 + 0 + 1 = 2; b 1/2 + 1 + 0 = 1.5; c 1 + 1 + 1 = 3; d 0 + 0 + 1 = 1;
    e 1/2 + 1 + 0 = 1.5 (9: six games and three byes).
    Buchholz, the opponents' points, a bye counting as an opponent with the player's own:
    a: d 1 + c 3 + e 1.5 = 5.5; b: e 1.5 + d 1 + c 3 = 5.5; c: 3 (bye) + a 2 + b 1.5 = 6.5;
    d: a 2 + b 1.5 + 1 (bye) = 4.5; e: b 1.5 + 1.5 (bye) + a 2 = 5. So b (5.5) is above e (5)."""
    played = [
        Played("a", "d", 1),
        Played("b", "e", 0.5),
        Played("a", "c", 0),
        Played("b", "d", 1),
        Played("c", "b", 1),
        Played("e", "a", 0),
    ]
    rows = standings(["a", "b", "c", "d", "e"], played, {"c": 1, "e": 1, "d": 1}, "buchholz")
    assert [(r.place, r.player, r.points, r.tiebreak, r.byes) for r in rows] == [
        (1, "c", 3.0, 6.5, 1),
        (2, "a", 2.0, 5.5, 0),
        (3, "b", 1.5, 5.5, 0),
        (4, "e", 1.5, 5.0, 1),
        (5, "d", 1.0, 4.5, 1),
    ]


def test_before_any_game_everyone_shares_first_place_in_seed_order():
    rows = standings(["x", "y", "z"], [], {}, "buchholz")
    assert [(r.place, r.player, r.points, r.tiebreak, r.games) for r in rows] == [
        (1, "x", 0.0, 0.0, 0),
        (1, "y", 0.0, 0.0, 0),
        (1, "z", 0.0, 0.0, 0),
    ]
