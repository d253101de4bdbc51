"""The outbox's and the schedule's bookkeeping in few commands: the entries of a bucket are
acknowledged and deleted by one XACK and one XDEL, and the items a commit schedules in a bucket
are one ZADD (each command is packed and parsed by redis-py, once an entry before)."""

from collections import Counter

import pytest
from redis.connection import Connection

from store import keys
from store.outbox import OutboxStore
from store.schedule import ScheduleStore, member


def _games_in(bucket: int, count: int) -> list[str]:
    found = (f"g_{n}" for n in range(100_000))
    return [g for g in found if keys.bucket_of(g) == bucket][:count]


@pytest.fixture
def commands(monkeypatch) -> Counter:
    """The commands sent to Redis, by name."""
    sent: Counter = Counter()
    pack = Connection.pack_commands
    send = Connection.send_command

    def name(args) -> str:
        return (args[0].decode() if isinstance(args[0], bytes) else str(args[0])).upper()

    def packed(self, many):
        sent.update(name(args) for args in many)
        return pack(self, many)

    def one(self, *args, **kwargs):
        sent[name(args)] += 1
        return send(self, *args, **kwargs)

    monkeypatch.setattr(Connection, "pack_commands", packed)
    monkeypatch.setattr(Connection, "send_command", one)
    return sent


def test_the_entries_of_a_bucket_are_done_in_one_xack_and_one_xdel(redis_client, commands):
    outbox = OutboxStore(redis_client)
    outbox.ensure_groups()
    here, there = _games_in(3, 5), _games_in(17, 2)
    for game_id in here + there:
        outbox.add(game_id, 1)
    entries = outbox.read("w", 100, 1)
    assert len(entries) == 7
    commands.clear()
    outbox.done(entries)
    assert commands == {"XACK": 2, "XDEL": 2}
    backlog = outbox.backlog()
    assert backlog["waiting"] == 0 and backlog["pending"] == 0
    assert outbox.read("w", 100, 1) == [] and outbox.claim_stale("x", 0, 100) == []


def test_what_a_commit_schedules_in_a_bucket_is_one_zadd(redis_client, commands):
    schedule = ScheduleStore(redis_client)
    game, other = _games_in(5, 1)[0], _games_in(9, 1)[0]
    items = [
        (game, 1_000, {"kind": "notify", "game": game, "tag": "50"}),
        (game, 2_000, {"kind": "notify", "game": game, "tag": "90"}),
        (game, 3_000, {"kind": "notify", "game": game, "tag": ""}),
        (other, 4_000, {"kind": "notify", "game": other, "tag": ""}),
    ]
    commands.clear()
    schedule.add_many(items)
    assert commands == {"ZADD": 2}
    for game_id, at, item in items:
        key = keys.schedule(keys.bucket_of(game_id))
        assert redis_client.zscore(key, member(item)) == at
