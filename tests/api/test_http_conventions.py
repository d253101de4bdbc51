"""The HTTP conventions of every answer: problem details, 401 with WWW-Authenticate, 415,
Location on 201, conditional GETs by RFC 9110, per-player caching headers, CORS."""

import pytest
from werkzeug.datastructures import Headers

from api.app import create_app
from api.http_conventions import header
from service.settings import Settings
from tests.api.test_games_api import new_game

BROWSER_ORIGIN = "http://cards.example"


def test_errors_are_problem_details_that_keep_code_and_message(client, register):
    _, headers = register("Ada")
    r = client.get("/v1/games/g_nope", headers=headers)
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    assert r.json == {
        "type": "about:blank",
        "title": "Not Found",
        "status": 404,
        "detail": r.json["message"],
        "code": "game/not_found",
        "message": r.json["message"],
    }
    assert r.json["message"]


def test_401_says_how_to_authenticate(client):
    missing = client.get("/v1/players/me")
    assert missing.status_code == 401 and missing.json["code"] == "auth/unauthorized"
    assert missing.headers["WWW-Authenticate"] == 'Bearer realm="turnpost"'
    wrong = client.get("/v1/players/me", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json["code"] == "auth/bad_token"
    assert wrong.headers["WWW-Authenticate"] == 'Bearer realm="turnpost", error="invalid_token"'


def test_the_token_is_checked_before_the_query(client):
    r = client.get("/v1/games?status=active")
    assert r.status_code == 401 and r.json["code"] == "auth/unauthorized"


def test_a_json_body_sent_as_another_type_is_415(client, register):
    _, headers = register("Ada")
    r = client.patch(
        "/v1/players/me", data='{"name": "Bo"}', headers={**headers, "Content-Type": "text/plain"}
    )
    assert r.status_code == 415 and r.json["code"] == "request/unsupported_media_type"
    assert client.get("/v1/players/me", headers=headers).json["name"] == "Ada"


@pytest.mark.slow
def test_replies_from_any_address_takes_only_booleans(client, register):
    _, headers = register("Ada")
    for value in (0, 1, "yes", "true", None):
        r = client.patch(
            "/v1/players/me",
            headers=headers,
            json={"notifications": {"replies_from_any_address": value}},
        )
        assert r.status_code == 422 and r.json["code"] == "request/invalid", value
    r = client.patch(
        "/v1/players/me",
        headers=headers,
        json={"notifications": {"replies_from_any_address": True}},
    )
    assert r.status_code == 200 and r.json["notifications"]["replies_from_any_address"] is True


def test_what_is_made_has_a_location(client, register, test_game):
    r = client.post("/v1/players", json={"name": "Cy"})
    assert r.status_code == 201 and r.headers["Location"] == "/v1/players/me"
    game_id, ha, _ = new_game(client, register)
    summary = client.get(f"/v1/games/{game_id}", headers=ha).json
    r = client.post(
        "/v1/games",
        json={
            "game": "hiddenbid",
            "seats": summary["seats"][0:1] and [summary["seats"][0]["player_id"], None],
        },
        headers=ha,
    )
    assert r.status_code == 201 and r.headers["Location"] == f"/v1/games/{r.json['id']}"
    assert client.get(r.headers["Location"], headers=ha).json["id"] == r.json["id"]
    moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=ha).json
    played = client.post(
        f"/v1/games/{game_id}/moves",
        headers=ha,
        json={"action": moves["moves"][0]["action"], "expected_version": moves["version"]},
    )
    assert played.status_code == 201
    log = client.get(played.headers["Location"], headers=ha).json
    assert log["entries"][0]["version"] == played.json["version"]


