"""schemathesis over every operation of the document, in-process against the real app on the
test Valkey: no 5xx, and every status, header and body as the document says, down to each
error's code being one its operation lists.

Each operation gets a world with real players and games. Random ids and moves would stop at
"no such game" and "malformed move", so a hook marks some generated cases to use the world's
things instead: a real game id (about half the cases), real players as a new game's seats, a
move /legal-moves offers, the ETag a view has now, the inbound email secret. The marks are put in at request time, since
each world's ids are new. Requests carry Ada's token; schemathesis tries each secured operation
without a token and with a wrong one on its own.

Left out, on purpose: query parameters the document does not name (the API ignores them, as a
tolerant reader), and the check that every schema-valid request succeeds (a valid-looking
request can still be refused for what it says, a seat naming nobody: the documented 422 codes
say so).
"""

import json
import re
from dataclasses import dataclass

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.app import create_app
from api.error_codes import EXTENSION
from api.front_door import FrontDoor
from api.resources.inbound import SECRET_HEADER
from engine import registry
from service.settings import Settings

pytestmark = pytest.mark.slow  # generates requests for every operation of the document


class CurrentApp:
    """The WSGI app schemathesis calls: the app of the running test's world, so that the
    requests its checks make on their own (with no token, say) reach it too."""

    app: Flask = create_app()  # serves only the document until a world takes its place

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


CURRENT = CurrentApp()
schema = schemathesis.openapi.from_wsgi("/openapi.json", CURRENT)
schema.config.generation.update(allow_extra_parameters=False, with_security_parameters=False)
schemathesis.serializer.alias("message/rfc822", "application/octet-stream")  # inbound email
EXAMPLES_PER_OPERATION = 60
TITLES = sorted(registry.GAMES)
GAMES = len(TITLES) + 5  # one of each title, two open, one finished, one without Ada, and
# one Cy invited Ada to
PLAYERS = 3
INBOUND_SECRET = "fuzz"


@dataclass
class World:
    client: object
    tokens: list[str]
    player_ids: list[str]
    game_ids: list[str]


@pytest.fixture
def world(redis_client, tmp_path) -> World:
    """Ada (whose token the requests carry) sits in a game of each title, an open game and a
    finished one; Bo has an open game she can join; Bo and Cy play one she has no seat in;
    Cy invited her to one (Bo lets Ada seat him, and Cy lets Bo, so the rest need no
    invitation).
    Inbound email is on (its answers go to an outbox folder)."""
    settings = Settings(
        inbound_secret=INBOUND_SECRET,
        mail_domain="play.test",
        outbox_dir=str(tmp_path / "outbox"),
        webhook_allow_http=True,
        webhook_allow_loopback=True,
    )
    # a fuzzer sends hundreds of calls a minute with one token: rate limits (which have their
    # own tests, tests/e2e/test_rate_limits.py) would answer most of them 429
    app = CURRENT.app = create_app(
        redis_client,
        config={"STREAM_SECONDS": 0},
        settings=settings,
        front_door=FrontDoor(rate_limits=False),
    )
    client = app.test_client()
    ada, bo, cy = (
        client.post("/v1/players", json={"name": name, **extra}).json
        for name, extra in (
            ("Ada", {"webhook_url": "http://127.0.0.1:9/hook"}),
            ("Bo", {}),
            ("Cy", {}),
        )
    )
    for friend, of in ((ada, bo), (bo, cy)):
        assert (
            client.put(
                "/v1/players/me/friends",
                headers=_auth(of["token"]),
                json={"friends": [friend["id"]]},
            ).status_code
            == 200
        )
    games = [(name, [ada, bo]) for name in TITLES]
    games += [
        ("nautilus", [ada, None]),
        ("nautilus", [bo, None]),
        ("nautilus", [ada, bo]),
        ("nautilus", [bo, cy]),
        ("nautilus", [cy, ada]),
    ]
    game_ids = [
        client.post(
            "/v1/games",
            headers=_auth(seats[0]["token"]),
            json={"game": name, "seats": [p and p["id"] for p in seats]},
        ).json["id"]
        for name, seats in games
    ]
    resigned = client.post(f"/v1/games/{game_ids[-3]}/resign", headers=_auth(ada["token"]))
    assert resigned.status_code == 200 and resigned.json["status"] == "finished"
    yield World(
        client, [p["token"] for p in (ada, bo, cy)], [p["id"] for p in (ada, bo, cy)], game_ids
    )
    CURRENT.app = create_app()


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@schema.hook
def flatmap_case(context, case):
    """Mark some cases to use the world's things (see the module's docstring)."""
    operation_id = case.operation.definition.raw["operationId"]

    def mark(choice):
        game, use, title = choice
        if game is not None and "game_id" in (case.path_parameters or {}):
            case.path_parameters = {**case.path_parameters, "game_id": f"@game{game}"}
        if not use:
            return case
        if operation_id == "createGame" and isinstance(case.body, dict):
            case.body = {
                "game": TITLES[title % len(TITLES)],
                "seats": ["@player0", f"@player{1 + title % (PLAYERS - 1)}"],
            }
        elif operation_id == "playMove":
            case.body = {"notation": f"@legal{title}", "expected_version": 0}
        elif operation_id == "getView":
            case.headers = {**(case.headers or {}), "If-None-Match": "@etag"}
        elif operation_id == "receiveEmail":
            case.headers = {**(case.headers or {}), SECRET_HEADER: INBOUND_SECRET}
        return case

    return st.tuples(st.none() | st.integers(0, GAMES - 1), st.booleans(), st.integers(0, 50)).map(
        mark
    )


