"""One stream per player: GET /v1/players/me/stream delivers what concerns the player across
all their games, in order, to one connection, and resumes after a cut from Last-Event-ID
without losing or repeating an event. A real `turnpost serve` with its worker on a real
Valkey (which the test also reads, as the record of what was written)."""

import json
import queue
import socket
import threading
import time

import pytest
import requests

from store import keys
from store.connection import connect
from tests.e2e.server import Client, LiveServer


@pytest.fixture(scope="module")
def server(valkey):
    server = LiveServer(redis_url=valkey.url, env={"BOT_DELAY_SECONDS": "0"}).wait_ready()
    yield server
    server.stop()


class Listener:
    """A connection to the player's stream, read in a thread: (id, event, data) as they come."""

    def __init__(self, client: Client, last_event_id: str | None = None):
        headers = dict(client.headers)
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.response = requests.get(
            client.base + "/v1/players/me/stream", headers=headers, stream=True, timeout=60
        )
        assert self.response.status_code == 200, self.response.text
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.events: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event: dict = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line == "":
                    if "id" in event:
                        self.events.put((event["id"], event["event"], json.loads(event["data"])))
                    event = {}
                elif not line.startswith(":"):
                    field, _, value = line.partition(": ")
                    event[field] = value
        except (requests.RequestException, AttributeError, ValueError):
            pass  # the connection was cut

    def take(self, count: int, timeout: float = 30) -> list:
        got = []
        deadline = time.monotonic() + timeout
        while len(got) < count:
            got.append(self.events.get(timeout=max(0.1, deadline - time.monotonic())))
        return got

    def close(self):
        """Cut the connection now (closing the response alone waits for the next data)."""
        self.response.raw.connection.sock.shutdown(socket.SHUT_RDWR)
        self.response.close()


def play_first_legal(player: Client, game_id: str) -> None:
    legal = player.get(f"/v1/games/{game_id}/legal-moves").json()
    r = player.post(
        f"/v1/games/{game_id}/moves",
        {"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]},
    )
    assert r.status_code == 201, r.text


def recorded(valkey, player_id: str) -> list[tuple[str, str, str, int]]:
    """What the worker wrote to the player's stream: (id, event, game, version)."""
    client = connect(valkey.url)
    return [
        (i.decode(), f[b"event"].decode(), f[b"game_id"].decode(), int(f[b"version"]))
        for i, f in client.xrange(keys.player_events(player_id))
    ]


def test_three_games_on_one_connection_in_order_and_resumed_after_a_cut(server, valkey):
    ada = Client(server.url, "Ada")
    others = [Client(server.url, name) for name in ("Bo", "Cy", "Di")]
    for other in others:
        other.befriend(ada)
    listener = Listener(ada)
    games = [
        ada.post("/v1/games", {"game": "ninedomains", "seats": [ada.id, o.id]}).json()["id"]
        for o in others
    ]
    first = listener.take(3)  # each game starts with Ada's turn
    assert {(e, d["game_id"]) for _, e, d in first} == {("turn.started", g) for g in games}
    # a round in each game: the opponent lays cards, then Ada, which starts round 2
    for game_id, other in zip(games, others):
        play_first_legal(other, game_id)
        play_first_legal(ada, game_id)
    more = listener.take(3)
    # one each (games in different buckets of the outbox may be told in either order)
    assert sorted(d["game_id"] for _, _, d in more) == sorted(games)
    listener.close()

    # while Ada is away, the three games move on
    for game_id, other in zip(games, others):
        play_first_legal(other, game_id)
        play_first_legal(ada, game_id)
    deadline = time.monotonic() + 30
    while len(recorded(valkey, ada.id)) < 9:
        assert time.monotonic() < deadline, recorded(valkey, ada.id)
        time.sleep(0.1)
    last_seen = more[-1][0]
    again = Listener(ada, last_event_id=last_seen)
    resumed = again.take(3)
    again.close()
    received = [(i, e, d["game_id"], d["version"]) for i, e, d in first + more + resumed]
    assert received == recorded(valkey, ada.id)[:9], "nothing lost, nothing twice, in order"
    ids = [i for i, *_ in received]
    assert ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-"))))
    for game_id in games:  # each game's events in the order it moved
        versions = [v for _, _, g, v in received if g == game_id]
        assert versions == sorted(versions) and len(versions) == 3, received


def test_a_bad_last_event_id_is_refused(server):
    ada = Client(server.url, "Ada")
    r = requests.get(
        server.url + "/v1/players/me/stream",
        timeout=10,
        headers={**ada.headers, "Last-Event-ID": "yesterday"},
    )
    assert r.status_code == 422 and r.json()["code"] == "request/invalid"
