"""Faults at the worst moment, with real parts: the embedded Valkey (append-only file on),
`turnpost serve` (gunicorn), real `turnpost worker` processes and a real SMTP server.

After each fault: every acknowledged move is in the log, every game with a bot or a clock gets
its moves and ends, every expired clock times out exactly once, every due email is sent
exactly once, no game is frozen. Each test waits for recovery with a bound and fails with the
list of stuck games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from engine import registry
from service.play.games import GameService
from service.players.accounts import PlayerService
from store import keys
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore
from tests.addresses import confirm
from tests.checks import Mover, assert_each_timeout_once, assert_emails_once, wait_until_finished
from tests.e2e.server import Client, LiveServer
from tests.peers import SmtpInbox

FAST = {
    "BOT_DELAY_SECONDS": "0",
    "EMAIL_DELAY_SECONDS": "0",
    "EMAIL_THROTTLE_SECONDS": "0",
    "OUTBOX_LEASE_SECONDS": "3",
    "SCHEDULE_LEASE_SECONDS": "3",
    "VACATION_DAYS_A_YEAR": "0",  # a clock that runs out times out (no vacation day first)
}


class World:
    """A Valkey with its data on disk (so it can be killed and started again on the same
    port), an SMTP server, and the processes started on them."""

    def __init__(self, tmp_path: Path):
        self.data = tmp_path / "valkey"
        self.valkey = EmbeddedValkey(self.data).start()
        self.url = self.valkey.url
        self.smtp = SmtpInbox().__enter__()
        self.workers: list[subprocess.Popen] = []
        self.servers: list[LiveServer] = []

    def service(self) -> GameService:
        client = connect(self.url)
        return GameService(GameStore(client), PlayerStore(client), min_move_seconds=1)

    def start_worker(self, **env) -> subprocess.Popen:
        proc = subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "worker"],
            env={**os.environ, "REDIS_URL": self.url, "SMTP_URL": self.smtp.url, **FAST, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.workers.append(proc)
        return proc

    def start_server(self) -> LiveServer:
        server = LiveServer("--no-worker", redis_url=self.url).wait_ready()
        self.servers.append(server)
        return server

    def kill_valkey_and_restart(self, down_seconds: float) -> None:
        os.kill(int((self.data / "valkey.pid").read_text()), signal.SIGKILL)
        self.valkey.process.wait()
        time.sleep(down_seconds)
        self.valkey = EmbeddedValkey(self.data, port=self.valkey.port).start()

    def close(self) -> None:
        for proc in self.workers:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for server in self.servers:
            server.stop()
        self.smtp.__exit__(None, None, None)
        self.valkey.stop()


@pytest.fixture
def world(tmp_path):
    built = World(tmp_path)
    yield built
    built.close()


def test_kill_9_of_valkey_during_games_against_bots_with_clocks_and_emails(world):
    """Valkey is killed twice (SIGKILL, down 2 s, started again on its data) while people play
    against bots under two-second clocks, some moving, some letting their clock run out."""
    for _ in range(2):
        world.start_worker()
    server = world.start_server()
    service = world.service()
    movers, people, game_ids = [], {}, []
    for i in range(8):
        address = f"p{i}@example.org"
        person = Client(server.url, f"P{i}", email=address)
        confirm(connect(world.url), person.id)  # as its owner would, by the emailed link
        game_id = service.create(
            person.id,
            "ninedomains",
            [person.id, "bot:heuristic"],
            time_control={"per_move_seconds": 2, "on_timeout": "auto"},
        )["id"]
        people[game_id] = address
        game_ids.append(game_id)
        if i % 2 == 0:
            movers.append((person, game_id))
    mover = Mover(server.url, movers)
    mover.start()
    for _ in range(2):
        time.sleep(4)
        world.kill_valkey_and_restart(down_seconds=2)
    service = world.service()
    wait_until_finished(service, game_ids)
    mover.stop.set()
    mover.join(15)
    assert mover.acknowledged, "the people moved"
    nine_domains = registry.GAMES["ninedomains"]
    for game_id, version, move in mover.acknowledged:
        # the move is the commit's first event (GameEnded may follow it in the same commit)
        taken = [
            e
            for e in service.games.events(game_id, after=version - 2, count=2)
            if e["type"] == "ActionTaken"
            and e["seat"] == 0
            and nine_domains.format(e["action"]) == move
        ]
        assert taken, (game_id, version, move)
    for game_id in game_ids:
        assert_each_timeout_once(service, game_id)
        assert service.replay(game_id) == service.load(game_id)
    time.sleep(2)  # the last emails leave the queue
    assert_emails_once(world.smtp, people, game_ids)


def _gunicorn_workers(server: LiveServer) -> list[int]:
    """The pids of the gunicorn worker processes under `turnpost serve` (its children)."""
    found = subprocess.run(
        ["pgrep", "-P", str(server.process.pid)], text=True, capture_output=True
    ).stdout
    return [int(pid) for pid in found.split()]


def test_the_api_killed_between_the_append_and_its_answer_loses_no_consequence(world):
    """The API's processes are frozen the moment the move is in the log (before they can do
    anything after the append), then killed. The move's consequences still happen: the bot
    answers, the lists follow, the email goes; and the client's retry with the same
    Idempotency-Key gets the original's 201."""
    world.start_worker()
    server = world.start_server()
    service = world.service()
    watcher = connect(world.url)
    person = Client(server.url, "Ada", email="ada@example.org")
    confirm(watcher, person.id)  # as its owner would, by the emailed link
    game_id = service.create(person.id, "nautilus", [person.id, "bot:heuristic"])["id"]
    frozen_before_answer = 0
    for _ in range(6):
        deadline = time.monotonic() + 30
        while 0 not in service.load(game_id)["active_seats"]:
            assert time.monotonic() < deadline, "the bot did not move"
            time.sleep(0.05)
        legal = person.get(f"/v1/games/{game_id}/legal-moves").json()
        body = {"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]}
        headers = {**person.headers, "Idempotency-Key": uuid.uuid4().hex}
        answer: dict = {}

        def post():
            try:
                answer["r"] = requests.post(
                    f"{server.url}/v1/games/{game_id}/moves", json=body, headers=headers, timeout=30
                )
            except requests.RequestException as err:
                answer["error"] = err

        workers = _gunicorn_workers(server)
        sender = threading.Thread(target=post)
        sender.start()
        found = watcher.xread({keys.game_log(game_id): f"{legal['version']}-0"}, block=10_000)
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        assert found, "the move was not appended"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        sender.join(40)
        if "r" not in answer:
            frozen_before_answer += 1
        retry = None
        for _ in range(100):  # gunicorn starts new workers
            try:
                retry = requests.post(
                    f"{server.url}/v1/games/{game_id}/moves", json=body, headers=headers, timeout=10
                )
                break
            except requests.RequestException:
                time.sleep(0.1)
        assert retry is not None and retry.status_code == 201, retry and retry.text
        assert retry.json()["version"] == legal["version"] + 1
        if service.load(game_id)["status"] == "finished":
            break
    assert frozen_before_answer >= 3, "the API was frozen before it answered"
    deadline = time.monotonic() + 30
    while (
        0 not in service.load(game_id)["active_seats"]
        and service.load(game_id)["status"] != "finished"
    ):
        assert time.monotonic() < deadline, "the bot never answered the last move: frozen"
        time.sleep(0.05)
    games = person.get("/v1/games?awaiting=me").json()
    assert [g["id"] for g in games["games"]] == [game_id]
    world.smtp.wait_for(
        lambda m, rcpt: "ada@example.org" in rcpt and m["X-Turnpost-Game"] == game_id, timeout=30
    )


def freeze(pid: int) -> None:
    """SIGSTOP, and wait until the process is stopped (the signal lands a moment later)."""
    os.kill(pid, signal.SIGSTOP)
    stat = Path(f"/proc/{pid}/stat")
    while stat.read_text().rsplit(")", 1)[1].split()[0] not in ("T", "t"):
        time.sleep(0.0005)


def test_a_worker_killed_in_the_middle_of_a_batch_of_timeouts(world):
    """A worker is frozen the moment its clock has leased a batch of due deadlines, and killed.
    Another worker takes the batch over when the lease runs out: every clock times out exactly
    once, and under `auto` every timed-out seat gets the computer's move."""
    service = world.service()
    client = connect(world.url)
    players = PlayerService(PlayerStore(client))
    ada, bo = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(bo, [ada])  # seated without an invitation
    game_ids = [
        service.create(
            ada,
            "ninedomains",
            [ada, bo],
            time_control={"per_move_seconds": 3, "on_timeout": policy},
        )["id"]
        for policy in ["forfeit", "auto"] * 60
    ]
    victim = world.start_worker()

    def leased_now() -> int:
        pipe = client.pipeline(transaction=False)
        for bucket in range(keys.BUCKETS):
            pipe.zcard(keys.schedule_leased(bucket))
        return sum(pipe.execute())

    # Frozen the moment it holds a leased batch: a worker seen holding one may finish it before
    # the signal lands (a loaded machine holds this process back between the two), so it is
    # let go and caught again at its next batch (the `auto` games' next clocks), until it is
    # frozen while holding one.
    deadline = time.monotonic() + 60
    while True:
        while not leased_now():
            assert time.monotonic() < deadline, "the clock took nothing"
            time.sleep(0.001)
        freeze(victim.pid)
        if leased_now():
            break
        os.kill(victim.pid, signal.SIGCONT)
    os.kill(victim.pid, signal.SIGKILL)
    assert leased_now(), "the batch was still under way when the worker died"
    world.start_worker()
    wait_until_finished(service, game_ids)
    for game_id in game_ids:
        assert_each_timeout_once(service, game_id)
