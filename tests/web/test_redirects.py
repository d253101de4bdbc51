"""Where the site sends a person after signing in (`?next=`) is a page of this site, whatever
the link that brought them said: hostile values answer 400 (never 5xx, never a redirect
elsewhere) at /sign-in and /sign-up, and a genuine sign-in link followed afterwards lands on
this site. Flask's test client, a real Valkey, a real SMTP peer (aiosmtpd) for the links."""

import re
from urllib.parse import urljoin, urlsplit

import pytest

from api.app import create_app
from api.front_door import FrontDoor
from service.settings import Settings
from tests.peers import text_of
from tests.web.conftest import Browser
from transports.mailer import SmtpMailer

SITE = "http://turnpost.test"

# What an attacker writes after `next=` in a link, as it stands in the URL (percent-encoded
# where a URL needs it). Every one of these must keep the person on this site.
HOSTILE = [
    "/%09/evil.test/",  # a tab, which browsers drop: //evil.test/
    "/%0A/evil.test/",
    "/%0D/evil.test/",
    "/%0D%0A/evil.test/",
    "/%0D%0ALocation:%20https://evil.test",  # a header of its own
    "%0A//evil.test",
    "%20//evil.test",  # browsers trim leading spaces
    "//evil.test",
    "%2F%2Fevil.test",  # //evil.test once the query is read
    "/%2F/evil.test",  # ///evil.test
    "/%252F%252Fevil.test",  # encoded twice
    "%252F%252Fevil.test",
    "///evil.test",
    "/\\evil.test",  # browsers read \ as /
    "/%5Cevil.test",
    "%5C%5Cevil.test",
    "/%255Cevil.test",
    "\\/evil.test",
    "https://evil.test",
    "https:evil.test",
    "http://turnpost.test@evil.test/",
    "//turnpost.test@evil.test",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "/%0Ajavascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.test",
    "/%00//evil.test",
    "/%EF%BC%8Fevil.test",  # / then a fullwidth solidus
    "%EF%BC%8F%EF%BC%8Fevil.test",  # two fullwidth solidi
    "/%E2%88%95evil.test",  # a division slash
    "/%E2%81%84evil.test",  # a fraction slash
    "//evil%E3%80%82test",  # an ideographic full stop in the host
    "%E2%80%8B//evil.test",  # a zero-width space first
    "/%E2%80%AE//tset.live",  # a right-to-left override
    "/" + "a" * 5000,  # longer than any page's address here
]


@pytest.fixture
def app(redis_client, smtp):
    return create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url=SITE, sign_in_per_address_per_hour=1000),
        front_door=FrontDoor(rate_limits=False),
    )


def stays_on_site(location: str) -> None:
    """A Location a browser resolves to this site: a path of printable ASCII (nothing a
    browser drops or reads as a slash), that no scheme or host can follow."""
    assert all(0x21 <= ord(c) <= 0x7E for c in location), location
    assert location.startswith("/") and not location.startswith("//"), location
    assert "\\" not in location, location
    parts = urlsplit(urljoin(SITE + "/sign-in", location))
    assert (parts.scheme, parts.netloc) == ("http", "turnpost.test"), location


def sign_in_link(browser: Browser, app, smtp, email: str) -> str:
    """Ask for a sign-in link at `email` and take it out of the emailed letter."""
    services = app.extensions["turnpost"]["services"]
    r = browser.post("/sign-in", {"email": email})
    assert r.status_code == 200
    assert services.sign_in.send_links(email) == 1  # the worker's part
    message = smtp.wait_for(lambda m, rcpt: email in rcpt)
    with smtp.changed:
        smtp.messages[:] = [x for x in smtp.messages if x[1] is not message]
    return re.search(r"http://turnpost\.test(/sign-in/[A-Za-z0-9_-]+)", text_of(message)).group(1)


@pytest.mark.parametrize("page", ["/sign-in", "/sign-up"])
def test_a_hostile_next_is_refused_where_it_is_given(app, page):
    assert len(HOSTILE) >= 30
    client = app.test_client()
    for value in HOSTILE:
        r = client.get(f"{page}?next={value}")
        assert r.status_code == 400, (value, r.status_code)
        assert "page of this site" in r.get_data(as_text=True), value


@pytest.mark.slow  # a sign-in a hostile address, over a second
def test_a_hostile_next_never_leads_away_after_a_genuine_sign_in_link(app, smtp):
    services = app.extensions["turnpost"]["services"]
    services.players.register("Ada", "ada@example.org")
    signed_in = Browser(app)
    link = sign_in_link(signed_in, app, smtp, "ada@example.org")
    signed_in.get(link)
    assert signed_in.post(link).status_code == 303
    for value in HOSTILE:
        # signed in already: /sign-in sends on to `next` at once, so it is checked first
        r = signed_in.client.get(f"/sign-in?next={value}")
        assert r.status_code == 400, (value, r.status_code)
        # a stranger opens the hostile link, then signs in by the emailed link
        stranger = Browser(app)
        r = stranger.get(f"/sign-in?next={value}")
        assert r.status_code == 400
        link = sign_in_link(stranger, app, smtp, "ada@example.org")
        assert stranger.get(link).status_code == 200
        r = stranger.post(link)
        assert r.status_code == 303, (value, r.status_code)
        stays_on_site(r.headers["Location"])
        assert r.headers["Location"] == "/games", value


@pytest.mark.parametrize(
    "path",
    [
        "/games/%0D%0A/resign",
        "/games/%09/resign",
        "/games/%5C%5Cevil.test/resign",
        "/games/g_1/resign?next=//evil.test&x=%0D%0A",
        "/games/%EF%BC%8F%EF%BC%8Fevil.test/resign",
    ],
)
def test_a_page_that_sends_a_stranger_to_sign_in_brings_them_back_safely(app, smtp, path):
    """A page for players remembers where the stranger was going: their own odd address
    must not become a header with a line break, nor a way off the site."""
    services = app.extensions["turnpost"]["services"]
    services.players.register("Bo", "bo@example.org")
    stranger = Browser(app)
    r = stranger.client.get(path)
    assert r.status_code == 303 and r.headers["Location"].startswith("/sign-in")
    link = sign_in_link(stranger, app, smtp, "bo@example.org")
    stranger.get(link)
    r = stranger.post(link)
    assert r.status_code == 303
    stays_on_site(r.headers["Location"])


def test_a_page_of_this_site_is_where_the_link_leads(app, smtp):
    services = app.extensions["turnpost"]["services"]
    services.players.register("Cy", "cy@example.org")
    for wanted in ["/settings", "/games/g_0123456789ab/resign", "/lobby?page=2"]:
        browser = Browser(app)
        assert browser.get(f"/sign-in?next={wanted.replace('?', '%3F')}").status_code == 200
        link = sign_in_link(browser, app, smtp, "cy@example.org")
        browser.get(link)
        r = browser.post(link)
        assert r.status_code == 303 and r.headers["Location"] == wanted
