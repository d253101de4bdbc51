"""A deleted account, with real parts: `turnpost serve` (its worker), a real SMTP inbox. After
Ada deletes her account her address receives nothing more (not a turn in a game that goes on,
not a sign-in letter asked for it), her finished games still replay, and their pages, views
and answers, the rated game's rating lines included, no longer name her."""

from __future__ import annotations

import time

import requests

from service.play.history import replay
from store.connection import connect
from store.games import GameStore
from store.matchmaking import MatchmakingStore
from store.ratings import RatingStore
from tests.e2e.server import Client, LiveServer
from tests.peers import SmtpInbox

FAST = {"EMAIL_DELAY_SECONDS": "0", "EMAIL_THROTTLE_SECONDS": "0", "BOT_DELAY_SECONDS": "0"}
ADA = "adaline@example.org"


def move(player: Client, game_id: str) -> None:
    legal = player.get(f"/v1/games/{game_id}/legal-moves").json()
    r = player.post(
        f"/v1/games/{game_id}/moves",
        {"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]},
    )
    assert r.status_code == 201, r.text


def test_a_deleted_players_address_gets_nothing_more_and_their_games_forget_their_name(
    valkey,
    redis_client,  # a database of its own: no earlier test's Bo on bo@example.org
):
    with SmtpInbox() as outgoing:
        server = LiveServer(redis_url=valkey.url, env={"SMTP_URL": outgoing.url, **FAST})
        server.wait_ready()
        try:
            ada = Client(server.url, "Adaline", ADA)
            bo = Client(server.url, "Bo", "bo@example.org")
            for person in (ada, bo):
                person.confirm(outgoing)
            bo.befriend(ada)
            rated = ada.post("/v1/games", {"game": "ninedomains", "seats": [ada.id, bo.id]})
            rated = rated.json()["id"]
            move(ada, rated)
            assert bo.post(f"/v1/games/{rated}/resign").status_code == 200
            going = ada.post(
                "/v1/games",
                {
                    "game": "ninedomains",
                    "seats": [ada.id, bo.id],
                    "time_control": {"per_move_seconds": 86400, "on_timeout": "auto"},
                },
            ).json()["id"]
            move(ada, going)  # Bo's turn: once he moves, it would be Ada's
            ratings = RatingStore(connect(valkey.url))
            deadline = time.monotonic() + 30
            while ratings.game_ratings(rated) is None:  # the worker rates the finished game
                assert time.monotonic() < deadline, "the game was not rated"
                time.sleep(0.2)
            outgoing.wait_for(lambda m, rcpt: ADA in rcpt and m["X-Turnpost-Game"] == rated)
            while not bo.get(f"/v1/players/{bo.id}").json()["recent"]:  # Bo's record of it
                assert time.monotonic() < deadline, "Bo's result was not recorded"
                time.sleep(0.2)
            asked = ada.post("/v1/matchmaking/buttons", {"bot_after_seconds": 3600})
            assert asked.status_code == 201, asked.text

            r = requests.delete(
                f"{server.url}/v1/players/me",
                params={"confirm": ada.id},
                headers=ada.headers,
                timeout=30,
            )
            assert r.status_code == 200, r.text
            deleted_at = time.time()
            move(bo, going)
            r = requests.post(f"{server.url}/v1/sign-in", json={"email": ADA}, timeout=30)
            assert r.status_code == 202, r.text
            requests.post(f"{server.url}/v1/sign-in", json={"email": "bo@example.org"}, timeout=30)
            outgoing.wait_for(
                lambda m, rcpt: "bo@example.org" in rcpt and m["X-Turnpost-Event"] == "sign_in.link"
            )
            time.sleep(3)  # whatever the worker would still send Ada
            late = [m for r, m, at in outgoing.messages if ADA in r and at >= deleted_at]
            assert late == [], [m["Subject"] for m in late]

            store = GameStore(connect(valkey.url))
            for game_id in (rated, going):
                assert replay(store.events(game_id)) == store.snapshot(game_id)
                for answer in (
                    bo.get(f"/v1/games/{game_id}"),
                    bo.get(f"/v1/games/{game_id}/view"),
                    bo.get(f"/v1/games/{game_id}/log?limit=1000"),
                    requests.get(f"{server.url}/games/{game_id}", timeout=30),
                ):
                    assert answer.status_code == 200
                    assert "Adaline" not in answer.text, answer.url
            page = requests.get(f"{server.url}/games/{rated}", timeout=30).text
            assert "a deleted player" in page
            assert "Adaline" not in str(ratings.game_ratings(rated))
            # Bo's own record of the game, and the lobby's pool, no longer hold her
            assert "Adaline" not in bo.get(f"/v1/players/{bo.id}").text
            assert MatchmakingStore(connect(valkey.url)).waiting("buttons") == 0
            assert ada.get("/v1/players/me").status_code == 401
        finally:
            server.stop()
