"""Webhook deliveries: the signed JSON POST, and how a receiver checks it.

Headers: `Turnpost-Event` (e.g. turn.started), `Turnpost-Delivery` (an id stable across
retries: a receiver may drop one it has seen), and two signatures of the same delivery, so that
a receiver can check it with the library it already has:

- Standard Webhooks (standardwebhooks.com): `webhook-id` (the delivery id), `webhook-timestamp`
  (unix seconds) and `webhook-signature: v1,<base64>`, HMAC-SHA256 over
  `<id>.<timestamp>.<the raw body>` keyed with the secret's bytes (the secret is `whsec_` +
  their standard base64);
- Stripe's scheme: `Turnpost-Signature: t=<unix seconds>,v1=<hex>`, HMAC-SHA256 over
  `<t>.<the raw body>` keyed with the whole secret string, as Stripe's libraries read it.

A receiver recomputes one, compares in constant time, and rejects a timestamp too far from its
own clock (the libraries take five minutes) so that an old delivery cannot be replayed;
docs/notifications.md has the receiver's code with each library.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass

from transports import safe_urls
from transports.safe_urls import UnsafeUrl, UrlPolicy

SECRET_PREFIX = "whsec_"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """`Turnpost-Signature`, Stripe's scheme."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def standard_signature(secret: str, delivery_id: str, timestamp: int, body: bytes) -> str:
    """`webhook-signature`, the Standard Webhooks scheme."""
    signed = f"{delivery_id}.{timestamp}.".encode() + body
    mac = hmac.new(secret_key(secret), signed, hashlib.sha256)
    return "v1," + base64.b64encode(mac.digest()).decode()


def secret_key(secret: str) -> bytes:
    """The key bytes of a `whsec_<base64>` secret. Secrets made before the standard's encoding
    were URL-safe base64 without padding: they decode as such (the libraries of the standard
    cannot read them; rotating the secret gives one they can)."""
    encoded = secret.removeprefix(SECRET_PREFIX)
    try:
        return base64.b64decode(encoded, validate=True)
    except binascii.Error:
        return base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))


def signature_headers(secret: str, delivery_id: str, timestamp: int, body: bytes) -> dict:
    """Both signatures of a delivery, as headers."""
    return {
        "Turnpost-Signature": signature(secret, timestamp, body),
        "webhook-id": delivery_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": standard_signature(secret, delivery_id, timestamp, body),
    }


NOT_ANSWERING = (
    f"{safe_urls.COULD_NOT_CONNECT} (it left an earlier delivery unanswered, so "
    "it is not called for a while)"
)


@dataclass(frozen=True)
class PostResult:
    status: int | None  # the HTTP status, None when no answer came
    detail: str
    timed_out: bool = False  # no answer within the timeout: the receiver holds connections

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(
    url: str,
    secret: str,
    event: str,
    delivery_id: str,
    payload: dict,
    timestamp: int,
    timeout: float,
    policy: UrlPolicy,
) -> PostResult:
    """POST to the address the URL resolves to now, if it is still a safe one (see
    transports/safe_urls.py); the detail says only "delivered", "refused by the receiver
    (HTTP n)" or "could not connect"."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    try:
        target = policy.check(url)
    except UnsafeUrl:
        return PostResult(None, safe_urls.COULD_NOT_CONNECT)
    started = time.monotonic()
    status, detail = safe_urls.post(
        target,
        body,
        {
            "Content-Type": "application/json",
            "User-Agent": "turnpost-webhook/1",
            "Turnpost-Event": event,
            "Turnpost-Delivery": delivery_id,
            **signature_headers(secret, delivery_id, timestamp, body),
        },
        timeout,
    )
    # a refused or reset connection fails at once; one that took the whole timeout was held
    held = status is None and time.monotonic() - started >= timeout
    return PostResult(status, detail, timed_out=held)
