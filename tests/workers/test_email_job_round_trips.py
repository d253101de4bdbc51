"""What RQ's side of the worker sends to Redis besides the emails' own reads and records: a
job of turn emails (workers.jobs.email_notices) counts its outcomes for /metrics once, at its
end; RQ's heartbeat is one round trip."""

import threading

import pytest
from redis.connection import Connection
from rq import Queue

from store import keys
from store.tallies import WorkerTallies, field
from tests.workers.conftest import friends_in_pairs
from workers.process import _InProcessWorker
from workers.queue import QUEUE_NAME

GAMES = 6


@pytest.fixture
def worker(in_process_worker):
    return in_process_worker(EMAIL_THROTTLE_SECONDS="0")


def _trips_to(key: str, monkeypatch) -> list[int]:
    """Round trips (a command or a pipeline written to a socket) that name `key`."""
    count = [0]
    send = Connection.send_packed_command

    def counted(self, command, check_health=True):
        parts = [command] if isinstance(command, (bytes, str)) else command
        if any(key.encode() in bytes(part) for part in parts):
            count[0] += 1
        return send(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counted)
    return count


def _sent(redis_client) -> float:
    counts = WorkerTallies(redis_client).read()
    return counts.get(
        field("turnpost_deliveries_total", {"channel": "email", "outcome": "sent"}), 0
    )


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_job_of_emails_counts_them_in_one_round_trip(
    services, worker, redis_client, smtp, monkeypatch
):
    players, games = services
    pairs = friends_in_pairs(players, worker, GAMES)
    jobs = Queue(QUEUE_NAME, connection=redis_client)
    jobs.empty()
    for first, second in pairs:
        games.create(first, "nautilus", [first, second])
    assert worker.outbox_step()
    assert jobs.count == 1 and len(jobs.jobs[0].args[0]) == GAMES
    before = _sent(redis_client)
    trips = _trips_to(keys.WORKER_TALLIES, monkeypatch)
    rq = _InProcessWorker([jobs], connection=redis_client)
    rq.process_stop = threading.Event()
    rq.work(burst=True, logging_level="WARNING")
    monkeypatch.undo()
    assert len(smtp.messages) == GAMES
    assert _sent(redis_client) - before == GAMES, "every email counted"
    assert trips[0] == 1, f"{trips[0]} round trips to the tallies for {GAMES} emails"


def test_rqs_heartbeat_is_one_round_trip(redis_client, monkeypatch):
    """RQ beats alone at least twice a job (before it waits for the next, and after each): the
    worker's hash and two expiries, one round trip rather than three."""
    rq = _InProcessWorker([Queue(QUEUE_NAME, connection=redis_client)], connection=redis_client)
    rq.register_birth()
    trips = _trips_to(rq.key, monkeypatch)
    rq.heartbeat(600)
    monkeypatch.undo()
    assert trips[0] == 1
    assert 540 < redis_client.ttl(rq.key) <= 600
    assert redis_client.hget(rq.key, "last_heartbeat")
