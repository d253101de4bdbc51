"""kill -9 of the embedded Valkey after an acknowledged move; `turnpost serve` restarted on
the same data folder still has the move."""

import os
import signal

import requests

from engine import registry
from tests.e2e.server import Client, LiveServer


def test_acknowledged_move_survives_kill_9_of_the_embedded_server(tmp_path):
    name = sorted(registry.GAMES)[0]
    data = tmp_path / "data"
    server = LiveServer("--no-worker", "--data", str(data)).wait_ready()
    try:
        a, b = Client(server.url, "Ada"), Client(server.url, "Bo")
        b.befriend(a)
        game_id = a.post("/v1/games", {"game": name, "seats": [a.id, b.id]}).json()["id"]
        summary = a.get(f"/v1/games/{game_id}").json()
        mover = next(c for c in (a, b) if (a, b).index(c) in summary["active_seats"])
        move = mover.get(f"/v1/games/{game_id}/legal-moves").json()["moves"][0]
        r = mover.post(
            f"/v1/games/{game_id}/moves",
            {"notation": move["notation"], "expected_version": summary["version"]},
        )
        assert r.status_code == 201
        acknowledged = r.json()["version"]
        os.kill(int((data / "valkey.pid").read_text()), signal.SIGKILL)
    finally:
        server.stop()
    again = LiveServer("--no-worker", "--data", str(data)).wait_ready()
    try:
        a.base = b.base = again.url
        assert a.get(f"/v1/games/{game_id}").json()["version"] == acknowledged
        log = mover.get(f"/v1/games/{game_id}/log").json()["entries"]
        assert log[-1]["version"] == acknowledged and log[-1]["move"] == move["notation"]
        assert requests.get(again.url + "/v1/catalog", timeout=5).status_code == 200
    finally:
        again.stop()
