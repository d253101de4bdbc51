"""Issue 33's clocks with real `turnpost worker` processes on the test Valkey, seconds for days:
a time bank that runs out, and the policy that fires once."""

import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from service.play import clock
from service.play.commit import deadline_items
from service.play.games import GameService
from store import keys
from store.games import GameStore
from store.players import PlayerStore
from tests.workers.test_bots_and_timers import event_types, wait_for


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


ZONES_WEST_TO_EAST = [
    "Etc/GMT+12",
    "America/Adak",
    "Europe/London",
    "Asia/Kolkata",
    "Pacific/Kiritimati",
]
"""UTC-12 to UTC+14: outside Saturday 12:00 to Sunday 10:00 UTC it is a weekday in one of them."""
MINUTE = 60_000


def _last_weekend(zone: str, now: int) -> tuple[int, int]:
    """The latest weekend (Saturday 00:00 to Monday 00:00 local, ms) that began before `now`."""
    tz = ZoneInfo(zone)
    day = datetime.fromtimestamp(now / 1000, tz).date()
    saturday = day - timedelta(days=(day.weekday() - 5) % 7)

    def midnight(d):
        return int(datetime(d.year, d.month, d.day, tzinfo=tz).timestamp() * 1000)

    return midnight(saturday), midnight(saturday + timedelta(days=2))


@pytest.mark.slow
def test_a_deadline_that_falls_in_a_weekend_waits_for_its_end(
    services, start_workers, redis_client
):
    """The game began on a Friday evening, half an hour before the weekend, in a time zone where
    it is a weekday now; the bank would have run out during that weekend, so the clock puts
    the deadline after it (seconds from now). The worker, given the seat's timeout at the
    deadline the weekend moved (an item due at once), finds it early and re-arms it; it then
    times the seat out at the moved deadline, not a moment before."""
    players, _ = services
    now = int(time.time() * 1000)
    chosen = [
        (z, w)
        for z in ZONES_WEST_TO_EAST
        if (w := _last_weekend(z, now))[1] < now - MINUTE
        and not clock.paused(now + 10 * MINUTE, clock.Calendar(z, True))
    ]
    if not chosen:
        pytest.skip("Saturday 12:00 to Sunday 10:00 UTC: the weekend everywhere")
    zone, (saturday, monday) = chosen[0]
    since = saturday - 30 * MINUTE  # Friday 23:30, local
    bank_s = 30 * 60 + (now + 8_000 - monday) // 1000  # runs out some 8 s from now
    games = GameService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        min_move_seconds=1,
        clock=lambda: since / 1000,
    )
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    for p in (a, b):
        players.update(p, {"time_zone": zone})
    players.set_friends(b, [a])
    control = {**bank(bank_s, 0, bank_s, "forfeit"), "weekends_off": True}
    game_id = games.create(a, "nautilus", [a, b], time_control=control)["id"]
    snap = games.load(game_id)
    [seat] = snap["active_seats"]
    # the expectation: 30 min of Friday, the weekend off, the rest from Monday 00:00
    expected = monday + bank_s * 1000 - 30 * MINUTE
    assert clock.advance(since, bank_s * 1000, clock.Calendar(zone, True)) == expected
    assert snap["deadlines"][seat] == expected > now
    naive = since + bank_s * 1000
    assert naive < now - 47 * 60 * MINUTE  # without the weekend it ran out two days ago
    [(due, member)] = deadline_items(snap)
    schedule = keys.schedule(keys.bucket_of(game_id))
    assert due == expected and int(redis_client.zscore(schedule, member)) == expected
    # the same item due at once, as if the clock had missed the weekend
    redis_client.zadd(schedule, {member: naive})
    start_workers()
    wait_for(lambda: redis_client.zscore(schedule, member) == expected, 30)
    assert "TurnTimedOut" not in event_types(games, game_id)
    final = wait_for(lambda: (s := games.summary(game_id))["status"] == "finished" and s, 60)
    assert final["outcome"]["reason"] == "forfeit"
    timed = [e for e in games.games.events(game_id) if e["type"] == "TurnTimedOut"]
    assert [e["seat"] for e in timed] == [seat] and timed[0]["at"] >= expected