@pytest.mark.parametrize("path", ["", "/view", "/legal-moves", "/log", "INBOX", "LIST"])
def test_every_per_game_get_and_the_inbox_is_conditional(client, register, test_game, path):
    game_id, ha, hb = new_game(client, register)
    url = {"INBOX": "/v1/games?awaiting=me", "LIST": "/v1/games"}.get(
        path, f"/v1/games/{game_id}{path}"
    )
    first = client.get(url, headers=ha)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and etag.endswith('"')
    weak = "W/" + etag
    for held in (etag, weak, f'"other", {weak}', "*"):
        again = client.get(url, headers={**ha, "If-None-Match": held})
        assert again.status_code == 304 and again.data == b"", held
        assert again.headers["ETag"] == etag
    assert client.get(url, headers={**ha, "If-None-Match": '"other"'}).status_code == 200
    moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=ha).json
    client.post(
        f"/v1/games/{game_id}/moves",
        headers=ha,
        json={"action": moves["moves"][0]["action"], "expected_version": moves["version"]},
    )
    moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=hb).json
    client.post(
        f"/v1/games/{game_id}/moves",
        headers=hb,
        json={"action": moves["moves"][0]["action"], "expected_version": moves["version"]},
    )
    changed = client.get(url, headers={**ha, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_per_player_answers_are_private_and_vary_by_token(client, register, test_game):
    game_id, ha, _ = new_game(client, register)
    for url in (
        "/v1/players/me",
        f"/v1/games/{game_id}/view",
        "/v1/games?awaiting=me",
        "/v1/games/g_nope",
    ):
        r = client.get(url, headers=ha)
        assert "private" in r.headers["Cache-Control"], url
        assert "Authorization" in r.headers["Vary"], url
        assert r.headers.getlist("Vary") == [r.headers["Vary"]], url  # one Vary header
    # an error's answer varies by its language too: both are said
    assert r.headers["Vary"] == "Accept-Language, Authorization"
    public = client.get("/v1/catalog")
    assert "private" not in public.headers.get("Cache-Control", "")


def test_a_header_is_found_in_any_case_and_an_absent_one_is_none():
    headers = Headers([("Vary", "Origin"), ("ETag", '"1"'), ("vary", "Accept")])
    assert header(headers, "vary") == "Origin" == headers.get("vary")
    assert header(headers, "ETAG") == '"1"'
    assert header(headers, "Cache-Control") is None is headers.get("Cache-Control")


def test_no_cross_origin_access_unless_the_origin_is_listed(redis_client, register):
    closed = create_app(redis_client).test_client()
    preflight = closed.options(
        "/v1/players/me",
        headers={
            "Origin": BROWSER_ORIGIN,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_a_listed_origin_gets_cors_with_preflight(redis_client):
    settings = Settings(cors_origins=(BROWSER_ORIGIN,))
    client = create_app(redis_client, settings=settings).test_client()
    token = client.post(
        "/v1/players", json={"name": "Ada"}, headers={"Origin": BROWSER_ORIGIN}
    ).json["token"]
    preflight = client.options(
        "/v1/players/me",
        headers={
            "Origin": BROWSER_ORIGIN,
            "Access-Control-Request-Method": "PATCH",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == BROWSER_ORIGIN
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert "PATCH" in preflight.headers["Access-Control-Allow-Methods"]
    r = client.get(
        "/v1/players/me", headers={"Origin": BROWSER_ORIGIN, "Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == BROWSER_ORIGIN
    assert "ETag" in r.headers["Access-Control-Expose-Headers"]
    other = client.get(
        "/v1/players/me",
        headers={"Origin": "http://evil.example", "Authorization": f"Bearer {token}"},
    )
    assert "Access-Control-Allow-Origin" not in other.headers


def test_every_answer_of_a_cors_api_varies_by_origin(redis_client):
    """With one origin listed, flask-cors left out `Vary: Origin`: a shared cache could then
    keep an answer made for no origin (or another) and give it to the listed one, or the
    reverse. Every answer of the API says it varies by Origin, preflights and refusals too."""
    settings = Settings(cors_origins=(BROWSER_ORIGIN,))
    client = create_app(redis_client, settings=settings).test_client()
    token = client.post("/v1/players", json={"name": "Ada"}).json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    answers = [
        client.get("/v1/catalog", headers={"Origin": BROWSER_ORIGIN}),
        client.get("/v1/catalog", headers={"Origin": "http://evil.example"}),
        client.get("/v1/catalog"),
        client.get("/v1/players/me", headers={"Origin": BROWSER_ORIGIN, **auth}),
        client.get("/v1/players/me", headers={"Origin": BROWSER_ORIGIN}),  # 401
        client.options(
            "/v1/players/me",
            headers={"Origin": BROWSER_ORIGIN, "Access-Control-Request-Method": "GET"},
        ),
    ]
    for r in answers:
        assert "origin" in {v.strip().lower() for v in r.headers.get("Vary", "").split(",")}, (
            r.status_code,
            r.headers,
        )
    assert answers[3].headers["Vary"].count("Origin") == 1
