"""A turn email whose reader's window for the game is taken (one turn email per player and
game per EMAIL_THROTTLE_SECONDS) waits in the schedule for the window's end: the outbox
consumer puts it there rather than queue a job that would only put it off."""

import json
import threading
import time

import pytest
from rq import Queue

from store import keys
from store.tallies import WorkerTallies, field
from workers.process import _InProcessWorker
from workers.queue import QUEUE_NAME

WINDOW = 60


@pytest.fixture
def worker(in_process_worker):
    return in_process_worker(EMAIL_THROTTLE_SECONDS=str(WINDOW))


def run_jobs(redis_client) -> None:
    rq = _InProcessWorker([Queue(QUEUE_NAME, connection=redis_client)], connection=redis_client)
    rq.process_stop = threading.Event()
    rq.work(burst=True, logging_level="WARNING")


def scheduled_emails(redis_client, game_id: str) -> list[tuple[dict, float]]:
    found = redis_client.zrange(keys.schedule(keys.bucket_of(game_id)), 0, -1, withscores=True)
    return [
        (item, score)
        for item, score in ((json.loads(m), s) for m, s in found)
        if item.get("channel") == "email" and item.get("game") == game_id
    ]


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_turn_email_in_a_taken_window_waits_in_the_schedule_not_in_a_job(
    services, worker, redis_client, smtp
):
    players, games = services
    ada, bo, cy, di = (
        players.register(name, email=f"{name.lower()}@example.org")["id"]
        for name in ("Ada", "Bo", "Cy", "Di")
    )
    players.set_friends(bo, [ada])
    players.set_friends(di, [cy])
    game_id = games.create(ada, "ninedomains", [ada, bo])["id"]  # both choose at once
    while worker.outbox_step():
        pass
    run_jobs(redis_client)
    assert len(smtp.messages) == 2, "both players' first turn emails: their windows taken"
    jobs = Queue(QUEUE_NAME, connection=redis_client)
    deferred = field("turnpost_deliveries_total", {"channel": "email", "outcome": "deferred"})
    before = WorkerTallies(redis_client).read().get(deferred, 0)
    for player in (ada, bo):  # a quick round: a new turn for both, inside their windows
        moves = games.legal_moves(game_id, player)["moves"]
        games.play(game_id, player, games.summary(game_id)["version"], action=moves[0]["action"])
    other = games.create(cy, "ninedomains", [cy, di])["id"]  # windows free: emailed at once
    started = time.time() * 1000
    while worker.outbox_step():
        pass
    queued = [notice for job in jobs.jobs for notice in job.args[0]]
    assert sorted(notice[1] for notice in queued) == [other, other]
    waiting = scheduled_emails(redis_client, game_id)
    assert {item["seat"] for item, _ in waiting} == {0, 1}
    for item, at in waiting:
        assert item["event"] == "turn.started" and item["attempt"] == 1
        assert started + (WINDOW - 10) * 1000 < at <= started + WINDOW * 1000 + 1000
    assert WorkerTallies(redis_client).read()[deferred] - before == 2
    run_jobs(redis_client)
    assert len(smtp.messages) == 4 and not smtp.to("ada@example.org")[1:]
