"""Over real HTTP against a live server: 50 concurrent submissions of one version, and the
server-sent event stream (each event once, in order, resumable with Last-Event-ID)."""

import json
import threading

import requests

from tests.e2e.server import Client


def nine_domains(live_server):
    a, b = Client(live_server.url, "Ada"), Client(live_server.url, "Bo")
    b.befriend(a)
    game_id = a.post("/v1/games", {"game": "ninedomains", "seats": [a.id, b.id]}).json()["id"]
    return game_id, a, b


def test_fifty_threads_same_expected_version_one_accepted(live_server):
    game_id, a, _ = nine_domains(live_server)
    move = a.get(f"/v1/games/{game_id}/legal-moves").json()["moves"][0]
    statuses = []

    def submit():
        r = a.post(f"/v1/games/{game_id}/moves", {"action": move["action"], "expected_version": 2})
        statuses.append((r.status_code, r.json()["code"] if r.status_code != 201 else None))

    threads = [threading.Thread(target=submit) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count((201, None)) == 1
    assert all(s == (409, "move/stale_version") for s in statuses if s[0] != 201)
    versions = [e["version"] for e in a.get(f"/v1/games/{game_id}/log").json()["entries"]]
    assert versions == [1, 2, 3]


def read_events(response, count):
    """The next `count` events of an SSE response, as (id, type, data)."""
    events, fields = [], {}
    for line in response.iter_lines(decode_unicode=True):
        if line == "":
            if "id" in fields:
                events.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
                if len(events) == count:
                    return events
            fields = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(": ")
            fields[key] = value
    return events


def test_stream_delivers_in_order_and_resumes_without_gap(live_server):
    game_id, a, b = nine_domains(live_server)
    url = f"{live_server.url}/v1/games/{game_id}/stream"
    with requests.get(url, headers=a.headers, stream=True, timeout=30) as first:
        assert first.headers["Content-Type"].startswith("text/event-stream")
        seen = read_events(first, 2)
    assert [(v, t) for v, t, _ in seen] == [(1, "GameCreated"), (2, "GameStarted")]
    for player in (a, b):  # both commit while nobody listens
        move = player.get(f"/v1/games/{game_id}/legal-moves").json()["moves"][0]
        player.post(f"/v1/games/{game_id}/moves", {"action": move["action"], "expected_version": 2})
    with requests.get(
        url, headers={**a.headers, "Last-Event-ID": "2"}, stream=True, timeout=30
    ) as resumed:
        more = read_events(resumed, 2)
    assert [v for v, _, _ in more] == [3, 4]
    assert all(t == "ActionTaken" for _, t, _ in more)
    assert [d["version"] for _, _, d in more] == [3, 4]
    assert more[0][2].get("move") and "move" not in more[1][2]  # only my own move in notation
