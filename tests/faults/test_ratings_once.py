"""Ratings exactly once: the worker is killed (SIGKILL) the moment rated games end, in the
middle of recording them; another takes its entries over. Every finished rated game's change
is applied once for each of its seats: each player's rating is the chain of their games'
changes, one after another with nothing lost or doubled, and their record counts each game once."""

from __future__ import annotations

import itertools
import json
import os
import signal
import time

import pytest

from service.players.accounts import PlayerService
from store import keys
from store.connection import connect
from store.players import PlayerStore
from tests.checks import wait_until_finished
from tests.faults.test_faults import World

TITLE = "ninedomains"
PEOPLE = 6


@pytest.fixture
def world(tmp_path):
    built = World(tmp_path)
    yield built
    built.close()


def test_a_worker_killed_while_rated_games_end_applies_each_once(world):
    client = connect(world.url)
    players = PlayerService(PlayerStore(client))
    people = [players.register(f"P{i}")["id"] for i in range(PEOPLE)]
    for p in people:
        players.set_friends(p, [q for q in people if q != p])
    service = world.service()
    pairs = list(itertools.combinations(people, 2)) * 4  # 60 games, 20 per player
    game_ids = [
        service.create(
            a, TITLE, [a, b], time_control={"per_move_seconds": 2, "on_timeout": "forfeit"}
        )["id"]
        for a, b in pairs
    ]
    assert all(service.summary(g)["rated"] for g in game_ids)
    victim = world.start_worker()
    deadline = time.monotonic() + 60
    while not client.hlen(keys.rating_skills(TITLE)):  # the first game's ratings are in
        assert time.monotonic() < deadline, "no game was rated"
        time.sleep(0.002)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    applied = sum(1 for g in game_ids if client.exists(keys.game_ratings(g)))
    assert applied < len(game_ids), "the worker was killed before it recorded every game"
    for _ in range(2):  # two, so that games of the same players are recorded at once
        world.start_worker()
    wait_until_finished(service, game_ids)
    deadline = time.monotonic() + 60
    while not all(client.exists(keys.game_ratings(g)) for g in game_ids):
        assert time.monotonic() < deadline, "rated games left without their ratings"
        time.sleep(0.2)

    changes: dict[str, list[dict]] = {p: [] for p in people}
    for game_id, (a, b) in zip(game_ids, pairs):
        record = json.loads(client.get(keys.game_ratings(game_id)))
        assert sorted(c["player"] for c in record["changes"]) == sorted([a, b])
        assert sorted(c["place"] for c in record["changes"]) == [1, 2]  # a forfeit is a loss
        for change in record["changes"]:
            changes[change["player"]].append(change)
    for player in people:
        chain = sorted(changes[player], key=lambda c: c["before"]["games"])
        assert [c["before"]["games"] for c in chain] == list(range(20)), player
        for earlier, later in itertools.pairwise(chain):
            assert earlier["after"] == later["before"], f"{player}: a change lost or doubled"
        stored = json.loads(client.hget(keys.rating_skills(TITLE), player))
        assert stored == chain[-1]["after"] and stored["games"] == 20
        tally = {k.decode(): int(v) for k, v in client.hgetall(keys.player_tally(player)).items()}
        assert tally[f"{TITLE}:games"] == tally[f"{TITLE}:rated"] == 20, player
        assert tally.get(f"{TITLE}:place:1", 0) + tally.get(f"{TITLE}:place:2", 0) == 20
        assert client.zcard(keys.player_results(player)) == 20
        rivals = client.hgetall(keys.player_rivals(player))
        assert sum(int(n) for n in rivals.values()) == 20, player
