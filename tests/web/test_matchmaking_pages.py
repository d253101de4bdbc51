"""Matchmaking through the web client: the lobby's form, the request's line while waiting,
stopping, and the game once the worker (carried out here) paired two players."""

from __future__ import annotations

from html import unescape

from tests.web.conftest import Browser, sign_up
from tests.web.test_tournament_pages import work


def text(browser, path):
    return unescape(browser.text(path))


def test_ask_from_the_lobby_wait_and_find_the_game(app, services, smtp):
    ada, bo = Browser(app), Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    sign_up(bo, services, smtp, "Bo", "bo@example.org")
    assert "A rated game against someone near your rating" in text(ada, "/lobby")
    r = ada.post("/matchmaking", {"game": "nautilus", "bot_after": ""})
    assert r.status_code == 303
    lobby = text(ada, "/lobby")
    assert "Looking for an opponent near your rating (1500) at Nautilus." in lobby
    assert "Looking for an opponent at Nautilus near your rating (1500)." in lobby
    assert ada.post("/matchmaking/nautilus/cancel").status_code == 303
    assert "Looking for an opponent at Nautilus" not in text(ada, "/lobby")
    assert ada.post("/matchmaking", {"game": "nautilus", "bot_after": "600"}).status_code == 303
    assert "a bot of your strength takes the seat" in text(ada, "/lobby")
    bo.get("/lobby")  # the form's page, with its token
    assert bo.post("/matchmaking", {"game": "nautilus", "bot_after": ""}).status_code == 303
    work(services)
    lobby = text(ada, "/lobby")
    game_id = services.matchmaking.get(services.players.named("Ada", 1)[0]["id"], "nautilus")[
        "game_id"
    ]
    assert f'<a href="/games/{game_id}">Your game of Nautilus against Bo</a> is ready.' in lobby
    assert bo.post("/matchmaking", {"game": "chess"}).status_code == 303
    assert "Choose a game and how long to wait." in text(bo, "/lobby")
