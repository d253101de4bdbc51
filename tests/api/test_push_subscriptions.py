"""Push subscriptions through the API: the server's key (made once, kept with the data), a
browser's subscription kept and listed without its keys, refused when it is not one a browser
makes or its endpoint is not a public https address (the SSRF guard), removed; the operator's
key rotation."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from api.app import create_app
from service.secrets import rotate_push_keys
from service.settings import Settings
from store.push import PushStore
from tests.service.test_safe_urls import INTERNAL

PUBLIC_ENDPOINT = "https://93.184.215.14/push/"  # a public address: never connected to here


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"p256dh": b64url(point), "auth": b64url(os.urandom(16))}


def subscription(name: str = "a", **keys) -> dict:
    return {
        "endpoint": PUBLIC_ENDPOINT + name,
        "expirationTime": None,
        "keys": {**browser_keys(), **keys},
    }


def test_the_key_is_made_once_and_a_subscription_is_kept_listed_and_removed(client, register):
    _, me = register("Ada")
    first = client.get("/v1/players/me/push-subscriptions", headers=me)
    assert first.status_code == 200
    key = first.json["application_server_key"]
    point = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(point) == 65 and point[0] == 4  # an uncompressed P-256 point
    assert first.json["subscriptions"] == []
    made = client.post(
        "/v1/players/me/push-subscriptions",
        json={**subscription(), "device": "Firefox on my phone"},
        headers=me,
    )
    assert made.status_code == 201, made.json
    assert made.json["device"] == "Firefox on my phone"
    assert made.json["push_service"] == "93.184.215.14"
    again = client.post("/v1/players/me/push-subscriptions", json=subscription(), headers=me)
    assert again.status_code == 201 and again.json["id"] == made.json["id"]
    listed = client.get("/v1/players/me/push-subscriptions", headers=me).json
    assert listed["application_server_key"] == key, "kept with the data"
    assert [s["id"] for s in listed["subscriptions"]] == [made.json["id"]]
    assert "keys" not in str(listed) and "auth" not in listed["subscriptions"][0]
    _, other = register("Bo")
    path = f"/v1/players/me/push-subscriptions/{made.json['id']}"
    refused = client.delete(path, headers=other)
    assert refused.status_code == 404 and refused.json["code"] == "push/not_found"
    assert client.delete(path, headers=me).status_code == 204
    gone = client.delete(path, headers=me)
    assert gone.status_code == 404 and gone.json["code"] == "push/not_found"
    assert client.get("/v1/players/me/push-subscriptions", headers=me).json["subscriptions"] == []


def test_a_subscription_a_browser_cannot_have_made_is_refused(client, register):
    _, me = register("Ada")
    bad_keys = [
        {"auth": b64url(os.urandom(15))},  # 15 bytes, not 16
        {"p256dh": b64url(b"\x04" + bytes(64))},  # not a point of the curve
        {"p256dh": b64url(os.urandom(65))},
        {"p256dh": "not base64url at all!" * 4},
    ]
    for keys in bad_keys:
        r = client.post("/v1/players/me/push-subscriptions", json=subscription(**keys), headers=me)
        assert r.status_code == 422, keys
        assert r.json["code"] in ("push/invalid_subscription", "request/invalid"), r.json
        assert r.json["message"]
    missing = client.post(
        "/v1/players/me/push-subscriptions", json={"endpoint": PUBLIC_ENDPOINT}, headers=me
    )
    assert missing.status_code == 422 and missing.json["code"] == "request/invalid"
    assert client.get("/v1/players/me/push-subscriptions", headers=me).json["subscriptions"] == []


def test_an_endpoint_on_the_servers_own_network_is_refused(client, register):
    """The SSRF guard of webhooks covers push endpoints: loopback, private, link-local,
    reserved, http, and names that do not resolve."""
    _, me = register("Ada")
    for url in INTERNAL:
        r = client.post(
            "/v1/players/me/push-subscriptions",
            json={**subscription(), "endpoint": url},
            headers=me,
        )
        assert r.status_code == 422, url
        assert r.json["code"] in ("push/unsafe_endpoint", "request/invalid"), (url, r.json)
    assert client.get("/v1/players/me/push-subscriptions", headers=me).json["subscriptions"] == []


def test_a_player_keeps_at_most_the_settings_number_of_devices(redis_client):
    client = create_app(redis_client, settings=Settings(push_devices_per_player=2)).test_client()
    me = {"Authorization": f"Bearer {client.post('/v1/players', json={'name': 'A'}).json['token']}"}
    for name in ("a", "b"):
        made = client.post("/v1/players/me/push-subscriptions", json=subscription(name), headers=me)
        assert made.status_code == 201
    third = client.post("/v1/players/me/push-subscriptions", json=subscription("c"), headers=me)
    assert third.status_code == 409 and third.json["code"] == "push/too_many"
    renewed = client.post("/v1/players/me/push-subscriptions", json=subscription("a"), headers=me)
    assert renewed.status_code == 201, "the same device again is not one more"


def test_rotating_the_key_removes_the_devices_subscribed_with_the_old_one(
    client, register, redis_client
):
    _, me = register("Ada")
    old = client.get("/v1/players/me/push-subscriptions", headers=me).json
    client.post("/v1/players/me/push-subscriptions", json=subscription(), headers=me)
    done = rotate_push_keys(PushStore(redis_client))
    assert done["players"] == 1 and done["public_key"] != old["application_server_key"]
    new = client.get("/v1/players/me/push-subscriptions", headers=me).json
    assert new == {"application_server_key": done["public_key"], "subscriptions": []}
    client.post("/v1/players/me/push-subscriptions", json=subscription("b"), headers=me)
    assert rotate_push_keys(PushStore(redis_client))["players"] == 1


@pytest.mark.slow
def test_the_operator_rotates_the_key_with_a_command(valkey, redis_client):
    client = create_app(redis_client).test_client()
    me = {"Authorization": f"Bearer {client.post('/v1/players', json={'name': 'A'}).json['token']}"}
    before = client.get("/v1/players/me/push-subscriptions", headers=me).json
    client.post("/v1/players/me/push-subscriptions", json=subscription(), headers=me)
    done = subprocess.run(
        [sys.executable, "-m", "turnpost.cli", "rotate-push-keys"],
        env={**os.environ, "REDIS_URL": valkey.url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    after = client.get("/v1/players/me/push-subscriptions", headers=me).json
    assert after["application_server_key"] != before["application_server_key"]
    assert after["application_server_key"] in done.stdout and '"players": 1' in done.stdout
    assert after["subscriptions"] == []
