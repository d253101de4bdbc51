"""How a `redis+sentinel://` URL is read (store.connection): the sentinels, their default
port, the group's name, the database and the primary's password. Nothing connects until a
command is sent, so no server is needed; tests/faults/test_sentinel.py runs a real group."""

import pytest

from store.connection import connect, for_blocking_reads, queue_url


def test_the_sentinels_the_name_the_database_and_the_password():
    client = connect(
        "redis+sentinel://:s%40cret@10.0.0.1,10.0.0.2:26380,[::1]:26381/games/2",
        max_connections=7,
    )
    pool = client.connection_pool
    assert pool.service_name == "games" and pool.max_connections == 7
    assert pool.connection_kwargs["db"] == 2
    assert pool.connection_kwargs["password"] == "s@cret"
    assert [
        (s.connection_pool.connection_kwargs["host"], s.connection_pool.connection_kwargs["port"])
        for s in pool.sentinel_manager.sentinels
    ] == [("10.0.0.1", 26379), ("10.0.0.2", 26380), ("::1", 26381)]
    blocking = for_blocking_reads(client, 25.0, 3).connection_pool
    assert (blocking.service_name, blocking.sentinel_manager) == ("games", pool.sentinel_manager)
    assert blocking.connection_kwargs["socket_timeout"] == 25.0 and blocking.max_connections == 3


def test_the_database_defaults_to_0_and_a_queue_may_be_a_group():
    url = "redis+sentinel://127.0.0.1:26379/turnpost"
    assert connect(url).connection_pool.connection_kwargs["db"] == 0
    assert queue_url({"QUEUE_REDIS_URL": url}) == url


@pytest.mark.parametrize(
    "url", ["redis+sentinel://127.0.0.1:26379", "redis+sentinel://127.0.0.1/name/zero"]
)
def test_a_url_without_a_name_or_with_a_bad_database_is_refused(url):
    with pytest.raises(ValueError, match="redis\\+sentinel://"):
        connect(url)
