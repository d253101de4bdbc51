"""Con Sonar!: the documented schemas describe every view and every legal action."""

import pytest

from api.game_schemas.consonar import ACTION_SCHEMA, VIEW_SCHEMA
from engine import match as runner
from engine.games.consonar import GAME
from tests.api.schema_checks import check_match_against_schemas
from tests.engine import conformance
from tests.engine.conformance.consonar import random_player


def check(m):
    check_match_against_schemas(GAME, m)


@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 10, 20])  # ten games a test: the parallel workers share them
def test_views_and_actions_match_the_schemas(first):
    for i in range(first, first + 10):
        n = 2 + i % 5
        seed = conformance.seed_of(i)
        options = {"end_subs_left": 0 if i % 3 == 0 else 8}
        check(runner.start(GAME, n, options, seed, 1)[0])
        m, _ = conformance.play(
            GAME,
            n,
            options,
            seed,
            chooser=random_player,
            on_step=lambda b, s, a, after, e: check(after),
        )
        assert m["outcome"] is not None and GAME.view(m["state"], None)["phase"] == "over"


def test_views_after_a_resignation_match_the_schema():
    m = runner.start(GAME, 3, None, conformance.seed_of(3), 1)[0]
    m, _ = runner.resign(GAME, m, 1, 2)
    check(m)


def test_an_undocumented_view_key_fails():
    m = runner.start(GAME, 2, None, conformance.seed_of(1), 1)[0]
    view = dict(GAME.view(m["state"], 0), secret=1)
    assert "secret" in VIEW_SCHEMA().validate(view)
    card = dict(view["hand"][0], hidden=1)
    assert "hand" in VIEW_SCHEMA().validate(dict(view, hand=[card]))
    assert "type" in ACTION_SCHEMA().validate({"type": "fire"})


def test_dumping_a_view_through_the_schema_keeps_every_key():
    def step(before, seat, action, after, entries):
        for s in (None, 0, 1, 2):
            view = GAME.view(after["state"], s)
            assert VIEW_SCHEMA().dump(view) == view and view["you"] == view["me"] == s

    conformance.play(
        GAME, 3, {"end_subs_left": 8}, conformance.seed_of(2), chooser=random_player, on_step=step
    )
