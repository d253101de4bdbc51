"""Honest outcomes under SIGKILL: people play against bots through `turnpost serve` while
Valkey is killed (SIGKILL) and started again on its data, several times. No move answered
500 "nothing was changed" is in the log, and every 503 (outcome unknown) is resolved by
sending the same Idempotency-Key again: the stored answer, or the move applied now, once.
tests/service/test_outcomes.py makes the lost answer happen every time, through a proxy."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
import requests

from store import keys
from store.connection import connect
from tests.e2e.server import Client
from tests.faults.test_faults import World

pytestmark = pytest.mark.slow


@pytest.fixture
def world(tmp_path):
    built = World(tmp_path)
    yield built
    built.close()


class Player(threading.Thread):
    """Plays its games whenever it is its turn, with a new Idempotency-Key per move. A 500 is
    believed (nothing was changed: the key is dropped, the move chosen again); a 503 or no
    answer is resolved by sending the same request with the same key again."""

    def __init__(self, base: str, games: list[tuple[Client, str]], stop: threading.Event):
        super().__init__(daemon=True)
        self.base, self.games, self.stop = base, games, stop
        self.answers: list[tuple[str, str, str, int, str]] = []
        """(game, player id, key, status, code) of every answer to a move."""
        self.unresolved: list[tuple[str, str]] = []

    def run(self) -> None:
        while not self.stop.is_set():
            for client, game_id in self.games:
                try:
                    self.turn(client, game_id)
                except requests.RequestException:
                    time.sleep(0.2)

    def turn(self, client: Client, game_id: str) -> None:
        legal = client.get(f"/v1/games/{game_id}/legal-moves")
        if legal.status_code != 200 or not legal.json()["moves"]:
            time.sleep(0.1)
            return
        body = {
            "notation": legal.json()["moves"][0]["notation"],
            "expected_version": legal.json()["version"],
        }
        key = uuid.uuid4().hex
        unknown = False
        for _ in range(60):
            try:
                r = requests.post(
                    f"{self.base}/v1/games/{game_id}/moves",
                    json=body,
                    headers={**client.headers, "Idempotency-Key": key},
                    timeout=15,
                )
            except requests.RequestException:
                unknown = True
                time.sleep(0.2)
                continue
            code = r.json().get("code", "") if r.status_code >= 400 else ""
            self.answers.append((game_id, client.id, key, r.status_code, code))
            if r.status_code == 503:
                unknown = True
                assert int(r.headers["Retry-After"]) >= 1
                time.sleep(1)  # a test's patience; a client waits Retry-After
                continue
            if unknown and r.status_code not in (201, 409):
                self.unresolved.append((key, f"{r.status_code} {code}"))
            return
        self.unresolved.append((key, "no answer after 60 tries"))


def test_valkey_killed_under_load_no_500_is_in_the_log_and_every_503_resolves(world):
    world.start_worker()
    server = world.start_server()
    service = world.service()
    stop = threading.Event()
    players = []
    for group in range(3):
        games = []
        for i in range(3):
            person = Client(server.url, f"P{group}{i}")
            game_id = service.create(person.id, "nautilus", [person.id, "bot:heuristic"])["id"]
            games.append((person, game_id))
        players.append(Player(server.url, games, stop))
    for player in players:
        player.start()
    for _ in range(4):
        time.sleep(2.5)
        world.kill_valkey_and_restart(down_seconds=1.0)
    time.sleep(3)
    stop.set()
    for player in players:
        player.join(60)
    answers = [a for p in players for a in p.answers]
    assert sum(1 for a in answers if a[3] == 201) > 20, "the people moved"
    # a move believed lost (500 "nothing was changed") whose key is in the store was played
    client = connect(world.url)
    believed = [(g, p, k) for g, p, k, status, _ in answers if status == 500]
    played = [k for g, p, k in believed if client.exists(keys.game_idempotency(g, p, k))]
    assert not played, f"answered 500 'nothing was changed' but in the log: {played}"
    assert not [u for p in players for u in p.unresolved]
    codes = {(status, code) for _, _, _, status, code in answers if status >= 500}
    print(f"{len(answers)} answers; 5xx: {codes}; 500s believed: {len(believed)}")
