"""Ratings exactly once: the worker is killed (SIGKILL) the moment rated games end, in the
middle of recording them, and in the second test Valkey with it (SIGKILL, started again on its
append-only file); other workers take the entries over. Every finished rated game's change is
applied once for each of its seats: each player's rating is the chain of their games' changes,
one after another with nothing lost or doubled, equal to a recomputation from scratch of the
finished games in that order, and their record counts each game once."""

from __future__ import annotations

import itertools
import json
import os
import signal
import time
from collections import Counter

import pytest

from service.play.games import GameService
from service.play.results import result_of
from service.players.accounts import PlayerService
from service.ratings.model import Skill, rate
from store import keys
from store.connection import connect
from store.outbox import OutboxStore
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


def rated_games(world: World) -> tuple[list[str], list[str]]:
    """Six people and 60 rated games among them (20 each) on two-second clocks that nobody
    moves on: they all end on time at about the same moment, once a worker runs."""
    players = PlayerService(PlayerStore(connect(world.url)))
    people = [players.register(f"P{i}")["id"] for i in range(PEOPLE)]
    for p in people:
        players.set_friends(p, [q for q in people if q != p])
    service = world.service()
    pairs = list(itertools.combinations(people, 2)) * 4
    game_ids = [
        service.create(
            a, TITLE, [a, b], time_control={"per_move_seconds": 2, "on_timeout": "forfeit"}
        )["id"]
        for a, b in pairs
    ]
    assert all(service.summary(g)["rated"] for g in game_ids)
    return people, game_ids


def kill_once_rating_begins(world: World, victim) -> None:
    """SIGKILL the worker as soon as the first game's ratings are in."""
    client = connect(world.url)
    deadline = time.monotonic() + 60
    while not client.hlen(keys.rating_skills(TITLE)):
        assert time.monotonic() < deadline, "no game was rated"
        time.sleep(0.002)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()


def applied_in_order(records: dict[str, dict]) -> list[str]:
    """The games in an order in which their changes were applied: each game comes when it is
    next in the chain of each of its players (its `before` counts the games they had)."""
    had: Counter[str] = Counter()
    waiting, order = dict(records), []
    while waiting:
        ready = [
            g
            for g, record in waiting.items()
            if all(c["before"]["games"] == had[c["player"]] for c in record["changes"])
        ]
        assert ready, f"no game is next in its players' chains: {sorted(waiting)}"
        order.append(ready[0])
        had.update(c["player"] for c in waiting.pop(ready[0])["changes"])
    return order


def assert_each_applied_once(
    world: World, service: GameService, people: list[str], game_ids: list[str]
) -> None:
    client = connect(world.url)
    wait_until_finished(service, game_ids)
    deadline = time.monotonic() + 60
    outbox = OutboxStore(client)
    # every game's ratings, and every outbox entry carried out: a worker killed between a
    # game's ratings and its players' records leaves the records to the entry's next run
    while not all(client.exists(keys.game_ratings(g)) for g in game_ids) or any(
        outbox.backlog()[k] for k in ("waiting", "pending")
    ):
        assert time.monotonic() < deadline, "rated games left without their ratings"
        time.sleep(0.2)

    results = {g: result_of(service.load(g)) for g in game_ids}
    records = {g: json.loads(client.get(keys.game_ratings(g))) for g in game_ids}
    changes: dict[str, list[dict]] = {p: [] for p in people}
    for game_id, record in records.items():
        seats = results[game_id].seats
        assert [(c["player"], c["place"]) for c in record["changes"]] == [
            (s.player, s.place) for s in seats
        ]
        assert sorted(s.place for s in seats) == [1, 2]  # a forfeit is a loss
        for change in record["changes"]:
            changes[change["player"]].append(change)
    for player in people:
        chain = sorted(changes[player], key=lambda c: c["before"]["games"])
        assert [c["before"]["games"] for c in chain] == list(range(20)), player
        for earlier, later in itertools.pairwise(chain):
            assert earlier["after"] == later["before"], f"{player}: a change lost or doubled"

    # from scratch: every finished game once, in the order applied, from its own outcome
    skills: dict[str, Skill] = {p: Skill() for p in people}
    for game_id in applied_in_order(records):
        seats = results[game_id].seats
        after = rate([skills[s.player] for s in seats], [s.place for s in seats])
        skills.update((s.player, a) for s, a in zip(seats, after))
    played = Counter(s.player for r in results.values() for s in r.seats)
    for player in people:
        stored = Skill.from_json(json.loads(client.hget(keys.rating_skills(TITLE), player)))
        assert stored == skills[player], f"{player}: not the games' ratings applied once each"
        assert stored.games == played[player] == 20, player
        tally = {k.decode(): int(v) for k, v in client.hgetall(keys.player_tally(player)).items()}
        assert tally[f"{TITLE}:games"] == tally[f"{TITLE}:rated"] == 20, player
        assert tally.get(f"{TITLE}:place:1", 0) + tally.get(f"{TITLE}:place:2", 0) == 20
        assert client.zcard(keys.player_results(player)) == 20
        rivals = client.hgetall(keys.player_rivals(player))
        assert sum(int(n) for n in rivals.values()) == 20, player


def test_a_worker_killed_while_rated_games_end_applies_each_once(world):
    people, game_ids = rated_games(world)
    kill_once_rating_begins(world, world.start_worker())
    client = connect(world.url)
    applied = sum(1 for g in game_ids if client.exists(keys.game_ratings(g)))
    assert applied < len(game_ids), "the worker was killed before it recorded every game"
    for _ in range(2):  # two, so that games of the same players are recorded at once
        world.start_worker()
    assert_each_applied_once(world, world.service(), people, game_ids)


def test_the_worker_and_valkey_killed_while_rated_games_end_apply_each_once(world):
    """A SIGKILLed Valkey keeps every write it answered (written to its file before the
    answer; the once-a-second fsync matters only if the machine goes down): what is cut is the
    work under way. The worker left running loses its connections while games are being
    recorded; the entries both workers had leased are taken over once Valkey is back."""
    people, game_ids = rated_games(world)
    survivor = world.start_worker()  # it sees Valkey go in the middle of its work
    kill_once_rating_begins(world, world.start_worker())
    world.kill_valkey_and_restart(down_seconds=1)
    client = connect(world.url)
    applied = sum(1 for g in game_ids if client.exists(keys.game_ratings(g)))
    assert applied < len(game_ids), "Valkey was killed before every game was recorded"
    assert survivor.poll() is None
    world.start_worker()
    assert_each_applied_once(world, world.service(), people, game_ids)
