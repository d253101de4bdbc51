"""The baseline bots of bench/bots.py are engine/bots at the pinned commit, read from the git
history and run as modules of their own, so no edit of engine/bots changes them. The loader is
tested at HEAD, which every clone has (a shallow one too)."""

from __future__ import annotations

import pytest

from bench.bots import baseline_module
from engine import registry


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_module_read_from_git_runs_its_own_lines(name: str) -> None:
    """The loader at HEAD, which every clone has (a shallow one too): the module's bots are
    the lines git holds, run apart from today's module of the same name."""
    module = baseline_module(name, "HEAD")
    assert module.BOTS["heuristic"].__code__.co_filename == f"HEAD:engine/bots/{name}.py"
    assert module.BOTS["heuristic"] is not registry.GAMES[name].bots["heuristic"]


def test_a_commit_git_cannot_read_is_named_with_what_to_do() -> None:
    with pytest.raises(RuntimeError, match=r"at commit 0000000, .*git fetch --unshallow"):
        baseline_module("buttons", "0000000")
