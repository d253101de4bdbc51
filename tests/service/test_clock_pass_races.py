"""A clock pass whose games change between its read and its append (another clock recording
their other seats' timeouts just then): its timeouts are decided again on the games as they
are now, and each seat times out once, on the test Valkey."""

from __future__ import annotations

from service.play.games import GameService
from service.players.accounts import PlayerService
from store.games import GameStore
from store.players import PlayerStore

GAMES = 3


class RacedStore(GameStore):
    """Its first read of several games is followed at once by `race()` (before the reader
    appends)."""

    race = staticmethod(lambda: None)

    def snapshots(self, game_ids):
        found = super().snapshots(game_ids)
        race, self.race = self.race, staticmethod(lambda: None)
        race()
        return found


def test_a_pass_raced_by_another_clock_records_each_timeout_once(redis_client):
    moment = [1_798_000_000.0]
    players = PlayerService(PlayerStore(redis_client))
    store = RacedStore(redis_client)
    clock = GameService(store, PlayerStore(redis_client), clock=lambda: moment[0])
    other = GameService(GameStore(redis_client), PlayerStore(redis_client), clock=lambda: moment[0])
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])
    control = {"per_move_seconds": 60, "on_timeout": "auto"}
    game_ids = [
        clock.create(a, "ninedomains", [a, b], time_control=control)["id"] for _ in range(GAMES)
    ]
    since = {g: clock.load(g)["match"]["seat_since"] for g in game_ids}
    moment[0] += 61
    store.race = lambda: other.expire_turns([(g, 1, since[g][1]) for g in game_ids])

    assert clock.expire_turns([(g, 0, since[g][0]) for g in game_ids]) == ["applied"] * GAMES
    for game_id in game_ids:
        timeouts = [e["seat"] for e in store.events(game_id) if e["type"] == "TurnTimedOut"]
        assert sorted(timeouts) == [0, 1]
        assert clock.load(game_id)["timed_out"] == [0, 1]
    assert clock.expire_turns([(g, 0, since[g][0]) for g in game_ids]) == ["moot"] * GAMES
