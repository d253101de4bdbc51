"""Issue 33 in a real browser: a game created from the web form with a time bank and weekends
off shows both players' banks, and the settings page takes a vacation that the other player
sees on the game page."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from tests.e2e.test_web_client import Person, browser, look, site  # noqa: F401 (fixtures)


@pytest.fixture(scope="module")
def cy_and_di(browser, site):  # noqa: F811 (the fixtures above)
    cy = Person(browser, site, "Cy Clock", "cy.clock@example.org")
    di = Person(browser, site, "Di Clock", "di.clock@example.org")
    cy.sign_up()
    di.sign_up()
    return cy, di


def test_a_bank_with_weekends_off_from_the_form_and_a_vacation_from_the_settings(cy_and_di):
    cy, di = cy_and_di
    page = cy.open("/games/new")
    page.get_by_role("link", name="Nautilus", exact=True).click()
    page.get_by_label("Seat 2", exact=True).select_option("player")
    page.get_by_label("Name of the player in seat 2").fill("di clock")
    page.get_by_label("The time each player has").select_option(
        label="10 days, +1 day a move, at most 10 days"
    )
    page.get_by_label(re.compile("Weekends off")).check()
    look(page, "new-game-bank")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/g_"))
    game_id = page.url.rsplit("/", 1)[1]

    mine = di.open("/games")
    mine.locator(f'form[action="/games/{game_id}/join"]').get_by_role("button").click()
    expect(mine.locator(".flash")).to_contain_text("The game has begun")

    page = cy.open(f"/games/{game_id}")
    expect(page.locator(".meta", has_text="Clock:")).to_contain_text(
        "A time bank of 10 days, +1 day a move, at most 10 days"
    )
    expect(page.locator(".meta", has_text="Clock:")).to_contain_text("weekends off")
    seats = page.locator(".seats li")
    expect(seats).to_have_count(2)
    for i in range(2):  # both players' banks, the one to move with its deadline
        expect(seats.nth(i).locator(".clock")).to_contain_text(
            re.compile(r"(10 days|9 days and 23 hours) (left|in the bank)")
        )
    expect(page.locator(".seats .clock", has_text="deadline")).to_have_count(1)
    look(page, "game-bank")

    # Di goes on vacation today, from the settings page
    page = di.open("/settings")
    section = page.locator("#vacation")
    expect(section).to_contain_text("30 of 30 vacation days left")
    today = datetime.now(UTC).date().isoformat()
    section.get_by_label("From (the first day away)").fill(today)
    section.get_by_label("To (the last day away)").fill(today)
    section.get_by_role("button", name="Take this vacation").click()
    expect(page.locator(".flash")).to_contain_text("Your vacation is taken")
    expect(page.locator("#vacation")).to_contain_text("You are on vacation until")
    expect(page.locator("#vacation")).to_contain_text("29 of 30 vacation days left")
    look(page, "settings-vacation")

    # Cy sees it on the game page once the worker has re-armed the game
    page = cy.open(f"/games/{game_id}")
    for _ in range(50):
        if "on vacation until" in page.locator(".seats").inner_text():
            break
        page.wait_for_timeout(200)
        page.reload()
    expect(page.locator(".seats")).to_contain_text("on vacation until")

    page = di.open("/settings")
    page.get_by_role("button", name="I am back: end my vacation").click()
    expect(page.locator(".flash")).to_contain_text("Welcome back")
    expect(page.locator("#vacation")).not_to_contain_text("You are on vacation until")
