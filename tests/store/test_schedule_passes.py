"""A clock pass takes at most its limit of due items over all the schedule's buckets, shared
fairly among the buckets that have some (issue 33: a pass that could hold 200 items of each of
32 buckets outlived its lease)."""

from collections import Counter

from store import keys
from store.schedule import ScheduleStore, shares


def test_the_limit_is_shared_fairly_among_the_buckets_that_have_due_items():
    assert shares([500, 0, 0, 0], 200) == [200, 0, 0, 0]  # one busy bucket: the whole limit
    assert shares([100, 100, 100, 100], 200) == [50, 50, 50, 50]
    assert shares([3, 500, 0, 500], 200) == [3, 99, 0, 98]  # what one cannot use, the others
    assert shares([3, 5, 0, 1], 200) == [3, 5, 0, 1]  # fewer due than the limit: all
    assert shares([0, 0], 200) == [0, 0]


def test_the_parts_left_over_by_the_division_go_round_the_buckets():
    due = [10] * 32
    got = [shares(due, 40, first) for first in range(32)]
    assert all(sum(share) == 40 and max(share) - min(share) <= 1 for share in got)
    assert len({tuple(share) for share in got}) == 32  # another bucket favoured each pass
    assert set(sum(share[b] for share in got) for b in range(32)) == {40}  # over 32 passes


def game_in(bucket: int) -> str:
    return next(g for i in range(10_000) if keys.bucket_of(g := f"g_{i}") == bucket)


def test_a_pass_leases_at_most_its_limit_over_all_buckets(redis_client):
    schedule = ScheduleStore(redis_client)
    busy, quiet = game_in(0), game_in(1)
    for i in range(300):
        schedule.add(busy, 1_000, {"kind": "wake", "game": busy, "version": i})
    for i in range(10):
        schedule.add(quiet, 1_000, {"kind": "wake", "game": quiet, "version": i})
    schedule.add(quiet, 9_000, {"kind": "wake", "game": quiet, "version": 99})  # not due

    first = schedule.take_due(2_000, 200, lease_ms=5_000)
    assert Counter(bucket for bucket, _ in first) == {0: 190, 1: 10}
    assert len(schedule.last_lateness_ms) == 200 and set(schedule.last_lateness_ms) == {1_000}
    second = schedule.take_due(2_000, 200, lease_ms=5_000)
    assert Counter(bucket for bucket, _ in second) == {0: 110}
    assert schedule.take_due(2_000, 200, lease_ms=5_000) == []  # the rest is leased
    schedule.done(second)
    lapsed = schedule.take_due(7_000, 200, lease_ms=5_000)  # the first pass's clock died
    assert sorted(item["version"] for _, item in lapsed) == sorted(i["version"] for _, i in first)
    schedule.done(lapsed)  # two buckets' items at once
    assert schedule.counts(7_000, 0)["leased"] == 0
    assert [item["version"] for _, item in schedule.take_due(9_000, 200)] == [99]
