"""Nautilus: the documented schemas describe every view and every legal action."""

import pytest

from api.game_schemas.nautilus import ACTION_SCHEMA, VIEW_SCHEMA
from engine import match as runner
from engine.games.nautilus import GAME
from tests.api.schema_checks import check_match_against_schemas
from tests.engine import conformance


def check(m):
    check_match_against_schemas(GAME, m)


@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 10, 20])  # ten games a test: the parallel workers share them
def test_views_and_actions_match_the_schemas(first):
    for i in range(first, first + 10):
        options = {"hidden_domains": True} if i % 2 else None
        seed = conformance.seed_of(i)
        check(runner.start(GAME, 2, options, seed, 1)[0])
        conformance.play(GAME, 2, options, seed, on_step=lambda b, s, a, after, e: check(after))


def test_an_undocumented_view_key_fails():
    m = runner.start(GAME, 2, None, conformance.seed_of(1), 1)[0]
    view = dict(GAME.view(m["state"], 0), secret=1)
    assert "secret" in VIEW_SCHEMA().validate(view)


def test_a_wrong_action_type_fails():
    assert "type" in ACTION_SCHEMA().validate({"type": "dive"})
