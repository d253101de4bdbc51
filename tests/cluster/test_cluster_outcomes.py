"""Honest outcomes when a cluster master is SIGKILLed (issue 37): people play against bots
through `turnpost serve --no-worker` on a 3-master Valkey cluster with a replica each (RQ's
queue on a plain Valkey) while two masters in turn are killed and their replicas take over.
As under a single Valkey's SIGKILLs (tests/faults/test_outcomes.py, whose players these are):
no move answered 500 "nothing was changed" is in the log, and every 503 (outcome unknown) is
resolved by sending the same Idempotency-Key again; a database away answers 503, never 500,
and the API's log tells it in a line per error, without tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from store import keys
from store.connection import connect
from store.embedded import EmbeddedCluster, EmbeddedValkey
from tests.e2e.server import Client, LiveServer
from tests.faults.test_outcomes import Player

pytestmark = [pytest.mark.faults, pytest.mark.slow]

FAST = {"BOT_DELAY_SECONDS": "0", "VACATION_DAYS_A_YEAR": "0"}


def test_cluster_masters_killed_under_load_no_500_is_in_the_log_and_every_503_resolves(tmp_path):
    cluster = EmbeddedCluster(tmp_path / "cluster", replicas=1, node_timeout_ms=2000).start()
    queues = EmbeddedValkey(tmp_path / "queues", appendonly=False).start()
    env = {"QUEUE_REDIS_URL": queues.url, **FAST}
    server = None
    worker = subprocess.Popen(
        [sys.executable, "-m", "turnpost.cli", "worker"],
        env={**os.environ, "REDIS_URL": cluster.url, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        server = LiveServer("--no-worker", redis_url=cluster.url, env=env).wait_ready()
        stop = threading.Event()
        players = []
        for group in range(3):
            games = []
            for i in range(3):
                person = Client(server.url, f"P{group}{i}")
                made = person.post(
                    "/v1/games", {"game": "nautilus", "seats": [person.id, "bot:heuristic"]}
                )
                assert made.status_code == 201, made.text
                games.append((person, made.json()["id"]))
            players.append(Player(server.url, games, stop))
        for player in players:
            player.start()
        for _ in range(2):  # two masters in turn: each has a replica to take over
            time.sleep(2.5)
            cluster.kill_master()
        time.sleep(3)
        stop.set()
        for player in players:
            player.join(60)

        answers = [a for p in players for a in p.answers]
        assert sum(1 for a in answers if a[3] == 201) > 20, "the people moved"
        data = connect(cluster.url)
        believed = [(g, p, k) for g, p, k, status, _ in answers if status == 500]
        played = [k for g, p, k in believed if data.exists(keys.game_idempotency(g, p, k))]
        assert not played, f"answered 500 'nothing was changed' but in the log: {played}"
        assert not [u for p in players for u in p.unresolved]
        codes = {(status, code) for _, _, _, status, code in answers if status >= 500}
        print(f"{len(answers)} answers; 5xx: {codes}; 500s believed: {len(believed)}")
        assert not believed, "a database away is 503 server/unavailable: try again, not a 500"
        printed = server.printed()
        assert "Traceback" not in printed, "a failover is told in a line per error, no traceback"
    finally:
        if server is not None:
            server.stop()
        worker.terminate()
        try:
            worker.wait(15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        queues.stop()
        cluster.stop()
