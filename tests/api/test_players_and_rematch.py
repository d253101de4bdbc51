"""What the web client needs and client authors want too (issue 17): finding a player by name,
a player's public profile, and a rematch of a finished game. Over HTTP (Flask's test client)
on a real Valkey."""

import threading

import pytest

from service.secrets import upgrade_secrets
from store import keys
from tests.api.conftest import befriend


def test_players_are_found_by_the_start_of_their_name_in_any_case(client, register):
    (ada, ha), (ada2, _), (bo, _) = register("Ada"), register("ada lovelace"), register("Bo")
    register("Adam")
    r = client.get("/v1/players?name=ADA", headers=ha)
    assert r.status_code == 200
    names = [p["name"] for p in r.json["players"]]
    assert names == ["Ada", "ada lovelace", "Adam"]
    assert {p["id"] for p in r.json["players"]} >= {ada, ada2}
    assert client.get("/v1/players?name=bo", headers=ha).json["players"] == [
        {"id": bo, "name": "Bo"}
    ]
    assert client.get("/v1/players?name=zed", headers=ha).json["players"] == []
    assert client.get("/v1/players?name=a&limit=2", headers=ha).json["players"][1]["name"] == (
        "ada lovelace"
    )


def test_a_renamed_player_is_found_by_the_new_name_only(client, register):
    (ada, ha) = register("Ada")
    assert client.patch("/v1/players/me", json={"name": "Grace"}, headers=ha).status_code == 200
    assert client.get("/v1/players?name=ada", headers=ha).json["players"] == []
    assert client.get("/v1/players?name=gr", headers=ha).json["players"] == [
        {"id": ada, "name": "Grace"}
    ]


def test_finding_players_needs_a_token_and_a_name(client, register):
    _, ha = register("Ada")
    assert client.get("/v1/players?name=ada").status_code == 401
    r = client.get("/v1/players", headers=ha)
    assert r.status_code == 422 and r.json["code"] == "request/invalid"


@pytest.mark.slow  # over a second
def test_players_registered_before_the_name_index_are_found_after_the_upgrade(
    app, client, register, redis_client
):
    ada, ha = register("Ada")
    redis_client.delete(keys.PLAYER_NAMES)  # as a database written before the index was
    assert client.get("/v1/players?name=ada", headers=ha).json["players"] == []
    services = app.extensions["turnpost"]["services"]
    done = upgrade_secrets(services.players.players, services.players.notes, services.players.keys)
    assert done["names"] == 1
    assert client.get("/v1/players?name=ada", headers=ha).json["players"] == [
        {"id": ada, "name": "Ada"}
    ]


def test_a_public_profile_says_the_name_and_the_games_played_and_nothing_private(client, register):
    (ada, ha), (bo, hb) = register("Ada"), register("Bo")
    client.patch("/v1/players/me", json={"email": "bo@example.org"}, headers=hb)
    assert client.get(f"/v1/players/{bo}", headers=ha).json == {
        "id": bo,
        "name": "Bo",
        "games_played": 0,
        "ratings": [],
        "record": [],
        "recent": [],
        "head_to_head": {"player_id": ada, "won": 0, "lost": 0, "drawn": 0, "games": []},
    }
    befriend(client, hb, ada)
    r = client.post("/v1/games", json={"game": "nautilus", "seats": [ada, bo]}, headers=ha)
    assert r.status_code == 201
    assert client.get(f"/v1/players/{bo}", headers=ha).json["games_played"] == 1
    r = client.get("/v1/players/p_nobody", headers=ha)
    assert r.status_code == 404 and r.json["code"] == "player/not_found"


def finished_game(client, ada, ha, bo, hb):
    """A game of Nautilus between Ada and Bo, with an option and a clock, that Bo resigned."""
    befriend(client, hb, ada)
    game = client.post(
        "/v1/games",
        json={
            "game": "nautilus",
            "seats": [ada, bo],
            "options": {"hidden_domains": True},
            "time_control": {"per_move_seconds": 86400, "on_timeout": "forfeit"},
        },
        headers=ha,
    ).json
    assert client.post(f"/v1/games/{game['id']}/resign", headers=hb).json["status"] == "finished"
    return game


def test_a_rematch_has_the_same_title_options_clock_and_seats_turned_by_one(client, register):
    (ada, ha), (bo, hb) = register("Ada"), register("Bo")
    game = finished_game(client, ada, ha, bo, hb)
    r = client.post(f"/v1/games/{game['id']}/rematch", headers=hb)
    assert r.status_code == 201, r.json
    rematch = r.json
    assert r.headers["Location"] == f"/v1/games/{rematch['id']}"
    assert rematch["id"] != game["id"] and rematch["game"] == "nautilus"
    assert rematch["options"] == game["options"]
    assert rematch["time_control"] == game["time_control"]
    # Bo asked: he takes his seat; Ada, who has not made Bo a friend, is invited; Bo begins
    assert [(s["player_id"], s["kind"]) for s in rematch["seats"]] == [
        (bo, "player"),
        (ada, "invited"),
    ]
    # asking again, or the other player asking, gives the same game
    again = client.post(f"/v1/games/{game['id']}/rematch", headers=ha)
    assert again.status_code == 200 and again.json["id"] == rematch["id"]
    assert client.post(f"/v1/games/{game['id']}/join", headers=ha).status_code == 409
    assert client.post(f"/v1/games/{rematch['id']}/join", headers=ha).json["status"] == "active"


