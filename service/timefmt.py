"""Times are stored as epoch milliseconds and shown as ISO 8601 in UTC."""
from datetime import datetime, timezone


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
