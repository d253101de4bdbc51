"""The API's token lookups are remembered in process and forgotten the moment Redis says the
token key changed: a rotation anywhere stops the old token here as soon as Redis has sent the
invalidation, which it does in the same turn as its answer to the rotation (on a loaded machine
the two writes may reach the sockets a little apart, hence `soon`). Real Valkey; another
client stands for another API process."""

import time

from store import keys
from store.connection import connect
from store.players import PlayerStore, token_hash
from store.token_cache import TokenCache


def soon(read, expected, seconds: float = 0.5):
    """What `read()` answers once it answers `expected`, or after `seconds`."""
    deadline = time.monotonic() + seconds
    while (found := read()) != expected and time.monotonic() < deadline:
        time.sleep(0.005)
    return found


def gets_served(client) -> int:
    stats = client.info("commandstats")
    return stats.get("cmdstat_get", {}).get("calls", 0)


def test_a_remembered_token_costs_no_round_trip(redis_client):
    cached = PlayerStore(redis_client, TokenCache(redis_client))
    cached.create("p1", {"name": "Ada"}, "tok-1")
    assert cached.by_token("tok-1") == "p1"
    before = gets_served(redis_client)
    assert all(cached.by_token("tok-1") == "p1" for _ in range(100))
    assert gets_served(redis_client) - before == 0


def test_a_rotation_in_another_process_stops_the_old_token_at_once(valkey, redis_client):
    here = PlayerStore(redis_client, TokenCache(redis_client))
    there = PlayerStore(connect(valkey.url))
    there.create("p1", {"name": "Ada"}, "old")
    assert here.by_token("old") == "p1"
    there.replace_token("p1", "new")
    assert soon(lambda: here.by_token("old"), None) is None
    assert here.by_token("new") == "p1"


def test_an_unknown_token_is_never_remembered(valkey, redis_client):
    here = PlayerStore(redis_client, TokenCache(redis_client))
    assert here.by_token("later") is None
    PlayerStore(connect(valkey.url)).create("p2", {"name": "Bo"}, "later")
    assert here.by_token("later") == "p2"


def test_a_lost_tracking_connection_forgets_everything_and_caches_nothing(valkey, redis_client):
    cache = TokenCache(redis_client)
    here = PlayerStore(redis_client, cache)
    other = connect(valkey.url)
    PlayerStore(other).create("p1", {"name": "Ada"}, "tok")
    assert here.by_token("tok") == "p1"
    tracking = [c["id"] for c in other.client_list() if "t" in c["flags"]]
    assert tracking
    for client_id in tracking:  # the tracking connection is cut (and earlier tests')...
        other.client_kill_filter(_id=client_id)
    other.delete(keys.token(token_hash("tok")))  # ...and the token goes while nobody listens
    assert here.by_token("tok") is None
    assert cache.entries == {}


def test_a_flushed_database_forgets_everything(valkey, redis_client):
    here = PlayerStore(redis_client, TokenCache(redis_client))
    here.create("p1", {"name": "Ada"}, "tok")
    assert here.by_token("tok") == "p1"
    connect(valkey.url).flushall()
    assert soon(lambda: here.by_token("tok"), None) is None
