"""POST /v1/inbound/email: a raw message from an inbound-mail service, behind a secret."""

from email.message import EmailMessage

import pytest

from api.app import create_app
from service.notify.reply_addresses import reply_address
from service.settings import Settings
from transports.mailer import SmtpMailer

SECRET = "inbound-shared-secret"


@pytest.fixture
def inbound(redis_client, smtp, test_game):
    settings = Settings(mail_domain="play.test", inbound_secret=SECRET)
    app = create_app(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))
    services = app.extensions["turnpost"]["services"]
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    services.players.set_friends(bo, [ada])  # Ada seats Bo without inviting him
    game_id = services.games.create(ada, "hiddenbid", [ada, bo])["id"]
    token = services.notifications.keys.reply_token(game_id, 0)
    message = EmailMessage()
    message["From"] = "ada@example.org"
    message["To"] = reply_address(token, 2, "play.test")
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = "<m1@example.org>"
    message.set_content(services.games.legal_moves(game_id, ada)["moves"][0]["notation"])
    return app.test_client(), services, game_id, bytes(message)


def test_a_raw_reply_with_the_secret_is_played(inbound):
    client, services, game_id, raw = inbound
    r = client.post(
        "/v1/inbound/email",
        data=raw,
        content_type="message/rfc822",
        headers={"Turnpost-Inbound-Secret": SECRET},
    )
    assert r.status_code == 200 and r.json == {"status": "played", "code": "mail/played"}
    assert services.games.summary(game_id)["version"] == 3
    r = client.post(
        "/v1/inbound/email",
        data=raw,
        content_type="message/rfc822",
        headers={"Turnpost-Inbound-Secret": SECRET},
    )
    assert r.json == {"status": "ignored", "code": "mail/duplicate"}


def test_without_the_secret_nothing_is_read(inbound):
    client, services, game_id, raw = inbound
    for headers in ({}, {"Turnpost-Inbound-Secret": "guess"}):
        r = client.post(
            "/v1/inbound/email", data=raw, content_type="message/rfc822", headers=headers
        )
        assert r.status_code == 403 and r.json["code"] == "inbound/bad_secret"
    assert services.games.summary(game_id)["version"] == 2


def test_an_empty_body_is_422(inbound):
    client, _, _, _ = inbound
    r = client.post(
        "/v1/inbound/email",
        data=b"  ",
        content_type="message/rfc822",
        headers={"Turnpost-Inbound-Secret": SECRET},
    )
    assert r.status_code == 422 and r.json["code"] == "inbound/empty"


def test_disabled_without_a_secret_configured(redis_client):
    client = create_app(redis_client).test_client()
    r = client.post("/v1/inbound/email", data=b"From: x\r\n\r\nhi", content_type="message/rfc822")
    assert r.status_code == 404 and r.json["code"] == "inbound/disabled"
