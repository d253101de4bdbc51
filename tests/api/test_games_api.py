"""The v1 API over HTTP (Flask's test client), on a real Valkey, with the test game."""

from tests.api.conftest import befriend


def new_game(client, register, seats=2):
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    befriend(client, hb, a)
    r = client.post("/v1/games", json={"game": "hiddenbid", "seats": [a, b]}, headers=ha)
    assert r.status_code == 201, r.json
    return r.json["id"], ha, hb


def test_register_and_read_my_profile(client, register):
    pid, headers = register("Ada")
    r = client.get("/v1/players/me", headers=headers)
    assert r.status_code == 200 and r.json == {
        "id": pid,
        "name": "Ada",
        "email": None,
        "email_confirmed": False,
        "webhook_url": None,
        "time_zone": None,
        "language": None,
        "webhook_kind": "signed",
        "webhook_status": "none",
        "notifications": {
            "email": True,
            "chat": True,
            "webhook": True,
            "push": True,
            "reminders": True,
            "replies_from_any_address": False,
            "digest_at": None,
            "events": {
                kind: {"email": True, "push": True, "webhook": True}
                for kind in ("turn", "reminder", "invitation", "game_over", "chat")
            },
        },
    }
    r = client.patch("/v1/players/me", json={"email": "ada@example.org"}, headers=headers)
    assert r.json["email"] == "ada@example.org" and r.json["email_confirmed"] is False


