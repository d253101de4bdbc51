"""Vacations: a player's clocks in every game stand still while they are away.

A player has VACATION_DAYS_A_YEAR days a calendar year (UTC), taken ahead (from a date to a
date, in their time zone) or used automatically, one day at a time, when one of their clocks
would run out (the timeout policy applies once none is left). The player's calendar (their
vacations and the number `v` of its latest change) is one key of theirs; every game they sit
in keeps a copy of it (CalendarSet, service.play.games.set_calendar), from which its fold
re-arms their deadlines (service.play.clock).

A change reaches the games through the clock's schedule, so that a crash loses nothing: a
`calendar` item is scheduled a lease (SCHEDULE_LEASE_SECONDS) ahead *before* the calendar is written (if the writer
dies, it comes due and copies the calendar as it then is), and again for now after; the clock
copies the calendar to each game of the player that has an older copy, one commit per game
(a game's keys are in one slot; the player's in another). Copying is idempotent (a game keeps
the copy with the highest `v`), so an item carried out twice, or by two clocks, doubles
nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from service.errors import ErrorCode, ServiceError, Words, no_player
from service.play.games import GameService, seat_calendar_copy
from service.settings import Settings
from service.timefmt import epoch_ms, iso
from store.players import PlayerStore
from store.schedule import ScheduleStore


def calendar_item(player_id: str) -> dict[str, Any]:
    return {"kind": "calendar", "player": player_id}


@dataclass(eq=False)
class VacationService:
    players: PlayerStore
    games: GameService
    schedule: ScheduleStore
    settings: Settings
    clock: Callable[[], float] = time.time

    @property
    def day_ms(self) -> int:
        return int(self.settings.day_seconds * 1000)

    # -- reading -------------------------------------------------------------------------------

    def state(self, player_id: str) -> dict[str, Any]:
        """The player's vacations not over yet, the days used and left this year, and until
        when they are away (None: they are not)."""
        zone = self._zone(player_id)
        calendar = self.players.calendar(player_id)
        now = epoch_ms(self.clock)
        used = _used(calendar, _year(now))
        ahead = [v for v in calendar["vacations"] if v["end"] > now]
        away = [v for v in ahead if v["start"] <= now]
        return {
            "days_a_year": self.settings.vacation_days_a_year,
            "year": _year(now),
            "used_days": used,
            "left_days": max(0, self.settings.vacation_days_a_year - used),
            "time_zone": zone,
            "vacations": [
                {
                    "starts_at": iso(v["start"]),
                    "ends_at": iso(v["end"]),
                    "days": v["days"],
                    "automatic": v.get("auto", False),
                }
                for v in sorted(ahead, key=lambda v: v["start"])
            ],
            "on_vacation_until": iso(max(v["end"] for v in away)) if away else None,
        }

    # -- changing ------------------------------------------------------------------------------

    def take(self, player_id: str, first: str, last: str) -> dict[str, Any]:
        """A vacation from the date `first` to the date `last` (ISO dates, both included, in the
        player's time zone); from now when it starts today."""
        zone = self._zone(player_id)
        try:
            start_day, end_day = date.fromisoformat(first), date.fromisoformat(last)
        except (TypeError, ValueError):
            raise ServiceError(
                ErrorCode.VACATION_INVALID, "from and to are dates such as 2026-12-24"
            ) from None
        now = epoch_ms(self.clock)
        today = datetime.fromtimestamp(now / 1000, _tz(zone)).date()
        if start_day < today or end_day < start_day:
            raise ServiceError(
                ErrorCode.VACATION_INVALID,
                Words(
                    "a vacation starts today (%(today)s) or later and ends on or after its "
                    "first day",
                    today=today,
                ),
            )
        days = (end_day - start_day).days + 1
        start = max(now, _midnight(start_day, zone))
        end = _midnight(end_day + timedelta(days=1), zone)
        year = _year(start)

        def add(calendar: dict[str, Any]) -> dict[str, Any]:
            if any(v["start"] < end and start < v["end"] for v in calendar["vacations"]):
                raise ServiceError(
                    ErrorCode.VACATION_OVERLAPS,
                    "you already have a vacation in those days: end it first",
                )
            left = self.settings.vacation_days_a_year - _used(calendar, year)
            if days > left:
                raise ServiceError(
                    ErrorCode.VACATION_NOT_ENOUGH_DAYS,
                    Words(
                        "that is %(days)d days; you have %(left)d vacation days left in %(year)d",
                        days=days,
                        left=max(0, left),
                        year=year,
                    ),
                )
            vacation = {"start": start, "end": end, "days": days, "first": first}
            return {**calendar, "vacations": [*_kept(calendar, now), vacation]}

        self._change(player_id, add)
        return self.state(player_id)

    def end(self, player_id: str) -> dict[str, Any]:
        """The player is back: the vacation they are on ends now (the days not begun are given
        back) and those ahead are cancelled."""
        now = epoch_ms(self.clock)
        zone = self._zone(player_id)

        def back(calendar: dict[str, Any]) -> dict[str, Any] | None:
            kept, changed = [], False
            for v in _kept(calendar, now):
                if v["start"] > now:
                    changed = True
                    continue
                if v["end"] > now:
                    changed = True
                    v = {**v, "end": now, "days": _days_begun(v, now, zone)}
                kept.append(v)
            return {**calendar, "vacations": kept} if changed else None

        self._change(player_id, back)
        return self.state(player_id)

    def come_back(self, player_id: str) -> None:
        """A player who moved while on vacation is back (GameService.came_back)."""
        self.end(player_id)

    def use_day(self, player_id: str, at_ms: int) -> bool:
        """When a clock of the player's runs out at `at_ms`: a vacation day from then, if they
        have one left. The same deadline asked twice uses one day."""
        try:
            self._change(player_id, lambda calendar: self._with_day(calendar, at_ms))
        except _NoDayLeft:
            return False
        return True

    def days_for(self, player_ids: list[str]) -> Callable[[str, int], bool]:
        """use_day for a clock pass over these players' timeouts (GameService.vacation_days):
        their calendars read at once, so that a timeout that uses no day (none left, or a
        vacation covers it already) costs no round trip, no write and no copy to the games.
        One that uses a day is use_day's (it decides again on the calendar as it is then).
        What the pass itself writes only adds vacations, so the calendar read first still
        answers those two questions for the pass's later timeouts of the same player."""
        known = dict(zip(player_ids, self.players.calendar_many(player_ids)))

        def use(player_id: str, at_ms: int) -> bool:
            if player_id in known:
                try:
                    if self._with_day(known[player_id], at_ms) is None:
                        return True
                except _NoDayLeft:
                    return False
            return self.use_day(player_id, at_ms)

        return use

    def _with_day(self, calendar: dict[str, Any], at_ms: int) -> dict[str, Any] | None:
        """The calendar with a vacation day from `at_ms` (None: a vacation covers `at_ms`
        already, the day used before); raises _NoDayLeft when the year's days are used up."""
        if any(v["start"] <= at_ms < v["end"] for v in calendar["vacations"]):
            return None
        if _used(calendar, _year(at_ms)) >= self.settings.vacation_days_a_year:
            raise _NoDayLeft
        day = {"start": at_ms, "end": at_ms + self.day_ms, "days": 1, "auto": True}
        return {**calendar, "vacations": [*_kept(calendar, epoch_ms(self.clock)), day]}

    def zone_changed(self, player_id: str) -> None:
        """The player's time zone changed: their games with weekends off count them anew."""
        self._change(player_id, lambda calendar: dict(calendar))

    def _change(self, player_id: str, change) -> dict[str, Any] | None:
        """Change the calendar, the copying to the games made safe by the schedule."""
        now = epoch_ms(self.clock)
        item = calendar_item(player_id)
        safety = now + int(self.settings.schedule_lease_seconds * 1000)
        self.schedule.add(player_id, safety, item)
        new = self.players.change_calendar(player_id, change)
        if new is not None:
            self.schedule.add(player_id, now, item)
        return new

    # -- copying to the games (the clock, for a `calendar` item) --------------------------------

    def copy_to_games(self, player_id: str) -> int:
        """Copy the player's calendar to every game of theirs that holds an older copy: how
        many games were changed."""
        zone, calendar = self.players.calendars([player_id])[0]
        copy = seat_calendar_copy(zone, calendar, epoch_ms(self.clock))
        if copy is None:
            return 0
        changed = 0
        for game_id in self.players.games(player_id, 10_000):
            if self.games.set_calendar(game_id, player_id, copy):
                changed += 1
        return changed

    def _zone(self, player_id: str) -> str | None:
        profile = self.players.get(player_id)
        if profile is None:
            raise no_player(player_id)
        zone = profile.get("time_zone")
        try:
            return zone if zone and ZoneInfo(zone) else None
        except (ZoneInfoNotFoundError, ValueError):
            return None


class _NoDayLeft(Exception):
    pass


def _tz(zone: str | None):
    return ZoneInfo(zone) if zone else UTC


def _midnight(day: date, zone: str | None) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=_tz(zone)).timestamp() * 1000)


def _year(ms: int) -> int:
    return datetime.fromtimestamp(ms / 1000, UTC).year


def _used(calendar: dict[str, Any], year: int) -> int:
    """Vacation days used in `year` (by each vacation's start, UTC)."""
    return sum(v["days"] for v in calendar["vacations"] if _year(v["start"]) == year)


def _kept(calendar: dict[str, Any], now: int) -> list[dict[str, Any]]:
    """The vacations worth keeping: this year's and last year's (they count the days used)."""
    return [v for v in calendar["vacations"] if _year(v["start"]) >= _year(now) - 1]


def _days_begun(vacation: dict[str, Any], now: int, zone: str | None) -> int:
    """The days of a vacation ended at `now` that count: a used day (automatic) stays one; of
    one taken ahead, the local days begun."""
    if vacation.get("auto"):
        return int(vacation["days"])
    if "first" not in vacation:
        return int(vacation["days"])
    first = date.fromisoformat(vacation["first"])
    today = datetime.fromtimestamp(now / 1000, _tz(zone)).date()
    return max(1, min(int(vacation["days"]), (today - first).days + 1))
