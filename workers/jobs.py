"""RQ jobs: module-level functions of plain ids, safe to run late or twice.

Each job builds its services on the worker's own Redis connection once per process.
"""
from __future__ import annotations

from functools import lru_cache

from rq import get_current_job

from service.games import GameService
from store.games import GameStore
from store.players import PlayerStore


@lru_cache(maxsize=1)
def _games(connection_id: int) -> GameService:
    from .scheduler import RQScheduler
    connection = get_current_job().connection
    return GameService(GameStore(connection), PlayerStore(connection), RQScheduler(connection))


def games() -> GameService:
    return _games(id(get_current_job().connection))


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
        RQScheduler(job.connection).arm_timer(game_id, seat, since,
                                              service.deadline(game_id, seat), retry=True)
    return result
