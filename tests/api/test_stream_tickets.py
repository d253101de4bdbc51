"""Stream tickets: made with the token, they open one event stream (and nothing else), once,
within a minute; a forged, altered, used or expired one is refused with 401. Real Valkey, the
app over WSGI."""

import time

import pytest

from api.app import create_app
from api.front_door import FrontDoor


def setup(redis_client):
    app = create_app(
        redis_client, config={"STREAM_SECONDS": 0}, front_door=FrontDoor(rate_limits=False)
    )
    client = app.test_client()
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    headers = {"Authorization": f"Bearer {ada['token']}"}
    made = client.post("/v1/players/me/stream-ticket", headers=headers)
    assert made.status_code == 201 and made.json["expires_in"] == 60
    return client, app, ada, made.json["ticket"]


def test_a_ticket_opens_the_streams_and_nothing_else(redis_client):
    client, app, ada, ticket = setup(redis_client)
    assert client.get(f"/v1/players/me/stream?ticket={ticket}").status_code == 200
    services = app.extensions["turnpost"]["services"]
    bo = services.players.register("Bo")["id"]
    services.players.set_friends(bo, [ada["id"]])
    game = services.games.create(ada["id"], "ninedomains", [ada["id"], bo])["id"]
    another = services.players.stream_ticket(ada["id"])["ticket"]
    for path in ("/v1/players/me", f"/v1/games/{game}/view", "/v1/games"):
        assert client.get(f"{path}?ticket={another}").status_code == 401, path
    assert client.get(f"/v1/games/{game}/stream?ticket={another}").status_code == 200


@pytest.mark.slow
def test_a_ticket_opens_one_stream_once(redis_client):
    """A ticket copied from a URL (a proxy's log, a browser's history) opens nothing more."""
    client, app, ada, ticket = setup(redis_client)
    assert client.get(f"/v1/players/me/stream?ticket={ticket}").status_code == 200
    services = app.extensions["turnpost"]["services"]
    game = services.games.create(ada["id"], "nautilus", [ada["id"], "bot:random"])["id"]
    for path in ("/v1/players/me/stream", f"/v1/games/{game}/stream"):
        r = client.get(f"{path}?ticket={ticket}")
        assert r.status_code == 401 and r.json["code"] == "auth/bad_token", path
        assert "used" in r.json["message"]


def test_a_forged_or_expired_ticket_is_refused(redis_client, monkeypatch):
    client, _, _, ticket = setup(redis_client)
    forged = ticket[:-4] + ("AAAA" if not ticket.endswith("AAAA") else "BBBB")
    r = client.get(f"/v1/players/me/stream?ticket={forged}")
    assert r.status_code == 401 and r.json["code"] == "auth/bad_token"
    later = time.time() + 61
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: later)
    r = client.get(f"/v1/players/me/stream?ticket={ticket}")
    assert r.status_code == 401 and "expired" in r.json["message"]
