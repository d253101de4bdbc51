"""Table talk over HTTP against a real `turnpost serve`: hostile messages refused with a clear
422 or given back as the very text in every answer (the list, the log, the event stream), none
to a spectator; a player who writes too much gets 429 with Retry-After."""

import json

import requests

from tests.e2e.server import Client
from tests.e2e.test_hostile_input import post_raw
from tests.hostile_text import REFUSED, SHOWN


def a_game(live_server, title="nautilus"):
    ada, bo = Client(live_server.url, "Ada"), Client(live_server.url, "Bo")
    bo.befriend(ada)
    r = ada.post("/v1/games", {"game": title, "seats": [ada.id, bo.id]})
    assert r.status_code == 201, r.text
    return r.json()["id"], ada, bo


def stream_entries(live_server, client, game_id, count):
    """The first `count` MessageSent entries of the game's event stream, as the client reads
    them."""
    found = []
    with requests.get(
        f"{live_server.url}/v1/games/{game_id}/stream",
        headers=client.headers,
        stream=True,
        timeout=30,
    ) as r:
        assert r.status_code == 200
        kind = None
        for line in r.iter_lines(decode_unicode=True):
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: ") and kind == "MessageSent":
                found.append(json.loads(line.removeprefix("data: ")))
                if len(found) == count:
                    return found
    raise AssertionError(f"the stream ended after {len(found)} messages")


def test_hostile_messages_are_refused_or_given_back_as_written(live_server):
    game_id, ada, bo = a_game(live_server)
    chat = f"/v1/games/{game_id}/chat"
    for what, text in REFUSED.items():
        raw = json.dumps({"text": text})  # a lone surrogate goes escaped, as JSON writes it
        r = post_raw(live_server.url, chat, raw, ada.headers)
        assert r.status_code == 422, (what, r.text)
        assert r.json()["code"] in ("request/invalid", "chat/invalid"), what
        assert r.json()["message"], what
    for text in SHOWN.values():
        r = ada.post(chat, {"text": text})
        assert r.status_code == 201, r.text
        assert r.headers["Location"].startswith(chat + "?after=")
    wanted = list(SHOWN.values())
    assert [m["text"] for m in bo.get(chat).json()["messages"]] == wanted
    log = bo.get(f"/v1/games/{game_id}/log").json()["entries"]
    assert [e["message"]["text"] for e in log if e["type"] == "MessageSent"] == wanted
    streamed = stream_entries(live_server, bo, game_id, len(wanted))
    assert [e["message"]["text"] for e in streamed] == wanted
    spectator = Client(live_server.url, "Eve")
    assert spectator.get(chat).status_code == 403
    seen = spectator.get(f"/v1/games/{game_id}/log").json()["entries"]
    assert all(e["type"] != "MessageSent" for e in seen)
    assert not any(text in json.dumps(seen) for text in wanted)


def test_a_player_who_writes_too_much_is_told_when_to_try_again(live_server):
    game_id, ada, bo = a_game(live_server, "buttons")
    chat = f"/v1/games/{game_id}/chat"
    answers = [ada.post(chat, {"text": f"message {i}"}) for i in range(11)]
    assert [r.status_code for r in answers[:10]] == [201] * 10  # TALK_PER_MINUTE
    limited = answers[10]
    assert limited.status_code == 429 and limited.json()["code"] == "rate/limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert "at most 10 messages and proposals in a minute" in limited.json()["message"]
    assert len(bo.get(chat).json()["messages"]) == 10
    assert bo.post(chat, {"text": "the others still may"}).status_code == 201
