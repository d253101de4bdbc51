"""The per-player cap on webhook deliveries in flight, in a real Valkey: a slot is given back
by its delivery, or frees itself when its hold runs out (its worker died)."""

from store import keys
from store.notifications import NotificationStore


def test_at_most_the_cap_in_flight_and_a_dead_workers_slot_frees_itself(redis_client):
    notes = NotificationStore(redis_client)
    take = lambda delivery, now: notes.take_webhook_slot("p1", delivery, now, 1000, 2)  # noqa
    assert take("d1", 0) and take("d2", 10)
    assert not take("d3", 20), "over the cap"
    assert take("d1", 30), "a delivery that holds a slot may take it again (a retried job)"
    assert notes.take_webhook_slot("p2", "d3", 20, 1000, 2), "another player's cap is apart"
    notes.give_webhook_slot("p1", "d2")
    assert take("d3", 40)
    assert not take("d4", 50)
    assert not take("d4", 1029), "d1 (taken again at 30) and d3 (at 40) hold theirs"
    assert take("d4", 1035), "d1's hold ran out: its worker died"
    assert not take("d5", 1036)
    assert redis_client.pttl(keys.player_webhook_in_flight("p1")) > 0, "the set itself expires"
