"""`turnpost status` names the largest keys, so that an operator sees what grows."""

from workers.status import largest_keys


def test_the_largest_collections_of_every_kind_by_their_elements(redis_client):
    redis_client.flushdb()
    redis_client.hset("tp:t:hash", mapping={f"f{n}": n for n in range(50)})
    redis_client.zadd("tp:t:zset", {f"m{n}": n for n in range(30)})
    for n in range(10):
        redis_client.xadd("tp:t:stream", {"n": n})
    redis_client.rpush("tp:t:list", *range(5))
    redis_client.sadd("tp:t:set", *range(3))
    redis_client.set("tp:t:string", "x" * 40)
    for n in range(20):
        redis_client.set(f"tp:t:small:{n}", "1")
    report = largest_keys(redis_client, top=5)
    assert report["keys"] == 26
    assert [(k["key"], k["type"], k["length"]) for k in report["largest"]] == [
        ("tp:t:hash", "hash", 50),
        ("tp:t:zset", "zset", 30),
        ("tp:t:stream", "stream", 10),
        ("tp:t:list", "list", 5),
        ("tp:t:set", "set", 3),
    ]
