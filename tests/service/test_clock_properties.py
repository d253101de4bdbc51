"""The clock's pure function (service/play/clock.py) against a slow reference that decides, for
every quarter hour, whether a seat's clock runs from what Python's datetime says of that
instant in the seat's own time zone (every UTC offset in use is a multiple of 15 minutes, so a
weekend starts and ends on a quarter hour of UTC), over random move times, time zones
(DST-changing ones, half-hour and 45-minute offsets), weekends and vacations."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.play import clock

QUARTER = 15 * 60 * 1000
HOUR = 3_600_000
DAY = 86_400_000
ZONES = [
    None,  # UTC
    "Europe/London",
    "America/New_York",
    "America/Santiago",  # DST changes at local midnight
    "Asia/Kolkata",  # +05:30
    "Australia/Adelaide",  # +09:30 / +10:30
    "Australia/Lord_Howe",  # a DST change of half an hour
    "Pacific/Chatham",  # +12:45 / +13:45
    "Asia/Tokyo",
]
START = 1_577_836_800_000  # 2020-01-01
END = 1_893_456_000_000  # 2030-01-01


def weekday(ms: int, zone: str | None) -> int:
    tz = ZoneInfo(zone) if zone else ZoneInfo("UTC")
    return datetime.fromtimestamp(ms / 1000, tz).weekday()


def runs_at(ms: int, cal: clock.Calendar) -> bool:
    """The reference: does the seat's clock run at the instant `ms`?"""
    if any(a <= ms < b for a, b in cal.vacations):
        return False
    return not (cal.weekends_off and weekday(ms, cal.zone) >= 5)


