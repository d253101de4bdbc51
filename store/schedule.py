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


def shares(due: list[int], limit: int, first: int = 0) -> list[int]:
    """How many of its `due` items each bucket gives a pass of at most `limit`: an equal part
    each, what a bucket cannot use shared among the others (so one busy bucket alone gets the
    whole limit), and the parts left over by the division to the buckets from `first` on."""
    share = [0] * len(due)
    order = [(first + i) % len(due) for i in range(len(due))]
    left = min(limit, sum(due))
    while left:
        wanting = [b for b in order if share[b] < due[b]]
        part = max(1, left // len(wanting))
        for bucket in wanting:
            given = min(part, due[bucket] - share[bucket], left)
            share[bucket] += given
            left -= given
            if not left:
                break
    return share


class ScheduleStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._take_due = Script(client, "take_due.lua")
        self.last_lateness_ms: list[int] = []
        self._turn = 0  # the bucket first served in a pass's share, one further each pass

    def add(self, game_id: str, at_ms: int, item: dict[str, Any], pipe=None) -> None:
        """Schedule an item of a game (in the game's bucket); adding it twice keeps one."""
        self.add_many([(game_id, at_ms, item)], pipe)

    def add_many(self, items: list[tuple[str, int, dict[str, Any]]], pipe=None) -> None:
        """Schedule items of games (game id, when, what): one ZADD for those of a bucket (a
        turn's two reminders and its delayed email are one command, not three)."""
        by_bucket: dict[str, dict[str, int]] = {}
        for game_id, at_ms, item in items:
            by_bucket.setdefault(keys.schedule(keys.bucket_of(game_id)), {})[member(item)] = at_ms
        for key, scores in by_bucket.items():
            (pipe or self.r).zadd(key, scores)

    def take_due(
        self, now_ms: int, limit: int, lease_ms: int = LEASE_MS
    ) -> list[tuple[int, dict[str, Any]]]:
        """Lease up to `limit` due items over all buckets: (bucket, item). How many each bucket
        has due is read first (one round trip), the limit shared out fairly among those
        (`shares`), and the shares leased in one more; an idle clock makes the first only.
        How late each was taken (ms) is kept in `self.last_lateness_ms` for the worker's
        metrics."""
        pipe = self.r.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            pipe.zcount(keys.schedule(bucket), "-inf", now_ms)
            pipe.zcount(keys.schedule_leased(bucket), "-inf", now_ms)
        found = pipe.execute()
        due = [a + b for a, b in zip(found[0::2], found[1::2])]
        self._turn = (self._turn + 1) % keys.BUCKETS
        share = shares(due, limit, self._turn)
        self.last_lateness_ms = []
        if not any(share):
            return []
        pipe = self.r.pipeline(transaction=False)
        buckets = [bucket for bucket, n in enumerate(share) if n]
        for bucket in buckets:
            self._take_due(
                keys=[keys.schedule(bucket), keys.schedule_leased(bucket)],
                args=[now_ms, lease_ms, share[bucket]],
                client=pipe,
            )
        taken: list[tuple[int, dict[str, Any]]] = []
        for bucket, answer in zip(buckets, run_pipeline(pipe)):
            half = len(answer) // 2  # the members, then how late each was taken
            taken += [(bucket, json.loads(raw)) for raw in answer[:half]]
            self.last_lateness_ms += [int(ms) for ms in answer[half:]]
        return taken

    def done(self, taken: list[tuple[int, dict[str, Any]]]) -> None:
        """The items are carried out: end their leases."""
        if not taken:
            return
        by_bucket: dict[int, list[str]] = {}
        for bucket, item in taken:
            by_bucket.setdefault(bucket, []).append(member(item))
        pipe = self.r.pipeline(transaction=False)
        for bucket, members in by_bucket.items():
            pipe.zrem(keys.schedule_leased(bucket), *members)
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
