"""A player's data through the Flask app (a real Valkey): everything the server holds about
me as JSON (GET /v1/players/me/export, as the OpenAPI document says, with my seats' views and
never another seat's hidden facts), and my account deleted (DELETE /v1/players/me, confirmed
by my id): tokens refused, my name gone from my games' answers, finished games replaying."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from service.notify import tournament_letters
from service.notify.notifications import notices
from service.play.facts import GameFacts
from service.play.history import replay
from service.play.results import result_of
from service.ratings.ratings import Ratings
from service.settings import Settings
from service.tournaments import events as tournament_events
from store.games import GameStore
from store.players import PlayerStore
from store.ratings import RatingStore
from store.tournaments import TournamentStore
from tests.api.conftest import befriend
from tests.api.test_talk_api import valid
from tests.api.test_tournaments_api import BODY as TOURNAMENT

DELETED = "a deleted player"


def people(client, register, count=2):
    found = [register(name) for name in ("Adaline", "Bo", "Cy")[:count]]
    for _, headers in found[1:]:
        befriend(client, headers, found[0][0])
    return found


def new_game(client, creator, seats, title="ninedomains", **extra):
    r = client.post("/v1/games", json={"game": title, "seats": seats, **extra}, headers=creator)
    assert r.status_code == 201, r.json
    return r.json["id"]


def move(client, game_id, headers):
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=headers).json
    r = client.post(
        f"/v1/games/{game_id}/moves",
        json={"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]},
        headers=headers,
    )
    assert r.status_code == 201, r.json


def test_my_export_as_documented_with_my_views_and_nobody_elses_secrets(
    client, register, redis_client
):
    (ada_id, ada), (bo_id, bo) = people(client, register)
    client.patch("/v1/players/me", json={"email": "ada@example.org"}, headers=ada)
    game_id = new_game(client, ada, [ada_id, bo_id])
    move(client, game_id, ada)
    client.post(f"/v1/games/{game_id}/chat", json={"text": "good luck, Bo"}, headers=ada)
    client.post(f"/v1/games/{game_id}/chat", json={"text": "thanks from Bo"}, headers=bo)
    r = client.get("/v1/players/me/export", headers=ada)
    assert r.status_code == 200, r.json
    assert r.headers["Content-Disposition"].startswith("attachment; filename=")
    export = valid(r.json, "PlayerExport")
    assert export["profile"]["id"] == ada_id and export["profile"]["email"] == "ada@example.org"
    [game] = export["games"]
    assert game["id"] == game_id and game["seat"] == 0
    assert game["view"] == client.get(f"/v1/games/{game_id}/view", headers=ada).json
    assert [m["text"] for m in game["messages"]] == ["good luck, Bo"]
    for part in ("deliveries", "push_subscriptions", "sessions", "friends", "blocked"):
        assert isinstance(export[part], list)
    assert "vacations" in export["calendar"]
    snap = GameStore(redis_client).snapshot(game_id)
    text = json.dumps(export)
    assert snap["secret_seed"] not in text and "thanks from Bo" not in text
    assert client.get("/v1/players/me/export").status_code == 401


@pytest.mark.slow
def test_deleting_my_account(client, register, redis_client):
    (ada_id, ada), (bo_id, bo) = people(client, register)
    client.patch("/v1/players/me", json={"email": "ada@example.org"}, headers=ada)
    finished = new_game(client, ada, [ada_id, bo_id])
    move(client, finished, ada)
    client.post(f"/v1/games/{finished}/chat", json={"text": "well played"}, headers=ada)
    assert client.post(f"/v1/games/{finished}/resign", headers=bo).status_code == 200
    unclocked = new_game(client, ada, [ada_id, bo_id])
    clocked = new_game(
        client,
        ada,
        [bo_id, ada_id],
        title="buttons",
        time_control={"per_move_seconds": 3600, "on_timeout": "auto"},
    )
    if 1 not in client.get(f"/v1/games/{clocked}", headers=bo).json["active_seats"]:
        move(client, clocked, bo)
    assert 1 in client.get(f"/v1/games/{clocked}", headers=bo).json["active_seats"]  # Ada's turn

    r = client.delete("/v1/players/me", headers=ada)
    assert r.status_code == 422 and r.json["code"] == "request/invalid"
    r = client.delete(f"/v1/players/me?confirm={bo_id}", headers=ada)
    assert r.status_code == 422 and r.json["code"] == "player/confirm_mismatch"
    assert "your player id" in r.json["message"]
    r = client.delete(f"/v1/players/me?confirm={ada_id}", headers=ada)
    assert r.status_code == 200, r.json
    assert valid(r.json, "AccountDeleted")["deleted"] is True
    assert sorted(r.json["games"]) == sorted([unclocked, clocked])
    assert sorted(r.json["renamed"]) == sorted([finished, unclocked, clocked])

    assert client.get("/v1/players/me", headers=ada).status_code == 401
    assert client.get(f"/v1/players/{ada_id}", headers=bo).status_code == 404
    assert client.get("/v1/players?name=Adal", headers=bo).json["players"] == []
    assert PlayerStore(redis_client).with_email("ada@example.org") == []
    assert not list(redis_client.scan_iter(match=f"tp:player:{{{ada_id}}}*"))
    store = GameStore(redis_client)
    _, cy = register("Cy")
    for game_id in (finished, unclocked, clocked):
        assert replay(store.events(game_id)) == store.snapshot(game_id)
        answers = [
            client.get(f"/v1/games/{game_id}", headers=bo),
            client.get(f"/v1/games/{game_id}/view", headers=bo),
            client.get(f"/v1/games/{game_id}/view", headers=cy),  # a spectator
            client.get(f"/v1/games/{game_id}/log?limit=1000", headers=bo),
            client.get(f"/v1/games/{game_id}/chat", headers=bo),
            client.get(f"/games/{game_id}"),
            client.get(f"/games/{game_id}?page=1"),
        ]
        for answer in answers:
            text = answer.get_data(as_text=True)
            assert answer.status_code == 200, (answer.request.path, text)
            assert "Adaline" not in text, (answer.request.path, text)
            assert f"/players/{ada_id}" not in text, (answer.request.path, text)  # a 404
        assert DELETED in answers[0].get_data(as_text=True)
    assert client.get(f"/v1/games/{unclocked}", headers=bo).json["status"] == "finished"
    log = client.get(f"/v1/games/{clocked}/log?limit=1000", headers=bo).json["entries"]
    assert log[-1]["type"] in ("TurnTimedOut", "PlayerDeleted")
    # the worker records the game her leaving ended: nothing of hers is written again
    Ratings(RatingStore(redis_client), Settings()).record(result_of(store.snapshot(unclocked)))
    assert not list(redis_client.scan_iter(match=f"tp:player:{{{ada_id}}}*"))
    assert "Adaline" not in client.get(f"/v1/players/{bo_id}", headers=bo).get_data(as_text=True)


def test_a_deleted_player_leaves_the_tournaments_they_signed_up_to(client, register):
    (ada_id, ada), (_, bo) = people(client, register)
    made = client.post("/v1/tournaments", json=TOURNAMENT, headers=bo).json
    assert client.post(f"/v1/tournaments/{made['id']}/signup", headers=ada).status_code == 200
    r = client.delete(f"/v1/players/me?confirm={ada_id}", headers=ada)
    assert r.status_code == 200, r.json
    players = client.get(f"/v1/tournaments/{made['id']}", headers=bo).json["players"]
    assert players == []


def test_a_sign_up_withdrawn_before_the_deletion_no_longer_names_them(
    client, register, redis_client
):
    """A tournament's log keeps a withdrawn sign-up (its stream shows it): once its player
    deletes the account, it names "a deleted player" too, although the tournament is no
    longer on their list."""
    (ada_id, ada), (_, bo) = people(client, register)
    made = client.post("/v1/tournaments", json=TOURNAMENT, headers=bo).json
    assert client.post(f"/v1/tournaments/{made['id']}/signup", headers=ada).status_code == 200
    assert client.post(f"/v1/tournaments/{made['id']}/withdraw", headers=ada).status_code == 200
    name = client.get("/v1/players/me", headers=ada).json["name"]
    assert client.delete(f"/v1/players/me?confirm={ada_id}", headers=ada).status_code == 200
    store = TournamentStore(redis_client)
    state = store.state(made["id"])
    shown = [tournament_events.as_read(e, state) for e in store.events(made["id"])]
    assert any(e["type"] == "PlayerSignedUp" and e["player_id"] == ada_id for e in shown)
    assert name not in json.dumps(shown) and name not in json.dumps(state)


def test_a_deletion_after_the_end_tells_nobody_the_game_ended_again(client, register, redis_client):
    """The consequences of the PlayerDeleted commit on a finished game call for no notice (Bo
    got his "game finished" once), while a worker late with the commit that ended it still
    tells everyone."""
    (ada_id, ada), (bo_id, bo) = people(client, register)
    game_id = new_game(client, ada, [ada_id, bo_id])
    move(client, game_id, ada)
    client.post(f"/v1/games/{game_id}/resign", headers=bo)
    ended = GameStore(redis_client).snapshot(game_id)["version"]
    client.delete(f"/v1/players/me?confirm={ada_id}", headers=ada)
    snap = GameStore(redis_client).snapshot(game_id)
    assert snap["version"] == ended + 1
    assert notices(GameFacts.of(snap), ended + 1, ended + 1) == []
    told = notices(GameFacts.of(snap), ended, ended)
    assert [(n.event, n.seat, n.version) for n in told] == [
        ("game.finished", 0, ended),
        ("game.finished", 1, ended),
    ]


def stream_text(client, path, headers):
    """What a server-sent-events stream sends at once (its log so far), up to the keep-alive
    wait: the first chunks, read until one holds the last version asked for."""
    stream = client.get(path, headers=headers, buffered=False)
    assert stream.status_code == 200, stream.get_data(as_text=True)
    text = ""
    for chunk in stream.response:
        text += chunk.decode()
        if "TournamentStarted" in text and "RoundStarted" in text:
            break
    stream.close()
    return text


@pytest.mark.slow
def test_a_deleted_players_name_is_gone_from_their_tournaments_and_leaderboards(
    client, register, worker, redis_client
):
    """Ada plays in a running tournament, stands on a leaderboard and was matched with Bo,
    then deletes her account: no answer, page, stream, feed or letter names her afterwards."""
    (ada_id, ada), (bo_id, bo), (_, cy) = people(client, register, 3)
    for _ in range(Settings().leaderboard_min_games):  # enough rated games for the board
        rated = new_game(client, ada, [ada_id, bo_id])
        move(client, rated, ada)
        client.post(f"/v1/games/{rated}/resign", headers=bo)
    made = client.post("/v1/tournaments", json=TOURNAMENT, headers=bo).json
    for headers in (ada, bo, cy):
        assert (
            client.post(f"/v1/tournaments/{made['id']}/signup", headers=headers).status_code == 200
        )
    worker()  # the rated game's ratings; the tournament starts, its games are created
    shown = client.get(f"/v1/tournaments/{made['id']}", headers=bo).json
    assert shown["status"] == "running" and "Adaline" in str(shown)
    board = client.get("/v1/leaderboards/ninedomains", headers=bo).get_data(as_text=True)
    assert "Adaline" in board
    feed = client.post("/v1/players/me/feeds", headers=bo).json
    for headers in (ada, bo):  # a rated game of Buttons, the two matched
        asked = client.post("/v1/matchmaking/buttons", json={}, headers=headers)
        assert asked.status_code == 201, asked.json
        worker()
    assert client.get("/v1/matchmaking/buttons", headers=bo).json["opponent"]["name"] == "Adaline"

    r = client.delete(f"/v1/players/me?confirm={ada_id}", headers=ada)
    assert r.status_code == 200, r.json
    worker()  # what her leaving causes: her games resolved, the tournament's notices

    tournament = f"/v1/tournaments/{made['id']}"
    answers = [
        client.get(tournament, headers=bo),
        client.get(tournament, headers=cy),
        client.get("/v1/tournaments?entered=me", headers=bo),
        client.get(f"/tournaments/{made['id']}"),
        client.get("/v1/leaderboards/ninedomains", headers=bo),
        client.get("/leaderboards/ninedomains"),
        client.get("/leaderboards"),
        client.get(f"/players/{bo_id}"),
        client.get(f"/v1/players/{bo_id}", headers=bo),
        client.get(urlsplit(feed["atom_url"]).path),
        client.get("/v1/matchmaking/buttons", headers=bo),
    ]
    for game in client.get(tournament, headers=bo).json["pairings"][0]["games"]:
        answers += [
            client.get(f"/v1/games/{game['game_id']}", headers=bo),
            client.get(f"/v1/games/{game['game_id']}/log?limit=1000", headers=bo),
            client.get(f"/games/{game['game_id']}"),
        ]
    for answer in answers:
        text = answer.get_data(as_text=True)
        assert answer.status_code == 200, (answer.request.path, text)
        assert "Adaline" not in text, (answer.request.path, text)
    shown = client.get(tournament, headers=bo).json
    assert DELETED in [p["name"] for p in shown["players"]]
    assert "Adaline" not in stream_text(client, f"{tournament}/stream?after=0", bo)
    state = TournamentStore(redis_client).state(made["id"])
    bo_profile = {"id": bo_id, "name": "Bo"}
    for event in tournament_letters.EVENTS:  # the round's letters and webhooks, to Bo
        letter = tournament_letters.letter(state, event, 1, bo_profile, "https://t.test")
        assert "Adaline" not in str(letter), letter
        assert "Adaline" not in str(
            tournament_letters.payload(state, event, 1, bo_id, "https://t.test")
        )
