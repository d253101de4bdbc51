"""Times are stored as epoch milliseconds and shown as ISO 8601 in UTC, or in words."""

from datetime import UTC, datetime


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return (
        datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    )


def in_words(deadline_ms: int, now_ms: int) -> str:
    """'in 2 days and 3 hours (Monday 23 November 2026, 14:05 UTC)'."""
    when = datetime.fromtimestamp(deadline_ms / 1000, UTC)
    stamp = f"{when:%A} {when.day} {when:%B %Y, %H:%M} UTC"
    return f"{_span(deadline_ms - now_ms)} ({stamp})"


def _span(ms: int) -> str:
    seconds = ms // 1000
    if seconds <= 0:
        return "now"
    units = [("week", 7 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]
    parts = []
    for name, size in units:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {name}{'s' if count != 1 else ''}")
        if len(parts) == 2:
            break
    return "in " + " and ".join(parts)
