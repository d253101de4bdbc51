"""The record's schema number is checked on read: an event written by a newer turnpost is
refused with a clear error, never misread; today's events read as they were written. On a real
Valkey, with a game created through the service."""

import json

import pytest

from service.play.games import GameService
from service.players.accounts import PlayerService
from store import keys
from store.games import GameStore
from store.players import PlayerStore
from store.record import EVENT_SCHEMA, EventType, UnreadableRecord


def new_game(redis_client) -> tuple[GameStore, str]:
    players = PlayerService(PlayerStore(redis_client))
    store = GameStore(redis_client)
    games = GameService(store, PlayerStore(redis_client))
    ada = players.register("Ada")["id"]
    return store, games.create(ada, "buttons", [ada, "bot:random"])["id"]


def test_events_are_written_with_the_schema_and_read_back_alike(redis_client):
    store, game_id = new_game(redis_client)
    raw = redis_client.xrange(keys.game_log(game_id))
    assert raw and all(json.loads(f[b"e"])["schema"] == EVENT_SCHEMA for _, f in raw)
    events = store.events(game_id)
    assert [e["type"] for e in events][:2] == [EventType.GAME_CREATED, EventType.GAME_STARTED]
    assert events[0]["type"] == "GameCreated"  # the enum's members are the stored strings


def test_an_event_from_a_newer_turnpost_is_refused_not_misread(redis_client):
    store, game_id = new_game(redis_client)
    version = len(store.events(game_id)) + 1
    newer = {"schema": EVENT_SCHEMA + 1, "type": "ActionTaken", "seat": 0, "at": 0}
    redis_client.xadd(keys.game_log(game_id), {"e": json.dumps(newer)}, id=f"{version}-0")
    with pytest.raises(UnreadableRecord, match=f"record schema {EVENT_SCHEMA + 1}.*upgrade"):
        store.events(game_id)
    assert [e["version"] for e in store.events(game_id, count=version - 1)] == list(
        range(1, version)
    )  # what this turnpost can read is still read
