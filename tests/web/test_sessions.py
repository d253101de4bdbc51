"""Web sessions end when they are ended: a session cookie copied before signing out, before
"sign out everywhere" or before a new API token is refused after it, wherever it is shown
(the pages, their forms, the API's event streams). The settings list the sessions with their
browser, when each signed in and was last seen, and sign out any one of them. Flask's test
client, a real Valkey, a real SMTP peer (aiosmtpd) for the sign-in links."""

import re

import pytest

from api.app import create_app
from api.front_door import FrontDoor
from service.settings import Settings
from tests.peers import text_of
from tests.web.conftest import Browser
from transports.mailer import SmtpMailer

COOKIE = "turnpost_session"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


@pytest.fixture
def app(redis_client, smtp):
    return create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url="http://turnpost.test", sign_in_per_address_per_hour=100),
        front_door=FrontDoor(rate_limits=False),
    )


@pytest.fixture
def ada(app):
    """Ada's player and API token (registered through the API, with her address)."""
    r = app.test_client().post("/v1/players", json={"name": "Ada", "email": "ada@example.org"})
    return r.json["id"], r.json["token"]


def signed_in(app, smtp, email="ada@example.org", agent=FIREFOX) -> Browser:
    """A browser signed in by an emailed link, as a person does it."""
    browser = Browser(app)
    browser.client.environ_base["HTTP_USER_AGENT"] = agent
    services = app.extensions["turnpost"]["services"]
    assert browser.post("/sign-in", {"email": email}).status_code == 200
    assert services.sign_in.send_links(email) == 1
    message = smtp.wait_for(lambda m, rcpt: email in rcpt)
    with smtp.changed:
        smtp.messages[:] = [x for x in smtp.messages if x[1] is not message]
    link = re.search(r"http://turnpost\.test(/sign-in/[A-Za-z0-9_-]+)", text_of(message)).group(1)
    browser.get(link)
    assert browser.post(link).status_code == 303
    assert browser.get("/settings").status_code == 200
    return browser


def copy_of(app, browser: Browser) -> Browser:
    """Another browser holding the same cookie (stolen, or left on a shared computer), and
    the CSRF token of the pages the first one was shown."""
    thief = Browser(app)
    thief.client.set_cookie(COOKIE, browser.client.get_cookie(COOKIE).value)
    thief.token = browser.token
    return thief


def refused(app, browser: Browser, player: str, game: str, token: str) -> None:
    """The browser is signed out: its pages send it to sign in, its forms do nothing, the
    API's streams do not take its cookie, and no new API token was made."""
    r = browser.client.get("/settings")
    assert r.status_code == 303 and r.headers["Location"].startswith("/sign-in")
    r = browser.client.post("/settings/token", data={"csrf_token": browser.token})
    assert r.status_code in (303, 400) and "tp_" not in r.get_data(as_text=True)
    r = browser.client.post(
        "/settings", data={"csrf_token": browser.token, "name": "Mallory", "email": ""}
    )
    assert r.status_code in (303, 400)
    assert browser.client.get(f"/v1/games/{game}/stream?after=0").status_code == 401
    services = app.extensions["turnpost"]["services"]
    assert services.players.profile(player)["name"] != "Mallory"
    assert services.players.authenticate(token) == player, "the API token still works"


def a_game(app, player: str) -> str:
    services = app.extensions["turnpost"]["services"]
    return services.games.create(player, "nautilus", [player, "bot:random"])["id"]


def test_a_cookie_copied_before_signing_out_is_refused_after(app, smtp, ada):
    player, token = ada
    browser = signed_in(app, smtp)
    thief = copy_of(app, browser)
    game = a_game(app, player)
    assert thief.client.get("/settings").status_code == 200, "the copy works while it lasts"
    assert browser.post("/sign-out").status_code == 303
    refused(app, thief, player, game, token)
    refused(app, browser, player, game, token)


def test_signing_out_everywhere_ends_every_session_and_its_copies(app, smtp, ada):
    player, token = ada
    laptop, phone = signed_in(app, smtp), signed_in(app, smtp, agent=PHONE)
    thief = copy_of(app, phone)
    game = a_game(app, player)
    laptop.get("/settings")
    r = laptop.post("/settings/sign-out-everywhere")
    assert r.status_code == 303 and r.headers["Location"] == "/"
    assert "signed out everywhere" in laptop.text("/")
    for browser in (laptop, phone, thief):
        refused(app, browser, player, game, token)


def test_a_new_api_token_ends_every_other_session(app, smtp, ada):
    player, _ = ada
    laptop, phone = signed_in(app, smtp), signed_in(app, smtp, agent=PHONE)
    thief = copy_of(app, laptop)
    game = a_game(app, player)
    laptop.get("/settings")
    html = laptop.post("/settings/token").get_data(as_text=True)
    token = re.search(r'<code class="secret">(tp_[^<]+)</code>', html).group(1)
    # the browser that asked stays signed in, with a new cookie; every other copy is out
    assert laptop.client.get("/settings").status_code == 200
    for browser in (phone, thief):
        refused(app, browser, player, game, token)
    # a token made through the API signs out the browser that made the last one, too
    r = app.test_client().post("/v1/players/me/token", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201
    refused(app, laptop, player, game, r.json["token"])


@pytest.mark.slow
def test_the_settings_list_the_sessions_and_sign_out_one(app, smtp, ada):
    player, token = ada
    laptop, phone = signed_in(app, smtp), signed_in(app, smtp, agent=PHONE)
    html = laptop.text("/settings")
    sessions = re.search(r'<section id="sessions".*?</section>', html, re.S).group(0)
    assert "Firefox on Linux" in sessions and "Chrome on Android" in sessions
    assert sessions.count("this browser") == 1
    assert "signed in" in sessions.lower() and "last seen" in sessions.lower()
    # the phone's own form: the one not marked as this browser
    forms = re.findall(r'<form[^>]*action="(/settings/sessions/[^"]+/sign-out)"', sessions)
    assert len(forms) == 1
    r = laptop.post(forms[0])
    assert r.status_code == 303 and r.headers["Location"] == "/settings#sessions"
    refused(app, phone, player, a_game(app, player), token)
    assert laptop.client.get("/settings").status_code == 200
    sessions = re.search(r'<section id="sessions".*?</section>', laptop.text("/settings"), re.S)
    assert "Chrome on Android" not in sessions.group(0)
    # another player's session cannot be named from here
    other = app.test_client().post("/v1/players", json={"name": "Bo", "email": "bo@example.org"})
    bo = signed_in(app, smtp, email="bo@example.org")
    services = app.extensions["turnpost"]["services"]
    [theirs] = services.sessions.list(other.json["id"], current=None)
    r = laptop.post(f"/settings/sessions/{theirs['id']}/sign-out")
    assert r.status_code == 404
    assert bo.client.get("/settings").status_code == 200
