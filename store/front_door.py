"""What the front door keeps in Redis: each player's open event streams, so that one player
cannot hold more than a few, and how many emails each address sent to the mail receiver."""

from __future__ import annotations

import secrets
import time

import redis

from .keys import mail_sender, player_streams


class SenderQuota:
    """A fixed window of `window_seconds` per sending address."""

    def __init__(self, client: redis.Redis, window_seconds: int = 3600):
        self.r = client
        self.window = window_seconds

    def take(self, address: str, limit: int) -> bool:
        """Count one message from the address; False once it has sent more than `limit`."""
        key = mail_sender(address)
        pipe = self.r.pipeline(transaction=True)
        pipe.incr(key)
        pipe.expire(key, self.window, nx=True)
        return pipe.execute()[0] <= limit


class StreamSlots:
    """A slot per open event stream. A slot that its server never released (a crashed worker)
    counts only until its expiry, which is past the longest a stream may stay open."""

    def __init__(self, client: redis.Redis, lifetime_seconds: float):
        self.r = client
        self.lifetime = lifetime_seconds

    def take(self, player_id: str, limit: int) -> str | None:
        """A new slot's id, or None when the player already has `limit` streams open."""
        key, slot, now = player_streams(player_id), secrets.token_hex(8), time.time()
        pipe = self.r.pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {slot: now + self.lifetime})
        pipe.zcard(key)
        pipe.expire(key, int(self.lifetime) + 1)
        open_now = pipe.execute()[2]
        if open_now > limit:
            self.r.zrem(key, slot)
            return None
        return slot

    def release(self, player_id: str, slot: str) -> None:
        self.r.zrem(player_streams(player_id), slot)
