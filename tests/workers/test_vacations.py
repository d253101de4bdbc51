"""Vacations with real `turnpost worker` processes on the test Valkey, seconds for days: one
taken ahead freezes three games at once and they resume with the right deadlines; days used
automatically when a clock runs out are counted, then the policy applies."""

from datetime import UTC, datetime

import pytest

from service.assembly import assemble
from service.play import clock
from service.play.commit import deadline_items
from service.settings import Settings
from store import keys
from tests.workers.test_bots_and_timers import event_types, wait_for

HOUR = 3600


@pytest.fixture
def api(redis_client):
    """The services as the API has them (vacations included), clocks of seconds allowed."""
    return assemble(redis_client, Settings(min_move_seconds=1))


def two_players(api):
    a = api.players.register("Ada")["id"]
    b = api.players.register("Bo")["id"]
    api.players.set_friends(b, [a])
    return a, b


def ada_to_move(api, game_id, a, b):
    """Bo moves until it is Ada's turn."""
    for _ in range(10):
        snap = api.games.load(game_id)
        if 0 in snap["active_seats"]:
            return snap
        legal = api.games.legal_moves(game_id, b)
        api.games.play(game_id, b, legal["version"], action=legal["moves"][0]["action"])
    raise AssertionError("Ada never got the move")


def now_ms():
    return int(datetime.now(UTC).timestamp() * 1000)


def calendar_sets(api, game_id):
    return [e for e in api.games.games.events(game_id) if e["type"] == "CalendarSet"]


def scheduled(redis_client, snap):
    """What the schedule holds of the game's deadlines: {member: score}."""
    key = keys.schedule(keys.bucket_of(snap["id"]))
    return {m: int(redis_client.zscore(key, m)) for _, m in deadline_items(snap)}


@pytest.mark.slow
def test_a_vacation_taken_ahead_freezes_three_games_and_they_resume(
    api, redis_client, start_workers
):
    a, b = two_players(api)
    start_workers()
    controls = [
        {"per_move_seconds": HOUR},
        {
            "kind": "bank",
            "initial_seconds": 2 * HOUR,
            "increment_seconds": 60,
            "max_seconds": 3 * HOUR,
        },
        {"per_move_seconds": 2 * HOUR, "weekends_off": True},
    ]
    game_ids = [api.games.create(a, "nautilus", [a, b], time_control=c)["id"] for c in controls]
    before = {g: ada_to_move(api, g, a, b)["deadlines"][0] for g in game_ids}

    today = datetime.now(UTC).date().isoformat()
    state = api.vacations.take(a, today, today)
    assert state["on_vacation_until"] is not None and state["used_days"] == 1
    end_ms = int(
        datetime.fromisoformat(state["vacations"][0]["ends_at"].replace("Z", "+00:00")).timestamp()
        * 1000
    )

    wait_for(lambda: all(calendar_sets(api, g) for g in game_ids), 20)
    for g in game_ids:
        snap = api.games.load(g)
        (taken,) = calendar_sets(api, g)  # one commit a game, however many clocks ran it
        weekends = bool(snap["time_control"].get("weekends_off"))
        ((start, end),) = taken["calendar"]["vacations"]
        assert end == end_ms and start <= taken["at"]
        # what Ada's clock held when her vacation began, then where it runs out
        left = clock.running_ms(start, before[g], clock.Calendar(None, weekends))
        away = clock.Calendar(None, weekends, ((start, end),))
        assert snap["deadlines"][0] == clock.advance(start, left, away)
        if not weekends:
            assert snap["deadlines"][0] == end_ms + left  # it runs again when she is back
        assert set(scheduled(redis_client, snap).values()) == {snap["deadlines"][0]}
        summary = api.games.summary(g)
        assert summary["seats"][0]["clock"]["paused"] == "vacation"
        table = api.tables.for_player(g, b)  # what Bo reads
        assert table.seats[0].vacation_until is not None
        assert "on vacation until" in (table.seats[0].clock_line or "")

    api.vacations.end(a)  # she is back early
    wait_for(lambda: all(len(calendar_sets(api, g)) == 2 for g in game_ids), 20)
    for g in game_ids:
        snap = api.games.load(g)
        first, back = calendar_sets(api, g)
        weekends = bool(snap["time_control"].get("weekends_off"))
        ((start, _),) = first["calendar"]["vacations"]
        ((_, came_back),) = back["calendar"]["vacations"]  # cut short when she came back
        assert start < came_back <= back["at"]
        left = clock.running_ms(start, before[g], clock.Calendar(None, weekends))
        assert snap["deadlines"][0] == clock.advance(
            came_back, left, clock.Calendar(None, weekends)
        )
        if not weekends:
            assert snap["deadlines"][0] == came_back + left
        assert set(scheduled(redis_client, snap).values()) == {snap["deadlines"][0]}
        # back from vacation, her clock runs, unless this is a weekend and the game has them off
        before_read = clock.paused(now_ms(), clock.Calendar(None, weekends))
        paused = api.games.summary(g)["seats"][0]["clock"]["paused"]
        assert paused in {before_read, clock.paused(now_ms(), clock.Calendar(None, weekends))}
        assert paused in ({None, "weekend"} if weekends else {None})
    assert api.vacations.state(a)["used_days"] == 1  # the day begun counts


@pytest.mark.slow
def test_vacation_days_are_used_one_at_a_time_then_the_policy_applies(api, start_workers):
    a, b = two_players(api)
    start_workers(VACATION_DAYS_A_YEAR="2", DAY_SECONDS="3")
    bank = {
        "kind": "bank",
        "initial_seconds": 1,
        "increment_seconds": 0,
        "max_seconds": 1,
        "on_timeout": "forfeit",
    }
    game_id = api.games.create(a, "nautilus", [a, b], time_control=bank)["id"]
    ada_to_move(api, game_id, a, b)
    final = wait_for(lambda: (s := api.games.summary(game_id))["status"] == "finished" and s, 30)
    assert final["outcome"]["winners"] == [1] and final["outcome"]["reason"] == "forfeit"
    types = event_types(api.games, game_id)
    assert types.count("TurnTimedOut") == 1
    assert types.count("CalendarSet") == 2  # a day, then another, then the policy
    state = api.vacations.state(a)  # (counted against this test's 30 days a year)
    assert state["used_days"] == 2
    assert [v["automatic"] for v in state["vacations"]] in ([], [True], [True, True])
    sets = calendar_sets(api, game_id)
    first, second = (s["calendar"]["vacations"][-1] for s in sets)
    assert second[0] == first[1] and first[1] - first[0] == 3000  # a day (of 3 s), then the next


@pytest.mark.slow
def test_a_move_during_a_vacation_ends_it_everywhere(api, start_workers):
    a, b = two_players(api)
    start_workers()
    game_ids = [
        api.games.create(a, "nautilus", [a, b], time_control={"per_move_seconds": HOUR})["id"]
        for _ in range(2)
    ]
    for g in game_ids:
        ada_to_move(api, g, a, b)
    today = datetime.now(UTC).date().isoformat()
    api.vacations.take(a, today, today)
    wait_for(lambda: all(calendar_sets(api, g) for g in game_ids), 20)
    legal = api.games.legal_moves(game_ids[0], a)
    api.games.play(game_ids[0], a, legal["version"], action=legal["moves"][0]["action"])
    assert api.vacations.state(a)["on_vacation_until"] is None
    wait_for(lambda: len(calendar_sets(api, game_ids[1])) == 2, 20)
    assert api.games.summary(game_ids[1])["seats"][0]["clock"]["paused"] is None
