"""Every game module follows the skeleton of docs/adding-a-game.md: the same sections in the same
order, a phase table that agrees with the constants the API schemas read, bots in their own
module, and the rules text cited by a path inside the repository."""

import ast
import importlib
import re
from pathlib import Path

import pytest

from engine.core import GameModule
from engine.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("Data", "Setup", "Phases", "Rules", "Notation", "View", "The game object")
RULE = "# " + "-" * 93


def sections_of(source: str) -> list[str]:
    """The section headers of a module: a comment line framed by two rules."""
    lines = source.splitlines()
    return [
        lines[i][2:]
        for i in range(1, len(lines) - 1)
        if lines[i - 1] == RULE and lines[i + 1] == RULE
    ]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_module_has_the_skeletons_sections_in_order(name):
    source = (ROOT / "engine" / "games" / f"{name}.py").read_text()
    assert sections_of(source) == list(SECTIONS)


def test_a_module_with_its_sections_out_of_order_is_told_apart():
    source = (ROOT / "engine" / "games" / "nautilus.py").read_text()
    swapped = source.replace("# View\n", "# Viewx\n").replace("# Notation\n", "# View\n")
    assert sections_of(swapped) != list(SECTIONS)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_phase_table_agrees_with_the_exposed_constants(name):
    module = importlib.import_module(f"engine.games.{name}")
    game = module.GAME
    assert isinstance(game, GameModule)
    assert set(game.phases) == set(module.PHASES)
    assert set(game.handlers) == set(module.ACTION_TYPES)
    assert len(module.PHASES) == len(set(module.PHASES))
    assert len(module.ACTION_TYPES) == len(set(module.ACTION_TYPES))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_bots_live_in_their_own_module(name):
    bots = importlib.import_module(f"engine.bots.{name}")
    assert GAMES[name].bots is bots.BOTS
    assert set(bots.BOTS) >= {"random", "heuristic"}
    rules = (ROOT / "engine" / "games" / f"{name}.py").read_text()
    assert "def heuristic" not in rules and "_bot(" not in rules


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_text_is_cited_by_a_path_in_the_repository(name):
    module_doc = importlib.import_module(f"engine.games.{name}").__doc__
    page = (ROOT / "docs" / "games" / f"{name}.md").read_text()
    assert f"docs/games/rules/{name}.md" in module_doc
    assert f"(rules/{name}.md)" in page
    assert (ROOT / "docs" / "games" / "rules" / f"{name}.md").is_file()
    for text in (module_doc, page):
        assert not re.search(r"/work/|shared/rules", text)


def test_the_engine_imports_its_modules_plainly():
    """No module of the engine loads another by its name (importlib): the import linter sees
    every arrow, so a cycle (the rules' core -> the bots -> the rules) cannot hide."""
    loading = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "engine").rglob("*.py"))
        if "importlib" in path.read_text()
    ]
    assert loading == []


def test_every_public_function_of_the_model_game_says_what_it_is_for():
    """Nautilus is the model a new game is written from (docs/adding-a-game.md)."""
    tree = ast.parse((ROOT / "engine" / "games" / "nautilus.py").read_text())
    silent = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and not node.name.startswith("_")
        and not ast.get_docstring(node)
    ]
    assert silent == []
