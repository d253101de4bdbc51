"""RQ jobs: module-level functions of plain ids, safe to run late or twice.

Each job builds its services on the worker's own Redis connection once per process; the
notification settings come from the worker's environment (see service/settings.py).
"""
from __future__ import annotations

import os
from datetime import timedelta
from functools import lru_cache

from rq import get_current_job

from service.assembly import Services, assemble
from service.games import GameService
from service.notifications import Notice, NotificationService
from service.settings import Settings

from .queue import FAILED_JOB_TTL


@lru_cache(maxsize=1)
def _services(connection_id: int) -> Services:
    from .scheduler import RQScheduler
    connection = get_current_job().connection
    settings = Settings.from_env(os.environ)
    return assemble(connection, RQScheduler(connection, settings=settings), settings)


def games() -> GameService:
    return _services(id(get_current_job().connection)).games


def notifications() -> NotificationService:
    return _services(id(get_current_job().connection)).notifications


def bot_move(game_id: str, seat: int, version: int) -> bool:
    """A bot seat plays, if the game is still where it was when the job was asked for."""
    return games().bot_move(game_id, seat, version)


def turn_timer(game_id: str, seat: int, since: int) -> str:
    """A seat's clock ran out, unless its turn moved on since `since`. A timer that fires
    before the deadline (RQ schedules in whole seconds) is armed again for the deadline."""
    from .scheduler import RQScheduler
    service = games()
    result = service.expire_turn(game_id, seat, since)
    if result == "early":
        job = get_current_job()
        RQScheduler(job.connection, settings=notifications().settings).arm_timer(game_id, seat, since,
                                              service.deadline(game_id, seat), retry=True)
    return result


def email_notice(event: str, game_id: str, seat: int, version: int, tag: str = "",
                 deferrals: int = 0) -> str:
    """Email a notice; when the player's throttle window is open, ask again when it closes."""
    notice = Notice(event, game_id, seat, version, tag)
    outcome, wait = notifications().email(notice)
    if outcome == "deferred":
        _again(wait, email_notice, (event, game_id, seat, version, tag, deferrals + 1),
               f"{notice.delivery_id('email')}-deferred{deferrals + 1}")
    return outcome


def webhook_notice(event: str, game_id: str, seat: int, version: int, tag: str = "",
                   attempt: int = 1) -> str:
    """POST a notice to the player's webhook; retry with backoff, then fall back to email."""
    notice = Notice(event, game_id, seat, version, tag)
    outcome, wait = notifications().webhook(notice, attempt)
    if outcome == "retry":
        _again(wait, webhook_notice, (event, game_id, seat, version, tag, attempt + 1),
               f"{notice.delivery_id('webhook')}-try{attempt + 1}")
    return outcome


def _again(seconds: float, func, args: tuple, job_id: str) -> None:
    from .queue import queue
    queue(get_current_job().connection).enqueue_in(
        timedelta(seconds=max(seconds, 0.001)), func, *args, job_id=job_id,
        failure_ttl=FAILED_JOB_TTL)
