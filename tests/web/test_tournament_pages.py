"""Tournaments through the web client: the new tournament form (and its problems answered on
the page), the lobby's list with its sign-up button, a tournament's page before and after its
start (your games, the standings, each round), withdrawing. The worker's part is carried out
in this process."""

from __future__ import annotations

from html import unescape

import pytest

from service.assembly import assemble
from service.settings import Settings
from store.outbox import OutboxStore
from tests.web.conftest import Browser, sign_up


class Kept:
    def queue(self, deliveries):
        pass


def work(services):
    """The worker's part: every outbox entry carried out here."""
    client = services.games.games.r
    consequences = assemble(client, Settings(), deliveries=Kept()).consequences
    outbox = OutboxStore(client)
    outbox.ensure_groups()
    for _ in range(50):
        entries = outbox.read("test", 100, 5)
        if not entries:
            return
        for entry in entries:
            consequences.carry_out(entry)
        outbox.done(entries)


def text(browser, path):
    return unescape(browser.text(path))


@pytest.mark.slow
def test_create_sign_up_from_the_lobby_and_play(app, services, smtp):
    ada, bo = Browser(app), Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    sign_up(bo, services, smtp, "Bo", "bo@example.org")
    assert "Create a tournament" in text(ada, "/lobby")
    form = text(ada, "/tournaments/new")
    assert "Every game of a tournament is played by two" in form
    refused = ada.post(
        "/tournaments/new", {"game": "ninedomains", "format": "round_robin", "size": "12"}
    )
    assert refused.status_code == 422
    assert "Write a number of players from 3 to 10." in unescape(refused.get_data(as_text=True))
    r = ada.post(
        "/tournaments/new",
        {
            "name": "Winter cup",
            "game": "ninedomains",
            "format": "round_robin",
            "size": "3",
            "clock": "86400",
            "on_timeout": "forfeit",
            "rated": "no",
            "start": "full",
        },
    )
    assert r.status_code == 303, r.get_data(as_text=True)
    page = r.headers["Location"]
    tid = page.rsplit("/", 1)[1]
    shown = text(ada, page)
    assert "Taking sign-ups" in shown and "0 of 3 signed up; it starts when full" in shown
    lobby = text(bo, "/lobby")
    assert "Winter cup" in lobby and 'aria-label="Sign up to Winter cup"' in lobby
    assert bo.post(f"/tournaments/{tid}/signup").status_code == 303
    assert "You are signed up" in text(bo, "/lobby")
    assert ada.post(f"/tournaments/{tid}/signup").status_code == 303
    cy = services.players.register("Cy")["id"]
    services.tournaments.sign_up(tid, cy)
    shown = text(bo, page)
    assert "full: its games begin in a moment" in shown  # the worker starts it
    work(services)
    shown = text(bo, page)
    assert "Being played" in shown and "Your game against Ada" in shown
    assert "Your game against Cy" in shown and "Standings" in shown
    assert "Sonneborn-Berger" in shown
    game_id = services.tournaments.get(tid)["pairings"][0]["games"][0]["game_id"]
    assert f'href="/games/{game_id}"' in shown
    withdraw = text(bo, f"/tournaments/{tid}/withdraw")
    assert "you lose them" in withdraw
    assert bo.post(f"/tournaments/{tid}/withdraw").status_code == 303
    assert "You withdrew (withdrew)" in text(bo, page)
    work(services)
    assert "withdrawn" in text(ada, page)
    assert f'href="/players/{cy}"' in text(ada, page)
    services.own_data.delete(cy, confirm=cy)
    work(services)
    shown = text(ada, page)
    assert "a deleted player" in shown and f"/players/{cy}" not in shown  # no page is theirs


def test_a_tournament_nobody_may_find(app, services, smtp):
    ada = Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    r = ada.get("/tournaments/t_nothere")
    assert r.status_code == 404 and "There is no tournament t_nothere" in r.get_data(as_text=True)
