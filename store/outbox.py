"""The outbox: per bucket, a Redis Stream of commits whose consequences are due.

The append script adds an entry (game, from, version) with every commit. Workers read the streams
through one consumer group; an entry stays pending until the worker that read it has carried
out everything the commit calls for and acknowledges it (then it is deleted). An entry whose
worker died stays pending, and after a lease another worker claims it (XAUTOCLAIM)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import redis

from . import keys
from .connection import is_cluster

CLUSTER_POLL_MS = 50


@dataclass(frozen=True)
class Entry:
    bucket: int
    entry_id: str
    game_id: str
    first: int
    """The commit's first version (its events are first..version)."""
    version: int
    request_id: str = ""
    """The request that made the commit (store.request_ids), when there was one."""
    kind: str = "game"
    """What committed: a "game" (then `game_id` is the game's id), a "tournament" (then
    it is the tournament's id, and `first`..`version` its events) or a "seek" (a player asked
    for a rated game of the title `game_id`: `player`)."""
    player: str = ""


class OutboxStore:
    def __init__(self, client: redis.Redis):
        self.r = client

    def ensure_groups(self) -> None:
        """Create the consumer group on every bucket's stream (idempotent; also after a Redis
        that lost its data)."""
        for bucket in range(keys.BUCKETS):
            try:
                self.r.xgroup_create(keys.outbox(bucket), keys.OUTBOX_GROUP, id="0", mkstream=True)
            except redis.ResponseError as err:
                if "BUSYGROUP" not in str(err):
                    raise

    def read(self, consumer: str, count: int, block_ms: int) -> list[Entry]:
        """New entries for this consumer, waiting up to block_ms for some. On one server,
        one blocking XREADGROUP over every bucket's stream; on a cluster, where the streams
        live on several nodes, one pipelined read per bucket, polled every CLUSTER_POLL_MS."""
        try:
            if is_cluster(self.r):
                found = self._read_each(consumer, count)
                if not found:
                    time.sleep(min(block_ms, CLUSTER_POLL_MS) / 1000)
            else:
                found = (
                    self.r.xreadgroup(
                        keys.OUTBOX_GROUP,
                        consumer,
                        {keys.outbox(b): ">" for b in range(keys.BUCKETS)},
                        count=count,
                        block=block_ms,
                    )
                    or []
                )
        except redis.ResponseError as err:
            if "NOGROUP" not in str(err):
                raise
            self.ensure_groups()
            return []
        return [
            _entry(stream, entry_id, fields)
            for stream, entries in found
            for entry_id, fields in entries
            if fields
        ]

    def _read_each(self, consumer: str, count: int) -> list:
        pipe = self.r.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            pipe.xreadgroup(keys.OUTBOX_GROUP, consumer, {keys.outbox(bucket): ">"}, count=count)
        return [stream for found in pipe.execute() for stream in found or []]

    def claim_stale(self, consumer: str, idle_ms: int, count: int) -> list[Entry]:
        """Take over entries another consumer read more than idle_ms ago and never finished."""
        pipe = self.r.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            pipe.xautoclaim(
                keys.outbox(bucket),
                keys.OUTBOX_GROUP,
                consumer,
                idle_ms,
                start_id="0-0",
                count=count,
            )
        claimed = []
        for bucket, result in enumerate(pipe.execute(raise_on_error=False)):
            if isinstance(result, Exception):
                if "NOGROUP" in str(result):
                    continue
                raise result
            for entry_id, fields in result[1]:
                if fields:
                    claimed.append(_entry(keys.outbox(bucket).encode(), entry_id, fields))
        return claimed

    def done(self, entries: list[Entry]) -> None:
        """Acknowledge and delete carried-out entries, in one round trip: an XACK and an XDEL
        for each bucket's, however many."""
        if not entries:
            return
        by_stream: dict[str, list[str]] = {}
        for entry in entries:
            by_stream.setdefault(keys.outbox(entry.bucket), []).append(entry.entry_id)
        pipe = self.r.pipeline(transaction=False)
        for stream, ids in by_stream.items():
            pipe.xack(stream, keys.OUTBOX_GROUP, *ids)
            pipe.xdel(stream, *ids)
        pipe.execute()

    def add(self, game_id: str, version: int, kind: str = "game") -> None:
        """An entry outside a commit: the clock wakes a game whose consequences were put off
        (a bot's delayed move), or a tournament at its start date (`kind` "tournament"). It
        names no new events (from = version + 1), so it causes no notice again."""
        fields: dict[str, str | int] = {"game": game_id, "from": version + 1, "version": version}
        if kind != "game":
            fields = {"kind": kind, **fields}
        self.r.xadd(keys.outbox(keys.bucket_of(game_id)), fields)

    def backlog(self) -> dict[str, int]:
        """Entries waiting (not yet done), of which pending (read by a worker, not finished),
        and the age in ms of the oldest one."""
        pipe = self.r.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            pipe.xlen(keys.outbox(bucket))
            pipe.xpending(keys.outbox(bucket), keys.OUTBOX_GROUP)
            pipe.xrange(keys.outbox(bucket), count=1)
        found = pipe.execute(raise_on_error=False)
        waiting = sum(n for n in found[0::3] if isinstance(n, int))
        pending = sum(p["pending"] for p in found[1::3] if isinstance(p, dict))
        oldest = [
            int(first[0][0].split(b"-")[0])
            for first in found[2::3]
            if isinstance(first, list) and first
        ]
        age = int(time.time() * 1000) - min(oldest) if oldest else 0
        return {"waiting": waiting, "pending": pending, "oldest_ms": max(age, 0)}


def _entry(stream: bytes | str, entry_id: bytes, fields: dict) -> Entry:
    name = stream.decode() if isinstance(stream, bytes) else stream
    bucket = int(name.rsplit("{b", 1)[1].rstrip("}"))
    return Entry(
        bucket,
        entry_id.decode(),
        fields[b"game"].decode(),
        int(fields[b"from"]),
        int(fields[b"version"]),
        fields.get(b"rid", b"").decode(),
        fields.get(b"kind", b"game").decode(),
        fields.get(b"player", b"").decode(),
    )
