"""Seating another player is an invitation (issue 15): over HTTP (Flask's test client) on a
real Valkey, with the test game. Whom a game may seat directly, and what join and decline do."""


def create(client, headers, seats, **more):
    r = client.post(
        "/v1/games", json={"game": "hiddenbid", "seats": seats, **more}, headers=headers
    )
    assert r.status_code == 201, r.json
    return r.json


def kinds(game):
    return [s["kind"] for s in game["seats"]]


def test_a_stranger_is_invited_and_the_game_waits_until_they_join(client, register, test_game):
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    game = create(client, ha, [a, b])
    assert game["status"] == "open" and kinds(game) == ["player", "invited"]
    assert game["seats"][1]["player_id"] == b and game["seats"][1]["name"] == "Bo"
    g = game["id"]
    # the stranger is not seated: nothing awaits them, they cannot move, and no one else may
    # take the seat reserved for them
    assert client.get("/v1/games?awaiting=me", headers=hb).json["games"] == []
    assert client.get("/v1/games", headers=hb).json["games"] == []
    assert client.get(f"/v1/games/{g}/legal-moves", headers=hb).json["code"] == "game/not_a_player"
    assert client.get(f"/v1/games/{g}/view", headers=ha).json["code"] == "game/not_started"
    assert client.get("/v1/games?status=open", headers=hb).json["games"] == []
    _, hc = register("Cy")
    r = client.post(f"/v1/games/{g}/join", headers=hc, json={})
    assert r.status_code == 409 and r.json["code"] == "game/full"
    # the invitation is listed for Bo, and only for Bo
    invited = client.get("/v1/games?invited=me", headers=hb).json["games"]
    assert [x["id"] for x in invited] == [g] and kinds(invited[0]) == ["player", "invited"]
    assert client.get("/v1/games?invited=me", headers=hc).json["games"] == []
    # Bo accepts by joining: the game starts, and it is in his games, not his invitations
    r = client.post(f"/v1/games/{g}/join", headers=hb, json={})
    assert r.status_code == 200, r.json
    assert r.json["status"] == "active" and kinds(r.json) == ["player", "player"]
    assert client.get("/v1/games?invited=me", headers=hb).json["games"] == []
    assert [x["id"] for x in client.get("/v1/games", headers=hb).json["games"]] == [g]
    types = [e["type"] for e in client.get(f"/v1/games/{g}/log", headers=hb).json["entries"]]
    assert types == ["GameCreated", "PlayerJoined", "GameStarted"]


def test_an_invited_player_takes_only_the_seat_reserved_for_them(client, register, test_game):
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    game = client.post("/v1/games", json={"game": "hiddenbid", "seats": [b, a]}, headers=ha).json
    r = client.post(f"/v1/games/{game['id']}/join", headers=hb, json={"seat": 1})
    assert r.status_code == 409 and r.json["code"] == "game/seat_taken"
    r = client.post(f"/v1/games/{game['id']}/join", headers=hb, json={"seat": 0})
    assert r.status_code == 200 and r.json["status"] == "active"


def test_declining_cancels_the_game_by_default(client, register, test_game):
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    g = create(client, ha, [a, b])["id"]
    r = client.post(f"/v1/games/{g}/decline", headers=hb)
    assert r.status_code == 200, r.json
    assert r.json["status"] == "cancelled" and kinds(r.json) == ["player", "open"]
    assert client.get("/v1/games?invited=me", headers=hb).json["games"] == []
    log = client.get(f"/v1/games/{g}/log", headers=ha).json["entries"]
    assert [e["type"] for e in log] == ["GameCreated", "InvitationDeclined", "GameCancelled"]
    assert log[1]["lines"][0]["text"] == "Bo declined the invitation to seat 1"
    # nobody may take the game up again, and a second answer is refused
    _, hc = register("Cy")
    for headers, path, code in (
        (hc, "join", "game/cancelled"),
        (hb, "join", "game/cancelled"),
        (hb, "decline", "game/cancelled"),
    ):
        r = client.post(f"/v1/games/{g}/{path}", headers=headers, json={})
        assert r.status_code == 409 and r.json["code"] == code
    assert client.get(f"/v1/games/{g}/view", headers=ha).json["code"] == "game/cancelled"
    assert [x["status"] for x in client.get("/v1/games", headers=ha).json["games"]] == ["cancelled"]


