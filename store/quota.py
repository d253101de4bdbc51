"""Quotas over a sliding window, per email address: at most so many letters (sign-in links
and confirmations), and so many invitations, in any hour, whoever asks for them. A sorted
set per address and kind, trimmed and counted in one script, so that requests at once never
take more than the limit between them."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

import redis

from . import keys
from .games import Script
from .players import address_hash


class AddressQuota:
    def __init__(self, client: redis.Redis, clock: Callable[[], float] = time.time):
        self.r = client
        self.clock = clock
        self._take = Script(client, "quota.lua")

    def take(
        self, kind: str, email: str, limit: int, window_seconds: float, member: str | None = None
    ) -> float:
        """Count one `kind` (letters, invitations) for the address: 0 when it is within
        `limit` in the window, else the seconds until one more would be. A `member` counted
        already (a delivery tried again) is within the limit again."""
        if limit <= 0:
            return window_seconds
        taken, wait_ms = self._take(
            [keys.address_quota(kind, address_hash(email))],
            [
                int(self.clock() * 1000),
                int(window_seconds * 1000),
                limit,
                member or secrets.token_hex(8),
            ],
        )
        return 0.0 if taken else max(1.0, int(wait_ms) / 1000)
