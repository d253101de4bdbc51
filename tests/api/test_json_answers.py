"""The hot reads are dumped straight to JSON (api/json_answers.py): each must be exactly what
its schema would dump, so that the document still describes it. Checked on every game at
every player count, for every seat and a spectator, position after position of random play."""

import json
import random

import pytest

from api.game_views import GameViewSchema, LegalMovesSchema
from api.json_answers import json_answer
from api.schemas import GameListSchema, GameSummarySchema, MoveResultSchema
from engine import match as runner
from engine import registry
from service.play import history
from service.play.games import GameService, summarize
from service.players.accounts import PlayerService
from store.games import GameStore
from store.players import PlayerStore
from tests.api.conftest import befriend

GAMES_PER_COUNT = 2
POSITIONS_PER_GAME = 400
MAX_STEPS = 150


def plain(data):
    return json.loads(json.dumps(data))


def required_fields_missing(schema, answer) -> list[str]:
    """The fields `schema` says every answer has, and `answer` lacks (a dump would silently
    leave them out too)."""
    return [
        field.data_key or key
        for key, field in schema.fields.items()
        if field.required and (field.data_key or key) not in answer
    ]


def positions(game, n, seed):
    """(match, version) after each move of one random game."""
    rnd = random.Random(seed)
    m, _ = runner.start(game, n, None, seed.to_bytes(32, "big"), 1)
    version = 2
    yield m, version
    while m["outcome"] is None and version < MAX_STEPS:
        seat = rnd.choice(sorted(runner.active_seats(game, m)))
        action = rnd.choice(runner.legal_actions(game, m, seat))
        m, _ = runner.act(game, m, seat, action, seed.to_bytes(32, "big"), version)
        version += 1
        yield m, version


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_views_and_legal_moves_are_what_their_schemas_dump(name):
    views, legal = GameViewSchema(), LegalMovesSchema()
    game = registry.GAMES[name]
    view_schema = GameViewSchema.type_schemas[name]()
    counts = range(game.info.min_players, game.info.max_players + 1)
    checked, played = 0, 0
    while played < GAMES_PER_COUNT * len(counts) or checked < POSITIONS_PER_GAME:
        n = counts[played % len(counts)]
        played += 1
        for m, version in positions(game, n, 1000 * n + played):
            snap = {
                "game": name,
                "version": version,
                "match": m,
                "active_seats": sorted(runner.active_seats(game, m)),
            }
            for seat in [*range(n), None]:
                view = history.seat_view(snap, seat)
                assert plain(view) == plain(views.dump(view)), (name, n, played, seat)
                assert not required_fields_missing(view_schema, view), (name, seat)
            for seat in snap["active_seats"]:
                moves = {
                    "game": name,
                    "version": version,
                    "seat": seat,
                    "moves": [
                        {"notation": game.format(a), "action": a}
                        for a in runner.legal_actions(game, m, seat)
                    ],
                }
                assert plain(moves) == plain(legal.dump(moves)), (name, n, played, seat)
            checked += 1


@pytest.mark.slow
def test_summaries_lists_and_move_answers_are_what_their_schemas_dump(redis_client):
    players = PlayerService(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client), clock=lambda: 1e9)
    summaries, lists, results = GameSummarySchema(), GameListSchema(), MoveResultSchema()
    rnd = random.Random(7)
    checked = 0
    for name, game in sorted(registry.GAMES.items()):
        people = [players.register(f"P{i}")["id"] for i in range(game.info.min_players)]
        created = games.create(
            people[0],
            name,
            [people[0]] + [None] * (len(people) - 1),
            time_control={"per_move_seconds": 3600, "on_timeout": "auto"},
        )
        assert plain(created) == plain(summaries.dump(created))
        for person in people[1:]:
            games.join(created["id"], person)
        for _ in range(40):
            snap = games.load(created["id"])
            answer = {"games": games.list_games(people[0])[0]}
            assert plain(answer) == plain(lists.dump(answer)), name
            summary = summarize(snap)
            assert plain(summary) == plain(summaries.dump(summary)), name
            assert not required_fields_missing(summaries, summary), name
            checked += 1
            if snap["status"] != "active":
                break
            seat = rnd.choice(snap["active_seats"])
            moves = games.legal_moves(created["id"], people[seat])
            played = games.play(
                created["id"],
                people[seat],
                moves["version"],
                action=rnd.choice(moves["moves"])["action"],
            )
            assert plain(played) == plain(results.dump(played)), name
            assert not required_fields_missing(results, played), name
    assert checked >= 4 * 20


def test_legal_moves_over_http_are_the_bytes_of_the_plain_answer(app, client, register):
    """GET legal-moves writes its moves from the remembered JSON (MovesJson): byte for byte
    what the plain answer writes, so its ETag too, for both seats of a whole game."""
    (a, ha), (b, hb) = register("Ada"), register("Bo")
    befriend(client, hb, a)
    game_id = client.post(
        "/v1/games", json={"game": "ninedomains", "seats": [a, b]}, headers=ha
    ).json["id"]
    games = app.extensions["turnpost"]["games"]
    rnd = random.Random(3)
    played = 0
    for _ in range(60):
        for player, headers in ((a, ha), (b, hb)):
            r = client.get(f"/v1/games/{game_id}/legal-moves", headers=headers)
            plain_answer = json_answer(games.legal_moves(game_id, player))
            assert r.status_code == 200 and r.data == plain_answer.get_data()
            plain_answer.add_etag()
            assert r.headers["ETag"] == plain_answer.headers["ETag"]
        snap = games.load(game_id)
        if snap["status"] != "active":
            break
        seat = rnd.choice(snap["active_seats"])
        player, headers = ((a, ha), (b, hb))[seat]
        moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=headers).json
        r = client.post(
            f"/v1/games/{game_id}/moves",
            json={
                "action": rnd.choice(moves["moves"])["action"],
                "expected_version": moves["version"],
            },
            headers=headers,
        )
        assert r.status_code == 201, r.json
        played += 1
    # A game of The Nine Domains may end after two rounds (four moves, as in a clean-clone run
    # of make test); what matters is that it was played to its end.
    assert played >= 2 and games.load(game_id)["status"] == "finished"
