"""Both event streams read where to resume the same way: Last-Event-ID, or `after` for a
client that cannot send it, each an id of that stream or refused with 422. Real Valkey, the
app over WSGI."""

import pytest

from api.app import create_app
from api.front_door import FrontDoor


@pytest.fixture
def streams(redis_client):
    app = create_app(
        redis_client, config={"STREAM_SECONDS": 0}, front_door=FrontDoor(rate_limits=False)
    )
    client = app.test_client()
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    services = app.extensions["turnpost"]["services"]
    bo = services.players.register("Bo")["id"]
    services.players.set_friends(bo, [ada["id"]])
    game = services.games.create(ada["id"], "ninedomains", [ada["id"], bo])["id"]
    headers = {"Authorization": f"Bearer {ada['token']}"}
    return client, headers, {"game": f"/v1/games/{game}/stream", "player": "/v1/players/me/stream"}


@pytest.mark.parametrize(
    ("stream", "good", "bad", "kind"),
    [("game", "1", "1-0", "version numbers"), ("player", "1-0", "yesterday", "event ids")],
)
def test_a_stream_resumes_from_its_own_ids_and_refuses_others(streams, stream, good, bad, kind):
    client, headers, paths = streams
    path = paths[stream]
    assert client.get(path, headers={**headers, "Last-Event-ID": good}).status_code == 200
    assert client.get(f"{path}?after={good}", headers=headers).status_code == 200
    for refused in (
        client.get(path, headers={**headers, "Last-Event-ID": bad}),
        client.get(f"{path}?after={bad}", headers=headers),
        client.get(f"{path}?after={good}", headers={**headers, "Last-Event-ID": bad}),
    ):
        assert refused.status_code == 422 and refused.json["code"] == "request/invalid"
        assert f"Last-Event-ID and after must be {kind}" in refused.json["message"]
