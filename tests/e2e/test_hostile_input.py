"""Hostile strings and cheap hostile bodies, over HTTP against a real `turnpost serve`: control
characters and lone surrogates are refused with 422 and a message that says what is wrong;
deep nesting and huge integers get 400 or 422, never a 500."""

import json

import requests

from tests.e2e.server import Client

HOSTILE = {
    "CR": "Ada\rBcc: victim@example.org",
    "LF": "Ada\nSubject: hi",
    "NUL": "Ada\x00",
    "ESC": "Ada\x1b[31m",
    "DEL": "Ada\x7f",
    "U+0085": "Ada\x85",
}


def post_raw(base, path, raw: str, headers=None):
    return requests.post(
        base + path,
        data=raw.encode("utf-8", "surrogatepass"),
        headers={"Content-Type": "application/json", **(headers or {})},
        timeout=30,
    )


def test_names_with_control_characters_are_refused(live_server):
    for what, name in HOSTILE.items():
        r = requests.post(live_server.url + "/v1/players", json={"name": name}, timeout=30)
        assert r.status_code == 422, what
        assert r.json()["code"] == "request/invalid"
        assert f"name: contains a control character ({what})" in r.json()["message"]
    ada = Client(live_server.url, "Ada")
    r = requests.patch(
        live_server.url + "/v1/players/me",
        json={"name": "Eve\r\nX: y"},
        headers=ada.headers,
        timeout=30,
    )
    assert r.status_code == 422 and "(CR)" in r.json()["message"]
    r = requests.patch(
        live_server.url + "/v1/players/me",
        json={"email": "eve@example.org\r\nBcc: all@example.org"},
        headers=ada.headers,
        timeout=30,
    )
    assert r.status_code == 422
    assert ada.get("/v1/players/me").json()["name"] == "Ada"


def test_lone_surrogates_are_refused_escaped_or_raw(live_server):
    for raw in ('{"name": "Ada\\ud800"}', '{"name": "Ada\ud800"}'):  # escaped; raw bytes
        r = post_raw(live_server.url, "/v1/players", raw)
        assert r.status_code == 422, raw
        assert "name: contains a lone surrogate (U+D800)" in r.json()["message"]


def test_deep_nesting_and_huge_integers_are_refused_not_500(live_server):
    ada = Client(live_server.url, "Ada")
    deep = "[" * 1000 + "]" * 1000
    for path in ("/v1/players", "/v1/games"):
        r = post_raw(live_server.url, path, deep, ada.headers)
        assert r.status_code == 400 and r.json()["code"] == "request/bad_json", path
        assert "nested deeper than 32" in r.json()["message"]
        r = post_raw(
            live_server.url, path, '{"name": "x", "seats": ' + "9" * 100_000 + "}", ada.headers
        )
        assert r.status_code == 400 and "number too long" in r.json()["message"], path
    r = ada.post(
        "/v1/games", {"game": "ninedomains", "seats": [ada.id, None], "options": {"x": 10**30}}
    )
    assert r.status_code == 422 and "options.x: numbers must be" in r.json()["message"]
    deep_but_fine = json.dumps({"name": "Bo", "email": None})
    assert post_raw(live_server.url, "/v1/players", deep_but_fine).status_code == 201
