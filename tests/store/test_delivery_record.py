"""A delivery kept in the player's list (NotificationStore.record) on a real Valkey: numbered,
its JSON as it always was, the list trimmed, and a sent email's version of its game kept with
it in one round trip."""

import json

from redis.connection import Connection

from store import keys
from store.notifications import DELIVERY_LOG_LENGTH, EMAILED_DAYS, NotificationStore


def delivery(n: int) -> dict:
    return {"id": f"email-g1-0-{n}", "channel": "email", "version": n, "detail": 'to "a" é'}


def test_deliveries_are_numbered_kept_newest_first_and_trimmed(redis_client):
    notes = NotificationStore(redis_client)
    for n in range(1, DELIVERY_LOG_LENGTH + 3):
        notes.record("p1", delivery(n))
    raw = redis_client.lrange(keys.player_deliveries("p1"), 0, -1)
    assert len(raw) == DELIVERY_LOG_LENGTH
    newest = DELIVERY_LOG_LENGTH + 2
    assert raw[0].decode() == json.dumps({**delivery(newest), "seq": newest})
    assert [d["seq"] for d in notes.deliveries("p1", 3)] == [newest, newest - 1, newest - 2]
    assert notes.last_emailed("p1", "g1") is None


def test_a_sent_email_keeps_its_games_version_in_the_same_round_trip(redis_client, monkeypatch):
    notes = NotificationStore(redis_client)
    notes.record("p2", delivery(1))  # the script is in the server's cache now
    trips = []
    send = Connection.send_packed_command

    def counted(self, command, check_health=True):
        trips.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counted)
    notes.record("p2", delivery(7), emailed=("g1", 7))
    monkeypatch.undo()
    assert len(trips) == 1
    assert notes.last_emailed("p2", "g1") == 7
    assert 0 < redis_client.ttl(keys.emailed_versions("p2")) <= EMAILED_DAYS * 86400
    assert notes.deliveries("p2", 1) == [{**delivery(7), "seq": 2}]
