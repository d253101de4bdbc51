"""Automatic vacation days in one clock pass (GameService.expire_turns over several games of one
player), on the test Valkey with a clock of the test's: a timeout that uses no day (none left)
writes nothing and schedules nothing for its player; one day covers every timeout of its
player's that the pass records at its deadline."""

from __future__ import annotations

from service.assembly import assemble
from service.settings import Settings
from store import keys
from store.schedule import member

GAMES = 3


def timeouts_in_three_games(redis_client, days: int):
    """Ada's clock (60 s per move) running out in three games against Bo, 61 s on: the
    services, Ada's id, and the pass's items (game, seat, since)."""
    moment = [1_798_000_000.0]  # 2026-12-22
    api = assemble(redis_client, Settings(min_move_seconds=1, vacation_days_a_year=days))
    api.games.clock = lambda: moment[0]
    api.vacations.clock = lambda: moment[0]
    a = api.players.register("Ada")["id"]
    b = api.players.register("Bo")["id"]
    api.players.set_friends(b, [a])
    due = []
    for _ in range(GAMES):
        game_id = api.games.create(
            a, "ninedomains", [a, b], time_control={"per_move_seconds": 60, "on_timeout": "auto"}
        )["id"]
        snap = api.games.load(game_id)
        due.append((game_id, 0, snap["match"]["seat_since"][0]))
    moment[0] += 61
    return api, a, due


def calendar_items(redis_client, player_id: str) -> list[float]:
    """When the schedule holds the item that copies the player's calendar to their games."""
    found = member({"kind": "calendar", "player": player_id})
    scores = [redis_client.zscore(keys.schedule(b), found) for b in range(keys.BUCKETS)]
    return [s for s in scores if s is not None]


def test_a_timeout_without_a_vacation_day_left_writes_nothing_for_its_player(redis_client):
    api, a, due = timeouts_in_three_games(redis_client, days=0)
    assert api.games.expire_turns(due) == ["applied"] * GAMES
    assert not redis_client.exists(keys.player_calendar(a))
    assert calendar_items(redis_client, a) == []  # no copy of an unchanged calendar comes due
    for game_id, seat, _ in due:
        assert api.games.load(game_id)["timed_out"] == [seat]


def test_one_vacation_day_covers_the_timeouts_of_a_pass(redis_client):
    api, a, due = timeouts_in_three_games(redis_client, days=2)
    assert api.games.expire_turns(due) == ["vacation"] * GAMES
    state = api.vacations.state(a)
    assert state["used_days"] == 1 and len(state["vacations"]) == 1
    assert calendar_items(redis_client, a)  # the copy to the games, through the schedule
    for game_id, _, _ in due:
        assert api.games.load(game_id)["timed_out"] == []
    assert api.games.expire_turns(due) == ["vacation"] * GAMES  # asked again: the same day
    assert api.vacations.state(a)["used_days"] == 1
