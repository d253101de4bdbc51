"""The lobby's keys hold the open games, not every game ever created: a game that leaves the
lobby leaves a marker that expires, and what an older turnpost left behind is pruned."""

from store import keys
from store.games import LOBBY_MARKER_SECONDS, GameStore


def test_games_that_leave_the_lobby_leave_no_field_behind(redis_client):
    store = GameStore(redis_client)
    for n in range(200):
        store.lobby_entry(f"g_{n}", 1, 1000 + n)
    assert redis_client.zcard(keys.OPEN_GAMES) == 200
    for n in range(200):
        store.lobby_entry(f"g_{n}", 2, None)
    assert redis_client.zcard(keys.OPEN_GAMES) == 0
    assert redis_client.hlen(keys.OPEN_GAMES_SEEN) == 0
    marker = keys.lobby_left("g_7")
    assert 0 < redis_client.ttl(marker) <= LOBBY_MARKER_SECONDS


def test_a_late_write_of_an_older_version_does_not_bring_a_closed_game_back(redis_client):
    """The request and the worker write the same commit's lobby entry in either order."""
    store = GameStore(redis_client)
    store.lobby_entry("g_late", 5, 1000)
    store.lobby_entry("g_late", 6, None)
    store.lobby_entry("g_late", 5, 1000)  # the request's write, arriving last
    assert redis_client.zscore(keys.OPEN_GAMES, "g_late") is None
    store.lobby_entry("g_late", 7, 2000)  # a seat opened again: a newer version wins
    assert redis_client.zscore(keys.OPEN_GAMES, "g_late") == 2000
    assert redis_client.exists(keys.lobby_left("g_late")) == 0


def test_fields_an_older_version_left_for_closed_games_are_pruned(redis_client):
    store = GameStore(redis_client)
    store.lobby_entry("g_open", 3, 1000)
    redis_client.hset(keys.OPEN_GAMES_SEEN, mapping={f"g_old{n}": 9 for n in range(500)})
    assert store.prune_lobby() == 500
    assert redis_client.hgetall(keys.OPEN_GAMES_SEEN) == {b"g_open": b"3"}
    assert redis_client.zscore(keys.OPEN_GAMES, "g_open") == 1000
