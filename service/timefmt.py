"""Times are stored as epoch milliseconds and shown as ISO 8601 in UTC, or in words: in the
language spoken now (service/words.py), dates as Babel writes them in that language."""

from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel.dates import format_date

from service.languages import DEFAULT
from service.words import N_plural, gettext, language, ngettext


def epoch_ms(clock: Callable[[], float]) -> int:
    """The time `clock` (epoch seconds: `time.time`, or a test's) tells, in epoch milliseconds."""
    return int(clock() * 1000)


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
    """'Monday 23 November 2026, 15:05 Europe/Rome' (UTC when `zone` is None or unknown). A
    reader without a zone costs no look at the machine's zones (`time_zones` reads them all,
    some 75 ms, once per process: a worker's first turn email paid it)."""
    tz = ZoneInfo(zone) if zone is not None and zone in time_zones() else UTC
    when = datetime.fromtimestamp(ms / 1000, tz)
    named = zone if tz is not UTC else "UTC"
    if language() == DEFAULT:
        return f"{when:%A} {when.day} {when:%B %Y, %H:%M} {named}"
    return gettext(
        "%(date)s, %(time)s %(zone)s",
        date=format_date(when, "full", locale=language()),
        time=when.strftime("%H:%M"),
        zone=named,
    )


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
    return gettext("no time") if ms < 1000 else _spans(ms, weeks=False)


UNITS = (  # (seconds, (singular, plural)): the largest two are said
    (7 * 86400, N_plural("%(num)d week", "%(num)d weeks")),
    (86400, N_plural("%(num)d day", "%(num)d days")),
    (3600, N_plural("%(num)d hour", "%(num)d hours")),
    (60, N_plural("%(num)d minute", "%(num)d minutes")),
    (1, N_plural("%(num)d second", "%(num)d seconds")),
)


def _span(ms: int, weeks: bool = True) -> str:
    """ "in 2 days and 3 hours", "now"."""
    if ms // 1000 <= 0:
        return gettext("now")
    return gettext("in %(span)s", span=_spans(ms, weeks))


def _spans(ms: int, weeks: bool) -> str:
    seconds = ms // 1000
    parts = []
    for size, (one, many) in UNITS if weeks else UNITS[1:]:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(ngettext(one, many, count))
        if len(parts) == 2:
            break
    if len(parts) == 2:
        return gettext("%(first)s and %(second)s", first=parts[0], second=parts[1])
    return parts[0]
