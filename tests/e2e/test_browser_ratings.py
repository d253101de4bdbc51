"""In a real browser (headless Chromium) against `turnpost serve` with its worker: a person
finishes a rated game and sees their rating change on its page, then their rank on the
leaderboard and on their player page; two people ask the lobby for a rated game against
someone near their rating and are matched with each other (every page checked with
axe-core)."""

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
    # her rank as the API tells it (other tests of this server's Valkey may have rated players)
    board = bo.get("/v1/leaderboards/nautilus?per_page=200").json()
    rank = next(r["rank"] for r in board["players"] if r["name"] == "Ada Rated")
    page.get_by_role("link", name="Leaderboards").first.click()
    page.get_by_role("link", name="Nautilus").click()
    mine = page.locator("tr.you")
    expect(mine).to_contain_text("Ada Rated (you)")
    expect(mine.locator("td").first).to_have_text(str(rank))
    expect(mine).to_contain_text(f"{rating} ±")
    look(page, "leaderboard")
    mine.get_by_role("link", name="Ada Rated").click()
    expect(page.get_by_text(f"Rank {rank} of {board['total']} on")).to_be_visible()
    expect(page.locator("svg.chart")).to_be_visible()
    look(page, "player")


def test_two_people_ask_the_lobby_for_a_rated_game_and_are_matched(browser, site):  # noqa: F811
    cy = Person(browser, site, "Cy Match", "cy.match@example.org")
    di = Person(browser, site, "Di Match", "di.match@example.org")
    for person in (cy, di):
        person.sign_up()
        page = person.open("/lobby")
        page.get_by_label("The game").select_option(label="Buttons")
        page.get_by_label(
            "Play a bot of your strength if nobody near your rating comes"
        ).select_option(label="no: only a person")
        page.get_by_role("button", name="Find me an opponent").click()
        expect(page.locator(".flash")).to_have_text(
            "Looking for an opponent near your rating (1500) at Buttons."
        )
    links = {}
    for person, other in ((cy, di), (di, cy)):
        page = person.page
        ready = page.get_by_role("link", name=f"Your game of Buttons against {other.name}")
        for _ in range(50):  # the worker pairs them within moments of the second request
            if ready.count():
                break
            page.wait_for_timeout(200)
            page.reload()
        expect(ready).to_be_visible()
        look(page, "lobby-matched")
        links[person.name] = ready.get_attribute("href")
    assert links["Cy Match"] == links["Di Match"], "matched with each other, in one game"
    page = cy.page
    page.get_by_role("link", name="Your game of Buttons against Di Match").click()
    page.wait_for_url(re.compile(r"/games/g_"))
    expect(page.get_by_text("A rated game: it counts for the players' ratings.")).to_be_visible()
    expect(page.get_by_text("Di Match").first).to_be_visible()
    look(page, "game-matched")
