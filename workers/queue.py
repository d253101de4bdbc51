"""The RQ side: the queue notification jobs go on, and the deliveries port's RQ adapter.

RQ runs only deliveries (emails and webhooks). What is due at a time (deadlines, reminders,
delayed notices) is kept by the clock in workers/process.py, not by RQ's scheduler, and bot and
timeout moves are carried out from the outbox."""

from __future__ import annotations

import redis
from rq import Queue, Retry

from service.consequences import Delivery
from store import keys
from store.request_ids import REQUEST_ID

QUEUE_NAME = keys.QUEUE_NAME
FAILED_JOB_TTL = 7 * 24 * 3600
FINISHED_JOB_TTL = 0
"""A delivery that succeeded leaves nothing in Redis: its outcome is in the player's
deliveries list and an email's claim, so RQ's job hash and result would only take memory
(about 7 KB a delivery for RQ's default 500 s)."""
ABANDONED_RETRIES = Retry(max=2)
"""A job whose worker died while running it is queued again, at once (no RQ scheduler)."""


DELIVERY_JOBS = {"email": "workers.jobs.email_notice", "webhook": "workers.jobs.webhook_notice"}
"""The job of each channel, named as RQ finds it in the worker (the jobs import this module)."""


def queue(client: redis.Redis) -> Queue:
    return Queue(QUEUE_NAME, connection=client)


class RQDeliveries:
    """service.consequences.Deliveries on RQ: one job per delivery, its id the delivery's."""

    def __init__(self, client: redis.Redis):
        self.rq_queue = queue(client)

    def queue(self, deliveries: list[Delivery]) -> None:
        if not deliveries:
            return
        self.rq_queue.enqueue_many(
            [
                Queue.prepare_data(
                    DELIVERY_JOBS[d.channel],
                    args=_args(d),
                    job_id=d.job_id,
                    result_ttl=FINISHED_JOB_TTL,
                    failure_ttl=FAILED_JOB_TTL,
                    meta={"request_id": REQUEST_ID.get()},
                    retry=ABANDONED_RETRIES,
                )
                for d in deliveries
            ]
        )


def _args(delivery: Delivery) -> tuple:
    n = delivery.notice
    return (n.event, n.game_id, n.seat, n.version, n.tag, delivery.attempt)