def reference_running(t0: int, t1: int, cal: clock.Calendar) -> int:
    """How long the clock runs from t0 to t1, a quarter hour at a time (cut at the vacations'
    ends too), each piece judged by its first instant."""
    if t1 <= t0:
        return 0
    first = -(-t0 // QUARTER) * QUARTER
    cuts = {t0, t1, *range(first, t1, QUARTER)}
    cuts |= {x for span in cal.vacations for x in span if t0 < x < t1}
    points = sorted(cuts)
    return sum(b - a for a, b in pairwise(points) if runs_at(a, cal))


@st.composite
def calendars(draw, near: int, weekends: bool | None = None):
    zone = draw(st.sampled_from(ZONES))
    off = draw(st.booleans()) if weekends is None else weekends
    spans = draw(
        st.lists(st.tuples(st.integers(-3 * DAY, 30 * DAY), st.integers(1, 6 * DAY)), max_size=3)
    )
    return clock.Calendar(zone, off, tuple((near + a, near + a + n) for a, n in spans))


times = st.integers(START, END)


@st.composite
def ranges(draw):
    t0 = draw(times)
    return t0, t0 + draw(st.integers(0, 20 * DAY)), draw(calendars(t0))


@settings(max_examples=150, deadline=None)
@given(ranges())
@pytest.mark.slow
def test_the_clock_runs_exactly_when_the_reference_says(found):
    t0, t1, cal = found
    assert clock.running_ms(t0, t1, cal) == reference_running(t0, t1, cal)


@settings(max_examples=300, deadline=None)
@given(times, calendars(START, weekends=True))
@pytest.mark.slow
def test_no_time_is_charged_on_a_weekend_day_nor_in_a_vacation(t, cal):
    cal = clock.Calendar(
        cal.zone, True, tuple((t + a - START, t + b - START) for a, b in cal.vacations)
    )
    for probe in (t, t + QUARTER - 1, t + 7 * HOUR, t + DAY):
        assert clock.running_ms(probe, probe + 1, cal) == (1 if runs_at(probe, cal) else 0)
        assert (clock.paused(probe, cal) is None) == runs_at(probe, cal)


@settings(max_examples=150, deadline=None)
@given(times, st.integers(0, 15 * DAY), st.data())
@pytest.mark.slow
def test_the_deadline_is_when_the_bank_is_used_up(t0, bank, data):
    cal = data.draw(calendars(t0))
    due = clock.advance(t0, bank, cal)
    assert reference_running(t0, due, cal) == bank
    if bank > 0:  # and not a moment earlier
        assert reference_running(t0, due - 1, cal) == bank - 1
        assert runs_at(due - 1, cal)


@st.composite
def games(draw):
    """A game of two seats taking turns of one to three steps: the clock, the calendars and the
    steps' times (a step that ends its turn: True)."""
    kind = draw(st.sampled_from(["bank", "per_move"]))
    cap = draw(st.integers(1, 20)) * DAY
    record = (
        {
            "kind": "bank",
            "initial_seconds": draw(st.integers(0, cap // 1000)),
            "increment_seconds": draw(st.integers(0, 2 * 86400)),
            "max_seconds": cap // 1000,
            "on_timeout": "auto",
        }
        if kind == "bank"
        else {"per_move_seconds": draw(st.integers(60, 14 * 86400)), "on_timeout": "auto"}
    )
    record["weekends_off"] = draw(st.booleans())
    t0 = draw(times)
    cals = [draw(calendars(t0, record["weekends_off"])) for _ in range(2)]
    turns = draw(st.lists(st.integers(1, 3), min_size=1, max_size=8))
    steps = [(draw(st.integers(0, 3 * DAY)), k == n - 1) for n in turns for k in range(n)]
    return clock.Control.of(record), cals, t0, steps


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
@pytest.mark.slow
def test_a_bank_stays_within_its_cap_and_gets_one_increment_a_turn(game):
    """Each step is charged; only the step that ends the turn credits the increment (a
    multi-step turn is one move), and the clock per move gives its time afresh at each step
    (the seat's situation changed)."""
    control, cals, t0, steps = game
    clocks = clock.step(
        control, [clock.SeatClock(control.start_ms)] * 2, cals, cals, [0], [0], None, t0
    )
    reference = [control.start_ms, control.start_ms]
    step_start, seat, at = t0, 0, t0
    for gap, ends in steps:
        at += gap
        # while the step is pending, the bank never goes below zero nor above its cap
        left = clock.remaining_ms(clocks[seat], at, cals[seat])
        assert 0 <= left <= control.full_ms
        spent = reference_running(step_start, at, cals[seat])
        expected = max(0, reference[seat] - spent)
        assert left == expected
        reference[seat] = expected
        if control.kind == "bank" and ends:
            reference[seat] = min(control.max_ms, expected + control.increment_ms)
        nxt = 1 - seat if ends else seat
        clocks = clock.step(
            control, clocks, cals, cals, [nxt], [nxt], seat, at, [] if ends else [seat]
        )
        if ends:
            assert clocks[seat].since is None
        if control.kind == "bank":
            assert clocks[seat].bank == reference[seat]  # credited once a turn, capped
        else:
            reference[nxt] = control.per_move_ms
        assert clocks[nxt].bank == reference[nxt]
        # it runs from the step, unless it goes on with a turn whose bank ran out already (it
        # stays empty from the moment it did: at the latest when a frozen span that holds the
        # step ends, as an empty bank at a vacation's start runs out at its end)
        start = at if ends or reference[nxt] else clocks[nxt].since
        assert start is not None and start <= clock.advance(at, 0, cals[nxt])
        assert clock.deadline(clocks[nxt], cals[nxt]) == clock.advance(
            start, reference[nxt], cals[nxt]
        )
        step_start, seat = at, nxt


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 * DAY), st.integers(1, 10), st.integers(0, DAY))
def test_increments_add_up_once_per_move_when_the_cap_is_far(initial, moves, increment):
    control = clock.Control(
        "bank", "auto", initial_ms=initial, increment_ms=increment, max_ms=10**15
    )
    cal = clock.Calendar()
    clocks = [clock.SeatClock(initial, START), clock.SeatClock(initial)]
    at = START
    for _ in range(moves):  # seat 0 moves at once, every time: nothing is charged
        clocks = clock.step(control, clocks, [cal] * 2, [cal] * 2, [0], [0], 0, at)
        # a step in the middle of a turn (seat 0 goes on with it) credits nothing
        clocks = clock.step(control, clocks, [cal] * 2, [cal] * 2, [0], [0], 0, at, [0])
    assert clocks[0].bank == initial + moves * increment


def test_a_half_hour_zone_weekend_starts_at_its_own_midnight():
    # Saturday 2026-11-28 00:00 in Kolkata is Friday 18:30 UTC
    cal = clock.Calendar("Asia/Kolkata", True)
    friday_1829_utc = int(datetime(2026, 11, 27, 18, 29, tzinfo=ZoneInfo("UTC")).timestamp() * 1000)
    assert clock.running_ms(friday_1829_utc, friday_1829_utc + 2 * 60_000, cal) == 60_000
    assert clock.paused(friday_1829_utc + 60_000, cal) == "weekend"


def test_a_weekend_across_a_dst_change_is_two_local_days():
    # Europe/London goes back an hour on Sunday 2026-10-25: that weekend lasts 49 hours
    cal = clock.Calendar("Europe/London", True)
    friday = int(datetime(2026, 10, 23, 12, tzinfo=ZoneInfo("Europe/London")).timestamp() * 1000)
    monday = int(datetime(2026, 10, 26, 12, tzinfo=ZoneInfo("Europe/London")).timestamp() * 1000)
    assert monday - friday == 3 * DAY + HOUR
    assert clock.running_ms(friday, monday, cal) == DAY  # 12 h of Friday, 12 h of Monday


@pytest.mark.parametrize("record", [{"per_move_seconds": 86400, "on_timeout": "auto"}])
def test_an_old_record_reads_as_days_per_move_without_weekends(record):
    control = clock.Control.of(record)
    assert (control.kind, control.per_move_ms, control.weekends_off) == ("per_move", DAY, False)
