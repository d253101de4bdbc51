"""API tokens remembered in process, forgotten the moment Redis says they changed.

Every authenticated request starts with `GET tp:token:<sha256>`. An API process keeps the
answers it read for a short time and asks Redis to tell it when any token key changes:
server-assisted client-side caching (`CLIENT TRACKING ON BCAST PREFIX tp:token:` on one RESP3
connection of the process, which receives an invalidation push for every change of a token
key). Before a cached answer is used, the pushes already on that connection are read, so a
token deleted by a rotation in another process is not accepted here once Redis has sent the
invalidation, which it writes in the same turn of its event loop as its answer to that DEL.

redis-py's own client-side cache refuses any server but Redis 7.4 or later (Valkey answers
HELLO as "valkey"), hence this small tracker over the same server feature. If the tracking
connection breaks, everything cached is forgotten and nothing is cached until it is back.
On a Redis Cluster nothing is cached (tracking would need a connection per node).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import redis
from redis.cluster import RedisCluster

from . import keys

log = logging.getLogger(__name__)


class TokenCache:
    def __init__(
        self,
        client: redis.Redis,
        seconds: float = 30.0,
        size: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.seconds = seconds
        self.size = size
        self.clock = clock
        self.prefix = keys.token("")
        self.entries: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self.lock = threading.Lock()
        self.connection: redis.Connection | None = None  # the tracking one, once it is on
        self.retry_at = 0.0
        self.pid = os.getpid()

    @classmethod
    def for_client(cls, client: redis.Redis) -> TokenCache | None:
        return None if isinstance(client, RedisCluster) else cls(client)

    def lookup(self, key: str, read: Callable[[], bytes | None]) -> bytes | None:
        """The value of the token key `key`: from memory when Redis has not said since that it
        changed, otherwise `read()` (and remembered when tracking is on)."""
        with self.lock:
            tracking = self._drain()
            found = self.entries.get(key) if tracking else None
            if found is not None and found[1] > self.clock():
                self.entries.move_to_end(key)
                return found[0].encode()
        value = read()
        if value is not None and tracking:
            with self.lock:
                # Tracking was on before the read, so a change after it will be heard of.
                if self.connection is not None:
                    self.entries[key] = (value.decode(), self.clock() + self.seconds)
                    while len(self.entries) > self.size:
                        self.entries.popitem(last=False)
        return value

    def _drain(self) -> bool:
        """Read the invalidations waiting on the tracking connection (starting tracking if it
        is off); whether tracking is on. Called with the lock held."""
        if self.pid != os.getpid():  # a forked process tracks for itself
            self.entries.clear()
            self.connection, self.retry_at, self.pid = None, 0.0, os.getpid()
        if self.connection is None and not self._start():
            return False
        connection = self.connection
        assert connection is not None
        try:
            while connection.can_read(timeout=0):
                connection.read_response(push_request=True)
            return True
        except (redis.ConnectionError, redis.TimeoutError, OSError) as e:
            log.warning("token cache: tracking connection lost (%s); caching stops", e)
            self._stop()
            return False

    def _forget(self, push: list) -> None:
        """An invalidation push: `[b"invalidate", keys]`, keys None when the data was flushed."""
        changed = push[1]
        if changed is None:
            self.entries.clear()
            return
        for key in changed:
            self.entries.pop(key.decode() if isinstance(key, bytes) else key, None)

    def _start(self) -> bool:
        if self.clock() < self.retry_at:
            return False
        connection = self.client.connection_pool.make_connection()
        try:
            connection.connect()
            if str(connection.protocol) != "3":
                raise redis.ConnectionError("the connection does not speak RESP3")
            connection._parser.set_invalidation_push_handler(self._forget)
            connection.send_command("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", self.prefix)
            connection.read_response()
        except (redis.RedisError, OSError) as e:
            log.warning("token cache: cannot track token keys (%s); not caching", e)
            connection.disconnect()
            self.retry_at = self.clock() + 5.0
            return False
        self.connection = connection
        return True

    def _stop(self) -> None:
        self.entries.clear()
        if self.connection is not None:
            self.connection.disconnect()
        self.connection = None
