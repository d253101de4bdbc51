"""A process's exit breaks nothing: an HTTP worker that gunicorn (or the kernel's OOM killer, or
a crash) stops is replaced and every answer after it is 2xx, metrics included; the server's own
stop ends every process it started within 5 s and starts none again."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

import pytest
import requests

from engine import registry
from tests.e2e.server import Client, LiveServer, command_of, descendants, http_workers

PATHS = ("/healthz", "/v1/catalog", "/metrics")


def wait_for_workers(server: LiveServer, gone: int, count: int) -> set[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = http_workers(server)
        if gone not in workers and len(workers) == count:
            return workers
        time.sleep(0.1)
    raise AssertionError(f"gunicorn did not replace worker {gone}:\n{server.printed()}")


class Load:
    """Requests sent without pause from a thread while a worker is signalled: the exit happens
    under load, with requests in flight."""

    def __init__(self, url: str):
        self.url = url
        self.stopping = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with requests.Session() as session:
            while not self.stopping.is_set():
                for path in PATHS:
                    # a connection the dying worker held may fail: counted after, not here
                    with contextlib.suppress(requests.RequestException):
                        session.get(self.url + path, timeout=10)
                    self.sent += 1

    def __enter__(self) -> Load:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(30)


def answers_after(server: LiveServer, rounds: int = 34) -> dict[int, int]:
    statuses: dict[int, int] = {}
    with requests.Session() as session:
        for _ in range(rounds):
            for path in PATHS:
                status = session.get(server.url + path, timeout=10).status_code
                statuses[status] = statuses.get(status, 0) + 1
    return statuses


@pytest.mark.parametrize("no_worker", [False, True], ids=["serve", "serve-no-worker"])
def test_every_answer_is_2xx_after_an_http_worker_exits_by_any_signal(
    valkey, redis_client, no_worker
):
    args = ("--no-worker",) if no_worker else ()
    # the load's requests are anonymous, from one address: limits are another test's subject
    server = LiveServer(*args, redis_url=valkey.url, env={"RATE_LIMITS": "off"}).wait_ready()
    try:
        for signum in (signal.SIGTERM, signal.SIGKILL, signal.SIGABRT):
            workers = http_workers(server)
            assert len(workers) == 2, server.printed()
            victim = min(workers)
            with Load(server.url) as load:
                time.sleep(0.3)
                os.kill(victim, signum)
                wait_for_workers(server, victim, 2)
                time.sleep(0.3)
            assert load.sent > 0
            statuses = answers_after(server)
            assert set(statuses) == {200}, (signum.name, statuses, server.printed()[-3000:])
        assert "starting it again" not in server.printed()
    finally:
        server.stop()


def test_sigterm_stops_every_process_of_the_server_within_5_seconds(tmp_path):
    """The embedded Valkey too, after its last write: no REDIS_URL, so the server starts it."""
    server = LiveServer("--data", str(tmp_path / "data")).wait_ready()
    try:
        every = descendants(server.process.pid)
        assert len(every) >= 4, every  # two HTTP workers, the background worker, Valkey
        started = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)
        server.process.wait(10)
        deadline = started + 5
        while time.monotonic() < deadline and any(command_of(pid) for pid in every):
            time.sleep(0.05)
        alive = {pid: command_of(pid) for pid in every if command_of(pid)}
        took = time.monotonic() - started
        assert not alive and took <= 5, (took, alive, server.printed())
        assert "starting it again" not in server.printed()
        assert "Traceback" not in server.printed()
    finally:
        server.stop()


def test_sigint_stops_the_server_quietly(tmp_path):
    server = LiveServer("--data", str(tmp_path / "data")).wait_ready()
    requests.get(server.url + "/v1/catalog", timeout=10)
    started = time.monotonic()
    server.stop()  # SIGINT to the process group, as Ctrl-C in a terminal
    assert time.monotonic() - started <= 5, server.printed()
    printed = server.printed()
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed, printed
    assert "starting it again" not in printed


def test_moves_answered_while_the_server_stops_are_all_kept(tmp_path):
    """SIGTERM in the middle of play: every move answered 201 is in the game after a restart
    on the same data (Valkey stopped after the last write), and no answer was a 500."""
    name = sorted(registry.GAMES)[0]
    data = tmp_path / "data"
    server = LiveServer("--no-worker", "--data", str(data), env={"RATE_LIMITS": "off"})
    server.wait_ready()
    ada, bo = Client(server.url, "Ada"), Client(server.url, "Bo")
    bo.befriend(ada)
    games = [ada.post("/v1/games", {"game": name, "seats": [ada.id, bo.id]}).json()["id"]]
    acknowledged: dict[str, int] = {}
    statuses: list[int] = []
    stopping = threading.Event()

    def play() -> None:
        while True:
            try:
                for game_id in games:
                    summary = ada.get(f"/v1/games/{game_id}").json()
                    if summary["status"] != "active":
                        continue
                    mover = (ada, bo)[summary["active_seats"][0]]
                    move = mover.get(f"/v1/games/{game_id}/legal-moves").json()["moves"][0]
                    answer = mover.post(
                        f"/v1/games/{game_id}/moves",
                        {"notation": move["notation"], "expected_version": summary["version"]},
                    )
                    statuses.append(answer.status_code)
                    if answer.status_code == 201:
                        acknowledged[game_id] = answer.json()["version"]
            except (requests.RequestException, ValueError, KeyError):
                if stopping.is_set():
                    return  # the server has stopped listening
            if stopping.is_set() and time.monotonic() > stopped_at + 10:
                return

    stopped_at = 0.0
    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        while not acknowledged:
            time.sleep(0.05)
        stopped_at = time.monotonic()
        stopping.set()
        os.kill(server.process.pid, signal.SIGTERM)
        server.process.wait(10)
        player.join(30)
    finally:
        server.stop()
    assert 500 not in statuses, statuses
    again = LiveServer("--no-worker", "--data", str(data)).wait_ready()
    try:
        ada.base = again.url
        for game_id, version in acknowledged.items():
            assert ada.get(f"/v1/games/{game_id}").json()["version"] >= version
    finally:
        again.stop()
