"""Every rate limit met over HTTP against a real `turnpost serve` (two worker processes that
share the counts in Redis), with limits set low through the environment: 429 with
`rate/limited`, Retry-After and the IETF RateLimit headers; other buckets unaffected."""

import re

import pytest
import requests

from store.connection import connect
from tests.e2e.server import Client, LiveServer

LIMITS = {
    "LIMIT_REGISTER_PER_IP": "6/minute",
    "LIMIT_ANONYMOUS_PER_IP": "5/minute",
    "LIMIT_CREATE_PER_PLAYER": "2/minute",
    "LIMIT_MOVES_PER_PLAYER": "3/minute",
    "LIMIT_READS_PER_PLAYER": "4/minute",
}


@pytest.fixture(scope="module")
def live(valkey):
    server = LiveServer("--no-worker", redis_url=valkey.url, env=LIMITS).wait_ready()
    yield server
    server.stop()


@pytest.fixture
def server(live, valkey):
    """The server, with every count at zero (wait_ready's and other tests' calls counted)."""
    connect(valkey.url).flushall()
    return live


def assert_limited(response, bucket: str, quota: int):
    assert response.status_code == 429, response.text
    assert response.json()["code"] == "rate/limited"
    assert bucket in response.json()["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert response.headers["RateLimit-Policy"] == f'"{bucket}";q={quota};w=60'
    assert re.fullmatch(rf'"{bucket}";r=0;t=\d+', response.headers["RateLimit"])


def test_registration_is_limited_per_address(server):
    answers = [
        requests.post(server.url + "/v1/players", json={"name": f"P{i}"}, timeout=10)
        for i in range(7)
    ]
    assert [r.status_code for r in answers[:6]] == [201] * 6
    assert answers[0].headers["RateLimit"] == '"register";r=5;t=60'
    assert_limited(answers[6], "register", 6)


def test_anonymous_calls_and_bad_tokens_are_limited_per_address(server):
    bad = {"Authorization": "Bearer not-a-token"}
    answers = [requests.get(server.url + "/v1/catalog", timeout=10) for _ in range(3)]
    answers += [requests.get(server.url + "/v1/games", headers=bad, timeout=10) for _ in range(3)]
    assert [r.status_code for r in answers] == [200, 200, 200, 401, 401, 429]
    assert_limited(answers[-1], "anonymous", 5)
    player = Client(server.url, "Ada")  # registering and a player's calls are other buckets
    assert player.get("/v1/games").status_code == 200


def test_game_creation_is_limited_per_player(server):
    ada, bo = Client(server.url, "Ada"), Client(server.url, "Bo")
    made = [
        ada.post("/v1/games", {"game": "ninedomains", "seats": [ada.id, bo.id]}) for _ in range(3)
    ]
    assert [r.status_code for r in made[:2]] == [201, 201]
    assert_limited(made[2], "create", 2)
    assert (
        bo.post("/v1/games", {"game": "ninedomains", "seats": [bo.id, ada.id]}).status_code == 201
    )


def test_moves_are_limited_per_player(server):
    ada, bo = Client(server.url, "Ada"), Client(server.url, "Bo")
    bo.befriend(ada)  # Bo's settings count against his own quota, not Ada's
    game_id = ada.post("/v1/games", {"game": "ninedomains", "seats": [ada.id, bo.id]}).json()["id"]
    stale = [
        ada.post(f"/v1/games/{game_id}/moves", {"notation": "x", "expected_version": 1})
        for _ in range(4)
    ]
    assert [r.status_code for r in stale[:3]] == [409, 409, 409]
    assert_limited(stale[3], "moves", 3)
    assert ada.get(f"/v1/games/{game_id}").status_code == 200  # reads are another bucket


def test_reads_are_limited_per_player(server):
    ada = Client(server.url, "Ada")
    reads = [ada.get("/v1/games") for _ in range(5)]
    assert [r.status_code for r in reads[:4]] == [200] * 4
    assert reads[3].headers["RateLimit"].startswith('"reads";r=0;')
    assert_limited(reads[4], "reads", 4)
    assert Client(server.url, "Bo").get("/v1/games").status_code == 200
