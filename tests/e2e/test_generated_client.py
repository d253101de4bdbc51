"""A Python client generated from openapi/openapi.json alone plays every title to the end.

openapi-python-client writes the client into a temporary folder (it is never committed); the
test then talks to a live `turnpost serve` only through it: two players register, one creates a
game of each title, and they play it out from /legal-moves. Each game's first move is sent with
the version before the one read, as a client that read just before the last move would: the
client gets the 409 move/stale_version, reads again and plays on.
"""

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.json"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
MAX_MOVES = 5000


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The generated package `turnpost_client`, imported from its temporary folder."""
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "config.json"
    config.write_text(
        json.dumps({"package_name_override": "turnpost_client", "post_hooks": []})
    )  # no formatting: nobody reads it
    subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(DOCUMENT),
            "--meta",
            "none",
            "--config",
            str(config),
            "--output-path",
            str(folder / "turnpost_client"),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("turnpost_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.split(".")[0] == "turnpost_client"]:
            del sys.modules[name]


def api(generated, name: str):
    return importlib.import_module(f"turnpost_client.{name}")


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_the_generated_client_plays_a_game_to_the_end(live_server, generated, title):
    players_api, games_api = "api.players.", "api.games."
    register = api(generated, players_api + "register_player")
    create_game = api(generated, games_api + "create_game")
    get_game = api(generated, games_api + "get_game")
    get_view = api(generated, games_api + "get_view")
    get_legal_moves = api(generated, games_api + "get_legal_moves")
    play_move = api(generated, games_api + "play_move")
    get_log = api(generated, games_api + "get_log")
    set_friends = api(generated, players_api + "set_friends")
    models = api(generated, "models")

    anonymous = generated.Client(base_url=live_server.url)
    ada, bo = (
        register.sync(client=anonymous, body=models.PlayerCreate(name=name))
        for name in ("Ada", "Bo")
    )
    clients = [
        generated.AuthenticatedClient(base_url=live_server.url, token=p.token) for p in (ada, bo)
    ]
    friends = set_friends.sync(client=clients[1], body=models.FriendsUpdate(friends=[ada.id]))
    assert [f.id for f in friends.friends] == [ada.id]  # so Ada seats Bo without inviting him
    game = create_game.sync(
        client=clients[0],
        body=models.GameCreate(game=models.GameCreateGame(title), seats=[ada.id, bo.id]),
    )
    assert isinstance(game, models.GameSummary), game
    view = get_view.sync(game.id, client=clients[1])
    assert type(view).__name__.lower() == f"{title}view" and view.seat == 1

    rng = random.Random(f"generated client {title}")
    stale_answers = moves = 0
    while moves < MAX_MOVES:
        summary = get_game.sync(game.id, client=clients[0])
        if summary.status == models.GameSummaryStatus.FINISHED:
            break
        seat = rng.choice(summary.active_seats)
        legal = get_legal_moves.sync(game.id, client=clients[seat])
        assert type(legal).__name__.lower() == f"{title}legalmoves" and legal.moves
        move = rng.choice(legal.moves)
        version = legal.version - 1 if stale_answers == 0 else legal.version
        body = (
            models.Move(expected_version=version, notation=move.notation)
            if rng.random() < 0.5
            else models.Move(expected_version=version, action=move.action)
        )
        answer = play_move.sync(game.id, client=clients[seat], body=body)
        if isinstance(answer, models.PlayMoveResponse409):  # read again, then choose again
            # a move's 409 is typed with its own codes only, as an enum of them
            assert answer.code == models.PlayMoveResponse409Code.MOVESTALE_VERSION, answer
            assert answer.current_version == legal.version
            stale_answers += 1
            continue
        assert isinstance(answer, models.MoveResult) and answer.version > legal.version
        moves += 1
    else:
        pytest.fail(f"{title} did not end in {MAX_MOVES} moves")
    assert stale_answers == 1 and summary.outcome.winners
    log = get_log.sync(game.id, client=clients[0], after=summary.version - 1)
    assert [entry.type_ for entry in log.entries] == [models.LogEntryType.GAMEENDED]
