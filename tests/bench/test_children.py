"""A benchmark's child (bench/children.py) runs the benchmark's own file in a fresh interpreter
whose imports come from the tree it is given, and refuses an answer measured on other code."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.children import run_child

BENCHMARK = """
import os
import measured


def child(n):
    return {"code": {"measured": measured.__file__}, "n": n, "word": measured.WORD,
            "home": os.environ.get("BENCH_HOME")}


def child_elsewhere():
    return {"code": {"os": os.__file__}}


def child_failing():
    raise SystemExit("the child's own words")
"""


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two trees with a module of the same name, and a benchmark file outside both."""
    benchmark = tmp_path / "benchmark.py"
    benchmark.write_text(BENCHMARK)
    before, after = tmp_path / "before", tmp_path / "after"
    for tree in (before, after):
        tree.mkdir()
        (tree / "measured.py").write_text(f"WORD = {tree.name!r}\n")
    return benchmark, before, after


def test_each_tree_measures_its_own_code_with_the_call_given(trees) -> None:
    benchmark, before, after = trees
    for tree in (before, after):
        found = run_child(tree, str(benchmark), "child(7)", {"BENCH_HOME": "here"})
        assert found["word"] == tree.name
        assert Path(found["code"]["measured"]).parent == tree
        assert (found["n"], found["home"]) == (7, "here")


def test_an_answer_measured_on_code_from_outside_the_tree_is_refused(trees) -> None:
    benchmark, before, _ = trees
    with pytest.raises(RuntimeError, match=r"os came from .*, not from .*before"):
        run_child(before, str(benchmark), "child_elsewhere()")


def test_a_failing_child_is_told_with_its_words(trees) -> None:
    benchmark, before, _ = trees
    with pytest.raises(RuntimeError, match=r"(?s)the child failed in .*before.*own words"):
        run_child(before, str(benchmark), "child_failing()")
