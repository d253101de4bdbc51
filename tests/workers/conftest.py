import os
import subprocess
import sys

import pytest

from service.play.games import GameService
from store.games import GameStore
from store.players import PlayerStore
from tests.addresses import ConfirmedPlayers
from transports.safe_urls import UrlPolicy
from workers.process import WorkerProcess


@pytest.fixture
def services(redis_client):
    """The service as the API has it (commits and nothing else), with clocks allowed down to
    one second; what commits cause is carried out by the workers of `start_workers`."""
    games = GameService(GameStore(redis_client), PlayerStore(redis_client), min_move_seconds=1)
    # the tests' webhook receivers listen on http://127.0.0.1: allowed here, and only here
    loopback = UrlPolicy(allow_http=True, allow_loopback=True)
    # the players' addresses count as confirmed (tests/addresses.py): these tests are about
    # what comes after
    return ConfirmedPlayers(PlayerStore(redis_client), webhook_urls=loopback), games


@pytest.fixture
def start_workers(valkey):
    """Start real `turnpost worker` processes (outbox consumer, clock, RQ) on the test Valkey."""
    started = []

    def start(count=1, **settings):
        """Settings are environment variables of service/settings.py, e.g. SMTP_URL."""
        env = {
            **os.environ,
            "REDIS_URL": valkey.url,
            "BOT_DELAY_SECONDS": "0",
            "EMAIL_DELAY_SECONDS": "0",
            "EMAIL_THROTTLE_SECONDS": "0",
            "WEBHOOK_ALLOW_HTTP": "1",
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            # a clock that runs out times out at once, unless a test gives vacation days
            "VACATION_DAYS_A_YEAR": "0",
            **settings,
        }
        for _ in range(count):
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", "turnpost.cli", "worker"],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )

    yield start
    for proc in started:
        proc.terminate()
    for proc in started:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def in_process_worker(valkey, smtp, monkeypatch):
    """A WorkerProcess whose steps the test takes in this process, sending to `smtp`; its jobs
    build their services from the environment, so the settings go there too. Settings are
    environment variables of service/settings.py (EMAIL_THROTTLE_SECONDS, ...)."""
    made = []

    def make(**settings):
        env = {
            "REDIS_URL": valkey.url,
            "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
            "EMAIL_DELAY_SECONDS": "0",
            **settings,
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        process = WorkerProcess(env)
        process.outbox.ensure_groups()
        made.append(process)
        return process

    yield make
    for process in made:
        process.stop.set()


def friends_in_pairs(players, worker, count: int) -> list[tuple[str, str]]:
    """`count` pairs of players with addresses, the second of each letting the first seat them,
    and what their sign-ups caused carried out."""
    people = [players.register(f"P{i}", email=f"p{i}@example.org")["id"] for i in range(2 * count)]
    pairs = list(zip(people[::2], people[1::2]))
    for first, second in pairs:
        players.set_friends(second, [first])
    while worker.outbox_step():
        pass
    return pairs
