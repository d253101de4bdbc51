"""GET /v1/leaderboards/{game} and the ratings and record in GET /v1/players/{id}, through the
API, with the worker's part (recording a finished game) carried out in this process."""

from __future__ import annotations

import pytest

from api.app import create_app
from api.rating_schemas import LeaderboardSchema
from service.assembly import assemble
from service.settings import Settings
from store.outbox import Entry
from tests.api.conftest import befriend

SETTINGS = Settings(leaderboard_min_games=1)


class Kept:
    def queue(self, deliveries):
        pass


@pytest.fixture
def client(redis_client):
    return create_app(redis_client, settings=SETTINGS).test_client()


@pytest.fixture
def worker(redis_client):
    consequences = assemble(redis_client, SETTINGS, deliveries=Kept()).consequences

    def finish(game_id):
        snap = consequences.game_store.snapshot(game_id)
        consequences.carry_out(Entry(0, "0-0", game_id, snap["version"], snap["version"]))

    return finish


def played(client, worker, register, names, losers):
    """Players by name, and a rated game of Nautilus for each (winner, loser) pair, resigned."""
    people = {name: register(name) for name in names}
    for winner, loser in losers:
        (w, w_auth), (l_id, l_auth) = people[winner], people[loser]
        befriend(client, l_auth, w)
        r = client.post("/v1/games", json={"game": "nautilus", "seats": [w, l_id]}, headers=w_auth)
        assert r.status_code == 201 and r.json["rated"] is True, r.json
        game_id = r.json["id"]
        assert client.post(f"/v1/games/{game_id}/resign", headers=l_auth).status_code == 200
        worker(game_id)
    return people


def test_a_leaderboard_in_pages(client, worker, register):
    people = played(
        client, worker, register, ["Ada", "Bo", "Cy"], [("Ada", "Bo"), ("Ada", "Cy"), ("Bo", "Cy")]
    )
    first = client.get("/v1/leaderboards/nautilus?per_page=2")  # no token needed
    assert first.status_code == 200, first.json
    body = first.json
    assert [(p["rank"], p["name"], p["player_id"]) for p in body["players"]] == [
        (1, "Ada", people["Ada"][0]),
        (2, "Bo", people["Bo"][0]),
    ]
    assert body["total"] == 3 and body["pages"] == 2 and body["min_games"] == 1
    assert body["players"][0]["rating"] > body["players"][1]["rating"]
    assert body["players"][0]["provisional"] is True and body["players"][0]["games"] == 2
    assert first.headers["Link"] == f'<{body["next"]}>; rel="next"'
    second = client.get(body["next"]).json
    assert [p["name"] for p in second["players"]] == ["Cy"] and second["next"] is None
    for answer in (body, second):  # written straight as JSON: exactly what its schema dumps
        assert LeaderboardSchema().dump(answer) == answer
    assert client.get("/v1/leaderboards/nautilus?page=9").json["players"] == []
    assert client.get("/v1/leaderboards/buttons").json["total"] == 0


@pytest.mark.parametrize(
    "path, status, code",
    [
        ("/v1/leaderboards/chess", 404, "leaderboard/not_found"),
        ("/v1/leaderboards/nautilus?page=0", 422, "request/invalid"),
        ("/v1/leaderboards/nautilus?per_page=201", 422, "request/invalid"),
        ("/v1/leaderboards/nautilus?page=x", 422, "request/invalid"),
    ],
)
def test_bad_leaderboard_requests_are_clear_errors(client, path, status, code):
    r = client.get(path)
    assert r.status_code == status and r.json["code"] == code and r.json["message"], r.json


def test_a_players_page_has_ratings_record_recent_games_and_head_to_head(client, worker, register):
    people = played(client, worker, register, ["Ada", "Bo"], [("Ada", "Bo"), ("Bo", "Ada")])
    (ada, ada_auth), (bo, bo_auth) = people["Ada"], people["Bo"]
    page = client.get(f"/v1/players/{ada}", headers=bo_auth).json
    (rating,) = page["ratings"]
    assert rating["game"] == "nautilus" and rating["games"] == 2 and rating["rank"] in (1, 2)
    assert [p["rating"] for p in rating["history"]][-1] == rating["rating"]
    assert page["record"] == [
        {
            "game": "nautilus",
            "title": "Nautilus",
            "games": 2,
            "rated_games": 2,
            "wins": 1,
            "places": [{"place": 1, "games": 1}, {"place": 2, "games": 1}],
        }
    ]
    assert [r["place"] for r in page["recent"]] == [2, 1]  # latest first
    assert page["recent"][0]["others"] == [{"player_id": bo, "name": "Bo", "place": 1}]
    h2h = page["head_to_head"]
    assert (h2h["player_id"], h2h["won"], h2h["lost"], h2h["drawn"]) == (bo, 1, 1, 0)
    assert client.get(f"/v1/players/{ada}", headers=ada_auth).json["head_to_head"] is None


def test_a_game_with_a_bot_is_rated_only_when_asked(client, register):
    ada, auth = register("Ada")
    body = {"game": "nautilus", "seats": [ada, "bot:random"]}
    assert client.post("/v1/games", json=body, headers=auth).json["rated"] is False
    rated = client.post("/v1/games", json={**body, "rated": True}, headers=auth)
    assert rated.json["rated"] is True
    bad = client.post("/v1/games", json={**body, "rated": "yes"}, headers=auth)
    assert bad.status_code == 422 and bad.json["code"] == "request/invalid"
