"""API tokens and secrets at rest, over HTTP against a real `turnpost serve` (API and worker)
that sends its emails over SMTP to an aiosmtpd server and its webhooks to a loopback receiver:
a player rotates their token, or gets a new one through the web client, signed in by an
emailed link, when it is lost;
and Redis never holds an API token, a reply token, a sign-in link, a webhook secret or a
configured key in clear."""

import base64
import re

import pytest
import requests
import standardwebhooks
from cryptography.fernet import Fernet

from store.connection import connect
from tests.e2e.server import Client, LiveServer, confirm_address
from tests.peers import SmtpInbox, WebhookReceiver, html_of, text_of

DOMAIN = "play.test"
LINK_KEY = "link-key-" + "k" * 40
WEBHOOK_KEY = Fernet.generate_key().decode()
PER_ADDRESS = 3


@pytest.fixture(scope="module")
def post_office(valkey):
    with SmtpInbox() as outgoing:
        env = {
            "SMTP_URL": outgoing.url,
            "MAIL_DOMAIN": DOMAIN,
            "EMAIL_DELAY_SECONDS": "0",
            "EMAIL_THROTTLE_SECONDS": "0",
            "PUBLIC_URL": "http://turnpost.test",
            "WEBHOOK_ALLOW_HTTP": "1",
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            "LINK_SIGNING_KEYS": LINK_KEY,
            "WEBHOOK_SECRET_KEYS": WEBHOOK_KEY,
            "SIGN_IN_PER_ADDRESS_PER_HOUR": str(PER_ADDRESS),
            "ONE_CLICK_MAX_MOVES": "1000",
            "LIMIT_SIGN_IN_PER_IP": "100/minute",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        try:
            yield server, outgoing
        finally:
            server.stop()


def local(url: str, server) -> str:
    return url.replace("http://turnpost.test", server.url)


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def sign_in_link(outgoing, address: str) -> str:
    message = outgoing.wait_for(
        lambda m, rcpt: address in rcpt and m["X-Turnpost-Event"] == "sign_in.link", timeout=30
    )
    links = re.findall(r"http://turnpost\.test/sign-in/[A-Za-z0-9_-]+", text_of(message))
    assert links and set(links) == set(
        re.findall(r"http://turnpost\.test/sign-in/[A-Za-z0-9_-]+", html_of(message))
    )
    return links[0]


def test_a_player_rotates_their_token_and_the_old_one_stops_at_once(post_office):
    server, _ = post_office
    ada = Client(server.url, "Ada")
    old = dict(ada.headers)
    r = ada.post("/v1/players/me/token")
    assert r.status_code == 201, r.text
    assert r.headers["Location"] == "/v1/players/me"
    new = {"Authorization": f"Bearer {r.json()['token']}"}
    assert r.json()["token"] != old["Authorization"].split()[1]
    refused = requests.get(server.url + "/v1/players/me", headers=old, timeout=10)
    assert refused.status_code == 401 and refused.json()["code"] == "auth/bad_token"
    me = requests.get(server.url + "/v1/players/me", headers=new, timeout=10)
    assert me.status_code == 200 and me.json()["id"] == ada.id
    assert "token" not in me.json()


def test_a_lost_token_is_replaced_through_an_emailed_sign_in_link(post_office):
    server, outgoing = post_office
    ada = Client(server.url, "Ada", email="ada.lost@example.org")
    old = dict(ada.headers)
    unknown = requests.post(
        server.url + "/v1/sign-in", json={"email": "nobody@example.org"}, timeout=10
    )
    known = requests.post(
        server.url + "/v1/sign-in", json={"email": "Ada.Lost@example.org"}, timeout=10
    )
    assert unknown.status_code == known.status_code == 202
    assert unknown.json() == known.json(), "the answer tells nothing about who is registered"
    link = local(sign_in_link(outgoing, "ada.lost@example.org"), server)
    browser = requests.Session()
    for _ in range(3):  # a mail scanner may fetch it; nothing happens before the button
        page = browser.get(link, timeout=10)
        assert page.status_code == 200 and '<form method="post">' in page.text
        assert page.headers["Cache-Control"] == "no-store"
    assert requests.get(server.url + "/v1/players/me", headers=old, timeout=10).ok
    done = browser.post(link, data={"csrf_token": csrf_of(page.text)}, timeout=10)
    assert done.status_code == 200 and "Sign out Ada" in done.text, done.text
    settings = browser.get(server.url + "/settings", timeout=10)
    made = browser.post(
        server.url + "/settings/token", data={"csrf_token": csrf_of(settings.text)}, timeout=10
    )
    token = re.search(r'<code class="secret">(tp_[A-Za-z0-9_-]+)</code>', made.text).group(1)
    new = {"Authorization": f"Bearer {token}"}
    assert (
        requests.get(server.url + "/v1/players/me", headers=new, timeout=10).json()["id"] == ada.id
    )
    assert requests.get(server.url + "/v1/players/me", headers=old, timeout=10).status_code == 401
    stranger = requests.Session()
    token_page = stranger.get(server.url + "/sign-in", timeout=10)
    for again in (
        stranger.post(link, data={"csrf_token": csrf_of(token_page.text)}, timeout=10),
        stranger.get(link, timeout=10),
    ):
        assert again.status_code == 404 and "tp_" not in again.text, "a link works once"
    assert requests.get(server.url + "/v1/players/me", headers=new, timeout=10).ok
    assert outgoing.to("nobody@example.org") == []


def test_sign_in_requests_are_limited_per_address_whoever_owns_it(post_office):
    """An address gets at most PER_ADDRESS letters an hour whoever asks: the one that
    confirmed Bo's address when he registered counts."""
    server, _ = post_office
    Client(server.url, "Bo", email="bo.limit@example.org")
    for address, letters_left in (
        ("bo.limit@example.org", PER_ADDRESS - 1),
        ("nobody.limit@example.org", PER_ADDRESS),
    ):
        answers = [
            requests.post(server.url + "/v1/sign-in", json={"email": address}, timeout=10)
            for _ in range(letters_left + 1)
        ]
        assert [a.status_code for a in answers] == [202] * letters_left + [429]
        assert answers[-1].json()["code"] == "rate/limited"
        assert int(answers[-1].headers["Retry-After"]) > 0


def test_a_forged_or_malformed_sign_in_link_is_refused(post_office):
    server, _ = post_office
    browser = requests.Session()
    csrf = csrf_of(browser.get(server.url + "/sign-in", timeout=10).text)
    for token in ("A" * 43, "x", "%00"):
        for answer in (
            browser.get(f"{server.url}/sign-in/{token}", timeout=10),
            browser.post(f"{server.url}/sign-in/{token}", data={"csrf_token": csrf}, timeout=10),
        ):
            assert answer.status_code == 404 and "not valid" in answer.text
    # without the CSRF token of a page this browser was shown, nothing is even looked up
    bare = requests.post(f"{server.url}/sign-in/{'A' * 43}", timeout=10)
    assert bare.status_code == 400 and "nothing was done" in bare.text
    bad = requests.post(server.url + "/v1/sign-in", json={"email": "not an address"}, timeout=10)
    assert bad.status_code == 422 and bad.json()["code"] == "request/invalid"


def everything_in(valkey_url: str) -> bytes:
    """Every key name and every value in the database, read by type (DUMP would compress)."""
    r = connect(valkey_url)
    seen = []
    for key in r.scan_iter(count=1000):
        seen.append(key)
        kind = r.type(key).decode()
        if kind == "string":
            seen.append(r.get(key))
        elif kind == "hash":
            seen += [b"%s=%s" % item for item in r.hgetall(key).items()]
        elif kind == "list":
            seen += r.lrange(key, 0, -1)
        elif kind == "set":
            seen += list(r.smembers(key))
        elif kind == "zset":
            seen += [m for m, _ in r.zrange(key, 0, -1, withscores=True)]
        elif kind == "stream":
            seen += [b"%s=%s" % item for _, fields in r.xrange(key) for item in fields.items()]
    return b"\n".join(seen)


def test_redis_holds_no_token_reply_token_link_or_webhook_secret_in_clear(post_office, valkey):
    server, outgoing = post_office
    with WebhookReceiver() as receiver:
        r = requests.post(
            server.url + "/v1/players",
            timeout=10,
            json={"name": "Cy", "email": "cy.secret@example.org", "webhook_url": receiver.url},
        )
        cy_token, webhook_secret = r.json()["token"], r.json()["webhook_secret"]
        cy = {"Authorization": f"Bearer {cy_token}"}
        confirm_address(outgoing, server.url, "Cy", "cy.secret@example.org")
        di = Client(server.url, "Di", email="di.secret@example.org")
        requests.put(
            server.url + "/v1/players/me/friends",
            headers=di.headers,
            timeout=10,
            json={"friends": [r.json()["id"]]},
        ).raise_for_status()  # Cy seats Di
        game = requests.post(
            server.url + "/v1/games",
            headers=cy,
            timeout=10,
            json={"game": "ninedomains", "seats": [r.json()["id"], di.id]},
        ).json()
        call = receiver.wait_count(1, timeout=30)[0]
        turn = outgoing.wait_for(
            lambda m, rcpt: "cy.secret@example.org" in rcpt and m["X-Turnpost-Game"] == game["id"],
            timeout=30,
        )
    # the server signs with the secret it showed once, though it keeps it only encrypted
    headers = {k: v for k, v in call["headers"].items() if k.startswith("webhook-")}
    standardwebhooks.Webhook(webhook_secret).verify(call["body"], headers)
    reply_token = re.fullmatch(rf"move\+([0-9a-f]+)\.\d+@{DOMAIN}", turn["Reply-To"]).group(1)
    one_click = re.findall(r"/m/([A-Za-z0-9_.-]+)", html_of(turn))
    assert one_click
    requests.post(server.url + "/v1/sign-in", json={"email": "di.secret@example.org"}, timeout=10)
    sign_in = sign_in_link(outgoing, "di.secret@example.org").rsplit("/", 1)[1]
    rotated = requests.post(
        server.url + "/v1/players/me/token", headers=di.headers, timeout=10
    ).json()["token"]
    stored = everything_in(valkey.url)
    for kind in (b"tp:player:", b"tp:signin:", b"tp:token:", b"tp:replytoken:", b":log\n"):
        assert kind in stored, f"the database was read: {kind!r} keys are in it"
    secrets = {
        "API token": cy_token,
        "rotated API token": rotated,
        "reply token": reply_token,
        "sign-in link": sign_in,
        "webhook secret": webhook_secret,
        "webhook key bytes": webhook_secret.removeprefix("whsec_"),
        "webhook key hex": base64.b64decode(webhook_secret.removeprefix("whsec_")).hex(),
        "link key": LINK_KEY,
        "webhook encryption key": WEBHOOK_KEY,
    }
    for name, secret in secrets.items():
        assert secret.encode() not in stored, f"the {name} is in Redis in clear"
