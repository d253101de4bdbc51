"""Keys and their rotation, sign-in links' limits, and upgrading what an older version kept in
clear, over HTTP through the app with a real Valkey and a real SMTP server."""

import json
import re
import time

import pytest
from cryptography.fernet import Fernet

from api.app import create_app
from api.front_door import FrontDoor
from service.notify.notifications import TURN_STARTED, Notice
from service.secrets import ServerKeys, upgrade_secrets
from service.settings import Settings
from store import keys
from store.notifications import NotificationStore
from store.players import PlayerStore
from tests.addresses import confirm_all
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer

OLD_LINK_KEY, NEW_LINK_KEY = "old-link-key-" + "o" * 30, "new-link-key-" + "n" * 30
OLD_FERNET, NEW_FERNET = Fernet.generate_key().decode(), Fernet.generate_key().decode()


def app_with(redis_client, smtp, **settings):
    app = create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(
            public_url="http://turnpost.test",
            one_click_max_moves=12,
            webhook_allow_http=True,
            webhook_allow_loopback=True,
            **settings,
        ),
    )
    return app.test_client(), app.extensions["turnpost"]["services"]


def one_click_links(services, smtp, game_id, seat, address):
    services.notifications.email(Notice(TURN_STARTED, game_id, seat, 2))
    email = smtp.wait_for(lambda m, r: address in r and m["X-Turnpost-Game"] == game_id)
    return [
        url.replace("http://turnpost.test", "")
        for url in re.findall(r'href="([^"]+/m/[^"]+)"', html_of(email))
    ]


@pytest.mark.slow
def test_a_new_link_key_signs_while_the_old_one_still_verifies(redis_client, smtp, test_game):
    _, before = app_with(redis_client, smtp, link_signing_keys=(OLD_LINK_KEY,))
    ada = before.players.register("Ada", email="ada@example.org")["id"]
    bo = before.players.register("Bo", email="bo@example.org")["id"]
    confirm_all(redis_client)
    before.players.set_friends(bo, [ada])  # Ada seats Bo directly
    game_id = before.games.create(ada, "hiddenbid", [ada, bo])["id"]
    old_links = one_click_links(before, smtp, game_id, 0, "ada@example.org")
    client, rotated = app_with(redis_client, smtp, link_signing_keys=(NEW_LINK_KEY, OLD_LINK_KEY))
    new_links = one_click_links(rotated, smtp, game_id, 1, "bo@example.org")
    assert client.get(old_links[0]).status_code == 200, "the old key still verifies"
    only_new, _ = app_with(redis_client, smtp, link_signing_keys=(NEW_LINK_KEY,))
    assert only_new.get(new_links[0]).status_code == 200, "the new key signs"
    assert only_new.get(old_links[0]).status_code == 404, "once dropped, the old key is not"
    assert redis_client.get(keys.SERVER_SECRET) is None, "configured keys are not stored"


@pytest.mark.slow
def test_webhook_secrets_follow_a_new_key_after_the_upgrade(redis_client, smtp):
    client, _before = app_with(redis_client, smtp, webhook_secret_keys=(OLD_FERNET,))
    r = client.post("/v1/players", json={"name": "Ada", "webhook_url": "http://127.0.0.1:9/h"})
    secret, player_id = r.json["webhook_secret"], r.json["id"]
    notes = NotificationStore(redis_client)
    stored = notes.webhook_secret(player_id)
    assert secret not in stored and Fernet(OLD_FERNET).decrypt(stored.encode()).decode() == secret
    _, both = app_with(redis_client, smtp, webhook_secret_keys=(NEW_FERNET, OLD_FERNET))
    assert both.players.keys.unseal(stored) == secret, "the old key still decrypts"
    done = upgrade_secrets(PlayerStore(redis_client), notes, both.players.keys)
    assert done["webhook_secrets"] == 1 and done["unreadable_webhook_secrets"] == 0
    _, only_new = app_with(redis_client, smtp, webhook_secret_keys=(NEW_FERNET,))
    assert only_new.players.keys.unseal(notes.webhook_secret(player_id)) == secret
    assert (
        upgrade_secrets(PlayerStore(redis_client), notes, only_new.players.keys)["webhook_secrets"]
        == 0
    ), "done once"


