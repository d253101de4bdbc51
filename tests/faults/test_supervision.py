"""`turnpost serve` keeps its worker alive, and `turnpost status` shows the backlog."""

import json
import os
import signal
import subprocess
import sys
import time

import requests

from tests.e2e.server import Client, LiveServer


def worker_of(server: LiveServer) -> int | None:
    found = subprocess.run(
        ["pgrep", "-P", str(server.process.pid), "-f", "turnpost.cli worker"],
        text=True,
        capture_output=True,
    ).stdout.split()
    return int(found[0]) if found else None


def test_serve_starts_its_worker_again_after_kill_9(valkey, redis_client):
    server = LiveServer(redis_url=valkey.url, env={"BOT_DELAY_SECONDS": "0"}).wait_ready()
    try:
        first = worker_of(server)
        assert first is not None
        os.kill(first, signal.SIGKILL)
        ada = Client(server.url, "Ada")
        game = ada.post(
            "/v1/games", {"game": "ninedomains", "seats": [ada.id, "bot:heuristic"]}
        ).json()
        deadline = time.monotonic() + 60
        while ada.get(f"/v1/games/{game['id']}").json()["active_seats"] != [0]:
            assert time.monotonic() < deadline, "the bot never moved: no worker"
            time.sleep(0.1)
        second = worker_of(server)
        assert second is not None and second != first
        assert "the worker exited" in server.printed()
    finally:
        server.stop()


def test_status_counts_the_outbox_the_schedule_and_the_queue(valkey, redis_client):
    server = LiveServer("--no-worker", redis_url=valkey.url).wait_ready()
    try:
        ada, bo = Client(server.url, "Ada"), Client(server.url, "Bo")
        bo.befriend(ada)
        for _ in range(3):
            ada.post(
                "/v1/games",
                {
                    "game": "nautilus",
                    "seats": [ada.id, bo.id],
                    "time_control": {"per_move_seconds": 3600},
                },
            )
    finally:
        server.stop()
    printed = subprocess.run(
        [sys.executable, "-m", "turnpost.cli", "status"],
        text=True,
        capture_output=True,
        env={**os.environ, "REDIS_URL": valkey.url},
        check=True,
    ).stdout
    report = json.loads(printed)
    assert report["outbox"]["waiting"] == 3 and report["outbox"]["pending"] == 0
    assert report["schedule"] == {"scheduled": 3, "overdue": 0, "leased": 0}
    assert report["queue"]["queued"] == 0 and report["workers"] == 0
    largest = report["data"]["largest"]
    assert report["data"]["keys"] > len(largest) > 0
    assert [k["length"] for k in largest] == sorted((k["length"] for k in largest), reverse=True)
    assert any(k["type"] == "stream" and k["key"].endswith(":log") for k in largest), largest


def test_readyz_turns_unready_when_the_worker_stops_and_ready_when_it_returns(valkey, redis_client):
    server = LiveServer(
        "--no-worker", redis_url=valkey.url, env={"READY_WORKER_SECONDS": "2"}
    ).wait_ready()
    worker_env = {**os.environ, "REDIS_URL": valkey.url}

    def ready_becomes(expected: bool) -> dict:
        deadline = time.monotonic() + 30
        while True:
            r = requests.get(server.url + "/readyz", timeout=5)
            if (r.status_code == 200) is expected:
                return r.json()
            assert time.monotonic() < deadline, r.json()
            time.sleep(0.2)

    workers: list[subprocess.Popen] = []
    try:
        assert requests.get(server.url + "/healthz", timeout=5).json() == {"status": "ok"}
        report = ready_becomes(False)
        assert report["checks"]["workers"] == {"ok": False, "alive": 0}
        workers.append(
            subprocess.Popen([sys.executable, "-m", "turnpost.cli", "worker"], env=worker_env)
        )
        assert ready_becomes(True)["checks"]["workers"]["alive"] == 1
        workers[0].terminate()
        workers[0].wait(15)
        ready_becomes(False)
        workers.append(
            subprocess.Popen([sys.executable, "-m", "turnpost.cli", "worker"], env=worker_env)
        )
        ready_becomes(True)
        workers[1].terminate()
        workers[1].wait(15)
    finally:
        for worker in workers:  # a failed wait leaves none behind
            worker.kill()
            worker.wait()
        server.stop()
