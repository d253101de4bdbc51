"""A finished game's log leaves memory: compacted into one compressed value, served the same.
On a real Valkey, with whole games played through the service."""

import random
import time

import pytest

from service.play.games import GameService
from service.players.accounts import PlayerService
from store import keys
from store.games import GameStore
from store.players import PlayerStore


def finished_game(redis_client, name="consonar"):
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    people = [players.register(n)["id"] for n in ("Ada", "Bo")]
    game_id = games.create(people[0], name, [people[0], None])["id"]
    games.join(game_id, people[1])
    rnd = random.Random(5)
    while (snap := games.load(game_id))["status"] == "active":
        seat = rnd.choice(snap["active_seats"])
        moves = games.legal_moves(game_id, people[seat])
        games.play(
            game_id, people[seat], moves["version"], action=rnd.choice(moves["moves"])["action"]
        )
    return games, game_id, people


@pytest.mark.slow
def test_a_compacted_log_reads_the_same_in_a_third_of_the_memory(redis_client):
    games, game_id, people = finished_game(redis_client)
    store = games.games
    events = store.events(game_id)
    replayed = games.replay(game_id)
    log_bytes = redis_client.memory_usage(keys.game_log(game_id))
    assert store.compact(game_id)
    assert not redis_client.exists(keys.game_log(game_id))
    archive_bytes = redis_client.memory_usage(keys.game_archive(game_id))
    assert archive_bytes * 3 <= log_bytes, (archive_bytes, log_bytes)
    assert store.events(game_id) == events
    assert store.events(game_id, after=7, count=5) == events[7:12]
    assert store.events(game_id, after=len(events)) == []
    assert games.replay(game_id) == replayed == games.load(game_id)
    assert games.log(game_id, people[0], after=3)["entries"][0]["version"] == 4
    started = time.monotonic()  # a stream resumed on a compacted game has it all at once
    assert [e["version"] for e in store.wait_events(game_id, 10, 5000)] == [
        e["version"] for e in events[10:]
    ]
    assert time.monotonic() - started < 2
    assert not store.compact(game_id)  # once is enough


def test_a_game_in_play_is_never_compacted(redis_client):
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    a, b = (players.register(n)["id"] for n in ("Ada", "Bo"))
    game_id = games.create(a, "ninedomains", [a, None])["id"]
    games.join(game_id, b)
    assert not games.games.compact(game_id)
    assert redis_client.exists(keys.game_log(game_id))
    assert not redis_client.exists(keys.game_archive(game_id))
    moves = games.legal_moves(game_id, a)
    games.play(game_id, a, moves["version"], action=moves["moves"][0]["action"])
