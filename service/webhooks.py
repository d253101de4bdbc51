"""Webhook deliveries: the signed JSON POST, and how a receiver checks it.

Headers: `Turnpost-Event` (e.g. turn.started), `Turnpost-Delivery` (an id stable across
retries: a receiver may drop one it has seen), and `Turnpost-Signature: t=<unix seconds>,
v1=<hex>`, where hex is HMAC-SHA256 with the player's webhook secret over
`<t>.<the raw body>`. A receiver recomputes it, compares in constant time, and rejects a `t`
too far from its own clock (we suggest five minutes) so that an old delivery cannot be replayed;
docs/notifications.md has the receiver's code.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from . import safe_urls
from .safe_urls import UnsafeUrl, UrlPolicy


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


@dataclass(frozen=True)
class PostResult:
    status: int | None      # the HTTP status, None when no answer came
    detail: str

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(url: str, secret: str, event: str, delivery_id: str, payload: dict,
         timestamp: int, timeout: float, policy: UrlPolicy) -> PostResult:
    """POST to the address the URL resolves to now, if it is still a safe one (see
    service/safe_urls.py); the detail says only "delivered", "refused by the receiver
    (HTTP n)" or "could not connect"."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    try:
        target = policy.check(url)
    except UnsafeUrl:
        return PostResult(None, safe_urls.COULD_NOT_CONNECT)
    status, detail = safe_urls.post(target, body, {
        "Content-Type": "application/json", "User-Agent": "turnpost-webhook/1",
        "Turnpost-Event": event, "Turnpost-Delivery": delivery_id,
        "Turnpost-Signature": signature(secret, timestamp, body)}, timeout)
    return PostResult(status, detail)