def test_a_rematch_keeps_the_bots_in_their_seats(client, register):
    (ada, ha), (bo, hb) = register("Ada"), register("Bo")
    befriend(client, hb, ada)
    seats = [ada, bo, "bot:heuristic"]
    game = client.post("/v1/games", json={"game": "consonar", "seats": seats}, headers=ha).json
    client.post(f"/v1/games/{game['id']}/resign", headers=hb)
    assert client.post(f"/v1/games/{game['id']}/resign", headers=ha).json["status"] == "finished"
    rematch = client.post(f"/v1/games/{game['id']}/rematch", headers=ha).json
    assert [s["name"] for s in rematch["seats"]] == ["Bo", "bot:heuristic", "Ada"]


def test_only_a_player_of_a_finished_game_may_ask_for_its_rematch(client, register):
    (ada, ha), (bo, hb), (_, hc) = register("Ada"), register("Bo"), register("Cy")
    befriend(client, hb, ada)
    game = client.post("/v1/games", json={"game": "nautilus", "seats": [ada, bo]}, headers=ha).json
    r = client.post(f"/v1/games/{game['id']}/rematch", headers=ha)
    assert r.status_code == 409 and r.json["code"] == "game/not_finished"
    client.post(f"/v1/games/{game['id']}/resign", headers=hb)
    r = client.post(f"/v1/games/{game['id']}/rematch", headers=hc)
    assert r.status_code == 403 and r.json["code"] == "game/not_a_player"
    r = client.post("/v1/games/g_nothing/rematch", headers=ha)
    assert r.status_code == 404 and r.json["code"] == "game/not_found"


def test_two_players_asking_at_once_get_one_rematch(app, register):
    clients = [app.test_client(), app.test_client()]
    (ada, ha), (bo, hb) = register("Ada"), register("Bo")
    game = finished_game(clients[0], ada, ha, bo, hb)
    answers: list = []
    start = threading.Barrier(2)

    def ask(client, headers):
        start.wait()
        for _ in range(50):
            r = client.post(f"/v1/games/{game['id']}/rematch", headers=headers)
            if r.status_code != 409:  # game/busy while the other creates it: try again
                answers.append(r)
                return

    threads = [threading.Thread(target=ask, args=(c, h)) for c, h in zip(clients, (ha, hb))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [200, 201]
    assert len({r.json["id"] for r in answers}) == 1


def test_a_time_zone_is_an_iana_name(client, register):
    _, ha = register("Ada")
    r = client.patch("/v1/players/me", json={"time_zone": "Europe/Rome"}, headers=ha)
    assert r.status_code == 200 and r.json["time_zone"] == "Europe/Rome"
    r = client.patch("/v1/players/me", json={"time_zone": "Mars/Olympus_Mons"}, headers=ha)
    assert r.status_code == 422 and r.json["code"] == "player/invalid"
    assert client.get("/v1/players/me", headers=ha).json["time_zone"] == "Europe/Rome"
    r = client.patch("/v1/players/me", json={"time_zone": None}, headers=ha)
    assert r.json["time_zone"] is None


def test_a_deadline_in_words_is_written_in_the_readers_time_zone():
    from service.timefmt import in_words

    noon_utc = 1_795_000_000_000 - 1_795_000_000_000 % 86_400_000 + 12 * 3_600_000
    assert in_words(noon_utc, noon_utc - 3_600_000).endswith(", 12:00 UTC)")
    assert in_words(noon_utc, noon_utc - 3_600_000, "Asia/Tokyo").endswith(", 21:00 Asia/Tokyo)")
    assert in_words(noon_utc, noon_utc, "Not/A_Zone").endswith(" UTC)")


def test_the_catalog_lists_each_titles_bots_and_a_seat_takes_only_those(client, register):
    """Every title has bot:expert since each bot module can draw the worlds it searches."""
    ada, ha = register("Ada")
    bots = {g["name"]: g["bots"] for g in client.get("/v1/catalog").json["games"]}
    assert all(b == ["bot:random", "bot:heuristic", "bot:expert"] for b in bots.values())
    r = client.post(
        "/v1/games", json={"game": "nautilus", "seats": [ada, "bot:genius"]}, headers=ha
    )
    assert r.status_code == 422 and r.json["code"] == "game/invalid_seats"
    assert "bot:random, bot:heuristic, bot:expert" in r.json["message"]
    r = client.post(
        "/v1/games", json={"game": "ninedomains", "seats": [ada, "bot:expert"]}, headers=ha
    )
    assert r.status_code == 201 and r.json["seats"][1]["name"] == "bot:expert"
