"""In a real browser (headless Chromium) against `turnpost serve` with its worker: a person signs
up to a tournament from the lobby, which fills it; the worker starts it, and the person opens
their first game from the tournament's page and plays it to its end through the game's page,
against an opponent playing through the API (every page checked with axe-core). The
tournament's page redraws itself as the tournament moves (its event stream)."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.server import Client, LiveServer
from tests.e2e.test_web_client import Person, browser, look, move  # noqa: F401  (a fixture)
from tests.peers import SmtpInbox

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CLOCK = {"per_move_seconds": 86400, "on_timeout": "forfeit"}


@pytest.fixture(scope="module")
def site(valkey):
    with SmtpInbox() as outgoing:
        env = {"SMTP_URL": outgoing.url, "PUBLIC_URL": "http://turnpost.test"}
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        try:
            yield server, outgoing
        finally:
            server.stop()


def test_a_person_signs_up_from_the_lobby_and_plays_their_first_game(browser, site):  # noqa: F811
    server, outgoing = site
    bo, cy = Client(server.url, "Bo Cup"), Client(server.url, "Cy Cup")
    made = bo.post(
        "/v1/tournaments",
        {
            "game": "ninedomains",
            "format": "round_robin",
            "size": 3,
            "name": "Browser cup",
            "time_control": CLOCK,
        },
    ).json()
    assert bo.post(f"/v1/tournaments/{made['id']}/signup").status_code == 200
    ada = Person(browser, site, "Ada Cup", "ada.cup@example.org")
    ada.sign_up()
    page = ada.open("/lobby")
    look(page, "lobby-with-a-tournament")
    page.get_by_role("button", name="Sign up to Browser cup").click()
    expect(page.locator(".flash")).to_contain_text("You are signed up.")
    page.evaluate("window.notReloaded = true")
    # Cy fills it: the worker starts it and creates its games within moments; the page,
    # following the tournament's event stream, shows them without being reloaded
    assert cy.post(f"/v1/tournaments/{made['id']}/signup").status_code == 200
    yours = page.get_by_role("link", name=re.compile(r"^Your game against"))
    expect(yours.first).to_be_visible(timeout=30_000)
    expect(page.locator("#live")).to_contain_text("The tournament has moved on")
    assert page.evaluate("window.notReloaded") is True
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    look(page, "tournament")
    yours.first.click()
    page.wait_for_url(re.compile(r"/games/g_"))
    game_id = page.url.rsplit("/", 1)[1]
    seats = bo.get(f"/v1/games/{game_id}").json()["seats"]
    other = next(c for c in (bo, cy) if c.id in (s["player_id"] for s in seats))
    their_seat = next(s["seat"] for s in seats if s["player_id"] == other.id)
    rnd = random.Random(35)
    for _ in range(300):
        summary = other.get(f"/v1/games/{game_id}").json()
        if summary["status"] == "finished":
            break
        if their_seat in summary["active_seats"]:
            legal = other.get(f"/v1/games/{game_id}/legal-moves").json()
            r = other.post(
                f"/v1/games/{game_id}/moves",
                {"action": legal["moves"][0]["action"], "expected_version": legal["version"]},
            )
            assert r.status_code in (201, 409), r.text
            continue
        page.reload()
        move(page, rnd)
    else:
        pytest.fail("the game did not end")
    page.reload()
    expect(page.locator(".status")).to_contain_text("Game over")
    look(page, "tournament-game-over")
    page.goto(f"{server.url}/tournaments/{made['id']}")
    board = page.locator("li.mine").filter(has=page.locator(f'a[href="/games/{game_id}"]'))
    for _ in range(50):  # the worker records the result moments after the end
        if re.search(r"1-0|0-1|½-½", board.inner_text()):
            break
        page.wait_for_timeout(200)
        page.reload()
    expect(board).to_contain_text(re.compile(r"1-0|0-1|½-½"))
    started = outgoing.wait_for(
        lambda m, rcpt: (
            "ada.cup@example.org" in rcpt and m["X-Turnpost-Event"] == "tournament.round_started"
        ),
        timeout=30,
    )
    assert started["X-Turnpost-Tournament"] == made["id"]
