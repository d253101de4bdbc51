"""The clock: how much time a seat has, when it must have moved, and when its clock stands still.

Pure: the standard library only (zoneinfo for the calendars), no Redis, no clock of its own.
`service.play.history.fold` calls it on every event, so the deadline the schedule holds (the
append writes the snapshot's `deadlines`) is always its answer; the tables read it to say a
seat's bank, its deadline and why its clock is paused.

It lives in service/play rather than the engine: the engine is the games' rules, and a clock is
the correspondence server's rule over every game (it knows of turns only through the seats that
may act, which the runner reports). It stays as pure as the engine all the same.

Three kinds of clock (`kind` in a game's time control; a stored game recorded before kinds is
`per_move`):

- `per_move`: `per_move_seconds` for each move, afresh whenever the seat's situation changes.
- `bank`: a time bank, `initial_seconds` at the start, charged while the seat may act, with
  `increment_seconds` added once for each move the seat plays, never above `max_seconds`. A
  move is the seat's turn: the increment comes with the step that ends it (Con Sonar!'s
  Torpedo step, not each Fleet card before it; the game says which steps go on with a turn,
  `engine.core.Game.continues_turn`).
- no clock at all: the game's time control is null.

A seat's clock does not run on its calendar's frozen spans: Saturdays and Sundays in the seat's
own time zone when the game has `weekends_off` (local midnight to local midnight, DST
included), and the player's vacations (epoch ms, [start, end)).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

KINDS = ("per_move", "bank")
"""The kinds of clock a game may have (besides none: a null time control)."""
SATURDAY = 5

Span = tuple[int, int]


@dataclass(frozen=True)
class Calendar:
    """When a seat's clock stands still: weekends in `zone` (an IANA name; None: UTC) when
    `weekends_off`, the `vacations` ([start, end) in epoch ms), and the `pauses` the table
    agreed to (service/play/agreements.py: every seat's clock stands still)."""

    zone: str | None = None
    weekends_off: bool = False
    vacations: tuple[Span, ...] = ()
    pauses: tuple[Span, ...] = ()


@dataclass(frozen=True)
class SeatClock:
    """A seat's clock: the time it had in `bank` (ms) when it last started to run or was
    charged, at `since` (epoch ms); `since` is None while the seat may not act."""

    bank: int
    since: int | None = None
    start: int | None = None
    """What the bank held when the seat's turn began (the reminders' measure); None: `bank`."""

    def to_json(self) -> dict[str, Any]:
        return {"bank": self.bank, "since": self.since, "start": self.start}

    @staticmethod
    def from_json(found: Mapping[str, Any]) -> SeatClock:
        return SeatClock(int(found["bank"]), found["since"], found.get("start"))


@dataclass(frozen=True)
class Control:
    """A game's time control, read from its record (old records: per move, no weekends)."""

    kind: str
    on_timeout: str
    per_move_ms: int = 0
    initial_ms: int = 0
    increment_ms: int = 0
    max_ms: int = 0
    weekends_off: bool = False

    @staticmethod
    def of(record: Mapping[str, Any]) -> Control:
        kind = record.get("kind", "per_move")
        weekends = bool(record.get("weekends_off", False))
        if kind == "bank":
            return Control(
                "bank",
                record["on_timeout"],
                initial_ms=record["initial_seconds"] * 1000,
                increment_ms=record["increment_seconds"] * 1000,
                max_ms=record["max_seconds"] * 1000,
                weekends_off=weekends,
            )
        return Control(
            "per_move",
            record["on_timeout"],
            per_move_ms=record["per_move_seconds"] * 1000,
            weekends_off=weekends,
        )

    @property
    def start_ms(self) -> int:
        """What a seat's bank holds when the game starts."""
        return self.initial_ms if self.kind == "bank" else self.per_move_ms

    @property
    def full_ms(self) -> int:
        """The most a seat's bank may hold."""
        return self.max_ms if self.kind == "bank" else self.per_move_ms


@lru_cache(maxsize=1024)
def _zone(name: str | None) -> ZoneInfo | Any:
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


@lru_cache(maxsize=4096)  # about 230 bytes an entry: 0.9 MiB full (65536 was 14 MiB)
def _midnight_ms(zone: str | None, day: date) -> int:
    """The epoch ms of local midnight starting `day` in `zone` (a midnight that a DST change
    skips is read with the offset before the change, as zoneinfo does)."""
    local = datetime(day.year, day.month, day.day, tzinfo=_zone(zone))
    return int(local.timestamp() * 1000)


def local_date(ms: int, zone: str | None) -> date:
    return datetime.fromtimestamp(ms / 1000, _zone(zone)).date()


def _weekends(calendar: Calendar, after: int) -> Iterator[Span]:
    """The weekends (Saturday 00:00 to Monday 00:00, local) that end after `after`, in order;
    endless."""
    if not calendar.weekends_off:
        return
    day = local_date(after, calendar.zone)
    saturday = day - timedelta(days=(day.weekday() - SATURDAY) % 7)
    while True:
        span = (
            _midnight_ms(calendar.zone, saturday),
            _midnight_ms(calendar.zone, saturday + timedelta(days=2)),
        )
        if span[1] > after:
            yield span
        saturday += timedelta(days=7)


def frozen(calendar: Calendar, after: int) -> Iterator[Span]:
    """The spans when the seat's clock stands still that end after `after`, in order, the
    overlapping and touching ones merged (endless with weekends off)."""
    vacations = sorted(
        v for v in (*calendar.vacations, *calendar.pauses) if v[1] > after and v[1] > v[0]
    )
    current: Span | None = None
    for span in heapq.merge(vacations, _weekends(calendar, after)):
        if current is None:
            current = span
        elif span[0] <= current[1]:
            current = (current[0], max(current[1], span[1]))
        else:
            yield current
            current = span
    if current is not None:
        yield current


def _never_frozen(calendar: Calendar) -> bool:
    """Whether the calendar has no frozen span at all (most have none: then charging a clock
    and finding its deadline need not look for any)."""
    return not (calendar.weekends_off or calendar.vacations or calendar.pauses)


def running_ms(start: int, end: int, calendar: Calendar) -> int:
    """How long the seat's clock runs from `start` to `end` (ms): the time less its frozen
    spans."""
    if end <= start:
        return 0
    if _never_frozen(calendar):
        return end - start
    stopped = 0
    for a, b in frozen(calendar, start):
        if a >= end:
            break
        stopped += min(b, end) - max(a, start)
    return end - start - stopped


def advance(start: int, bank: int, calendar: Calendar) -> int:
    """The moment a clock that starts at `start` with `bank` ms has used them up: the deadline.
    An empty bank at the start of a frozen span, or inside one, runs out when the span ends
    (a vacation day used when a clock ran out covers that very moment)."""
    t, left = start, max(0, bank)
    if _never_frozen(calendar):
        return t + left
    for a, b in frozen(calendar, start):
        if t + left < a or (left > 0 and t + left == a):
            return t + left
        left -= max(0, a - t)
        t = max(t, b)
    return t + left


def paused(now: int, calendar: Calendar) -> str | None:
    """ "vacation", "agreed" (a pause the table agreed to) or "weekend" when the seat's clock
    stands still at `now`, else None."""
    for a, b in calendar.vacations:
        if a <= now < b:
            return "vacation"
    for a, b in calendar.pauses:
        if a <= now < b:
            return "agreed"
    for a, b in frozen(calendar, now):
        if a <= now < b:
            return "weekend"
        break
    return None


def vacation_at(now: int, calendar: Calendar) -> Span | None:
    """The vacation the seat is on at `now`, merged with those that follow it without a gap."""
    spans = sorted(calendar.vacations)
    found: Span | None = None
    for a, b in spans:
        if found is None and a <= now < b:
            found = (a, b)
        elif found is not None and a <= found[1]:
            found = (found[0], max(found[1], b))
    return found


def charge(clock: SeatClock, at: int, calendar: Calendar) -> SeatClock:
    """The clock as of `at`: its bank less the time it ran since `since`, still running from
    `at` if it was; a bank used up before `at` stays empty from the moment it ran out (never
    below zero, and its deadline stays where it was)."""
    if clock.since is None:
        return clock
    used = running_ms(clock.since, at, calendar)
    if used >= clock.bank:  # it ran out: it stays empty from the moment it did
        return SeatClock(0, advance(clock.since, clock.bank, calendar), clock.start)
    return SeatClock(clock.bank - used, at, clock.start)


def remaining_ms(clock: SeatClock, now: int, calendar: Calendar) -> int:
    """What the seat's bank holds at `now`."""
    return charge(clock, now, calendar).bank


def step(
    control: Control,
    clocks: Sequence[SeatClock],
    before: Sequence[Calendar],
    after: Sequence[Calendar],
    active: Sequence[int],
    restarted: Sequence[int],
    mover: int | None,
    at: int,
    mid_turn: Sequence[int] = (),
) -> list[SeatClock]:
    """Each seat's clock after an event at `at`: a running clock is charged up to `at` with the
    calendar it ran under (`before`); the seat that played a step (`mover`) gets its
    increment, up to the cap, when the step ended its turn (it is not among the seats in the
    middle of a turn of their own after the event, `mid_turn`); the seats that may act now (`active`) run from `at` (under
    `per_move`, a seat whose situation changed with the event, `restarted`, or that was
    not running gets the full time per move), the others stop."""
    result = []
    for seat, clock in enumerate(clocks):
        was_running = clock.since is not None
        charged = charge(clock, at, before[seat])
        bank = charged.bank
        if control.kind == "bank" and seat == mover and seat not in mid_turn:
            bank = min(control.max_ms, bank + control.increment_ms)
        since: int | None = None
        start = clock.start
        if seat in active:
            since = charged.since if was_running and bank == charged.bank else at
            if control.kind == "per_move" and (seat in restarted or not was_running):
                bank, since = control.per_move_ms, at
            if not was_running or seat in restarted:
                start = bank  # a new turn: the reminders measure from here
        result.append(SeatClock(bank, since, start))
    return result


def reminder_at(clock: SeatClock, percent: int, calendar: Calendar) -> int | None:
    """When `percent` of the time the seat had at its turn's start is used up (None while its
    clock does not run)."""
    if clock.since is None:
        return None
    start = clock.bank if clock.start is None else clock.start
    keep = start * (100 - percent) // 100
    return advance(clock.since, max(0, clock.bank - keep), calendar)


def deadline(clock: SeatClock, calendar: Calendar) -> int | None:
    """The seat's deadline: None while its clock does not run."""
    if clock.since is None:
        return None
    return advance(clock.since, clock.bank, calendar)


def calendar_of(record: Any, weekends_off: bool, pauses: tuple[Span, ...] = ()) -> Calendar:
    """A seat's calendar from what the game recorded of its player ({"zone", "vacations"}),
    under the game's `weekends_off` and the `pauses` its table agreed to."""
    if not record:
        return Calendar(weekends_off=weekends_off, pauses=pauses)
    return Calendar(
        zone=record.get("zone"),
        weekends_off=weekends_off,
        vacations=tuple((int(a), int(b)) for a, b in record.get("vacations", ())),
        pauses=pauses,
    )
