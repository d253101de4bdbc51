"""Examples for the OpenAPI document, recorded from real games.

`turnpost examples` plays the first moves of a game of each title through the API (on a real
Valkey) and keeps what went over the wire in api/examples.json:
`{operationId: {"request": {name: body}, "responses": {status: {name: body}}}}`. The spec
plugin puts them into the document, and a test checks every one against its schema.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine import registry
from engine.rng import Rng

EXAMPLES_FILE = Path(__file__).with_name("examples.json")
OPENING_MOVES = 6  # moves played before the recorded view, legal moves and move


def load() -> dict:
    return json.loads(EXAMPLES_FILE.read_text())


class Recorder:
    """Calls the API with a Flask test client and keeps each exchange as an example."""

    def __init__(self, client):
        self.client = client
        self.examples: dict = {}

    def call(
        self,
        operation: str,
        method: str,
        path: str,
        name: str,
        headers=None,
        body=None,
        status: int = 200,
        keep_request: bool = True,
    ) -> dict:
        r = self.client.open(path, method=method, json=body, headers=headers or {})
        if r.status_code != status:
            raise RuntimeError(
                f"{method} {path} answered {r.status_code}, not {status}: "
                f"{r.get_data(as_text=True)}"
            )
        entry = self.examples.setdefault(operation, {})
        if body is not None and keep_request:
            entry.setdefault("request", {})[name] = body
        entry.setdefault("responses", {}).setdefault(str(status), {})[name] = r.json
        return r.json


def record(client) -> dict:
    """Play through the API of the app behind `client` and return its examples."""
    rec = Recorder(client)
    rec.call("getCatalog", "GET", "/v1/catalog", "catalog")
    ada = rec.call(
        "registerPlayer", "POST", "/v1/players", "player", body={"name": "Ada"}, status=201
    )
    bo = client.post("/v1/players", json={"name": "Bo"}).json
    auth = {p["id"]: {"Authorization": f"Bearer {p['token']}"} for p in (ada, bo)}
    me = auth[ada["id"]]
    rec.call("getMe", "GET", "/v1/players/me", "profile", me)
    rec.call("updateMe", "PATCH", "/v1/players/me", "email", me, {"email": "ada@example.org"})
    lobby = rec.call(
        "createGame",
        "POST",
        "/v1/games",
        "open seat",
        me,
        {
            "game": "nautilus",
            "seats": [ada["id"], None],
            "time_control": {"per_move_seconds": 86400, "on_timeout": "auto"},
        },
        status=201,
    )
    rec.call(
        "joinGame", "POST", f"/v1/games/{lobby['id']}/join", "first open seat", auth[bo["id"]], {}
    )
    invitation = rec.call(
        "createGame",
        "POST",
        "/v1/games",
        "invitation",
        me,
        {"game": "ninedomains", "seats": [ada["id"], bo["id"]]},
        status=201,
    )
    rec.call("listGames", "GET", "/v1/games?invited=me", "invitations", auth[bo["id"]])
    rec.call(
        "declineGame", "POST", f"/v1/games/{invitation['id']}/decline", "cancelled", auth[bo["id"]]
    )
    rec.call(
        "setFriends",
        "PUT",
        "/v1/players/me/friends",
        "friends",
        auth[bo["id"]],
        {"friends": [ada["id"]]},
    )
    for name in sorted(registry.GAMES):
        _record_game(rec, name, ada["id"], bo["id"], auth)
    rec.call("listGames", "GET", "/v1/games?awaiting=me", "inbox", me)
    rec.call("resignGame", "POST", f"/v1/games/{lobby['id']}/resign", "resigned", me)
    rec.call("findPlayers", "GET", "/v1/players?name=bo", "by name", me)
    rec.call("getPlayer", "GET", f"/v1/players/{bo['id']}", "profile", me)
    rematch = f"/v1/games/{lobby['id']}/rematch"
    rec.call("rematchGame", "POST", rematch, "rematch", auth[bo["id"]], status=201)
    rec.call("rematchGame", "POST", rematch, "asked again", me, status=200)
    return rec.examples


def _record_game(rec: Recorder, name: str, ada: str, bo: str, auth: dict) -> None:
    picker = Rng(b"openapi examples " + name.encode())
    while True:  # a short game can end in the opening: then take another one
        game = rec.call(
            "createGame",
            "POST",
            "/v1/games",
            name,
            auth[ada],
            {"game": name, "seats": [ada, bo]},
            status=201,
        )
        base = f"/v1/games/{game['id']}"
        if _opening(rec.client, base, [ada, bo], auth, picker):
            break
    summary = rec.call("getGame", "GET", base, name, auth[ada])
    player = [ada, bo][min(summary["active_seats"])]
    rec.call("getView", "GET", f"{base}/view", name, auth[player])
    legal = rec.call("getLegalMoves", "GET", f"{base}/legal-moves", name, auth[player])
    move = picker.choice(legal["moves"])
    form = "action" if name == "nautilus" else "notation"  # the two ways to write a move
    played = rec.call(
        "playMove",
        "POST",
        f"{base}/moves",
        f"{name}: {form}",
        auth[player],
        {form: move[form], "expected_version": legal["version"]},
        status=201,
    )
    rec.call("getLog", "GET", f"{base}/log?after={legal['version']}", name, auth[player])
    if name == "nautilus":
        rec.call(
            "playMove",
            "POST",
            f"{base}/moves",
            "stale version",
            auth[player],
            {"action": move["action"], "expected_version": legal["version"]},
            status=409,
            keep_request=False,
        )
        rec.call(
            "playMove",
            "POST",
            f"{base}/moves",
            "invalid",
            auth[player],
            {"notation": "", "expected_version": played["version"]},
            status=422,
            keep_request=False,
        )


def _opening(client, base: str, players: list[str], auth: dict, picker: Rng) -> bool:
    """Play OPENING_MOVES moves chosen by `picker`; whether the game is still going."""
    for _ in range(OPENING_MOVES):
        summary = client.get(base, headers=auth[players[0]]).json
        if summary["status"] != "active":
            return False
        player = players[picker.choice(summary["active_seats"])]
        legal = client.get(f"{base}/legal-moves", headers=auth[player]).json
        move = picker.choice(legal["moves"])
        client.post(
            f"{base}/moves",
            headers=auth[player],
            json={"notation": move["notation"], "expected_version": legal["version"]},
        )
    return client.get(base, headers=auth[players[0]]).json["status"] == "active"
