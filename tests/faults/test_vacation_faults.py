"""A vacation starting while Valkey is killed (SIGKILL: as it is taken, or while the worker
copies it to the games) or the process taking it dies: every game of the player is re-armed
once, none is lost and none doubled."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest

from service.assembly import assemble
from service.play.commit import deadline_items
from service.settings import Settings
from store import keys
from store.connection import StoreUnavailable, connect
from tests.faults.test_faults import FAST, World, world  # noqa: F401 (the fixture)
from tests.workers.test_bots_and_timers import wait_for

HOUR = 3600


def services(place: World):
    settings = Settings.from_env({**FAST, "MIN_MOVE_SECONDS": "1", "VACATION_DAYS_A_YEAR": "30"})
    return assemble(connect(place.url), settings)


def games_waiting_for_ada(api, count=3):
    a = api.players.register("Ada")["id"]
    b = api.players.register("Bo")["id"]
    api.players.set_friends(b, [a])
    game_ids = []
    for _ in range(count):
        game_id = api.games.create(a, "nautilus", [a, b], time_control={"per_move_seconds": HOUR})[
            "id"
        ]
        while 0 not in api.games.load(game_id)["active_seats"]:
            legal = api.games.legal_moves(game_id, b)
            api.games.play(game_id, b, legal["version"], action=legal["moves"][0]["action"])
        game_ids.append(game_id)
    return a, game_ids


def once_each(place: World, player_id, game_ids):
    """Wait until every game has its CalendarSet; then check there is exactly one, and that the
    schedule holds the deadline it armed. (Valkey's append-only file is written every second:
    a kill may lose the last second's writes, the vacation itself included; then no game may
    have learned of it either.)"""
    client = connect(place.url)
    api = assemble(client)
    if not wait_for(lambda: _readable(api, player_id), 20)["vacations"]:
        time.sleep(2 * float(FAST["SCHEDULE_LEASE_SECONDS"]))
        for g in game_ids:
            assert "CalendarSet" not in [e["type"] for e in api.games.games.events(g)]
        return False

    def copied():
        try:
            return all(
                any(e["type"] == "CalendarSet" for e in api.games.games.events(g)) for g in game_ids
            )
        except StoreUnavailable:
            return False

    wait_for(copied, 40)
    for g in game_ids:
        events = api.games.games.events(g)
        assert [e["type"] for e in events].count("CalendarSet") == 1, g
        snap = api.games.load(g)
        schedule = keys.schedule(keys.bucket_of(g))
        held = [int(client.zscore(schedule, m) or 0) for _, m in deadline_items(snap)]
        assert held == [snap["deadlines"][0]]
        assert snap["deadlines"][0] >= events[-1]["calendar"]["vacations"][0][1]  # after it
    return True


def _readable(api, player_id):
    try:
        return api.players.players.calendar(player_id)
    except StoreUnavailable:
        return None


@pytest.mark.slow
def test_valkey_killed_as_a_vacation_starts(world):  # noqa: F811 (the fixture)
    world.start_worker()
    api = services(world)
    a, game_ids = games_waiting_for_ada(api)
    today = datetime.now(UTC).date().isoformat()
    api.vacations.take(a, today, today)
    world.kill_valkey_and_restart(1.0)  # as the worker copies it to the games
    if once_each(world, a, game_ids):
        assert services(world).vacations.state(a)["used_days"] == 1


@pytest.mark.slow
def test_valkey_killed_while_the_worker_copies_a_vacation_to_the_games(world):  # noqa: F811
    """Ada sits in sixty games; Valkey is killed once the worker has begun to copy her new
    vacation to them (at least one game has it; most likely not all yet). The item that
    copies it, leased and not done, comes due again after the restart: every game gets it
    once, with the deadline it re-arms in the schedule."""
    world.start_worker()
    api = services(world)
    a, game_ids = games_waiting_for_ada(api, 60)
    client = connect(world.url)
    before = log_lengths(client, game_ids)
    today = datetime.now(UTC).date().isoformat()
    api.vacations.take(a, today, today)
    copied = wait_for(
        lambda: sum(n > m for n, m in zip(log_lengths(client, game_ids), before)), 20, 0.001
    )
    world.kill_valkey_and_restart(1.0)
    assert copied >= 1
    assert once_each(world, a, game_ids)
    assert services(world).vacations.state(a)["used_days"] == 1


def log_lengths(client, game_ids) -> list[int]:
    with client.pipeline(transaction=False) as pipe:
        for game_id in game_ids:
            pipe.xlen(keys.game_log(game_id))
        return pipe.execute()


@pytest.mark.slow
def test_the_process_taking_a_vacation_dies_between_its_writes(world):  # noqa: F811
    """The calendar is written and the process dies before it schedules the copying: the item
    scheduled a lease ahead before the write does it."""
    world.start_worker()
    api = services(world)
    a, game_ids = games_waiting_for_ada(api)
    added = []
    real_add = api.vacations.schedule.add

    def add_then_die(*args, **kwargs):
        added.append(args)
        if len(added) == 2:  # the item for now, after the write
            raise SystemExit("the process dies here")
        return real_add(*args, **kwargs)

    api.vacations.schedule.add = add_then_die
    today = datetime.now(UTC).date().isoformat()
    crashed = threading.Event()

    def take():
        try:
            api.vacations.take(a, today, today)
        except SystemExit:
            crashed.set()

    taker = threading.Thread(target=take)
    taker.start()
    taker.join()
    assert crashed.is_set()
    assert once_each(world, a, game_ids)
