"""What an operator sees of the background work (`turnpost status`): outbox entries waiting
and how old the oldest is, deadlines and other scheduled items (and how many are overdue),
leased ones, RQ's queue and its workers, the deliveries retrying and given up."""

from __future__ import annotations

import heapq
import time
from typing import Any

import redis
from rq import Worker

from store.notifications import NotificationStore
from store.outbox import OutboxStore
from store.schedule import ScheduleStore
from store.tallies import WorkerTallies, field

from .queue import queue

OVERDUE_MS = 5_000
"""A scheduled item this late counts as overdue (the clock normally runs within 0.1 s)."""


def status(data: redis.Redis, queues: redis.Redis) -> dict[str, Any]:
    """From the data's Redis (the outbox, the schedule) and the queues' (RQ)."""
    jobs = queue(queues)
    return {
        "outbox": OutboxStore(data).backlog(),
        "schedule": ScheduleStore(data).counts(int(time.time() * 1000), OVERDUE_MS),
        "queue": {
            "name": jobs.name,
            "queued": jobs.count,
            "failed": jobs.failed_job_registry.count,
        },
        "workers": len(Worker.all(connection=queues)),
        "deliveries": deliveries(data),
    }


CHANNELS = ("email", "webhook", "push", "digest")
LETTERS = "sign_in"
"""Sign-in and confirmation letters: items of the clock's schedule, not RQ jobs; counted
when given up (the worker's log says when one is retried)."""


def deliveries(data: redis.Redis) -> dict[str, dict[str, int]]:
    """Per channel, the deliveries waiting to be tried again after a failed attempt, and those
    given up since the workers' tallies began (their last attempt failed; the player's
    deliveries say why)."""
    tallies = WorkerTallies(data).read()
    return {
        "retrying": NotificationStore(data).retrying_counts(CHANNELS),
        "given_up": {
            channel: int(
                tallies.get(
                    field("turnpost_deliveries_total", {"channel": channel, "outcome": "failed"}),
                    0,
                )
            )
            for channel in (*CHANNELS, LETTERS)
        },
    }


LENGTH_OF = {"hash": "HLEN", "zset": "ZCARD", "stream": "XLEN", "list": "LLEN", "set": "SCARD"}
"""How each kind of collection is measured: its elements."""


def largest_keys(data: redis.Redis, top: int = 10, batch: int = 1000) -> dict[str, Any]:
    """The number of keys and the `top` largest collections by their elements, read with SCAN
    in batches: a key that grows with every game ever played shows here. (Strings, such as a
    game's snapshot, hold one value each and are counted, not ranked.)"""
    count, largest = 0, list[tuple[int, str, str]]()
    names: list[bytes] = []

    def measure() -> None:
        pipe = data.pipeline(transaction=False)
        for name in names:
            pipe.type(name)
        kinds = [k.decode() if isinstance(k, bytes) else k for k in pipe.execute()]
        collections = [(name, kind) for name, kind in zip(names, kinds) if kind in LENGTH_OF]
        pipe = data.pipeline(transaction=False)
        for name, kind in collections:
            pipe.execute_command(LENGTH_OF[kind], name)
        for (name, kind), length in zip(collections, pipe.execute()):
            entry = (int(length), name.decode(errors="replace"), kind)
            if len(largest) < top:
                heapq.heappush(largest, entry)
            else:
                heapq.heappushpop(largest, entry)
        names.clear()

    for name in data.scan_iter(count=batch):
        count += 1
        names.append(name)
        if len(names) >= batch:
            measure()
    if names:
        measure()
    return {
        "keys": count,
        "largest": [
            {"key": key, "type": kind, "length": length}
            for length, key, kind in sorted(largest, reverse=True)
        ],
    }
