"""A benchmark's child: the benchmark's own file run in a fresh interpreter whose imports come
from another tree first (the code before a change, or this tree's), so that each tree's code is
measured by the same benchmark in the same conditions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_child(
    tree: Path, benchmark: str, call: str, environ: Mapping[str, str] = os.environ
) -> dict:
    """`call` (such as "child(20)") on the module at `benchmark` (a file: the benchmark stays
    this tree's), in a fresh interpreter in `tree` whose imports come from `tree` first and
    whose environment is `environ`; the answer is the JSON the call returns. Its "code" names
    the file of each module it measured: each must be in `tree`, or it measured other code."""
    script = (
        "import importlib.util, json, sys\n"
        f"sys.path.insert(0, {str(tree)!r})\n"
        f"spec = importlib.util.spec_from_file_location({Path(benchmark).stem!r}, {benchmark!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        f"print(json.dumps(module.{call}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tree,
        env={**environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"the child failed in {tree}:\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for module, path in result["code"].items():
        if not Path(path).resolve().is_relative_to(tree.resolve()):
            raise RuntimeError(f"{module} came from {path}, not from {tree}")
    return result
