"""What moderation keeps: the players' reports, and the operators' audit log (both Streams,
kept whole: they are an operator's record, small next to the games)."""

from __future__ import annotations

import json
from typing import Any

import redis

from . import keys


class ModerationStore:
    def __init__(self, client: redis.Redis):
        self.r = client

    def add_report(self, report: dict[str, Any]) -> str:
        """Keep a report; its id (the Stream entry's)."""
        return self.r.xadd(keys.REPORTS, {"r": json.dumps(report)}).decode()

    def reports(self, count: int = 100) -> list[dict[str, Any]]:
        """The latest reports, oldest first, each with its `id`."""
        found = self.r.xrevrange(keys.REPORTS, count=count)
        return [{"id": i.decode(), **json.loads(f[b"r"])} for i, f in reversed(found)]

    def audit(self, action: dict[str, Any]) -> str:
        """Record an operator's action; its id."""
        return self.r.xadd(keys.AUDIT, {"a": json.dumps(action)}).decode()

    def audit_log(self, count: int = 100) -> list[dict[str, Any]]:
        found = self.r.xrevrange(keys.AUDIT, count=count)
        return [{"id": i.decode(), **json.loads(f[b"a"])} for i, f in reversed(found)]
