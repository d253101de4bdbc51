"""The RQ implementation of the service's scheduler port: after every commit, ask for the
bot moves that are due, the notices of the players whose turn began (or of everyone, when the
game ended), and arm the turn timers and reminders of the seats whose turn just began.

Job ids are deterministic (game, seat and version), so asking twice enqueues once. A timer is
never moved in place: a job may be re-armed while it runs (a timeout's commit arms the next
turn's timer), and RQ would then lose the new schedule. A timer or reminder whose turn has
moved on finds the seat's `seat_since` changed when it fires, and does nothing."""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import redis
from rq import Queue, Retry

from service.notifications import (GAME_FINISHED, REMINDER_PERCENTS, TURN_REMINDER, Notice,
                                   notices)
from service.settings import Settings
from store.players import PlayerStore

from . import jobs
from .queue import FAILED_JOB_TTL, clock_queue, queue

EMAIL_RETRY = Retry(max=3, interval=[30, 120, 600])


class RQScheduler:
    def __init__(self, connection: redis.Redis, bot_delay_seconds: float | None = None,
                 settings: Settings | None = None):
        self.queue = queue(connection)
        self.clock = clock_queue(connection)
        self.players = PlayerStore(connection)
        self.settings = settings or Settings()
        self.bot_delay = (self.settings.bot_delay_seconds if bot_delay_seconds is None
                          else bot_delay_seconds)

    def committed(self, snapshot: dict, events: list[dict]) -> None:
        reachable = self._reachable(snapshot, notices(snapshot, events))
        for notice, contact in reachable:
            args = (notice.event, notice.game_id, notice.seat, notice.version)
            if contact.get("email"):
                delay = 0 if notice.event == GAME_FINISHED else self.settings.email_delay_seconds
                self._in(delay, jobs.email_notice, args, notice.delivery_id("email"),
                         EMAIL_RETRY)
            if contact.get("webhook_url"):
                self._in(0, jobs.webhook_notice, args, notice.delivery_id("webhook"))
        if snapshot["status"] != "active":
            return
        game_id, version = snapshot["id"], snapshot["version"]
        match = snapshot["match"]
        for seat in snapshot["active_seats"]:
            record = snapshot["seats"][seat]
            if record["kind"] == "bot":
                self._in(self.bot_delay, jobs.bot_move, (game_id, seat, version),
                         f"bot-{game_id}-{seat}-{version}", queue=self.clock)
            elif snapshot["deadlines"][seat] is not None and match["seat_since"][seat] == version:
                self.arm_timer(game_id, seat, version, snapshot["deadlines"][seat])
                contact = next((c for n, c in reachable if n.seat == seat), None)
                if contact is not None:
                    self._arm_reminders(snapshot, seat, contact)

    def _reachable(self, snapshot: dict, wanted: list[Notice]) -> list[tuple[Notice, dict]]:
        """The notices whose player has an email address or a webhook (one MGET), so that no
        job is queued for a player who cannot be told; preferences are read when a job runs."""
        if not wanted:
            return []
        profiles = self.players.get_many([snapshot["seats"][n.seat]["player_id"]
                                          for n in wanted])
        return [(n, p) for n, p in zip(wanted, profiles)
                if p and (p.get("email") or p.get("webhook_url"))]

    def _arm_reminders(self, snapshot: dict, seat: int, contact: dict) -> None:
        """Reminders at 50% and 90% of the seat's clock (each checks the turn when it runs)."""
        clock_ms = snapshot["time_control"]["per_move_seconds"] * 1000
        started = snapshot["deadlines"][seat] - clock_ms
        for percent in REMINDER_PERCENTS:
            at = datetime.fromtimestamp((started + clock_ms * percent / 100) / 1000,
                                        timezone.utc)
            notice = Notice(TURN_REMINDER, snapshot["id"], seat, snapshot["version"],
                            f"-{percent}")
            args = (notice.event, notice.game_id, notice.seat, notice.version, notice.tag)
            for func, channel, field in ((jobs.email_notice, "email", "email"),
                                         (jobs.webhook_notice, "webhook", "webhook_url")):
                if contact.get(field):
                    self.queue.enqueue_at(at, func, *args,
                                          job_id=notice.delivery_id(channel),
                                          failure_ttl=FAILED_JOB_TTL)

    def arm_timer(self, game_id: str, seat: int, since: int, deadline_ms: int,
                  retry: bool = False) -> None:
        """Run the seat's timer at its deadline, rounded up to the whole second RQ keeps."""
        at = datetime.fromtimestamp(math.ceil(deadline_ms / 1000), timezone.utc)
        suffix = "-again" if retry else ""
        self.clock.enqueue_at(at, jobs.turn_timer, game_id, seat, since,
                              job_id=f"timer-{game_id}-{seat}-{since}{suffix}",
                              failure_ttl=FAILED_JOB_TTL)

    def _in(self, seconds: float, func, args: tuple, job_id: str,
            retry: Retry | None = None, queue: Queue | None = None) -> None:
        target = queue or self.queue
        if seconds <= 0:
            target.enqueue(func, *args, job_id=job_id, failure_ttl=FAILED_JOB_TTL, retry=retry)
        else:
            target.enqueue_in(timedelta(seconds=seconds), func, *args, job_id=job_id,
                              failure_ttl=FAILED_JOB_TTL, retry=retry)
