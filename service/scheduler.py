"""The port through which the service asks for background work (notifications, timers, bots).

The workers package implements it with RQ; the app injects it. The service never imports RQ.
"""
from __future__ import annotations

from typing import Protocol


class Scheduler(Protocol):
    def committed(self, snapshot: dict, events: list[dict]) -> None:
        """Called after events were appended; `snapshot` is the game after them."""
        ...


class NoScheduler:
    """Used when no background work is wired (tests of the service alone, tools)."""

    def committed(self, snapshot: dict, events: list[dict]) -> None:
        return None
