"""The clock's schedule: per bucket, a sorted set of what is due at a time (epoch ms), and a
leased set for what a clock has taken and not yet finished.

Members are JSON texts (sorted keys, so the same item is always the same member): a turn
deadline `{"kind": "timeout", "game", "seat", "since"}` is written by the append script with
the commit that starts the turn; reminders, delayed notices and a bot's delayed move are added
by the worker that derives a commit's consequences."""

from __future__ import annotations

import json
from typing import Any

import redis

from . import keys
from .games import Script, run_pipeline

LEASE_MS = 30_000


def member(item: dict[str, Any]) -> str:
    return json.dumps(item, sort_keys=True, separators=(",", ":"))


class ScheduleStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._take_due = Script(client, "take_due.lua")
        self.last_lateness_ms: list[int] = []

    def add(self, game_id: str, at_ms: int, item: dict[str, Any], pipe=None) -> None:
        """Schedule an item of a game (in the game's bucket); adding it twice keeps one."""
        (pipe or self.r).zadd(keys.schedule(keys.bucket_of(game_id)), {member(item): at_ms})

    def take_due(
        self, now_ms: int, limit: int, lease_ms: int = LEASE_MS
    ) -> list[tuple[int, dict[str, Any]]]:
        """Lease up to `limit` due items in each bucket, in one round trip: (bucket, item).
        How late each was taken (ms) is kept in `self.last_lateness_ms` for the worker's metrics."""
        pipe = self.r.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            self._take_due(
                keys=[keys.schedule(bucket), keys.schedule_leased(bucket)],
                args=[now_ms, lease_ms, limit],
                client=pipe,
            )
        taken: list[tuple[int, dict[str, Any]]] = []
        self.last_lateness_ms = []
        for bucket, answer in enumerate(run_pipeline(pipe)):
            half = len(answer) // 2  # the members, then how late each was taken
            taken += [(bucket, json.loads(raw)) for raw in answer[:half]]
            self.last_lateness_ms += [int(ms) for ms in answer[half:]]
        return taken

    def done(self, taken: list[tuple[int, dict[str, Any]]]) -> None:
        """The items are carried out: end their leases."""
        if not taken:
            return
        pipe = self.r.pipeline(transaction=False)
        for bucket, item in taken:
            pipe.zrem(keys.schedule_leased(bucket), member(item))
        pipe.execute()

    def counts(self, now_ms: int, late_ms: int) -> dict[str, int]:
        """Scheduled, overdue by more than `late_ms`, and leased items, over all buckets."""
        pipe = self.r.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            pipe.zcard(keys.schedule(bucket))
            pipe.zcount(keys.schedule(bucket), "-inf", now_ms - late_ms)
            pipe.zcard(keys.schedule_leased(bucket))
        found = pipe.execute()
        return {
            "scheduled": sum(found[0::3]),
            "overdue": sum(found[1::3]),
            "leased": sum(found[2::3]),
        }
