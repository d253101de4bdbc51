"""How much code outside service/play reads a game's raw snapshot, and calls play's internals.

    python tools/snapshot_reads.py [--total]

Counts, in every module of api/, web/, workers/, turnpost/ and service/ outside service/play:

- snapshot reads: `x["key"]` or `x.get("key")` where `key` is a field of the snapshot
  (store.snapshot.Snapshot) and `x` is a name or attribute with "snap" in it (`snap`,
  `snapshot`, `page.snap`, `game._snapshot`); any other use of a game's facts' own snapshot
  (`game._snapshot`, service/play/facts.py); and a snapshot fetched from the store
  (`.snapshot(...)`, `.snapshots(...)`) or from the games service (`games.load(...)`);
- internal calls: calls of a function of play's internal modules (`history`, `boards`,
  `logview`, `composer`, `lists`) or of the runner (`engine.match`, imported as `runner`).

A surface renders a seat's table (service/play/table.py); what a commit causes and its notices
read a game's facts (service/play/facts.py): outside service/play both counts are 0, and
tests/service/test_snapshot_reads.py keeps them so.
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


FACTS_SNAPSHOT = "_snapshot"
"""The snapshot a game's facts keep for play's own functions (service/play/facts.py)."""
FETCHES = frozenset({"snapshot", "snapshots"})
"""The store's reads of a game's snapshot (store.games.GameStore)."""


def count(source: str) -> tuple[int, int]:
    """(snapshot reads, calls of play's internals) in one module's source."""
    reads = calls = 0
    counted: set[int] = set()  # the snapshots whose read by key is counted already
    nodes = list(ast.walk(ast.parse(source)))
    for node in nodes:
        if (
            isinstance(node, ast.Subscript)
            and _key(node.slice) in KEYS
            and "snap" in _named(node.value)
        ):
            reads += 1
            counted.add(id(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if (
                node.func.attr == "get"
                and node.args
                and _key(node.args[0]) in KEYS
                and "snap" in _named(owner)
            ):
                reads += 1
                counted.add(id(owner))
            elif node.func.attr in FETCHES or (
                node.func.attr == "load" and _named(owner) == "games"
            ):
                reads += 1
            elif isinstance(owner, ast.Name) and owner.id in INTERNALS:
                calls += 1
    reads += sum(
        1
        for node in nodes
        if isinstance(node, ast.Attribute)
        and node.attr == FACTS_SNAPSHOT
        and id(node) not in counted
    )
    return reads, calls


def totals() -> tuple[list[tuple[str, int, int]], int, int]:
    """(each module that reads or calls with its counts, all reads, all calls)."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(EXCLUDED):
                continue
            reads, calls = count(path.read_text(encoding="utf-8"))
            if reads or calls:
                found.append((relative, reads, calls))
    return found, sum(r for _, r, _ in found), sum(c for _, _, c in found)


def main() -> None:
    found, reads, calls = totals()
    if "--total" not in sys.argv:
        for relative, module_reads, module_calls in found:
            print(f"{relative}: {module_reads} snapshot reads, {module_calls} internal calls")
    print(f"total: {reads} snapshot reads, {calls} internal calls")


if __name__ == "__main__":
    main()
