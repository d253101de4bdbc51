"""The RQ side: the queue notification jobs go on, and the deliveries port's RQ adapter.

RQ runs only deliveries (emails, webhooks and push messages). What is due at a time (deadlines, reminders,
delayed notices) is kept by the clock in workers/process.py, not by RQ's scheduler, and bot and
timeout moves are carried out from the outbox."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager

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


EMAILS_JOB = "workers.jobs.email_notices"
WEBHOOK_JOB = "workers.jobs.webhook_notice"
PUSH_JOB = "workers.jobs.push_notice"
DIGEST_JOB = "workers.jobs.digest_email"
ONE_A_JOB = {"webhook": WEBHOOK_JOB, "push": PUSH_JOB, "digest": DIGEST_JOB}
"""The jobs, named as RQ finds them in the worker (the jobs import this module)."""
EMAILS_PER_JOB = 50
"""Emails queued together go out in one job, over one SMTP session: RQ's own work for a job
(its hash, registries and heartbeats: more than an email's rendering) and the SMTP
connection are paid once a batch (bench/RESULTS.md, "Email deliveries"). A webhook is a job
of its own: a slow receiver holds up no other delivery; so is a push notice (to each of its
player's devices)."""
EMAIL_SECONDS = 30
"""An email's share of its job's timeout (the SMTP timeout), beyond RQ's default 180 s."""


def queue(client: redis.Redis) -> Queue:
    return Queue(QUEUE_NAME, connection=client)


class RQDeliveries:
    """service.consequences.Deliveries on RQ: a job per webhook or push delivery, its id the
    delivery's, and a job per batch of emails, its id from theirs. Queueing a delivery twice
    runs it again; an email is sent once however often it runs (its claim)."""

    def __init__(self, client: redis.Redis):
        self.rq_queue = queue(client)
        self._holding = threading.local()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Deliveries this thread queues inside the block go to RQ together at its end (the
        outbox consumer's batch of entries: their emails share jobs). If they cannot be
        queued, the block raises, and what caused them is still pending."""
        self._holding.waiting = []
        try:
            yield
            waiting = self._holding.waiting
        finally:
            self._holding.waiting = None
        self._enqueue(waiting)

    def queue(self, deliveries: list[Delivery]) -> None:
        tagged = [(d, REQUEST_ID.get()) for d in deliveries]
        waiting = getattr(self._holding, "waiting", None)
        if waiting is not None:
            waiting.extend(tagged)
        else:
            self._enqueue(tagged)

    def _enqueue(self, tagged: list[tuple[Delivery, str]]) -> None:
        """Deliveries with the id of the request that caused each; one queued twice in a
        block (its entry carried out again) goes once."""
        tagged = list({d.job_id: (d, r) for d, r in tagged}.values())
        emails = [(d, r) for d, r in tagged if d.channel == "email"]
        jobs = [
            Queue.prepare_data(
                ONE_A_JOB[d.channel],
                args=_args(d),
                job_id=d.job_id,
                meta={"request_id": request_id},
                result_ttl=FINISHED_JOB_TTL,
                failure_ttl=FAILED_JOB_TTL,
                retry=ABANDONED_RETRIES,
            )
            for d, request_id in tagged
            if d.channel in ONE_A_JOB
        ]
        for start in range(0, len(emails), EMAILS_PER_JOB):
            batch = emails[start : start + EMAILS_PER_JOB]
            jobs.append(
                Queue.prepare_data(
                    EMAILS_JOB,
                    args=([[*_args(d), request_id] for d, request_id in batch],),
                    job_id=_batch_id([d.job_id for d, _ in batch]),
                    timeout=180 + EMAIL_SECONDS * len(batch),
                    result_ttl=FINISHED_JOB_TTL,
                    failure_ttl=FAILED_JOB_TTL,
                    retry=ABANDONED_RETRIES,
                )
            )
        if jobs:
            self.rq_queue.enqueue_many(jobs)


def _batch_id(job_ids: list[str]) -> str:
    """A batch of one keeps its delivery's id; a larger one is named by what it holds."""
    if len(job_ids) == 1:
        return job_ids[0]
    return "emails-" + hashlib.sha256("\n".join(sorted(job_ids)).encode()).hexdigest()[:24]


def _args(delivery: Delivery) -> list:
    n = delivery.notice
    return [n.event, n.game_id, n.seat, n.version, n.tag, delivery.attempt]
