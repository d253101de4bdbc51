"""Every registered title against the checks every game must pass (tests/engine/conformance):
its invariants over many seeded random games, views that leak nothing a seat cannot know,
replay and plain JSON, notation that reads back, views without the seed, the golden
playthrough, bots that play legal moves and a heuristic that beats the random bot, and the
title's own checks. What is particular to a title is in its hook module,
tests/engine/conformance/<name>.py: a title registered without one fails here."""

import json
import re
from dataclasses import replace

import pytest

from engine import match as runner
from engine.registry import GAMES
from engine.rng import Rng
from tests.engine.conformance import (
    check_bot_beats_random,
    check_golden,
    check_no_leak,
    check_notation,
    check_replay_and_json,
    check_views_hide_seed,
    hooks_of,
    play,
    seed_of,
)

pytestmark = pytest.mark.slow  # many seeded games of every title, checked at every step

TITLES = sorted(GAMES)


def runs(check: str) -> list:
    """(title, run) for every run of `check` in every title's hooks, with readable ids."""
    return [
        pytest.param(name, run, id=f"{name}-{run}")
        for name in TITLES
        for run in getattr(hooks_of(name), check)
    ]


SHARD = 250  # random games a test at most: the parallel workers share a title's many evenly


def sharded(check: str) -> list:
    """`runs(check)` with each run cut into consecutive parts of at most SHARD games (the
    same seeds, the same checks), so that no single test holds the whole suite up."""
    return [
        pytest.param(name, part, id=f"{name}-{run}-games {start}-{start + part.games - 1}")
        for name in TITLES
        for run in getattr(hooks_of(name), check)
        for start in range(run.first, run.first + run.games, SHARD)
        for part in [replace(run, first=start, games=min(SHARD, run.first + run.games - start))]
    ]


@pytest.mark.parametrize("name, run", sharded("PLAYS"))
def test_random_games_keep_the_invariants(name, run):
    hooks = hooks_of(name)
    for i, seed in run.seeds():
        m, history = play(
            GAMES[name],
            run.players,
            run.options(i),
            seed,
            run.chooser,
            max_steps=hooks.MAX_STEPS,
            on_step=hooks.check_step,
        )
        hooks.check_end(m, history)


@pytest.mark.parametrize("name, run", runs("NO_LEAK"))
def test_views_do_not_leak_what_a_seat_cannot_know(name, run):
    for i, seed in run.seeds():
        check_no_leak(
            GAMES[name], run.players, run.options(i), seed, hooks_of(name).perturb, run.chooser
        )


@pytest.mark.parametrize("name", TITLES)
def test_the_perturbation_changes_something(name):
    """The no-leak check proves something only if `perturb` changes the state: somewhere in a
    seeded game, for some seat, it does."""
    game, perturb = GAMES[name], hooks_of(name).perturb
    changed = 0

    def step(before, seat, action, after, entries):
        nonlocal changed
        for s in range(after["seats"]):
            state = json.loads(json.dumps(after["state"]))
            changed += perturb(state, s, Rng(seed_of(s))) != after["state"]

    play(game, game.info.min_players, None, seed_of(1), on_step=step)
    assert changed


@pytest.mark.parametrize("name, run", runs("REPLAYS"))
def test_replay_gives_the_same_match_and_the_state_is_json(name, run):
    for i, seed in run.seeds():
        check_replay_and_json(GAMES[name], run.players, run.options(i), seed, run.chooser)


@pytest.mark.parametrize("name, run", runs("NOTATION"))
def test_notation_round_trips_at_many_states(name, run):
    game = GAMES[name]

    def step(before, seat, action, after, entries):
        for s in sorted(runner.active_seats(game, after)):
            check_notation(game, after, s)

    for i, seed in run.seeds():
        play(game, run.players, run.options(i), seed, run.chooser, on_step=step)


@pytest.mark.parametrize("name, run", runs("SEED_HIDDEN"))
def test_views_never_show_the_seed(name, run):
    game = GAMES[name]
    for i, seed in run.seeds():
        options = run.options(i)
        check_views_hide_seed(game, runner.start(game, run.players, options, seed, 1)[0], seed)
        play(
            game,
            run.players,
            options,
            seed,
            run.chooser,
            on_step=lambda before, seat, action, after, entries: check_views_hide_seed(
                game, after, seed
            ),
        )


@pytest.mark.parametrize("name", TITLES)
def test_golden_playthrough(name):
    golden = hooks_of(name).GOLDEN
    check_golden(GAMES[name], golden.players, golden.options(golden.first), seed_of(golden.first))


@pytest.mark.parametrize("name, run", runs("BOTS_LEGAL"))
def test_every_bot_plays_a_legal_move(name, run):
    game = GAMES[name]
    for bot in game.bots.values():

        def choose(view, legal, rng, seat, bot=bot):
            action = bot(view, legal, rng)
            assert action in legal
            return action

        for i, seed in run.seeds():
            play(game, run.players, run.options(i), seed, chooser=choose)


@pytest.mark.parametrize(
    "name, run, least",
    [
        pytest.param(name, run, least, id=f"{name}-{run}")
        for name in TITLES
        for run, least in hooks_of(name).BOT_MATCHES
    ],
)
def test_the_heuristic_beats_the_random_bot(name, run, least):
    wins = check_bot_beats_random(GAMES[name], run)
    assert wins >= least, wins


@pytest.mark.parametrize(
    "name, check",
    [
        pytest.param(name, check, id=f"{name}-{check.__name__}")
        for name in TITLES
        for check in hooks_of(name).SPECIFICS
    ],
)
def test_the_titles_own_checks(name, check):
    check()


def test_a_title_without_hooks_is_told_which_module_to_write():
    with pytest.raises(AssertionError, match=re.escape("tests/engine/conformance/hiddenbid.py")):
        hooks_of("hiddenbid")