def test_what_an_older_version_kept_in_clear_is_upgraded(redis_client, smtp, test_game):
    """Reply tokens, webhook secrets and API tokens as the version before this one wrote
    them: they keep working, and after `turnpost upgrade-secrets` none is left in clear."""
    client, services = app_with(redis_client, smtp, mail_domain="play.test", inbound_secret="in")
    r = client.post("/v1/players", json={"name": "Ada", "email": "ada@example.org"})
    ada, token = r.json["id"], r.json["token"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    services.players.set_friends(bo, [ada])  # Ada seats Bo directly
    game_id = services.games.create(ada, "hiddenbid", [ada, bo])["id"]
    legacy_reply, legacy_secret = "ab" * 16, "whsec_" + "A" * 43 + "="
    redis_client.set(
        keys.legacy_mail_token(legacy_reply), json.dumps({"game_id": game_id, "seat": 0})
    )
    redis_client.set(keys.legacy_seat_mail_token(game_id, 0), legacy_reply)
    redis_client.hset(keys.player_webhook(bo), "secret", legacy_secret)
    redis_client.delete(keys.player_token(ada), *redis_client.keys("tp:email:*"))
    assert services.players.keys.unseal(legacy_secret) == legacy_secret
    done = upgrade_secrets(
        PlayerStore(redis_client), NotificationStore(redis_client), services.players.keys
    )
    assert done["reply_tokens"] == 1 and done["webhook_secrets"] == 1
    assert done["tokens"] == 1 and done["addresses"] == 2
    dump = b" ".join(
        redis_client.keys("*") + [redis_client.hget(keys.player_webhook(bo), "secret")]
    )
    assert legacy_reply.encode() not in dump and legacy_secret.encode() not in dump
    assert (
        services.players.keys.unseal(redis_client.hget(keys.player_webhook(bo), "secret").decode())
        == legacy_secret
    )
    reply = (
        f"From: ada@example.org\r\nTo: move+{legacy_reply}.2@play.test\r\n"
        f"Subject: Re: your turn\r\nMessage-ID: <legacy@example.org>\r\n\r\n"
        f"{services.games.legal_moves(game_id, ada)['moves'][0]['notation']}\r\n"
    )
    played = client.post(
        "/v1/inbound/email",
        data=reply.encode(),
        content_type="message/rfc822",
        headers={"Turnpost-Inbound-Secret": "in"},
    )
    assert played.json["code"] == "mail/played", "the old reply address still plays"
    rotated = client.post("/v1/players/me/token", headers={"Authorization": f"Bearer {token}"})
    assert rotated.status_code == 201
    assert (
        client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"}).status_code
        == 401
    ), "the recorded token is revoked"
    client.post("/v1/sign-in", json={"email": "ada@example.org"})
    assert services.sign_in.send_links("ada@example.org") == 1, "the address was indexed"


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_sign_in_link_expires(redis_client, smtp):
    client, services = app_with(redis_client, smtp, sign_in_link_seconds=1)
    client.post("/v1/players", json={"name": "Ada", "email": "ada@example.org"})
    assert client.post("/v1/sign-in", json={"email": "ada@example.org"}).status_code == 202
    assert services.sign_in.send_links("ada@example.org") == 1  # what the worker does
    link = re.search(
        r"http://turnpost\.test(/sign-in/\S+)",
        text_of(smtp.wait_for(lambda m, r: "ada@example.org" in r)),
    ).group(1)
    assert client.get(link).status_code == 200
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get(link).text).group(1)
    time.sleep(1.2)
    for answer in (client.get(link), client.post(link, data={"csrf_token": token})):
        assert answer.status_code == 404 and b"tp_" not in answer.data


@pytest.mark.slow
def test_an_address_that_changed_gets_the_links_and_the_old_one_does_not(redis_client, smtp):
    client, services = app_with(redis_client, smtp)
    r = client.post("/v1/players", json={"name": "Ada", "email": "ada@example.org"})
    client.patch(
        "/v1/players/me",
        json={"email": "Ada@New.example.org"},
        headers={"Authorization": f"Bearer {r.json['token']}"},
    )
    assert services.sign_in.send_links("ada@example.org") == 0
    assert services.sign_in.send_links("ada@new.example.org") == 1


def test_sign_in_requests_are_limited_per_client_address(redis_client, smtp):
    app = create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        front_door=FrontDoor(limit_sign_in_per_ip="2/hour"),
    )
    client = app.test_client()
    answers = [client.post("/v1/sign-in", json={"email": f"p{n}@example.org"}) for n in range(3)]
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert answers[-1].json["code"] == "rate/limited"
    assert answers[-1].headers["RateLimit-Policy"] == '"sign_in";q=2;w=3600'


@pytest.mark.parametrize("body", [{}, {"email": None}, {"email": "a@b"}, {"email": "x" * 300}])
def test_a_sign_in_request_needs_an_address(redis_client, smtp, body):
    client, _ = app_with(redis_client, smtp)
    r = client.post("/v1/sign-in", json=body)
    assert r.status_code == 422 and r.json["code"] == "request/invalid"


def test_a_seats_reply_token_is_the_one_earlier_emails_carry(redis_client):
    """A reply token made by the code before (hmac.new's MAC, at b6307ff) is made again alike:
    the Reply-To addresses of emails already in the players' inboxes keep reaching the seat."""
    settings = Settings(link_signing_keys=("a link signing key of forty-three characters",))
    server_keys = ServerKeys(settings, NotificationStore(redis_client))
    assert server_keys.reply_token("g_12345678", 1) == "fd2fd2b5f99896326fe05266be318fe3"
