"""The event store on a real Valkey: the atomic, optimistic append and the key layout."""

import json

from store import keys
from store.games import Appended, Commit, FirstAnswer, GameStore, Replayed, Stale
from store.outbox import OutboxStore


def event(n):
    return {"type": "ActionTaken", "n": n}


class Store(GameStore):
    """The store with the test's short spelling of a commit."""

    def append(
        self,
        game_id,
        expected=0,
        events=None,
        snapshot=None,
        key=None,
        player="",
        answer=None,
        request="",
        **schedule,
    ):
        if isinstance(game_id, Commit):
            return super().append(game_id)
        return super().append(
            Commit(
                game_id,
                expected,
                events,
                snapshot,
                idempotency_key=key,
                player_id=player,
                answer=answer,
                request=request,
                **schedule,
            )
        )

    def create(self, game_id, events, snapshot):
        return super().create(Commit(game_id, 0, events, snapshot))


GameStore = Store


def test_keys_of_a_game_its_outbox_and_its_schedule_share_one_hash_tag():
    bucket = keys.bucket_of("g1")
    tags = {
        k.split("{")[1].split("}")[0]
        for k in (
            keys.game_log("g1"),
            keys.game_snapshot("g1"),
            keys.game_idempotency("g1", "p", "k"),
            keys.legacy_seat_mail_token("g1", 0),
            keys.outbox(bucket),
            keys.schedule(bucket),
            keys.schedule_leased(bucket),
        )
    }
    assert tags == {f"b{bucket:02d}"}
    assert len({keys.bucket_of(f"g_{i}") for i in range(1000)}) == keys.BUCKETS


def test_a_commit_writes_its_outbox_entry_and_deadlines_in_the_same_script(redis_client):
    store, outbox = GameStore(redis_client), OutboxStore(redis_client)
    outbox.ensure_groups()
    schedule_key = keys.schedule(keys.bucket_of("g1"))
    redis_client.zadd(schedule_key, {"old-deadline": 5})
    assert store.append(
        "g1",
        0,
        [event(1), event(2)],
        {"v": 2},
        unschedule=["old-deadline"],
        schedule=[(1000, "new-deadline")],
    ) == Appended(2)
    entries = outbox.read("test", 10, 10)
    assert [(e.game_id, e.first, e.version) for e in entries] == [("g1", 1, 2)]
    assert redis_client.zrange(schedule_key, 0, -1, withscores=True) == [(b"new-deadline", 1000.0)]
    assert store.append("g1", 1, [event(3)], {"v": 3}, schedule=[(7, "x")]) == Stale(2)
    assert outbox.read("test", 10, 10) == [] and redis_client.zcard(schedule_key) == 1


def test_append_checks_the_expected_version(redis_client):
    store = GameStore(redis_client)
    assert store.append("g1", 0, [event(1), event(2)], {"v": 2}) == Appended(2)
    assert store.append("g1", 1, [event(3)], {"v": 3}) == Stale(2)
    assert store.append("g1", 2, [event(3)], {"v": 3}) == Appended(3)
    assert [e["version"] for e in store.events("g1")] == [1, 2, 3]
    assert store.snapshot("g1") == {"v": 3}


def test_a_stale_append_writes_nothing(redis_client):
    store = GameStore(redis_client)
    store.append("g1", 0, [event(1)], {"v": 1})
    store.append("g1", 0, [event(99)], {"v": 99})
    assert store.snapshot("g1") == {"v": 1} and len(store.events("g1")) == 1


def test_events_carry_a_schema_number_and_page_by_version(redis_client):
    store = GameStore(redis_client)
    store.append("g1", 0, [event(i) for i in range(5)], {})
    page = store.events("g1", after=2, count=2)
    assert [e["version"] for e in page] == [3, 4]
    assert all(e["schema"] == 1 for e in page)
    raw = redis_client.xrange(keys.game_log("g1"))
    assert raw[0][0] == b"1-0" and json.loads(raw[0][1][b"e"])["n"] == 0


def test_idempotency_key_returns_the_first_answer(redis_client):
    store = GameStore(redis_client)
    store.append("g1", 0, [event(0)], {})
    first = store.append("g1", 1, [event(1)], {"v": 2}, "key", "p1", {"answer": 1}, "move A")
    assert first == Appended(2)
    again = store.append("g1", 2, [event(2)], {"v": 3}, "key", "p1", {"answer": 2}, "move B")
    assert again == Replayed(FirstAnswer("move A", {"answer": 1}))
    assert len(store.events("g1")) == 2
    assert store.idempotent_answer("g1", "p1", "key") == FirstAnswer("move A", {"answer": 1})
    other_player = store.append("g1", 2, [event(2)], {"v": 3}, "key", "p2", {"answer": 3})
    assert other_player == Appended(3)


def test_create_refuses_an_existing_id(redis_client):
    store = GameStore(redis_client)
    assert store.create("g1", [event(0)], {})
    assert not store.create("g1", [event(0)], {"other": True})
    assert store.snapshot("g1") == {}


def test_wait_events_returns_new_events(redis_client):
    store = GameStore(redis_client)
    store.append("g1", 0, [event(0), event(1)], {})
    assert [e["version"] for e in store.wait_events("g1", after=1, block_ms=50)] == [2]
    assert store.wait_events("g1", after=2, block_ms=50) == []
