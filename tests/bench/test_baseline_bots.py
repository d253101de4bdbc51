"""The baseline bots of bench/bots.py are engine/bots at the pinned commit, read from the git
history: nothing of today's bots reaches them, so no edit of engine/bots changes them."""

from __future__ import annotations

import subprocess
import types

import pytest

from bench.bots import BASELINE_COMMIT, baseline_module
from engine import registry


def _history_has(commit: str) -> bool:
    return (
        subprocess.run(
            ["git", "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True
        ).returncode
        == 0
    )


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_module_read_from_git_runs_its_own_lines(name: str) -> None:
    """The loader at HEAD, which every clone has (a shallow one too): the module's bots are
    the lines git holds, run apart from today's module of the same name."""
    module = baseline_module(name, "HEAD")
    assert module.BOTS["heuristic"].__code__.co_filename == f"HEAD:engine/bots/{name}.py"
    assert module.BOTS["heuristic"] is not registry.GAMES[name].bots["heuristic"]


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_baseline_takes_nothing_from_todays_bots(name: str) -> None:
    if not _history_has(BASELINE_COMMIT):  # `make bench` says so too, with what to do
        pytest.skip(f"this clone has no history back to {BASELINE_COMMIT} (a shallow clone)")
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
