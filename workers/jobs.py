"""RQ jobs: module-level functions of plain values, safe to run late or twice.

The jobs' services are built once per process from the worker's environment: games and
players on REDIS_URL (which may be a cluster), deliveries queued on RQ's own connection
(QUEUE_REDIS_URL), the settings of service/settings.py."""
from __future__ import annotations

import os
from dataclasses import replace
from functools import lru_cache

from rq import get_current_job

from service.assembly import Services, assemble
from service.consequences import Consequences, Delivery
from service.notifications import Notice
from service.settings import Settings
from store.connection import connect, data_url

EMAIL_RETRY_SECONDS = (30, 120, 600)
"""After a failed send, the next attempts wait this long; then the job fails for good."""


def _queue_connection():
    job = get_current_job()
    if job is None:
        raise RuntimeError("a job function runs inside an RQ job only")
    return job.connection


@lru_cache(maxsize=1)
def _services(queue_connection_id: int) -> Services:
    from .queue import RQDeliveries
    return assemble(connect(data_url(os.environ)), Settings.from_env(os.environ),
                    deliveries=RQDeliveries(_queue_connection()))


def services() -> Services:
    return _services(id(_queue_connection()))


def later() -> Consequences:
    """Where a delivery goes to be tried again later (a worker's services always have it)."""
    consequences = services().consequences
    if consequences is None:
        raise RuntimeError("the worker's services carry out consequences")
    return consequences


def email_notice(event: str, game_id: str, seat: int, version: int, tag: str = "",
                 attempt: int = 1) -> str:
    """Email a notice. When the player's throttle window is open, or the send failed, the
    clock delivers it again later."""
    delivery = Delivery("email", Notice(event, game_id, seat, version, tag), attempt)
    again = later().later
    try:
        outcome, wait = services().notifications.email(delivery.notice)
    except Exception:
        failures = attempt - 1
        if failures >= len(EMAIL_RETRY_SECONDS):
            raise
        again(replace(delivery, attempt=attempt + 1), EMAIL_RETRY_SECONDS[failures])
        return "failed"
    if outcome == "deferred":
        again(replace(delivery, attempt=attempt + 1), wait)
    return outcome


def webhook_notice(event: str, game_id: str, seat: int, version: int, tag: str = "",
                   attempt: int = 1) -> str:
    """POST a notice to the player's webhook; retry with backoff, then fall back to email.
    When the player has their cap of deliveries in flight, this one waits in the schedule
    (the same attempt) rather than hold a worker."""
    delivery = Delivery("webhook", Notice(event, game_id, seat, version, tag), attempt)
    outcome, wait = services().notifications.webhook(delivery.notice, attempt)
    if outcome == "retry":
        later().later(replace(delivery, attempt=attempt + 1), wait)
    elif outcome == "busy":
        later().later(delivery, wait)
    return outcome
