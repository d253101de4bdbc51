"""Addresses beyond ASCII, over HTTP with a real Valkey and a real SMTP server: a domain in
its own script is mailed under its ASCII name (IDNA), and an address whose part before the @
no mail server here can take is refused at once, in words, never left to fail in a job."""

import time

from api.app import create_app
from service.settings import Settings
from store.schedule import ScheduleStore
from tests.peers import text_of
from transports.mailer import SmtpMailer


def client_and_services(redis_client, smtp):
    app = create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url="http://turnpost.test"),
    )
    return app.test_client(), app.extensions["turnpost"]["services"]


def send_the_letters_due(redis_client, services):
    """What a worker's clock does with the sign-in letters that are due; how many went."""
    schedule = ScheduleStore(redis_client)
    due = schedule.take_due(int(time.time() * 1000) + 1000, 200)
    sent = [services.sign_in.send_due(item) for _, item in due if item["kind"] == "sign_in"]
    schedule.done(due)
    return sent


def test_a_domain_in_its_own_script_is_mailed_under_its_ascii_name(redis_client, smtp):
    client, services = client_and_services(redis_client, smtp)
    r = client.post("/v1/players", json={"name": "Zoë", "email": "Zoe@Bücher.Example"})
    assert r.status_code == 201, r.json
    token = r.json["token"]
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"}).json
    assert me["email"] == "Zoe@xn--bcher-kva.example"
    assert send_the_letters_due(redis_client, services) == ["sent"]
    letter = smtp.wait_for(lambda m, r: "zoe@xn--bcher-kva.example" in r)
    assert letter["To"].lower().endswith("zoe@xn--bcher-kva.example>")
    assert "http://turnpost.test/" in text_of(letter)
    # the same address written either way is one address: a sign-in link reaches it
    assert client.post("/v1/sign-in", json={"email": "zoe@bücher.example"}).status_code == 202
    assert send_the_letters_due(redis_client, services) == ["sent"]


def test_an_address_no_server_here_can_take_is_refused_in_words(redis_client, smtp):
    client, _ = client_and_services(redis_client, smtp)
    for address in ("adä@example.org", "ada@exa mple.org", "ada@-.org"):
        r = client.post("/v1/players", json={"name": "Ada", "email": address})
        assert r.status_code == 422, (address, r.json)
        assert r.json["code"] in ("player/invalid", "request/invalid"), r.json
        assert r.json["message"]
    token = client.post("/v1/players", json={"name": "Ada"}).json["token"]
    r = client.patch(
        "/v1/players/me",
        json={"email": "adä@example.org"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 422 and r.json["code"] == "player/invalid", r.json
    r = client.post("/v1/sign-in", json={"email": "adä@example.org"})
    assert r.status_code in (400, 422) and r.json["code"] == "request/invalid", r.json
