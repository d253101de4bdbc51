"""Tournaments played to the end by API clients against `turnpost serve` with its worker: a
round-robin of 4 and a Swiss of 9 over 3 rounds, of The Nine Domains (a handful of moves a
game), with the pairings and the standings checked against tables computed by hand.

Each result is the test's choice: a game both seats play with their first legal move every
time ends in a draw (equal points and domains, always); otherwise the loser resigns after the
first cards. The players all start at a rating of 1500, so the seed order is the sign-up order
(P1 first)."""

from __future__ import annotations

import time

import pytest

from tests.e2e.server import Client, LiveServer

pytestmark = pytest.mark.slow

CLOCK = {"per_move_seconds": 86400, "on_timeout": "forfeit"}


@pytest.fixture(scope="module")
def server(valkey):
    live = LiveServer(redis_url=valkey.url).wait_ready()
    yield live
    live.stop()


def wait_for(client, tournament_id, ready, what):
    """The tournament once `ready(it)` holds (the worker's part comes moments after)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = client.get(f"/v1/tournaments/{tournament_id}").json()
        if ready(found):
            return found
        time.sleep(0.1)
    raise AssertionError(f"the tournament never {what}: {found}")


def play(game_id, clients, loser=None):
    """Play the game through the API: each seat to move plays its first legal move, or
    `loser` resigns once the first cards are played."""
    for step in range(200):
        summary = next(iter(clients.values())).get(f"/v1/games/{game_id}").json()
        if summary["status"] == "finished":
            return summary
        if loser is not None and step >= 2:
            r = clients[loser].post(f"/v1/games/{game_id}/resign")
            assert r.status_code == 200, r.text
            continue
        seat = summary["active_seats"][0]
        mover = clients[summary["seats"][seat]["player_id"]]
        legal = mover.get(f"/v1/games/{game_id}/legal-moves").json()
        r = mover.post(
            f"/v1/games/{game_id}/moves",
            {"action": legal["moves"][0]["action"], "expected_version": legal["version"]},
        )
        assert r.status_code == 201, r.text
    raise AssertionError("the game did not end")


def numbered(shown, names):
    """A round's games as (first, second) by player number."""
    number = {p: n for n, p in names.items()}
    return [(number[g["first"]["player_id"]], number[g["second"]["player_id"]]) for g in shown]


def run(server, format, size, rounds, result):
    """Sign up P1..P{size}, then play every round, each game's result by `result(a, b)` (the
    winner's number, or 0 for a draw). The tournament at the end, and each round's pairs."""
    people = [Client(server.url, f"P{n}") for n in range(1, size + 1)]
    clients = {c.id: c for c in people}
    names = {n: c.id for n, c in enumerate(people, start=1)}
    body = {"game": "ninedomains", "format": format, "size": size, "time_control": CLOCK}
    if rounds:
        body["rounds"] = rounds
    made = people[0].post("/v1/tournaments", body).json()
    for c in people:
        assert c.post(f"/v1/tournaments/{made['id']}/signup").status_code == 200
    paired = []
    for number in range(1, (rounds or 1) + 1):
        shown = wait_for(
            people[0],
            made["id"],
            lambda t, n=number: t["current_round"] == n and t["pairings"][-1]["started"],
            f"started round {number}",
        )
        games = shown["pairings"][-1]["games"]
        bye = shown["pairings"][-1]["bye"]
        paired.append((numbered(games, names), None if bye is None else int(bye["name"][1:])))
        for g, (a, b) in zip(games, paired[-1][0]):
            winner = result(a, b)
            play(g["game_id"], clients, None if winner == 0 else names[b if winner == a else a])
    final = wait_for(people[0], made["id"], lambda t: t["status"] == "finished", "finished")
    table = [
        (s["place"], int(s["name"][1:]), s["points"], s["tiebreak"], s["wins"], s["draws"])
        for s in final["standings"]
    ]
    return final, paired, table


