"""Issue 33's clocks with real `turnpost worker` processes on the test Valkey, seconds for days:
a time bank that runs out, and the policy that fires once; and a worker's steps on a clock of
the test's, for a deadline that a weekend moves."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from service.play import clock
from service.play.commit import deadline_items
from service.play.games import GameService
from store import keys
from store.games import GameStore
from store.players import PlayerStore
from tests.workers.test_bots_and_timers import event_types, wait_for
from workers.process import WorkerProcess


def two_players(services):
    players, games = services
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    return players, games, a, b


def bank(initial, increment, most, policy):
    return {
        "kind": "bank",
        "initial_seconds": initial,
        "increment_seconds": increment,
        "max_seconds": most,
        "on_timeout": policy,
    }


@pytest.mark.slow
def test_a_bank_runs_out_and_forfeit_fires_once(services, start_workers):
    _, games, a, b = two_players(services)
    start_workers(2, VACATION_DAYS_A_YEAR="0")  # two clocks: the deadline is still met once
    game_id = games.create(a, "nautilus", [a, b], time_control=bank(2, 1, 3, "forfeit"))["id"]
    final = wait_for(lambda: (s := games.summary(game_id))["status"] == "finished" and s, 30)
    first = final["outcome"]["winners"]
    assert final["outcome"]["reason"] == "forfeit" and len(first) == 1
    types = event_types(games, game_id)
    assert types.count("TurnTimedOut") == 1 and types.count("PlayerResigned") == 1
    assert types[-3:] == ["TurnTimedOut", "PlayerResigned", "GameEnded"]
    assert games.replay(game_id) == games.load(game_id)


@pytest.mark.slow
def test_a_bank_kept_by_moving_and_auto_plays_once_for_the_absent(services, start_workers):
    """Ada moves at once every time and keeps her bank (with its increments, up to the cap);
    Bo is away: his bank of 2 s runs out once, the computer moves for him once, and from then
    on his turns have the 1 s of increment his (computer's) moves earned."""
    _, games, a, b = two_players(services)
    start_workers(VACATION_DAYS_A_YEAR="0")
    game_id = games.create(a, "nautilus", [a, b], time_control=bank(2, 1, 3, "auto"))["id"]

    def after_bo_timed_out():
        events = games.games.events(game_id)
        return any(e["type"] == "TurnTimedOut" for e in events) and events

    for _ in range(200):
        summary = games.summary(game_id)
        if summary["status"] != "active" or after_bo_timed_out():
            break
        if 0 in summary["active_seats"]:
            legal = games.legal_moves(game_id, a)
            games.play(game_id, a, legal["version"], action=legal["moves"][0]["action"])
    events = wait_for(
        lambda: (e := after_bo_timed_out()) and e[-1]["type"] == "ActionTaken" and e, 30
    )
    timed = [e for e in events if e["type"] == "TurnTimedOut"]
    assert {e["seat"] for e in timed} == {1}
    assert events[timed[0]["version"]]["seat"] == 1  # the computer's move, right after
    ada = games.summary(game_id)["seats"][0]["clock"]
    assert 2 <= ada["bank_seconds"] <= 3  # her bank: what she did not use, plus increments


ZONE = "Asia/Kolkata"  # a half-hour offset: its weekend starts at 18:30 UTC on a Friday


def _local_ms(*when: int) -> int:
    return int(datetime(*when, tzinfo=ZoneInfo(ZONE)).timestamp() * 1000)


def test_a_deadline_that_falls_in_a_weekend_waits_for_its_end(services, valkey, redis_client):
    """The game began on a Friday evening, half an hour before the weekend; the bank would
    have run out during that weekend, so the clock puts the deadline after it. The worker,
    given the seat's timeout at the time the bank would have run out without the weekend (as
    a clock that missed it would have), finds it early and re-arms it; given it a moment
    before the moved deadline, again; it times the seat out at the moved deadline.

    The worker's steps are taken here, its clock the test's (a real weekend cannot be waited
    for): the outbox consumer's and the clock's code as `turnpost worker` runs them."""
    players, _ = services
    since = _local_ms(2026, 11, 20, 23, 30)  # Friday 23:30
    monday = _local_ms(2026, 11, 23)
    now = [since]
    games = GameService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        min_move_seconds=1,
        clock=lambda: now[0] / 1000,
    )
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    for p in (a, b):
        players.update(p, {"time_zone": ZONE})
    players.set_friends(b, [a])
    bank_s = 30 * 60 + 8  # half an hour of Friday, then 8 s of Monday
    control = {**bank(bank_s, 0, bank_s, "forfeit"), "weekends_off": True}
    game_id = games.create(a, "nautilus", [a, b], time_control=control)["id"]
    snap = games.load(game_id)
    [seat] = snap["active_seats"]
    expected = monday + 8_000
    assert clock.advance(since, bank_s * 1000, clock.Calendar(ZONE, True)) == expected
    assert snap["deadlines"][seat] == expected
    naive = since + bank_s * 1000  # Saturday 00:00:08, without the weekend
    [(due, member)] = deadline_items(snap)
    schedule = keys.schedule(keys.bucket_of(game_id))
    assert due == expected and int(redis_client.zscore(schedule, member)) == expected

    worker = WorkerProcess({"REDIS_URL": valkey.url, "VACATION_DAYS_A_YEAR": "0"})
    worker.outbox.ensure_groups()
    worker.consequences.clock = worker.consequences.games.clock = lambda: now[0] / 1000
    for early in (naive, expected - 1):
        redis_client.zadd(schedule, {member: early})
        now[0] = early
        assert worker.clock_step()
        assert int(redis_client.zscore(schedule, member)) == expected, "re-armed"
        assert "TurnTimedOut" not in event_types(games, game_id)
    now[0] = expected
    assert worker.clock_step()
    timed = [e for e in games.games.events(game_id) if e["type"] == "TurnTimedOut"]
    assert [(e["seat"], e["at"]) for e in timed] == [(seat, expected)]
    while worker.outbox_step():  # what the timeout causes
        pass
    final = games.summary(game_id)
    assert final["status"] == "finished" and final["outcome"]["reason"] == "forfeit"
