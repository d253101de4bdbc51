"""Worker heartbeats: each `turnpost worker` says, about once a second, that its outbox
consumer and clock are alive (a sorted set: worker name -> when, epoch ms)."""

from __future__ import annotations

import redis

from . import keys

FORGET_MS = 24 * 3600 * 1000
"""A worker silent this long is dropped from the set."""


class WorkerHeartbeats:
    def __init__(self, client: redis.Redis):
        self.r = client

    def beat(self, name: str, now_ms: int) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.zadd(keys.WORKERS, {name: now_ms})
        pipe.zremrangebyscore(keys.WORKERS, "-inf", now_ms - FORGET_MS)
        pipe.execute()

    def alive_since(self, since_ms: int) -> int:
        """How many workers beat at or after `since_ms`."""
        return int(self.r.zcount(keys.WORKERS, since_ms, "+inf"))