def put_in(world: World, case) -> None:
    """Put the world's ids, moves and versions where the hook left marks."""
    auth = _auth(world.tokens[0])
    game_id = (case.path_parameters or {}).get("game_id", "")
    if game_id.startswith("@game"):
        game_id = case.path_parameters["game_id"] = world.game_ids[int(game_id[5:])]
    body = case.body if isinstance(case.body, dict) else {}
    if isinstance(body.get("seats"), list) and body["seats"][:1] == ["@player0"]:
        body["seats"] = [world.player_ids[int(seat[7:])] for seat in body["seats"]]
    # schemathesis may shrink or mutate a mark ("@legal12" -> "@legal"): only a whole mark
    # is replaced, anything else goes to the server as the generated text it is
    pick = re.fullmatch(r"@legal(\d+)", str(body.get("notation", "")))
    if pick:
        legal = world.client.get(f"/v1/games/{game_id}/legal-moves", headers=auth).json or {}
        moves = legal.get("moves") or [{"notation": "pass"}]
        body["notation"] = moves[int(pick[1]) % len(moves)]["notation"]
        body["expected_version"] = legal.get("version", 0)
    if (case.headers or {}).get("If-None-Match") == "@etag":
        etag = world.client.get(f"/v1/games/{game_id}/view", headers=auth).headers.get("ETag")
        case.headers["If-None-Match"] = etag or '"0"'


def documented_error_code(ctx, response, case):
    """An error's `code` is one its operation lists for that status (a probe with another
    method, from the `unsupported_method` check, is not that operation)."""
    if response.status_code < 400 or case.method.upper() != case.operation.method.upper():
        return None
    documented = case.operation.definition.raw["responses"].get(str(response.status_code), {})
    code = json.loads(response.content).get("code")
    if code not in documented.get(EXTENSION, []):
        raise AssertionError(
            f"{case.method} {case.path} answered {response.status_code} with "
            f"code {code!r}, which the document does not list for it"
        )
    return True


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck)
)
def test_every_operation_keeps_its_contract(case, world):
    put_in(world, case)
    case.call_and_validate(
        headers=_auth(world.tokens[0]),
        additional_checks=[documented_error_code],
        excluded_checks=[positive_data_acceptance],
    )
