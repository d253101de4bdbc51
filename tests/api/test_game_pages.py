"""A player's games and inbox in pages: following `next` (the field, or the Link header) reads
every game once, in order, however many; a cursor the server did not make is refused.
Real Valkey, the app over WSGI."""

import pytest

from api.app import create_app
from api.front_door import FrontDoor


@pytest.mark.slow  # over a second: not in make test-fast
def test_following_next_reads_every_game_once(redis_client):
    app = create_app(redis_client, front_door=FrontDoor(rate_limits=False))
    services = app.extensions["turnpost"]["services"]
    client = app.test_client()
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    bo = client.post("/v1/players", json={"name": "Bo"}).json
    services.players.set_friends(bo["id"], [ada["id"]])
    made = [
        services.games.create(ada["id"], "ninedomains", [ada["id"], bo["id"]])["id"]
        for _ in range(23)
    ]
    headers = {"Authorization": f"Bearer {ada['token']}"}
    for first in ("/v1/games?limit=5", "/v1/games?awaiting=me&limit=5"):
        url, seen = first, []
        while url:
            page = client.get(url, headers=headers)
            assert page.status_code == 200, page.json
            seen += [g["id"] for g in page.json["games"]]
            url = page.json["next"]
            if url:
                assert page.headers["Link"] == f'<{url}>; rel="next"'
        assert sorted(seen) == sorted(made) and len(seen) == len(set(seen)) == 23, first
        everything = client.get(first.replace("limit=5", "limit=200"), headers=headers).json
        assert [g["id"] for g in everything["games"]] == seen, "the pages keep the list's order"
        assert everything["next"] is None


def test_a_forged_cursor_is_refused(redis_client):
    client = create_app(redis_client, front_door=FrontDoor(rate_limits=False)).test_client()
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    headers = {"Authorization": f"Bearer {ada['token']}"}
    for cursor in ("nonsense", "eyJhIjogMX0", "W3RydWUsICJnIl0"):
        r = client.get(f"/v1/games?cursor={cursor}", headers=headers)
        assert r.status_code == 422 and r.json["code"] == "request/invalid", cursor
