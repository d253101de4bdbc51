"""/v1/matchmaking/{game} through the API: asking, asking again, reading the request, stopping,
the codes of what is refused, every answer what its schema dumps. The worker's part (the
pairing, the game) is carried out in this process."""

from __future__ import annotations

from api.matchmaking_schemas import MatchRequestSchema


def test_ask_wait_and_get_a_game(client, register, worker):
    _, ada = register("Ada")
    _, bo = register("Bo")
    r = client.post("/v1/matchmaking/buttons", json={"bot_after_seconds": 3600}, headers=ada)
    assert r.status_code == 201 and r.headers["Location"] == "/v1/matchmaking/buttons"
    asked = r.json
    assert asked["status"] == "waiting" and asked["rating"] == 1500 and asked["bot_at"]
    assert MatchRequestSchema().dump(asked) == asked
    again = client.post("/v1/matchmaking/buttons", headers=ada)
    assert again.status_code == 200 and again.json == asked
    assert client.post("/v1/matchmaking/buttons", headers=bo).status_code == 201
    worker()
    mine = client.get("/v1/matchmaking/buttons", headers=ada).json
    assert mine["status"] == "matched" and mine["opponent"]["name"] == "Bo"
    assert MatchRequestSchema().dump(mine) == mine
    game = client.get(f"/v1/games/{mine['game_id']}", headers=bo).json
    assert game["status"] == "active" and game["rated"] is True
    r = client.delete("/v1/matchmaking/buttons", headers=ada)
    assert (r.status_code, r.json["code"]) == (409, "matchmaking/matched")
    assert r.json["game_id"] == mine["game_id"]


def test_stopping_and_what_is_refused(client, register):
    _, ada = register("Ada")
    for method, path in [
        ("get", "/v1/matchmaking/nautilus"),
        ("delete", "/v1/matchmaking/nautilus"),
        ("post", "/v1/matchmaking/chess"),
    ]:
        r = getattr(client, method)(path, headers=ada)
        assert (r.status_code, r.json["code"]) == (404, "matchmaking/not_found"), path
    for wait in (-1, 7 * 86400 + 1, "soon", 1.5):
        r = client.post("/v1/matchmaking/nautilus", json={"bot_after_seconds": wait}, headers=ada)
        assert (r.status_code, r.json["code"]) == (422, "request/invalid"), wait
    assert client.post("/v1/matchmaking/nautilus", headers=ada).status_code == 201
    stopped = client.delete("/v1/matchmaking/nautilus", headers=ada)
    assert stopped.status_code == 200 and stopped.json["status"] == "cancelled"
    assert client.get("/v1/matchmaking/nautilus").status_code == 401
