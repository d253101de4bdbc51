"""Every game, played to the end over HTTP against a live `turnpost serve`, with moves read
from /legal-moves; the log replays to the stored snapshot, and nothing shows the seed."""

import json

import pytest

from engine import registry
from engine.rng import Rng
from service.play.history import replay
from store.connection import connect
from store.games import GameStore
from tests.e2e.server import Client

CASES = [
    (name, n)
    for name, game in sorted(registry.GAMES.items())
    for n in sorted({game.info.min_players, game.info.max_players})
]


@pytest.mark.parametrize("name,players", CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_play_to_the_end_over_http(live_server, valkey, name, players):
    clients = [Client(live_server.url, f"Player {i}") for i in range(players)]
    for other in clients[1:]:
        other.befriend(clients[0])
    r = clients[0].post("/v1/games", {"game": name, "seats": [c.id for c in clients]})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    picker = Rng(b"e2e-" + name.encode() + bytes(32))
    for _ in range(5000):
        summary = clients[0].get(f"/v1/games/{game_id}").json()
        if summary["status"] == "finished":
            break
        seat = picker.choice(summary["active_seats"])
        legal = clients[seat].get(f"/v1/games/{game_id}/legal-moves").json()
        assert legal["moves"], f"seat {seat} is active with no legal move"
        move = picker.choice(legal["moves"])
        body = {"notation": move["notation"]} if picker.below(2) else {"action": move["action"]}
        r = clients[seat].post(
            f"/v1/games/{game_id}/moves", {**body, "expected_version": legal["version"]}
        )
        assert r.status_code == 201, r.text
    else:
        pytest.fail("the game did not end")
    outcome = summary["outcome"]
    assert outcome["winners"] and all(0 <= w < players for w in outcome["winners"])
    store = GameStore(connect(valkey.url))
    assert replay(store.events(game_id)) == store.snapshot(game_id)
    log = clients[1].get(f"/v1/games/{game_id}/log?limit=1000").json()
    assert log["entries"][-1]["type"] == "GameEnded"


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_views_and_logs_of_a_running_game_never_show_the_seed(live_server, valkey, name):
    game = registry.GAMES[name]
    clients = [Client(live_server.url, f"P{i}") for i in range(game.info.min_players)]
    for other in clients[1:]:
        other.befriend(clients[0])
    game_id = (
        clients[0].post("/v1/games", {"game": name, "seats": [c.id for c in clients]}).json()["id"]
    )
    seed = GameStore(connect(valkey.url)).snapshot(game_id)["secret_seed"]
    for c in clients:
        for path in ("", "/view", "/log", "/legal-moves"):
            text = c.get(f"/v1/games/{game_id}{path}").text
            assert seed not in text and "secret_seed" not in text
    spectator = Client(live_server.url, "Watcher")
    view = spectator.get(f"/v1/games/{game_id}/view").json()
    assert view["seat"] is None and seed not in json.dumps(view)
