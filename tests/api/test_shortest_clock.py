"""MIN_MOVE_SECONDS: the shortest clock a game may be created with (a minute unless the server
says otherwise), so that tests, soaks and demonstrations can run clocks of seconds."""

from api.app import create_app
from service.settings import Settings


def create_with_clock(client, seconds: int):
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    return client.post(
        "/v1/games",
        json={
            "game": "ninedomains",
            "seats": [ada["id"], "bot:random"],
            "time_control": {"per_move_seconds": seconds},
        },
        headers={"Authorization": f"Bearer {ada['token']}"},
    )


def test_a_clock_under_a_minute_is_refused_by_default(redis_client):
    answer = create_with_clock(create_app(redis_client).test_client(), 5)
    assert answer.status_code == 422, answer.json
    assert answer.json["code"] == "game/invalid_time_control"
    assert "from 60 to" in answer.json["message"]


def test_the_setting_allows_clocks_of_seconds(redis_client):
    settings = Settings.from_env({"MIN_MOVE_SECONDS": "5"})
    app = create_app(redis_client, settings=settings)
    answer = create_with_clock(app.test_client(), 5)
    assert answer.status_code == 201, answer.json
    assert answer.json["time_control"]["per_move_seconds"] == 5
    refused = create_with_clock(app.test_client(), 4)
    assert refused.status_code == 422 and "from 5 to" in refused.json["message"]
