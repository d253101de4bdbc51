"""Is this server ready to serve? What `/readyz` answers and an operator's probe reads."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from store.connection import StoreUnavailable
from store.outbox import OutboxStore
from store.workers import WorkerHeartbeats

HEARTBEAT_SECONDS = 1.0
"""How often a worker beats."""


@dataclass(frozen=True)
class Readiness:
    heartbeats: WorkerHeartbeats
    outbox: OutboxStore
    stale_after_seconds: float = 10.0
    """A worker that has not beaten for this long counts as gone."""
    max_backlog_seconds: float = 60.0
    """The oldest outbox entry may wait this long before the server counts as behind."""
    clock: Callable[[], float] = time.time

    def check(self) -> dict[str, Any]:
        """{"ready": bool, "checks": {name: {"ok": bool, ...}}}"""
        now_ms = int(self.clock() * 1000)
        checks: dict[str, dict[str, Any]] = {}
        try:
            alive = self.heartbeats.alive_since(now_ms - int(self.stale_after_seconds * 1000))
            backlog = self.outbox.backlog()
        except StoreUnavailable as err:
            checks["redis"] = {"ok": False, "detail": type(err).__name__}
            return {"ready": False, "checks": checks}
        checks["redis"] = {"ok": True}
        checks["workers"] = {"ok": alive > 0, "alive": alive}
        checks["outbox"] = {
            "ok": backlog["oldest_ms"] <= self.max_backlog_seconds * 1000,
            **backlog,
        }
        return {"ready": all(c["ok"] for c in checks.values()), "checks": checks}
