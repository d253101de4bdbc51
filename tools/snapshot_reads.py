"""How much code outside service/play reads a game's raw snapshot, and calls play's internals.

    python tools/snapshot_reads.py [--total]

Counts, in every module of api/, web/, workers/, turnpost/ and service/ outside service/play:

- reads by key: `x["key"]` or `x.get("key")` where `key` is a field of the snapshot
  (store.snapshot.Snapshot) and `x` is a name or attribute with "snap" in it (`snap`,
  `snapshot`, `page.snap`);
- internal calls: calls of a function of play's internal modules (`history`, `boards`,
  `logview`, `composer`, `lists`) or of the runner (`engine.match`, imported as `runner`).

A module that renders a seat's table reads neither: its reads are counted to drive them to 0.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from store.snapshot import Snapshot  # noqa: E402

KEYS = frozenset(Snapshot.__annotations__)
INTERNALS = frozenset({"history", "boards", "logview", "composer", "lists", "runner"})
PACKAGES = ("api", "web", "workers", "turnpost", "service")
EXCLUDED = ("service/play/",)


def _named(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _key(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def count(source: str) -> tuple[int, int]:
    """(snapshot reads by key, calls of play's internals) in one module's source."""
    reads = calls = 0
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Subscript)
            and _key(node.slice) in KEYS
            and "snap" in _named(node.value)
        ):
            reads += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if (
                node.func.attr == "get"
                and node.args
                and _key(node.args[0]) in KEYS
                and "snap" in _named(owner)
            ):
                reads += 1
            elif isinstance(owner, ast.Name) and owner.id in INTERNALS:
                calls += 1
    return reads, calls


def main() -> None:
    totals = [0, 0]
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(EXCLUDED):
                continue
            reads, calls = count(path.read_text(encoding="utf-8"))
            totals[0] += reads
            totals[1] += calls
            if (reads or calls) and "--total" not in sys.argv:
                print(f"{relative}: {reads} snapshot reads, {calls} internal calls")
    print(f"total: {totals[0]} snapshot reads, {totals[1]} internal calls")


if __name__ == "__main__":
    main()
