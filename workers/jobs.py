"""RQ jobs: module-level functions of plain values, safe to run late or twice.

The jobs' services are built once per process from the worker's environment: games and
players on REDIS_URL (which may be a cluster), deliveries queued on RQ's own connection
(QUEUE_REDIS_URL), the settings of service/settings.py."""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

import redis
from rq import get_current_job

from service.assembly import Services, assemble
from service.consequences import Consequences, Delivery
from service.notify.notifications import Claimant, Notice
from service.settings import Settings
from store.connection import connect, data_url
from store.request_ids import REQUEST_ID

STORE_AWAY_SECONDS = 300
"""How long a delivery waits, inside its job, for Redis to come back (a dropped connection, a
restart): while Redis is away the delivery can neither be done nor put off to later, and a job
that failed then would be lost with its deliveries."""
log = logging.getLogger("turnpost.jobs")
T = TypeVar("T")


def until_the_store_answers(what: str, run: Callable[[], T]) -> T:
    """`run` a delivery (any job's: an email, a webhook, a push), and again while Redis is
    away, with backoff (0.2 s doubling to 5 s), for at most STORE_AWAY_SECONDS; then the error
    is raised. A delivery is safe to run twice: an email is claimed by this run before it is
    sent (the claim carries the run's id, so the run's own claim whose answer was lost lets it
    go on), a webhook carries its delivery id for the receiver to drop a duplicate."""
    deadline = time.monotonic() + STORE_AWAY_SECONDS
    pause = 0.2
    while True:
        try:
            return run()
        except (redis.ConnectionError, redis.TimeoutError) as err:
            if time.monotonic() > deadline:
                raise
            log.warning("%s: Redis is away (%s); again in %.1f s", what, err, pause)
            time.sleep(pause)
            pause = min(pause * 2, 5.0)


def _queue_connection():
    job = get_current_job()
    if job is None:
        raise RuntimeError("a job function runs inside an RQ job only")
    return job.connection


@lru_cache(maxsize=1)
def _services(queue_connection_id: int) -> Services:
    from .queue import RQDeliveries

    return assemble(
        connect(data_url(os.environ)),
        Settings.from_env(os.environ),
        deliveries=RQDeliveries(_queue_connection()),
    )


def services() -> Services:
    return _services(id(_queue_connection()))


def _follow_the_job() -> None:
    """The request that caused this job's delivery, in every line it logs."""
    job = get_current_job()
    if job is not None:
        REQUEST_ID.set(job.meta.get("request_id", ""))


def later() -> Consequences:
    """Where a delivery goes to be tried again later (a worker's services always have it)."""
    consequences = services().consequences
    if consequences is None:
        raise RuntimeError("the worker's services carry out consequences")
    return consequences


def email_notices(batch: list[list]) -> list[str]:
    """Email each notice of a batch (as workers.queue writes them: `email_notice`'s
    arguments and the id of the request that caused it), over one SMTP session. A notice
    whose send fails is tried again later by the clock (`_email`); one that raises (a fault
    of ours, or Redis away for good) is logged, the batch goes on, and it fails the job at
    the end."""
    outcomes, gave_up = [], None
    with services().notifications.mailer.session(), _counted_at_the_end():
        for *notice, request_id in batch:
            REQUEST_ID.set(request_id)
            try:
                outcomes.append(_email_surely(*notice))
            except Exception as err:
                log.exception("email: %s of %s version %s failed", *notice[:2], notice[3])
                gave_up = err
    if gave_up is not None:
        raise gave_up
    return outcomes


@contextmanager
def _counted_at_the_end() -> Iterator[None]:
    """The outcomes counted inside the block (`_counted`) written to the tallies in one round
    trip at its end, however it ends (again while Redis is away), rather than one each: the
    round trip was one of the five an email waited for."""
    tallies = later().tallies
    if tallies is None:
        yield
        return
    with tallies.holding() as counts:
        try:
            yield
        finally:
            until_the_store_answers("tallies", lambda: tallies.add(counts))


def email_notice(
    event: str, game_id: str, seat: int, version: int, tag: str = "", attempt: int = 1
) -> str:
    """Email a notice (a job queued by a version of turnpost before batches)."""
    _follow_the_job()
    return _email_surely(event, game_id, seat, version, tag, attempt)


def _email_surely(
    event: str, game_id: str, seat: int, version: int, tag: str, attempt: int = 1
) -> str:
    holder = Claimant(uuid.uuid4().hex)
    delivery = Delivery("email", Notice(event, game_id, seat, version, tag), attempt)
    return _deliver_surely(delivery, lambda delivery: _email(delivery, holder))


def _deliver_surely(delivery: Delivery, deliver: Callable[[Delivery], str]) -> str:
    """`deliver` a notice on its channel, logged at each try, and again while Redis is away
    (until_the_store_answers)."""
    notice = delivery.notice

    def logged() -> str:
        log.info(
            "%s: %s of %s version %d to seat %d, attempt %d",
            delivery.channel,
            notice.event,
            notice.game_id,
            notice.version,
            notice.seat,
            delivery.attempt,
        )
        return deliver(delivery)

    what = f"{delivery.channel} {notice.event} of {notice.game_id} version {notice.version}"
    return until_the_store_answers(what, logged)


