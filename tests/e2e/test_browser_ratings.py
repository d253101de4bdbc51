"""In a real browser (headless Chromium) against `turnpost serve` with its worker: a person
finishes a rated game and sees their rating change on its page, then their rank on the
leaderboard and on their player page (every page checked with axe-core)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.e2e.server import Client, LiveServer
from tests.e2e.test_web_client import Person, browser, look  # noqa: F401  (a fixture)
from tests.peers import SmtpInbox

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(valkey):
    with SmtpInbox() as outgoing:
        env = {
            "SMTP_URL": outgoing.url,
            "PUBLIC_URL": "http://turnpost.test",
            "EMAIL_DELAY_SECONDS": "0",
            "LEADERBOARD_MIN_GAMES": "1",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        try:
            yield server, outgoing
        finally:
            server.stop()


def test_a_person_sees_their_rating_change_and_their_rank(browser, site):  # noqa: F811
    server, _ = site
    ada = Person(browser, site, "Ada Rated", "ada.rated@example.org")
    ada.sign_up()
    bo = Client(server.url, "Bo Rated")
    found = bo.get("/v1/players?name=Ada Rated").json()["players"]
    bo.befriend(*[SimpleNamespace(id=p["id"]) for p in found])  # Ada seats Bo directly
    game_id = ada.new_game("nautilus", {1: ("player", "Bo Rated")})
    assert bo.post(f"/v1/games/{game_id}/resign").status_code == 200
    page = ada.page
    for _ in range(50):  # the worker applies the ratings within moments of the game's end
        page.reload()
        shown = page.get_by_role("heading", name="Ratings").count()
        if shown and not page.get_by_text("being worked out").count():
            break
        page.wait_for_timeout(200)
    change = page.locator("#ratings li").first
    expect(change).to_have_text(re.compile(r"You: 1500 → 1\d{3} \(\+\d+\), provisional"))
    rating = re.search(r"→ (\d+)", change.inner_text()).group(1)
    look(page, "game-over-rated")
    page.get_by_role("link", name="Leaderboards").first.click()
    page.get_by_role("link", name="Nautilus").click()
    mine = page.locator("tr.you")
    expect(mine).to_contain_text("Ada Rated (you)")
    expect(mine.locator("td").first).to_have_text("1")
    expect(mine).to_contain_text(f"{rating} ±")
    look(page, "leaderboard")
    mine.get_by_role("link", name="Ada Rated").click()
    expect(page.get_by_text(re.compile(r"Rank 1 of 2 on"))).to_be_visible()
    expect(page.locator("svg.chart")).to_be_visible()
    look(page, "player")
