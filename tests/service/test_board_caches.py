"""The boards' caches stay small whatever is drawn: the background worker draws boards for every
turn email, and the HTTP workers for every page, in processes that live for days. A cache
without a bound must have few keys (a die, a cell, a card), and a bounded one must hold about a
MiB at most when full (its bound times the bytes an entry takes, measured by tracemalloc).
An unbounded cache of Con Sonar!'s rungs grew the worker by megabytes an hour in the soak
(bench/RESULTS.md)."""

from __future__ import annotations

import gc
import tracemalloc
from types import ModuleType

import pytest

from service.play import boards
from service.play.boards import (
    buttons,
    common,
    consonar,
    generic,
    nautilus,
    ninedomains,
    seat_boards,
)
from tests.engine import conformance
from tests.service.boards_positions import TITLES, positions, snapshot

pytestmark = pytest.mark.slow  # draws some 1,000 positions under tracemalloc

GAMES = 2  # of each title, every position drawn for one seat in turn or a spectator
FEW_KEYS = 64
FULL_MIB = 1.5
MIB = 1024 * 1024
MODULES: tuple[ModuleType, ...] = (
    boards,
    common,
    buttons,
    consonar,
    generic,
    nautilus,
    ninedomains,
)


def board_caches() -> dict[str, object]:
    return {
        f"{module.__name__.rsplit('.', 1)[-1]}.{name}": value
        for module in MODULES
        for name, value in vars(module).items()
        if hasattr(value, "cache_info") and value.__module__ == module.__name__
    }


@pytest.fixture(scope="module")
def held() -> dict[str, tuple[int | None, int, int]]:
    """Each cache after drawing every position of GAMES games of each title: (its bound,
    its entries, the bytes they hold)."""
    caches = board_caches()
    for cache in caches.values():
        cache.cache_clear()
    # Each cache is measured between two full collections. Freezing what this process held
    # before the drawing keeps those collections to the objects made since (the caches'
    # entries among them): in a worker that has imported the whole suite, 60 collections of
    # everything took half a minute.
    gc.collect()
    gc.freeze()
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        for i in range(GAMES):
            for name, title in TITLES.items():
                n, matches = positions(title, i, conformance.seed_of(1000 + i))
                for version, match in enumerate(matches, 1):
                    seat = version % (n + 1)  # each seat in turn, and the spectator
                    seat_boards(snapshot(name, match, version), None if seat == n else seat)
        found = {}
        for name, cache in caches.items():
            info = cache.cache_info()
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            cache.cache_clear()
            gc.collect()
            found[name] = (info.maxsize, info.currsize, before - tracemalloc.get_traced_memory()[0])
        return found
    finally:
        if not tracing:
            tracemalloc.stop()
        gc.unfreeze()


def test_a_cache_without_a_bound_has_few_keys(held):
    many = {
        name: entries
        for name, (bound, entries, _) in held.items()
        if bound is None and entries > FEW_KEYS
    }
    assert not many, f"unbounded caches with more than {FEW_KEYS} entries: {many}"


def test_a_bounded_cache_holds_about_a_mib_at_most(held):
    full = {
        name: bound * size / entries / MIB
        for name, (bound, entries, size) in held.items()
        if bound is not None and entries
    }
    assert len(full) >= 6, full  # the caches were used: the measure measured something
    large = {name: f"{mib:.1f} MiB" for name, mib in full.items() if mib > FULL_MIB}
    assert not large, f"caches holding more than {FULL_MIB} MiB when full: {large}"
