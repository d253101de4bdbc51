"""The RQ side: the queue every turnpost job goes on, and running a worker."""
from __future__ import annotations

import redis
from rq import Queue, Worker

QUEUE_NAME = "turnpost"
FAILED_JOB_TTL = 7 * 24 * 3600


def queue(client: redis.Redis) -> Queue:
    return Queue(QUEUE_NAME, connection=client)


def run_worker(client: redis.Redis, burst: bool = False) -> None:
    """A worker with the scheduler, so jobs enqueued to run later (timers) fire."""
    Worker([queue(client)], connection=client).work(with_scheduler=True, burst=burst)
