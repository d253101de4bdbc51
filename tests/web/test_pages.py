"""The web client's pages over HTTP (Flask's test client, a real Valkey): what a person does,
form by form, and what a hostile form gets. The browser tests (tests/e2e/test_web_client.py)
do the same through a real browser."""

import re

from api.app import create_app
from api.front_door import FrontDoor
from service.settings import Settings
from tests.peers import text_of
from tests.web.conftest import Browser, sign_up
from transports.mailer import SmtpMailer


def test_the_front_page_says_what_turnpost_is_and_shows_the_four_games(app):
    browser = Browser(app)
    r = browser.get("/")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.mimetype == "text/html"
    for title in ("Nautilus", "Con Sonar!", "Buttons", "The Nine Domains"):
        assert f"<h3>{title}</h3>" in html
    assert html.count("<table") >= 4, "a picture of each game's table"
    assert 'href="/sign-up"' in html and 'href="/sign-in"' in html


def test_signing_up_and_in_by_the_emailed_link_sets_a_safe_cookie(app, services, smtp):
    browser = Browser(app)
    r = sign_up(browser, services, smtp, "Ada", "ada@example.org")
    assert r.headers["Location"] == "/games"
    cookie = next(c for c in r.headers.getlist("Set-Cookie") if c.startswith("turnpost_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert "Expires=" in cookie
    html = browser.text("/games")
    assert "My games" in html and "Sign out Ada" in html
    # over https (behind a proxy: X-Forwarded-Proto, trusted with PROXY_HOPS) it is Secure
    r = app.test_client().get("/sign-in", base_url="https://turnpost.test")
    assert "Secure" in r.headers["Set-Cookie"]


def test_a_sign_in_link_works_once_and_leaves_the_api_token_alone(app, services, smtp):
    client = app.test_client()
    token = client.post("/v1/players", json={"name": "Bo", "email": "bo@example.org"}).json["token"]
    browser = Browser(app)
    browser.post("/sign-in", {"email": "bo@example.org"})
    services.sign_in.send_links("bo@example.org")
    text = text_of(smtp.wait_for(lambda m, rcpt: "bo@example.org" in rcpt))
    link = re.search(r"http://turnpost\.test(/sign-in/\S+)", text).group(1)
    for _ in range(2):  # a mail scanner fetching the link changes nothing
        assert browser.get(link).status_code == 200
    assert browser.post(link).status_code == 303
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/v1/players/me", headers=headers).status_code == 200
    again = Browser(app)
    assert again.post(link).status_code == 404
    assert again.get("/games").status_code == 303, "the used link signed nobody in"


def test_a_form_without_its_csrf_token_or_from_another_session_does_nothing(app, services, smtp):
    ada = Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    r = ada.post("/settings", {"name": "Mallory"}, csrf=False)
    assert r.status_code == 400 and "nothing was done" in r.get_data(as_text=True)
    stranger = Browser(app)
    stranger.get("/sign-in")
    r = ada.client.post("/settings", data={"name": "Mallory", "csrf_token": stranger.token})
    assert r.status_code == 400
    assert services.players.profile(services.players.named("Ada")[0]["id"])["name"] == "Ada"


def test_a_hostile_name_is_refused_and_an_odd_one_is_escaped(app, services, smtp):
    browser = Browser(app)
    r = browser.post("/sign-up", {"name": "Ada\r\nBcc: x@evil.test", "email": "a@example.org"})
    assert r.status_code == 400 and services.players.named("Ada") == []
    sign_up(browser, services, smtp, "<script>alert(1)</script>", "s@example.org")
    html = browser.text("/games")
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)" in html


def test_pages_for_players_send_a_stranger_to_sign_in_and_back(app, services, smtp):
    browser = Browser(app)
    r = browser.get("/settings")
    assert r.status_code == 303 and r.headers["Location"].startswith("/sign-in")
    r = sign_up(browser, services, smtp, "Ada", "ada@example.org")
    assert r.headers["Location"] == "/settings"


def test_settings_change_the_profile_the_time_zone_and_the_friends(app, services, smtp):
    ada, bo = Browser(app), Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    sign_up(bo, services, smtp, "Bo", "bo@example.org")
    ada.get("/settings")
    r = ada.post(
        "/settings",
        {"name": "Ada L", "email": "ada@example.org", "time_zone": "Europe/Rome"},
    )
    assert r.status_code == 303
    ada_id = services.players.named("Ada L")[0]["id"]
    profile = services.players.profile(ada_id)
    assert profile["time_zone"] == "Europe/Rome"
    assert profile["notifications"]["email"] is False, "an unticked box turns it off"
    r = ada.post("/settings/friends", {"add": "bo"})
    assert r.status_code == 303
    assert [f["name"] for f in services.players.friends(ada_id)["friends"]] == ["Bo"]
    r = ada.post("/settings/friends", {"add": "nobody at all"})
    assert r.status_code == 422 and "No player is called nobody at all" in r.get_data(as_text=True)
    r = ada.post("/settings", {"name": "Ada", "time_zone": "Mars/Olympus"})
    assert r.status_code == 422 and "no time zone" in r.get_data(as_text=True)


def test_a_new_api_token_is_shown_once_and_replaces_the_old(app, services, smtp):
    client = app.test_client()
    old = client.post("/v1/players", json={"name": "Cy", "email": "cy@example.org"}).json["token"]
    browser = Browser(app)
    browser.post("/sign-in", {"email": "cy@example.org"})
    services.sign_in.send_links("cy@example.org")
    text = text_of(smtp.wait_for(lambda m, rcpt: "cy@example.org" in rcpt))
    link = re.search(r"http://turnpost\.test(/sign-in/\S+)", text).group(1)
    browser.get(link)
    browser.post(link)
    browser.get("/settings")
    html = browser.post("/settings/token").get_data(as_text=True)
    token = re.search(r'<code class="secret">(tp_[^<]+)</code>', html).group(1)
    assert (
        client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"}).status_code
        == 200
    )
    assert (
        client.get("/v1/players/me", headers={"Authorization": f"Bearer {old}"}).status_code == 401
    )
    assert token not in browser.text("/settings")


def test_sign_ups_and_sign_in_links_are_limited_per_client_address(redis_client, smtp):
    app = create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url="http://turnpost.test"),
        front_door=FrontDoor(limit_register_per_ip="2/hour", limit_sign_in_per_ip="1/hour"),
    )
    browser = Browser(app)
    answers = [
        browser.post("/sign-up", {"name": f"P{n}", "email": f"p{n}@example.org"}) for n in range(3)
    ]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert "text/html" in answers[-1].content_type and "Retry-After" in answers[-1].headers
    asked = [browser.post("/sign-in", {"email": "p0@example.org"}) for _ in range(2)]
    assert [a.status_code for a in asked] == [200, 429]


def test_the_api_takes_the_session_cookie_for_its_event_streams_only(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    ada = services.players.named("Ada")[0]["id"]
    game = services.games.create(ada, "nautilus", [ada, "bot:heuristic"])
    # another site could make this browser send these with its cookie: all want the token
    assert browser.client.get("/v1/players/me").status_code == 401
    assert (
        browser.client.post(
            "/v1/games", json={"game": "nautilus", "seats": [ada, None]}
        ).status_code
        == 401
    )
    assert browser.client.post(f"/v1/games/{game['id']}/resign").status_code == 401
    assert services.games.load(game["id"])["status"] == "active"
    # the game's stream, which a page of this origin follows, reads it
    stream = browser.client.get(f"/v1/games/{game['id']}/stream?after=0", buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    first = next(stream.response)
    assert b"GameCreated" in first or b"retry" in first
    stream.close()


def test_signing_out_ends_the_session(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    browser.get("/games")
    assert browser.post("/sign-out").status_code == 303
    assert browser.get("/games").status_code == 303
    ada = services.players.named("Ada")[0]["id"]
    game = services.games.create(ada, "nautilus", [ada, "bot:heuristic"])
    assert browser.client.get(f"/v1/games/{game['id']}/stream?after=0").status_code == 401
