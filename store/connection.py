"""Making the Redis clients from URLs: the data's (games and players), which may name a Redis
Cluster, and the queues' (RQ), which must not. Either may name a Sentinel group: its primary,
wherever the sentinels say it is now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import RedisCluster
from redis.sentinel import Sentinel, SentinelConnectionPool

CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
SENTINEL_SCHEME = "redis+sentinel://"
SENTINEL_PORT = 26379
SENTINEL_SECONDS = 2.0
"""A sentinel's connect and answer: one that is down or cut off is passed over for the next
after this long (redis-py would wait for it without end)."""
DEFAULT_URL = "redis://127.0.0.1:6379/0"


def connect(url: str, max_connections: int | None = None) -> redis.Redis:
    """A client for `url`: `redis://` or `rediss://` for one server, `redis+cluster://host:port`
    (any node) for a Redis Cluster, `redis+sentinel://host:port[,host:port...]/service[/db]`
    for the primary of a Sentinel group. redis-py 8 allows 100 connections per pool unless
    told otherwise, and refuses the 101st (MaxConnectionsError): a server with more requests
    in flight at once must say so."""
    extra = {"max_connections": max_connections} if max_connections else {}
    if url.startswith(SENTINEL_SCHEME):
        return _sentinel_primary(url, health_check_interval=30, **extra)
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


def _sentinel_primary(url: str, **options: Any) -> redis.Redis:
    """The primary of the group `service` that the sentinels of a `redis+sentinel://` URL
    watch (the password, if any, is the primary's and its replicas', not the sentinels').
    Its connections ask the sentinels where the primary is whenever they connect, so after a
    failover the next connection goes to the new one (and one still open to a demoted primary
    is dropped at its first write: READONLY)."""
    parts = urlsplit(url)
    path = [part for part in parts.path.split("/") if part]
    if not 1 <= len(path) <= 2 or (len(path) == 2 and not path[1].isdecimal()):
        raise ValueError("a Sentinel URL looks like redis+sentinel://host:port,host:port/name/0")
    sentinels = []
    for address in parts.netloc.rpartition("@")[2].split(","):
        host, _, port = address.rpartition(":") if ":" in address else (address, "", "")
        sentinels.append((host.strip("[]"), int(port) if port else SENTINEL_PORT))
    group = Sentinel(
        sentinels,
        sentinel_kwargs={
            "socket_timeout": SENTINEL_SECONDS,
            "socket_connect_timeout": SENTINEL_SECONDS,
        },
    )
    return group.master_for(
        path[0],
        db=int(path[1]) if len(path) == 2 else 0,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        **options,
    )


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
    if isinstance(pool, SentinelConnectionPool):
        del kwargs["connection_pool"]  # the pool's own proxy: the new pool makes its own
        return redis.Redis(
            connection_pool=SentinelConnectionPool(
                pool.service_name,
                pool.sentinel_manager,
                connection_class=pool.connection_class,
                max_connections=max_connections,
                **kwargs,
            )
        )
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
    """QUEUE_REDIS_URL: where RQ keeps its jobs (one server, or a Sentinel group); by default
    the data's Redis, which then must not be a cluster (RQ does not work on one)."""
    url = env.get("QUEUE_REDIS_URL") or data_url(env)
    if url.startswith(CLUSTER_SCHEMES):
        raise SystemExit(
            "turnpost: RQ needs a plain Redis: set QUEUE_REDIS_URL when REDIS_URL names a cluster"
        )
    return url


StoreUnavailable = redis.RedisError
"""What a store call raises when Redis cannot be reached or fails (for the layers above, which
do not import redis)."""

STORE_AWAY = (
    redis.ConnectionError,  # refused, reset, still loading its data
    redis.TimeoutError,
    redis.exceptions.ClusterDownError,  # a cluster's slots without a master, for a while
    redis.exceptions.TryAgainError,  # a slot moving during a reshard
    redis.exceptions.MasterDownError,
    redis.exceptions.ReadOnlyError,  # a write that reached a replica being promoted
)
"""The store errors that mean "away for now" (a restart, a failover), not a fault of the
request or of the code: the API answers them 503 with Retry-After."""