def test_declining_opens_the_seat_when_the_creator_asked_for_that(client, register, test_game):
    (a, ha), (b, hb), (c, hc) = register("Ada"), register("Bo"), register("Cy")
    g = create(client, ha, [a, b], if_declined="open")["id"]
    assert client.get("/v1/games?status=open", headers=hc).json["games"] == []
    r = client.post(f"/v1/games/{g}/decline", headers=hb)
    assert r.status_code == 200 and r.json["status"] == "open"
    assert kinds(r.json) == ["player", "open"]
    assert [x["id"] for x in client.get("/v1/games?status=open", headers=hc).json["games"]] == [g]
    r = client.post(f"/v1/games/{g}/join", headers=hc, json={})
    assert r.status_code == 200 and r.json["status"] == "active"
    assert r.json["seats"][1]["player_id"] == c


def test_only_an_invited_player_may_decline(client, register, test_game):
    (a, ha), (b, hb), (_, hc) = register("Ada"), register("Bo"), register("Cy")
    g = create(client, ha, [a, b])["id"]
    for headers in (ha, hc):
        r = client.post(f"/v1/games/{g}/decline", headers=headers)
        assert r.status_code == 409 and r.json["code"] == "game/not_invited"
    client.post(f"/v1/games/{g}/join", headers=hb, json={})
    r = client.post(f"/v1/games/{g}/decline", headers=hb)
    assert r.status_code == 409 and r.json["code"] == "game/not_invited"


def test_a_friend_is_seated_directly_and_bots_need_no_acceptance(client, register, test_game):
    (a, ha), (b, hb), (c, hc) = register("Ada"), register("Bo"), register("Cy")
    r = client.put("/v1/players/me/friends", json={"friends": [a]}, headers=hb)
    assert r.status_code == 200 and r.json == {"friends": [{"id": a, "name": "Ada"}]}
    assert client.get("/v1/players/me/friends", headers=hb).json == r.json
    game = create(client, ha, [a, b])
    assert game["status"] == "active" and kinds(game) == ["player", "player"]
    assert [x["id"] for x in client.get("/v1/games?awaiting=me", headers=hb).json["games"]] == [
        game["id"]
    ]
    # Bo's friend is Ada, not Cy: Cy's game only invites him
    assert kinds(create(client, hc, [c, b])) == ["player", "invited"]
    assert create(client, ha, [a, "bot:random"])["status"] == "active"
    # Bo takes Ada off his list: her next game invites him
    assert client.put("/v1/players/me/friends", json={"friends": []}, headers=hb).json == {
        "friends": []
    }
    assert kinds(create(client, ha, [a, b])) == ["player", "invited"]


def test_friends_must_be_players_other_than_yourself(client, register):
    (a, ha), (b, _) = register("Ada"), register("Bo")
    for friends in ([a], ["p_nobody"], [b, "p_nobody"]):
        r = client.put("/v1/players/me/friends", json={"friends": friends}, headers=ha)
        assert r.status_code == 422 and r.json["code"] == "player/invalid_friends", friends
    r = client.put("/v1/players/me/friends", json={"friends": [b] * 501}, headers=ha)
    assert r.status_code == 422
    assert client.get("/v1/players/me/friends", headers=ha).json == {"friends": []}


def test_the_game_page_shows_the_invited_seat_and_the_cancellation(client, register, test_game):
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    g = create(client, ha, [a, b])["id"]
    page = client.get(f"/play/{g}").get_data(as_text=True)
    assert "Bo (invited)" in page and "The game starts when every seat is taken." in page
    client.post(f"/v1/games/{g}/decline", headers=hb)
    page = client.get(f"/play/{g}").get_data(as_text=True)
    assert "The game was cancelled: an invited player declined." in page
    assert "(invited)" not in page and "Bo declined the invitation to seat 2" in page