def _email(delivery: Delivery, holder: Claimant | None = None) -> str:
    """Email a notice. When the player's throttle window is open, or the send failed (the
    mail server away or refusing), the clock delivers it again later, until the send's
    attempts are used up (NotificationService.email)."""
    attempt = delivery.attempt
    outcome, wait = services().notifications.email(delivery.notice, holder=holder, attempt=attempt)
    if outcome in ("deferred", "retry"):
        later().later(replace(delivery, attempt=attempt + 1), wait)
    return _counted(delivery, outcome, wait)


def webhook_notice(
    event: str, game_id: str, seat: int, version: int, tag: str = "", attempt: int = 1
) -> str:
    """POST a notice to the player's webhook; retry with backoff, then fall back to email.
    When the player has their cap of deliveries in flight, this one waits in the schedule
    (the same attempt) rather than hold a worker."""
    notice = Notice(event, game_id, seat, version, tag)
    return _notice_job(Delivery("webhook", notice, attempt), _webhook)


def _webhook(delivery: Delivery) -> str:
    outcome, wait = services().notifications.webhook(delivery.notice, delivery.attempt)
    _left_to_the_clock(delivery, outcome, wait)
    if outcome == "failed" and wait:  # the email standing in for it is tried again
        stand_in = Delivery("email", delivery.notice, 2)
        later().later(stand_in, wait)
        _counted(stand_in, "retry", wait)
    return _counted(delivery, outcome)


def push_notice(
    event: str, game_id: str, seat: int, version: int, tag: str = "", attempt: int = 1
) -> str:
    """Send a notice to the player's devices by Web Push; the devices whose push service
    answered 429, 5xx or nothing are tried again later by the clock, with backoff, and a
    reminder moved since it was scheduled waits for its new time."""
    notice = Notice(event, game_id, seat, version, tag)
    return _notice_job(Delivery("push", notice, attempt), _push)


def _push(delivery: Delivery) -> str:
    outcome, wait = services().notifications.push(delivery.notice, delivery.attempt)
    _left_to_the_clock(delivery, outcome, wait)
    return _counted(delivery, outcome, wait)


def _notice_job(delivery: Delivery, deliver: Callable[[Delivery], str]) -> str:
    """A webhook or push job: `deliver` its delivery surely, with the request that caused it
    in every line it logs."""
    _follow_the_job()
    return _deliver_surely(delivery, deliver)


def _left_to_the_clock(delivery: Delivery, outcome: str, wait: float) -> None:
    """A webhook's or push message's next attempt after a "retry"; the same attempt when it
    was put off (WAITING: a webhook's receiver busy, a reminder moved since it was scheduled),
    in `wait` seconds."""
    if outcome == "retry":
        later().later(replace(delivery, attempt=delivery.attempt + 1), wait)
    elif outcome in WAITING:
        later().later(delivery, wait)


def digest_email(
    event: str, player_id: str, seat: int, day: int, tag: str = "", attempt: int = 1
) -> str:
    """Email a player's digest of a day (service.notify.digest); a failed send is tried
    again by the clock, as a turn email's is, and given up ("failed") after EMAIL_ATTEMPTS."""
    delivery = Delivery("digest", Notice(event, player_id, seat, day, tag), attempt)
    _follow_the_job()
    log.info("digest: %s of day %d, attempt %d", player_id, day, attempt)
    try:
        outcome, wait = services().notifications.digest(player_id, day), 0.0
    except (redis.ConnectionError, redis.TimeoutError):
        raise  # Redis away: the job fails and RQ runs it again (workers.queue)
    except Exception:
        settings = services().settings
        if attempt >= settings.email_attempts:
            log.exception("digest: %s of day %d given up", player_id, day)
            return _counted(delivery, "failed")
        outcome, wait = "retry", settings.email_retry_seconds * 2 ** (attempt - 1)
        log.warning("digest: %s of day %d failed; again in %g s", player_id, day, wait)
        later().later(replace(delivery, attempt=attempt + 1), wait)
    return _counted(delivery, outcome, wait)


WAITING = ("deferred", "busy")
"""Outcomes that put a delivery off without deciding it (a throttle, a receiver's cap)."""


def _counted(delivery: Delivery, outcome: str, wait: float = 0) -> str:
    """Count a delivery's outcome for /metrics (store.tallies), keep the set of deliveries
    being retried after a failure (`turnpost status`: "retry" adds one, and its attempt that
    is delivered, given up ("failed") or moot takes it out), and answer the outcome."""
    consequences = later()
    if consequences.tallies is not None:
        consequences.tallies.count(
            "turnpost_deliveries_total", channel=delivery.channel, outcome=outcome
        )
    notes = services().notifications.notes
    delivery_id = delivery.notice.delivery_id(delivery.channel)
    if outcome == "retry":
        notes.retrying(delivery.channel, delivery_id, consequences.now_ms() + int(wait * 1000))
    elif delivery.attempt > 1 and outcome not in WAITING:
        notes.settled(delivery.channel, delivery_id)
    return outcome
