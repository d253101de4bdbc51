"""The RQ implementation of the service's scheduler port: after every commit, ask for the
bot moves that are due and arm the turn timers of the seats whose turn just began.

Job ids are deterministic (game, seat and version), so asking twice enqueues once. A timer is
never moved in place: a job may be re-armed while it runs (a timeout's commit arms the next
turn's timer), and RQ would then lose the new schedule. A timer whose turn has moved on finds
the seat's `seat_since` changed when it fires, and does nothing."""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import redis

from . import jobs
from .queue import queue

FAILED_JOB_TTL = 7 * 24 * 3600


class RQScheduler:
    def __init__(self, connection: redis.Redis, bot_delay_seconds: float = 1.0):
        self.queue = queue(connection)
        self.bot_delay = bot_delay_seconds

    def committed(self, snapshot: dict, events: list[dict]) -> None:
        if snapshot["status"] != "active":
            return
        game_id, version = snapshot["id"], snapshot["version"]
        match = snapshot["match"]
        for seat in snapshot["active_seats"]:
            record = snapshot["seats"][seat]
            if record["kind"] == "bot":
                self._in(self.bot_delay, jobs.bot_move, (game_id, seat, version),
                         f"bot-{game_id}-{seat}-{version}")
            elif snapshot["deadlines"][seat] is not None and match["seat_since"][seat] == version:
                self.arm_timer(game_id, seat, version, snapshot["deadlines"][seat])

    def arm_timer(self, game_id: str, seat: int, since: int, deadline_ms: int,
                  retry: bool = False) -> None:
        """Run the seat's timer at its deadline, rounded up to the whole second RQ keeps."""
        at = datetime.fromtimestamp(math.ceil(deadline_ms / 1000), timezone.utc)
        suffix = "-again" if retry else ""
        self.queue.enqueue_at(at, jobs.turn_timer, game_id, seat, since,
                              job_id=f"timer-{game_id}-{seat}-{since}{suffix}",
                              failure_ttl=FAILED_JOB_TTL)

    def _in(self, seconds: float, func, args: tuple, job_id: str) -> None:
        if seconds <= 0:
            self.queue.enqueue(func, *args, job_id=job_id, failure_ttl=FAILED_JOB_TTL)
        else:
            self.queue.enqueue_in(timedelta(seconds=seconds), func, *args, job_id=job_id,
                                  failure_ttl=FAILED_JOB_TTL)
