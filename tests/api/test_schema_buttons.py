"""Buttons: the documented schemas describe every view and every legal action."""
from api.game_schemas.buttons import ACTION_SCHEMA, VIEW_SCHEMA
from engine import match as runner
from engine.games.buttons import GAME
from tests.engine import conformance


def check(m):
    g = m["state"]
    for seat in (None, *range(m["seats"])):
        view = GAME.view(g, seat)
        assert VIEW_SCHEMA().validate(view) == {}, (seat, VIEW_SCHEMA().validate(view))
    for seat in sorted(runner.active_seats(GAME, m)):
        legal = runner.legal_actions(GAME, m, seat)
        assert legal and ACTION_SCHEMA(many=True).validate(legal) == {}


def test_views_and_actions_match_the_schemas():
    for i in range(30):
        n = 2 + i % 3
        seed = conformance.seed_of(i)
        check(runner.start(GAME, n, None, seed, 1)[0])
        conformance.play(GAME, n, None, seed, on_step=lambda b, s, a, after, e: check(after))


def test_an_undocumented_view_key_fails():
    m = runner.start(GAME, 2, None, conformance.seed_of(1), 1)[0]
    view = dict(GAME.view(m["state"], 0), secret=1)
    assert "secret" in VIEW_SCHEMA().validate(view)
    player = dict(view["players"][0], hidden=1)
    assert "players" in VIEW_SCHEMA().validate(dict(view, players=[player]))
