"""Every answer says how far a browser may trust it: a Content-Security-Policy without inline
script on every page kind (and none at all for what is not a page), no framing, no sniffing,
no address sent to other sites, and HSTS when the site is served over https, as the
deployment's proxy settings say. Flask's test client, a real Valkey, a real SMTP peer.
(tests/e2e/test_web_client.py reads the same headers in a real Chromium and checks that the
pages work under the policy.)"""

import re

import pytest

from api.app import create_app
from api.front_door import FrontDoor
from service.settings import Settings
from tests.web.conftest import Browser, sign_up
from transports.mailer import SmtpMailer

SITE = "http://turnpost.test"


def policy(r) -> dict[str, str]:
    found = {}
    for part in r.headers["Content-Security-Policy"].split(";"):
        name, _, value = part.strip().partition(" ")
        found[name] = value
    return found


def assert_common(r, what):
    assert r.headers["X-Content-Type-Options"] == "nosniff", what
    assert r.headers["X-Frame-Options"] == "DENY", what
    assert r.headers["Referrer-Policy"] == "same-origin", what
    assert policy(r)["frame-ancestors"] == "'none'", what


@pytest.fixture
def site(redis_client, smtp):
    app = create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url=SITE),
        front_door=FrontDoor(rate_limits=False),
    )
    services = app.extensions["turnpost"]["services"]
    ada = Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    ada_id = services.players.named("Ada")[0]["id"]
    game = services.games.create(ada_id, "nautilus", [ada_id, "bot:random"])["id"]
    return app, services, ada, game


@pytest.mark.slow
def test_every_page_kind_has_a_policy_without_inline_script(site):
    _, services, ada, game = site
    seat = services.games.games.snapshot(game)["active_seats"][0]
    table = services.tables.for_seat(game, seat)
    links = services.one_click.links(table, [table.moves[0].notation])
    pages = {
        "front page": "/",
        "sign in": "/sign-in",
        "sign up": "/sign-up",
        "lobby": "/lobby",
        "my games": "/games",
        "new game": "/games/new",
        "a game": f"/games/{game}",
        "settings": "/settings",
        "a profile": f"/players/{services.players.named('Ada')[0]['id']}",
        "public page": f"/play/{game}",
        "turn page": links.turn_page.removeprefix(SITE),
        "one-click confirmation": next(iter(links.moves.values())).removeprefix(SITE),
        "a page that says no": "/games/g_nothing",
        "a bad sign-in link": "/sign-in/" + "A" * 43,
        "a hostile next": "/sign-in?next=//evil.test",
    }
    for what, path in pages.items():
        r = ada.get(path)
        assert r.status_code < 500 and r.mimetype == "text/html", (what, r.status_code)
        assert_common(r, what)
        found = policy(r)
        assert found["script-src"] == "'self'", what
        assert found["default-src"] == "'self'" and found["object-src"] == "'none'", what
        assert found["base-uri"] == "'none'" and found["form-action"] == "'self'", what
        assert "unsafe-inline" not in found["style-src"], what
        html = r.get_data(as_text=True)
        # and the page keeps to it: no inline script, handler or <style> (a JSON data
        # block is no script, so it would pass)
        scripts = re.findall(r"<script\b([^>]*)>", html)
        assert all("src=" in s or 'type="application/json"' in s for s in scripts), what
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), what
        assert "<style" not in html and "javascript:" not in html.lower(), what


def test_what_is_not_a_page_may_load_nothing_and_the_docs_allow_their_own_script(redis_client):
    client = create_app(redis_client, settings=Settings(public_url=SITE)).test_client()
    for what, r in {
        "the API": client.get("/v1/catalog"),
        "an API error": client.get("/v1/games"),
        "the stylesheet": client.get("/assets/turnpost.css"),
        "the script": client.get("/assets/live.js"),
        "the OpenAPI document": client.get("/openapi.json"),
    }.items():
        assert_common(r, what)
        assert policy(r)["default-src"] == "'none'", what
    docs = client.get("/docs/")
    assert_common(docs, "docs")
    script_src = policy(docs)["script-src"].split()
    assert script_src[0] == "'self'" and len(script_src) == 2
    assert script_src[1].startswith("'sha256-") and "'unsafe-inline'" not in script_src


@pytest.mark.slow  # over a second: not in make test-fast
def test_hsts_follows_https_as_the_deployment_sees_it(redis_client):
    plain = create_app(redis_client, settings=Settings(public_url=SITE)).test_client()
    assert "Strict-Transport-Security" not in plain.get("/").headers
    # a client cannot claim https where no proxy is trusted
    forged = plain.get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in forged.headers
    # the server itself over https
    direct = plain.get("/", base_url="https://turnpost.test")
    assert direct.headers["Strict-Transport-Security"] == "max-age=31536000"
    # behind a trusted TLS proxy
    proxied = create_app(
        redis_client, settings=Settings(public_url=SITE), front_door=FrontDoor(proxy_hops=1)
    ).test_client()
    r = proxied.get("/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "1.2.3.4"})
    assert r.headers["Strict-Transport-Security"] == "max-age=31536000"
    # a public address in https says the site is https, whatever the last hop was
    public = create_app(
        redis_client,
        settings=Settings(public_url="https://play.example.org"),
        front_door=FrontDoor(hsts_seconds=600),
    ).test_client()
    assert public.get("/v1/catalog").headers["Strict-Transport-Security"] == "max-age=600"
    off = create_app(
        redis_client,
        settings=Settings(public_url="https://play.example.org"),
        front_door=FrontDoor(hsts_seconds=0),
    ).test_client()
    assert "Strict-Transport-Security" not in off.get("/").headers
