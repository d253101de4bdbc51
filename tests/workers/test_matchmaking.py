"""Matchmaking run by the worker (its outbox consumer and clock, in this process, on the test
Valkey): a request records the wish; the worker pairs the player with the waiting player
nearest their rating within the window, or after their chosen wait starts a game against the
bot nearest their rating; each once, however often it is carried out."""

from __future__ import annotations

import json
import time

import pytest

from service.assembly import assemble
from service.errors import ServiceError
from service.ratings.model import MU, SCALE
from service.settings import Settings
from store import keys
from workers import process as worker_process
from workers.process import WorkerProcess

TITLE = "nautilus"


@pytest.fixture
def world(valkey, redis_client, monkeypatch):
    monkeypatch.setattr(worker_process, "OUTBOX_LINGER_SECONDS", 0)
    services = assemble(redis_client, Settings())
    worker = WorkerProcess({"REDIS_URL": valkey.url})
    worker.outbox.ensure_groups()
    yield services, worker
    worker.stop.set()


def drain(worker):
    """Carry out every entry, each twice (a worker killed before its acknowledgement)."""
    for _ in range(100):
        entries = worker.outbox.read(worker.name, 200, 5)
        if not entries:
            return
        for entry in entries:
            worker.consequences.carry_out(entry)
            worker.consequences.carry_out(entry)
        worker.outbox.done(entries)


def rate(redis_client, who, rating):
    """Give a player (or a bot) a settled rating at the title."""
    skill = {"mu": MU + (rating - 1500) / SCALE, "sigma": 3.0, "games": 30}
    redis_client.hset(keys.rating_skills(TITLE), who, json.dumps(skill))


def person(services, redis_client, name, rating):
    player = services.players.register(name)["id"]
    rate(redis_client, player, rating)
    return player


def games_of(services, player):
    return services.games.list_games(player)[0]


def test_two_players_near_each_other_get_one_rated_game(world, redis_client):
    services, worker = world
    ada = person(services, redis_client, "Ada", 1500)
    bo = person(services, redis_client, "Bo", 1620)
    now = time.time()
    services.matchmaking.clock = lambda: now  # both asks in one millisecond, as quick ones are
    asked, made = services.matchmaking.ask(ada, TITLE, None)
    assert made and asked["status"] == "waiting" and asked["rating"] == 1500
    again, made = services.matchmaking.ask(ada, TITLE, None)
    assert not made and again == asked, "asking again keeps the first request"
    services.matchmaking.clock = lambda: now + 1  # Bo asks a second later
    services.matchmaking.ask(bo, TITLE, None)
    drain(worker)
    mine, theirs = services.matchmaking.get(ada, TITLE), services.matchmaking.get(bo, TITLE)
    assert mine["status"] == theirs["status"] == "matched"
    assert mine["game_id"] == theirs["game_id"]
    assert mine["opponent"] == {"player_id": bo, "name": "Bo", "bot": False}
    assert mine["first_seat"] is True and theirs["first_seat"] is False  # Ada waited longer
    summary = services.games.summary(mine["game_id"])
    assert [s["player_id"] for s in summary["seats"]] == [ada, bo]
    assert summary["status"] == "active" and summary["rated"] is True
    assert summary["time_control"] == {
        "kind": "per_move",
        "per_move_seconds": 86400,
        "on_timeout": "auto",
        "weekends_off": False,
    }
    assert len(games_of(services, ada)) == len(games_of(services, bo)) == 1
    for player in (ada, bo):
        told = [f[b"event"] for _, f in redis_client.xrange(keys.player_events(player))].count(
            b"matchmaking.matched"
        )
        assert told == 1


def test_the_nearest_within_the_window_and_nobody_beyond_it(world, redis_client):
    services, worker = world
    ada = person(services, redis_client, "Ada", 1500)
    far = person(services, redis_client, "Far", 1710)  # beyond Ada's window of 200
    bo = person(services, redis_client, "Bo", 1370)  # within it, 130 away
    cy = person(services, redis_client, "Cy", 1450)  # within it, 50 away: the nearest
    for player in (ada, far, bo, cy):
        services.matchmaking.ask(player, TITLE, None)
    drain(worker)  # Ada's entry is carried out first
    assert services.matchmaking.get(ada, TITLE)["opponent"]["player_id"] == cy
    for left in (far, bo):  # 340 apart: both still waiting
        assert services.matchmaking.get(left, TITLE)["status"] == "waiting"
        assert games_of(services, left) == []


def test_after_the_wait_a_game_against_the_bot_nearest_the_players_rating(
    world, redis_client, monkeypatch
):
    services, worker = world
    rate(redis_client, "bot:random", 1300)
    rate(redis_client, "bot:heuristic", 1530)
    rate(redis_client, "bot:expert", 1710)
    ada = person(services, redis_client, "Ada", 1600)
    asked, _ = services.matchmaking.ask(ada, TITLE, 60)
    drain(worker)
    assert services.matchmaking.get(ada, TITLE)["status"] == "waiting"
    assert not worker.clock_step(), "nothing due before the wait is over"
    later = services.matchmaking.clock() + 61
    monkeypatch.setattr(worker.consequences, "clock", lambda: later)
    taken = worker.schedule.take_due(int(later * 1000), 100)
    worker.consequences.run_due(taken)
    worker.consequences.run_due(taken)  # a clock that died after it: the lease runs out
    mine = services.matchmaking.get(ada, TITLE)
    assert mine["status"] == "matched" and mine["asked_at"] == asked["asked_at"]
    assert mine["opponent"] == {"player_id": None, "name": "bot:heuristic", "bot": True}
    summary = services.games.summary(mine["game_id"])
    assert [s["name"] for s in summary["seats"]] == ["Ada", "bot:heuristic"]
    assert summary["rated"] is True
    assert len(games_of(services, ada)) == 1


def test_withdrawing_a_request_and_what_is_refused(world, redis_client):
    services, worker = world
    ada = person(services, redis_client, "Ada", 1500)
    bo = person(services, redis_client, "Bo", 1500)
    services.matchmaking.ask(ada, TITLE, None)
    assert services.matchmaking.cancel(ada, TITLE)["status"] == "cancelled"
    services.matchmaking.ask(bo, TITLE, None)
    drain(worker)
    assert services.matchmaking.get(bo, TITLE)["status"] == "waiting", "Ada left the pool"
    services.matchmaking.ask(ada, TITLE, None)
    drain(worker)
    with pytest.raises(ServiceError) as matched:
        services.matchmaking.cancel(ada, TITLE)
    assert matched.value.code == "matchmaking/matched"
    assert matched.value.details["game_id"] == services.matchmaking.get(ada, TITLE)["game_id"]
    for call in (
        lambda: services.matchmaking.get(bo, "ninedomains"),
        lambda: services.matchmaking.ask(bo, "chess", None),
    ):
        with pytest.raises(ServiceError) as missing:
            call()
        assert missing.value.code == "matchmaking/not_found"
    with pytest.raises(ServiceError) as wait:
        services.matchmaking.ask(bo, "ninedomains", 10**9)
    assert wait.value.code == "request/invalid"
