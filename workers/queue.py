"""The RQ side: the queues turnpost jobs go on, and running a worker.

Two queues: `turnpost-clock` for what keeps games moving (turn timers, bot moves) and
`turnpost` for notifications. A worker takes from the clock queue first, so a burst of emails
and webhooks never delays a timeout.
"""
from __future__ import annotations

import redis
from rq import Queue, SimpleWorker, Worker

QUEUE_NAME = "turnpost"
CLOCK_QUEUE_NAME = "turnpost-clock"
FAILED_JOB_TTL = 7 * 24 * 3600


def queue(client: redis.Redis) -> Queue:
    """Notifications."""
    return Queue(QUEUE_NAME, connection=client)


def clock_queue(client: redis.Redis) -> Queue:
    """Turn timers and bot moves."""
    return Queue(CLOCK_QUEUE_NAME, connection=client)


def run_worker(client: redis.Redis, burst: bool = False, fork: bool = False) -> None:
    """A worker with the scheduler, so jobs enqueued to run later (timers) fire.

    By default jobs run in the worker's own process: RQ's fork per job costs more than a
    turnpost job itself (measured in bench/RESULTS.md, Turn timers). `fork=True` gives each
    job its own process, as plain RQ does; the jobs' modules are then imported once, here,
    before forking."""
    from . import jobs  # noqa: F401  (preloaded for the forks)
    worker_class = Worker if fork else SimpleWorker
    worker_class([clock_queue(client), queue(client)], connection=client).work(
        with_scheduler=True, burst=burst)
