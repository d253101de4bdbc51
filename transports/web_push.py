"""Web Push: a message POSTed to a browser's push service (RFC 8030), its body encrypted for
that browser alone (RFC 8291, `aes128gcm` of RFC 8188, by pywebpush and http-ece) and the
request signed with the server's VAPID key (RFC 8292, by py-vapid).

A subscription is what a browser's `pushManager.subscribe` answers: an `endpoint` (the push
service's URL for this browser and this server's key) and two keys, `p256dh` (the browser's
P-256 public key) and `auth` (16 secret bytes), base64url. The push service learns only the
endpoint, the size and the sender's VAPID key: the body is readable by the browser alone.

The POST goes through transports/safe_urls.py like a webhook's: an endpoint must be https on a
public address, checked when it is stored and again at each send, no redirect followed.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from transports import safe_urls
from transports.phrases import Phrase, PhrasedError
from transports.safe_urls import UnsafeUrl, UrlPolicy

MAX_PAYLOAD = 3000
"""Push services take 4,096 bytes of encrypted body; the encryption adds 103 at most with one
record, and a message here is a few hundred."""
VAPID_HOURS = 12
"""A VAPID token's life (RFC 8292 allows 24 hours at most)."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """Base64url with or without padding (browsers write it without); ValueError otherwise."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as err:
        raise ValueError("not base64url") from err


@dataclass(frozen=True)
class VapidKeys:
    """The server's P-256 key pair, base64url: `private` (the 32-byte scalar) signs, `public`
    (the 65-byte uncompressed point) is the `applicationServerKey` browsers subscribe with."""

    private: str
    public: str

    @classmethod
    def make(cls) -> VapidKeys:
        key = ec.generate_private_key(ec.SECP256R1())
        scalar = key.private_numbers().private_value.to_bytes(32, "big")
        point = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return cls(b64url(scalar), b64url(point))

    def authorization(self, endpoint: str, subject: str, now: int) -> str:
        """The `Authorization: vapid t=<JWT>,k=<public key>` of a POST to `endpoint`: the JWT's
        audience is the endpoint's origin, it expires VAPID_HOURS from `now`, and its subject
        says whom the push service may contact."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": now + VAPID_HOURS * 3600,
            "sub": subject,
        }
        return Vapid02.from_raw(self.private.encode()).sign(claims)["Authorization"]


PUSH_SERVICE = Phrase("push service")
"""What a subscription's endpoint is, in the words of its refusals (safe_urls.UnsafeUrl)."""


class InvalidSubscription(PhrasedError):
    """A subscription that cannot be used; the message says why, in a person's words."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def check(self, policy: UrlPolicy) -> None:
        """InvalidSubscription unless the keys are what a browser makes and the endpoint is a
        safe URL (UnsafeUrl otherwise)."""
        try:
            point = unb64url(self.p256dh)
            secret = unb64url(self.auth)
        except ValueError as err:
            raise InvalidSubscription(Phrase("the subscription's keys are not base64url")) from err
        if len(secret) != 16:
            raise InvalidSubscription(Phrase("the subscription's auth key must be 16 bytes"))
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        except ValueError as err:
            raise InvalidSubscription(
                Phrase("the subscription's p256dh key is not an uncompressed P-256 point")
            ) from err
        if len(point) != 65:
            raise InvalidSubscription(Phrase("the subscription's p256dh key must be 65 bytes"))
        policy.check(self.endpoint, PUSH_SERVICE)

    def encrypt(self, payload: bytes) -> bytes:
        """The body for this browser: aes128gcm (RFC 8291), under a fresh server key."""
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"a push message has at most {MAX_PAYLOAD} bytes")
        # imported on a push's first use: pywebpush brings aiohttp, a quarter of a second of
        # CPU in every process that loads the app (each HTTP worker, each background worker)
        from pywebpush import WebPusher

        pusher = WebPusher(
            {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
        )
        return bytes(pusher.encode(payload, "aes128gcm")["body"])


@dataclass(frozen=True)
class PushResult:
    status: int | None  # None when no answer came
    detail: str
    retry_after: float | None = None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        """The push service no longer knows the subscription: it must be removed."""
        return self.status in (404, 410)

    @property
    def transient(self) -> bool:
        """Worth trying again later: no answer, too many requests, or the service failed."""
        return self.status is None or self.status == 429 or self.status >= 500


def send(
    subscription: Subscription,
    message: dict,
    keys: VapidKeys,
    subject: str,
    now: int,
    ttl: int,
    timeout: float,
    policy: UrlPolicy,
    topic: str | None = None,
    urgency: str = "normal",
) -> PushResult:
    """Encrypt `message` (JSON) for the subscription and POST it to its push service, if the
    endpoint is still a safe URL. `topic` (at most 32 base64url characters) lets the service
    replace a message not yet delivered by a newer one of the same topic."""
    try:
        target = policy.check(subscription.endpoint, PUSH_SERVICE)
    except UnsafeUrl:
        return PushResult(None, safe_urls.COULD_NOT_CONNECT)
    body = subscription.encrypt(json.dumps(message, separators=(",", ":")).encode())
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Encoding": "aes128gcm",
        "TTL": str(ttl),
        "Urgency": urgency,
        "Authorization": keys.authorization(subscription.endpoint, subject, now),
        "User-Agent": "turnpost-push/1",
    }
    if topic:
        headers["Topic"] = topic
    answer = safe_urls.send(target, body, headers, timeout)
    return PushResult(answer.status, answer.detail, answer.retry_after)
