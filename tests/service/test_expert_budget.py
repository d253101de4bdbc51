"""bot:expert's budget (service.play.games.cpu_budget): CPU time of the search's thread."""

import time

import pytest

from service.play.games import WALL_FACTOR, cpu_budget

pytestmark = pytest.mark.slow  # the expert's searches take a second each


def test_the_budget_is_the_search_threads_cpu_time_with_a_wall_clock_cap():
    """A busy machine slows the search without weakening it: waiting costs no budget, working
    does; only WALL_FACTOR times the budget of waiting ends it."""
    wall, cpu = time.monotonic(), time.thread_time()
    more = cpu_budget(0.05)
    time.sleep(0.03)  # other processes run; this thread spends nothing
    assert more()
    while more():
        pass
    spent, waited = time.thread_time() - cpu, time.monotonic() - wall
    assert spent >= 0.05 or waited >= 0.05 * WALL_FACTOR  # the budget, or the cap on a busy box
    assert spent < 0.05 + 0.02
    stalled = cpu_budget(0.02)
    time.sleep(0.02 * WALL_FACTOR + 0.02)
    assert not stalled()
