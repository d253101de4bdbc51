"""Notification settings, the webhook secret and the delivery log through the API."""

import pytest

from api.app import create_app
from service.settings import Settings


@pytest.fixture
def app(redis_client):
    """Webhooks on http://127.0.0.1 allowed, as for development (refused by default)."""
    return create_app(
        redis_client, settings=Settings(webhook_allow_http=True, webhook_allow_loopback=True)
    )


def switches(notifications):
    """The channel switches (the choices per notice: tests/api/test_notification_choices.py;
    the digest: tests/workers/test_digest.py)."""
    return {
        key: value for key, value in notifications.items() if key not in ("events", "digest_at")
    }


def test_preferences_change_one_at_a_time(client, register):
    _, headers = register("Ada")
    r = client.patch(
        "/v1/players/me", json={"notifications": {"reminders": False}}, headers=headers
    )
    assert r.status_code == 200
    assert switches(r.json["notifications"]) == {
        "email": True,
        "chat": True,
        "webhook": True,
        "push": True,
        "reminders": False,
        "replies_from_any_address": False,
    }
    r = client.patch("/v1/players/me", json={"notifications": {"email": False}}, headers=headers)
    assert switches(r.json["notifications"]) == {
        "email": False,
        "chat": True,
        "webhook": True,
        "push": True,
        "reminders": False,
        "replies_from_any_address": False,
    }
    assert switches(client.get("/v1/players/me", headers=headers).json["notifications"]) == {
        "email": False,
        "chat": True,
        "webhook": True,
        "push": True,
        "reminders": False,
        "replies_from_any_address": False,
    }


def test_preferences_reject_what_is_not_a_boolean(client, register):
    _, headers = register("Ada")
    r = client.patch("/v1/players/me", json={"notifications": {"email": "often"}}, headers=headers)
    assert r.status_code == 422 and r.json["code"] == "request/invalid"
    r = client.patch("/v1/players/me", json={"notifications": {"sms": True}}, headers=headers)
    assert r.status_code == 422


def test_webhook_secret_is_shown_once_at_registration(client):
    r = client.post("/v1/players", json={"name": "Bot", "webhook_url": "http://127.0.0.1:9/h"})
    secret = r.json["webhook_secret"]
    assert secret.startswith("whsec_") and len(secret) > 30
    headers = {"Authorization": f"Bearer {r.json['token']}"}
    me = client.get("/v1/players/me", headers=headers).json
    assert me["webhook_status"] == "ok" and "webhook_secret" not in me
    assert secret not in client.get("/v1/players/me", headers=headers).get_data(as_text=True)


def test_first_webhook_gets_a_secret_and_rotation_replaces_it(client, register, redis_client):
    from store.notifications import NotificationStore

    pid, headers = register("Ada")
    r = client.post("/v1/players/me/webhook-secret", headers=headers)
    assert r.status_code == 409 and r.json["code"] == "player/no_webhook"
    r = client.patch(
        "/v1/players/me", json={"webhook_url": "http://127.0.0.1:9/hook"}, headers=headers
    )
    first = r.json["webhook_secret"]
    r = client.patch(
        "/v1/players/me", json={"webhook_url": "http://127.0.0.1:9/other"}, headers=headers
    )
    assert "webhook_secret" not in r.json, "a secret is shown only when it is made"
    r = client.post("/v1/players/me/webhook-secret", headers=headers)
    assert r.status_code == 201 and r.json["webhook_secret"] != first
    stored = NotificationStore(redis_client).webhook_secret(pid)
    assert stored != r.json["webhook_secret"], "kept encrypted"
    keys = client.application.extensions["turnpost"]["services"].players.keys
    assert keys.unseal(stored) == r.json["webhook_secret"]


def test_deliveries_are_the_callers_own_newest_first(client, register, redis_client):
    from store.notifications import NotificationStore

    pid, headers = register("Ada")
    other, _ = register("Bo")
    notes = NotificationStore(redis_client)
    for version in (3, 5):
        notes.record(
            pid,
            {
                "id": f"email-g_1-0-{version}-turn_started",
                "at": "2026-11-21T12:00:00Z",
                "channel": "email",
                "event": "turn.started",
                "game_id": "g_1",
                "version": version,
                "status": "sent",
                "attempt": 1,
                "detail": "x",
            },
        )
    notes.record(
        other,
        {
            "id": "secret-of-bo",
            "at": "2026-11-21T12:00:00Z",
            "channel": "email",
            "event": "turn.started",
            "game_id": "g_2",
            "version": 1,
            "status": "sent",
            "attempt": 1,
            "detail": "x",
        },
    )
    r = client.get("/v1/players/me/deliveries", headers=headers)
    assert r.status_code == 200
    assert [d["version"] for d in r.json["deliveries"]] == [5, 3]
    assert (
        client.get("/v1/players/me/deliveries?limit=1", headers=headers).json["deliveries"][0][
            "version"
        ]
        == 5
    )
    assert client.get("/v1/players/me/deliveries?limit=0", headers=headers).status_code == 422
    assert client.get("/v1/players/me/deliveries").status_code == 401
