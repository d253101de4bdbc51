"""The baseline bots of bench/bots.py are engine/bots at the pinned commit, read from the git
history: nothing of today's bots reaches them, so no edit of engine/bots changes them."""

from __future__ import annotations

import types

import pytest

from bench.bots import BASELINE_COMMIT, baseline_module
from engine import registry


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_baseline_takes_nothing_from_todays_bots(name: str) -> None:
    module = baseline_module(name)
    own = f"{BASELINE_COMMIT}:engine/bots/{name}.py"
    assert module.BOTS["heuristic"].__code__.co_filename == own
    todays_bots = {f"engine.bots.{title}" for title in registry.GAMES} | {"engine.bots.search"}
    for held, value in vars(module).items():
        if isinstance(value, types.FunctionType):
            assert value.__code__.co_filename == own or value.__module__ not in todays_bots, held


def test_a_commit_git_cannot_read_is_named_with_what_to_do() -> None:
    with pytest.raises(RuntimeError, match=r"at commit 0000000, .*git fetch --unshallow"):
        baseline_module("buttons", "0000000")
