"""Making the Redis client from a URL."""
import redis


def connect(url: str, max_connections: int | None = None) -> redis.Redis:
    """redis-py 8 allows 100 connections per pool unless told otherwise, and refuses the 101st
    (MaxConnectionsError): a server with more requests in flight at once must say so."""
    extra = {"max_connections": max_connections} if max_connections else {}
    return redis.Redis.from_url(url, health_check_interval=30, **extra)


def for_blocking_reads(client: redis.Redis, read_seconds: float,
                       max_connections: int) -> redis.Redis:
    """A client to the same server whose socket waits `read_seconds` for an answer: redis-py's
    default (5 s) would cut a blocking read (XREAD BLOCK) that waits longer than that. Each
    blocked read holds a connection of its own, hence `max_connections`."""
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "socket_timeout": read_seconds}
    return redis.Redis(connection_pool=pool.__class__(connection_class=pool.connection_class,
                                                      max_connections=max_connections,
                                                      **kwargs))
