"""Times are stored as epoch milliseconds and shown as ISO 8601 in UTC, or in words."""

from datetime import UTC, datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return (
        datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    )


def in_words(deadline_ms: int, now_ms: int, zone: str | None = None) -> str:
    """'in 2 days and 3 hours (Monday 23 November 2026, 14:05 UTC)', the date and hour in
    the time zone `zone` (an IANA name such as "Europe/Rome"; UTC when None or unknown)."""
    return f"{_span(deadline_ms - now_ms)} ({stamp(deadline_ms, zone)})"


def stamp(ms: int, zone: str | None = None) -> str:
    """'Monday 23 November 2026, 15:05 Europe/Rome' (UTC when `zone` is None or unknown)."""
    tz = ZoneInfo(zone) if zone in time_zones() else UTC
    when = datetime.fromtimestamp(ms / 1000, tz)
    return f"{when:%A} {when.day} {when:%B %Y, %H:%M} {zone if tz is not UTC else 'UTC'}"


@cache
def time_zones() -> frozenset[str]:
    """The IANA time zones this machine knows (Python's tzdata when the system has none)."""
    known = set()
    for name in available_timezones():
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        known.add(name)
    return frozenset(known)


def duration(ms: int) -> str:
    """'10 days and 3 hours' (the two largest units, in days as clocks are told); 'no time' for
    less than a second."""
    return "no time" if ms < 1000 else _span(ms, weeks=False).removeprefix("in ")


def _span(ms: int, weeks: bool = True) -> str:
    seconds = ms // 1000
    if seconds <= 0:
        return "now"
    units = [("week", 7 * 86400)] if weeks else []
    units += [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]
    parts = []
    for name, size in units:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {name}{'s' if count != 1 else ''}")
        if len(parts) == 2:
            break
    return "in " + " and ".join(parts)
