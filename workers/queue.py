"""The RQ side: the queue every turnpost job goes on, and running a worker."""
from __future__ import annotations

import redis
from rq import Queue, Worker

QUEUE_NAME = "turnpost"
FAILED_JOB_TTL = 7 * 24 * 3600


def queue(client: redis.Redis) -> Queue:
    return Queue(QUEUE_NAME, connection=client)


def run_worker(client: redis.Redis, burst: bool = False) -> None:
    """A worker with the scheduler, so jobs enqueued to run later (timers) fire.

    RQ runs each job in a fresh fork of the worker: the jobs' modules are imported here, once,
    so that a fork does not import the service and the engines again for every job."""
    from . import jobs  # noqa: F401  (preloaded for the forks)
    Worker([queue(client)], connection=client).work(with_scheduler=True, burst=burst)
