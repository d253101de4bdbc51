"""Making the Redis clients from URLs: the data's (games and players), which may name a Redis
Cluster, and the queues' (RQ), which must be a plain instance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import redis
from redis.cluster import RedisCluster

CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
DEFAULT_URL = "redis://127.0.0.1:6379/0"


def connect(url: str, max_connections: int | None = None) -> redis.Redis:
    """A client for `url`: `redis://` or `rediss://` for one server, `redis+cluster://host:port`
    (any node) for a Redis Cluster. redis-py 8 allows 100 connections per pool unless told
    otherwise, and refuses the 101st (MaxConnectionsError): a server with more requests in
    flight at once must say so."""
    extra = {"max_connections": max_connections} if max_connections else {}
    if url.startswith(CLUSTER_SCHEMES):
        # Typed as a plain client: the stores use only commands a RedisCluster also offers,
        # routed by key (tests/cluster plays every game on a real cluster to show it).
        return cast(
            redis.Redis,
            RedisCluster.from_url(
                url.replace("+cluster", "", 1), health_check_interval=30, **extra
            ),
        )
    return redis.Redis.from_url(url, health_check_interval=30, **extra)


def for_blocking_reads(
    client: redis.Redis, read_seconds: float, max_connections: int
) -> redis.Redis:
    """A client to the same server whose socket waits `read_seconds` for an answer: redis-py's
    default (5 s) would cut a blocking read (XREAD BLOCK) that waits longer than that. Each
    blocked read holds a connection of its own, hence `max_connections`."""
    if isinstance(client, RedisCluster):
        node = client.get_default_node()
        return RedisCluster(
            host=node.host,
            port=node.port,
            socket_timeout=read_seconds,
            max_connections=max_connections,
        )
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "socket_timeout": read_seconds}
    return redis.Redis(
        connection_pool=pool.__class__(
            connection_class=pool.connection_class, max_connections=max_connections, **kwargs
        )
    )


def is_cluster(client: object) -> bool:
    """Whether `client` (a client or a pipeline) talks to a Redis Cluster."""
    return isinstance(client, RedisCluster) or type(client).__name__ == "ClusterPipeline"


def data_url(env: Mapping[str, str]) -> str:
    """REDIS_URL: where games and players live."""
    return env.get("REDIS_URL") or DEFAULT_URL


def queue_url(env: Mapping[str, str]) -> str:
    """QUEUE_REDIS_URL: where RQ keeps its jobs; by default the data's Redis, which then must
    not be a cluster (RQ does not work on one)."""
    url = env.get("QUEUE_REDIS_URL") or data_url(env)
    if url.startswith(CLUSTER_SCHEMES):
        raise SystemExit(
            "turnpost: RQ needs a plain Redis: set QUEUE_REDIS_URL when REDIS_URL names a cluster"
        )
    return url


StoreUnavailable = redis.RedisError
"""What a store call raises when Redis cannot be reached or fails (for the layers above, which
do not import redis)."""
