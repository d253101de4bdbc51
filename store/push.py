"""What Web Push keeps in Redis: the server's VAPID key pair, and each player's subscriptions
(one per browser or device that turned notifications on)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import redis

from . import keys
from .reads import Read


class PushStore:
    def __init__(self, client: redis.Redis):
        self.r = client

    # -- the server's key pair -----------------------------------------------------------------

    def vapid_keys(self) -> dict[str, str] | None:
        found = self.r.get(keys.VAPID_KEYS)
        return None if found is None else json.loads(found)

    def keep_vapid_keys(self, made: dict[str, str]) -> dict[str, str]:
        """The kept key pair: `made`, unless another process kept one first."""
        self.r.set(keys.VAPID_KEYS, json.dumps(made), nx=True)
        return json.loads(self.r.get(keys.VAPID_KEYS))

    def replace_vapid_keys(self, made: dict[str, str]) -> None:
        self.r.set(keys.VAPID_KEYS, json.dumps(made))

    # -- subscriptions ---------------------------------------------------------------------------

    def add(self, player_id: str, subscription: dict[str, Any], cap: int) -> bool:
        """Keep the subscription (by its `id`: the same endpoint again replaces it). False,
        and nothing kept, when the player has `cap` others already."""
        return bool(
            self.r.eval(
                _ADD_CAPPED,
                1,
                keys.player_push(player_id),
                subscription["id"],
                json.dumps(subscription),
                cap,
            )
        )

    def remove(self, player_id: str, subscription_id: str) -> bool:
        return bool(self.r.hdel(keys.player_push(player_id), subscription_id))

    def remove_if(self, player_id: str, subscription: dict[str, Any]) -> bool:
        """Remove the subscription only if it is still the one given (a browser that
        subscribed again meanwhile keeps its new one)."""
        return bool(
            self.r.eval(
                _REMOVE_IF_SAME,
                1,
                keys.player_push(player_id),
                subscription["id"],
                json.dumps(subscription),
            )
        )

    def of(self, player_id: str) -> list[dict[str, Any]]:
        """The player's subscriptions, oldest first."""
        found = [json.loads(raw) for raw in self.r.hvals(keys.player_push(player_id))]
        return sorted(found, key=lambda s: (s["created_at"], s["id"]))

    def counts(self, player_ids: list[str]) -> list[int]:
        """How many subscriptions each player has (one round trip)."""
        if not player_ids:
            return []
        return self.counts_read(player_ids).run(self.r)

    def counts_read(self, player_ids: list[str]) -> Read[list[int]]:
        """`counts` as a read that store.reads.at_once may run with others."""

        def queue(pipe) -> None:
            for player_id in player_ids:
                pipe.hlen(keys.player_push(player_id))

        return Read(queue, len(player_ids), lambda replies: [int(n) for n in replies])

    def remove_made_with_other_keys(self, public_key: str) -> Iterator[str]:
        """Remove every subscription not made with `public_key` (after a rotation: they were
        made for a key that is gone); yields the id of each player who lost one."""
        for key in self.r.scan_iter(match=keys.PLAYER_PUSH_PATTERN, count=1000):
            player_id = key.decode().split("{", 1)[1].split("}", 1)[0]
            lost = [
                sub
                for sub in (json.loads(raw) for raw in self.r.hvals(key))
                if sub.get("key") != public_key
            ]
            if sum(self.remove_if(player_id, sub) for sub in lost):
                yield player_id


_ADD_CAPPED = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HLEN', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 1
end
return 0
"""

_REMOVE_IF_SAME = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""
