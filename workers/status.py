"""What an operator sees of the background work (`turnpost status`): outbox entries waiting
and how old the oldest is, deadlines and other scheduled items (and how many are overdue),
leased ones, RQ's queue and its workers."""

from __future__ import annotations

import time
from typing import Any

import redis
from rq import Worker

from store.outbox import OutboxStore
from store.schedule import ScheduleStore

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
    }