def test_a_round_robin_of_four_played_to_the_end(server):
    """Everyone against everyone, all six games at once (the circle method: P1-P4, P2-P3,
    P4-P2, P3-P1, P3-P4, P1-P2). Results: P2 beats P1, P1 beats P3, P1-P4 a draw, P3 beats
    P2, P2 beats P4, P3 beats P4.

    Points: P1 0 + 1 + 1/2 = 1.5; P2 1 + 0 + 1 = 2; P3 0 + 1 + 1 = 2; P4 1/2 + 0 + 0 = 0.5.
    Sonneborn-Berger: P3 beat P2 (2) and P4 (0.5) = 2.5; P2 beat P1 (1.5) and P4 (0.5) = 2;
    P1 beat P3 (2), drew P4 (0.5 / 2) = 2.25; P4 drew P1 (1.5 / 2) = 0.75. P3 is above P2."""
    winners = {(1, 2): 2, (1, 3): 1, (1, 4): 0, (2, 3): 3, (2, 4): 2, (3, 4): 3}
    final, paired, table = run(
        server, "round_robin", 4, None, lambda a, b: winners[(min(a, b), max(a, b))]
    )
    assert paired == [([(1, 4), (2, 3), (4, 2), (3, 1), (3, 4), (1, 2)], None)]
    assert table == [
        (1, 3, 2.0, 2.5, 2, 0),
        (2, 2, 2.0, 2.0, 2, 0),
        (3, 1, 1.5, 2.25, 1, 1),
        (4, 4, 0.5, 0.75, 0, 1),
    ]
    assert final["tiebreak"] == "sonneborn_berger"


def test_a_swiss_of_nine_over_three_rounds_played_to_the_end(server):
    """Results: the lower number wins, but a pair whose numbers add up to a multiple of 4
    draws.

    Round 1 (all on 0; the bye to the lowest, P9; top half against bottom half, the first
    seat alternating down the boards): P1-P5, P6-P2, P3-P7, P8-P4. P1 and P3 win, P2-P6 and
    P4-P8 draw. Points: P1 1, P3 1, P9 1, P2 1/2, P4 1/2, P6 1/2, P8 1/2, P5 0, P7 0.

    Round 2 (the bye to the lowest-ranked without one: P7; groups 1: P1 P3 P9, 1/2: P2 P4 P6
    P8, 0: P5): P1-P3 (the odd one of the top group, P9, floats down to the top of the next:
    P9-P2), P4-P6 (P4 met P8 already), P8 floats to P5. First seats to who had fewer: P1-P3,
    P2-P9, P4-P6, P5-P8. P1-P3 draws (1 + 3 = 4), P2, P4, P5 win. Points: P1 P2 P3 P4 1.5,
    P5 P7 P9 1, P6 P8 1/2.

    Round 3 (the bye to P8, the lowest without one): P1 meets P4 (not P3 again), P2-P3, P5-P7,
    P9-P6; first seats: P4-P1, P3-P2, P7-P5, P9-P6. P1, P2, P6 win; P5-P7 draws (12).

    Points: P1 2.5, P2 2.5, P3 P4 P5 P6 P7 P8 1.5, P9 1 (15: twelve games, three byes).
    Buchholz, the opponents' points (a bye: the player's own):
    P1: P5 1.5 + P3 1.5 + P4 1.5 = 4.5; P2: P6 1.5 + P9 1 + P3 1.5 = 4;
    P3: P7 1.5 + P1 2.5 + P2 2.5 = 6.5; P4: P8 1.5 + P6 1.5 + P1 2.5 = 5.5;
    P5: P1 2.5 + P8 1.5 + P7 1.5 = 5.5; P6: P2 2.5 + P4 1.5 + P9 1 = 5;
    P7: P3 1.5 + bye 1.5 + P5 1.5 = 4.5; P8: P4 1.5 + P5 1.5 + bye 1.5 = 4.5;
    P9: bye 1 + P2 2.5 + P6 1.5 = 5. P4 and P5 share fourth place, P7 and P8 seventh."""

    def result(a, b):
        return 0 if (a + b) % 4 == 0 else min(a, b)

    final, paired, table = run(server, "swiss", 9, 3, result)
    assert paired == [
        ([(1, 5), (6, 2), (3, 7), (8, 4)], 9),
        ([(1, 3), (2, 9), (4, 6), (5, 8)], 7),
        ([(4, 1), (3, 2), (7, 5), (9, 6)], 8),
    ]
    assert table == [
        (1, 1, 2.5, 4.5, 2, 1),
        (2, 2, 2.5, 4.0, 2, 1),
        (3, 3, 1.5, 6.5, 1, 1),
        (4, 4, 1.5, 5.5, 1, 1),
        (4, 5, 1.5, 5.5, 1, 1),
        (6, 6, 1.5, 5.0, 1, 1),
        (7, 7, 1.5, 4.5, 0, 1),
        (7, 8, 1.5, 4.5, 0, 1),
        (9, 9, 1.0, 5.0, 0, 0),
    ]
    assert final["tiebreak"] == "buchholz"
    assert [s["byes"] for s in final["standings"]] == [0, 0, 0, 0, 0, 0, 1, 1, 1]
