"""The log in pages: each page but the last names the next (a `next` field and a Link header),
and following them reads every entry once, in order. Real Valkey, the app over WSGI."""

import random

import pytest

from api.app import create_app
from api.front_door import FrontDoor


@pytest.mark.slow  # a long log read page by page, over a second
def test_following_next_reads_the_whole_log_once(redis_client):
    app = create_app(redis_client, front_door=FrontDoor(rate_limits=False))
    services = app.extensions["turnpost"]["services"]
    client = app.test_client()
    ada, bo = (client.post("/v1/players", json={"name": n}).json for n in ("Ada", "Bo"))
    services.players.set_friends(bo["id"], [ada["id"]])
    game_id = services.games.create(ada["id"], "buttons", [ada["id"], bo["id"]])["id"]
    rnd, people = random.Random(7), [ada["id"], bo["id"]]
    for _ in range(40):
        summary = services.games.summary(game_id)
        if summary["status"] != "active":
            break
        seat = rnd.choice(summary["active_seats"])
        moves = services.games.legal_moves(game_id, people[seat])["moves"]
        services.games.play(
            game_id, people[seat], summary["version"], action=rnd.choice(moves)["action"]
        )
    headers = {"Authorization": f"Bearer {ada['token']}"}
    version = services.games.summary(game_id)["version"]
    assert version > 25
    url, seen, pages = f"/v1/games/{game_id}/log?limit=10", [], 0
    while url:
        page = client.get(url, headers=headers)
        assert page.status_code == 200
        seen += [e["version"] for e in page.json["entries"]]
        url = page.json["next"]
        pages += 1
        if url:
            assert page.headers["Link"] == f'<{url}>; rel="next"'
        else:
            assert "Link" not in page.headers
    assert seen == list(range(1, version + 1))
    assert pages == -(-version // 10)