def test_no_token_is_401_bad_token_is_401(client):
    assert client.get("/v1/games").json["code"] == "auth/unauthorized"
    r = client.get("/v1/games", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and r.json["code"] == "auth/bad_token"


def test_view_has_etag_and_answers_304(client, register, test_game):
    g, ha, _ = new_game(client, register)
    r = client.get(f"/v1/games/{g}/view", headers=ha)
    assert r.status_code == 200 and r.headers["ETag"] == '"2"'
    assert r.json["game"] == "hiddenbid" and r.json["seat"] == 0 and len(r.json["hand"]) == 3
    r = client.get(f"/v1/games/{g}/view", headers={**ha, "If-None-Match": '"2"'})
    assert r.status_code == 304 and r.data == b""


def test_play_by_notation_and_by_action(client, register, test_game):
    g, ha, hb = new_game(client, register)
    moves = client.get(f"/v1/games/{g}/legal-moves", headers=ha).json
    r = client.post(
        f"/v1/games/{g}/moves",
        headers=ha,
        json={"notation": moves["moves"][0]["notation"], "expected_version": 2},
    )
    assert r.status_code == 201 and r.json["version"] == 3
    moves_b = client.get(f"/v1/games/{g}/legal-moves", headers=hb).json
    r = client.post(
        f"/v1/games/{g}/moves",
        headers=hb,
        json={"action": moves_b["moves"][0]["action"], "expected_version": 2},
    )
    assert r.status_code == 201, r.json


def test_move_errors_are_json_with_codes(client, register, test_game):
    g, ha, _hb = new_game(client, register)
    (_c, hc) = register("Cy")
    cases = [
        (ha, {"notation": "bid", "expected_version": 2}, 422, "move/malformed"),
        (ha, {"notation": "bid 99", "expected_version": 2}, 409, "move/illegal"),
        (ha, {"action": {"type": "fly"}, "expected_version": 2}, 422, "move/malformed"),
        (ha, {"notation": "bid 1"}, 422, "request/invalid"),
        (
            ha,
            {"notation": "bid 1", "action": {"type": "keep"}, "expected_version": 2},
            422,
            "move/malformed",
        ),
        (ha, {"notation": "bid 1", "expected_version": 7}, 409, "move/stale_version"),
        (hc, {"notation": "bid 1", "expected_version": 2}, 403, "game/not_a_player"),
    ]
    for headers, body, status, code in cases:
        r = client.post(f"/v1/games/{g}/moves", headers=headers, json=body)
        assert (r.status_code, r.json["code"]) == (status, code), (body, r.json)
        assert r.json["message"]
    r = client.post(
        "/v1/games/g_nope/moves", headers=ha, json={"notation": "x", "expected_version": 1}
    )
    assert r.status_code == 404 and r.json["code"] == "game/not_found"
    r = client.post(
        f"/v1/games/{g}/moves", headers={**ha, "Content-Type": "application/json"}, data="{not json"
    )
    assert r.status_code == 400 and r.json["code"] == "request/bad_json"
    stale = client.post(
        f"/v1/games/{g}/moves", headers=ha, json={"notation": "bid 1", "expected_version": 7}
    ).json
    assert stale["current_version"] == 2
    assert len(client.get(f"/v1/games/{g}/log", headers=ha).json["entries"]) == 2


def test_method_not_allowed_keeps_allow_header(client):
    r = client.delete("/v1/catalog")
    assert r.status_code == 405 and "GET" in r.headers["Allow"]
    assert r.json["code"] == "request/method_not_allowed"


def test_idempotency_key_over_http(client, register, test_game):
    g, ha, _ = new_game(client, register)
    moves = client.get(f"/v1/games/{g}/legal-moves", headers=ha).json
    body = {"action": moves["moves"][0]["action"], "expected_version": 2}
    first = client.post(f"/v1/games/{g}/moves", headers={**ha, "Idempotency-Key": "abc"}, json=body)
    again = client.post(f"/v1/games/{g}/moves", headers={**ha, "Idempotency-Key": "abc"}, json=body)
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert client.get(f"/v1/games/{g}/log", headers=ha).json["entries"][-1]["version"] == 3


def test_idempotency_key_reused_with_another_move_is_refused(client, register, test_game):
    g, ha, _ = new_game(client, register)
    moves = client.get(f"/v1/games/{g}/legal-moves", headers=ha).json["moves"]
    keyed = {**ha, "Idempotency-Key": "k1"}
    first = client.post(
        f"/v1/games/{g}/moves",
        headers=keyed,
        json={"action": moves[0]["action"], "expected_version": 2},
    )
    assert first.status_code == 201
    other = client.post(
        f"/v1/games/{g}/moves",
        headers=keyed,
        json={"action": moves[1]["action"], "expected_version": 2},
    )
    assert other.status_code == 422, other.json
    assert other.json["code"] == "request/idempotency_mismatch"
    assert "Idempotent-Replayed" not in other.headers
    # the same move written the other way (notation) is another body too
    again = client.post(
        f"/v1/games/{g}/moves",
        headers=keyed,
        json={"notation": moves[0]["notation"], "expected_version": 2},
    )
    assert again.status_code == 422 and again.json["code"] == "request/idempotency_mismatch"
    # and the same body answers the first answer, marked as replayed
    same = client.post(
        f"/v1/games/{g}/moves",
        headers=keyed,
        json={"action": moves[0]["action"], "expected_version": 2},
    )
    assert same.status_code == 201 and same.json == first.json
    assert same.headers["Idempotent-Replayed"] == "true"
    assert client.get(f"/v1/games/{g}/log", headers=ha).json["version"] == 3


def test_inbox_and_log_paging(client, register, test_game):
    g, ha, _hb = new_game(client, register)
    inbox = client.get("/v1/games?awaiting=me", headers=ha).json["games"]
    assert [x["id"] for x in inbox] == [g]
    log = client.get(f"/v1/games/{g}/log?after=1", headers=ha).json
    assert [e["version"] for e in log["entries"]] == [2]
    assert log["entries"][0]["type"] == "GameStarted"


def test_open_game_join_over_http(client, register, test_game):
    (a, ha), (_, hb) = register("Ada"), register("Bo")
    g = client.post("/v1/games", json={"game": "hiddenbid", "seats": [a, None]}, headers=ha).json
    assert g["status"] == "open"
    assert client.get(f"/v1/games/{g['id']}/view", headers=ha).json["code"] == "game/not_started"
    lobby = client.get("/v1/games?status=open", headers=hb).json["games"]
    assert [x["id"] for x in lobby] == [g["id"]]
    r = client.post(f"/v1/games/{g['id']}/join", headers=hb, json={})
    assert r.status_code == 200 and r.json["status"] == "active"


def test_the_catalog_links_each_title_to_its_how_to_play_page(app, client):
    site = app.extensions["turnpost"]["services"].settings.public_url
    for entry in client.get("/v1/catalog").json["games"]:
        url = entry["how_to_play"]
        assert url == f"{site}/how-to-play/{entry['name']}"
        page = client.get(url.removeprefix(site), headers={"Accept": "text/html"})
        assert page.status_code == 200 and "The goal" in page.get_data(as_text=True)


def test_catalog_is_public_and_lists_only_real_games(client):
    from engine import registry

    r = client.get("/v1/catalog")
    assert r.status_code == 200
    names = [x["name"] for x in r.json["games"]]
    assert names == sorted(registry.GAMES) and "hiddenbid" not in names
    for entry in r.json["games"]:
        assert entry["notation"] and entry["min_players"] <= entry["max_players"]
