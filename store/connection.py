"""Making the Redis client from a URL."""
import redis


def connect(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, health_check_interval=30)


def for_blocking_reads(client: redis.Redis, read_seconds: float) -> redis.Redis:
    """A client to the same server whose socket waits `read_seconds` for an answer: redis-py's
    default (5 s) would cut a blocking read (XREAD BLOCK) that waits longer than that."""
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "socket_timeout": read_seconds}
    return redis.Redis(connection_pool=pool.__class__(connection_class=pool.connection_class,
                                                      **kwargs))
