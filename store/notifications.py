"""What notification delivery keeps in Redis: the per-player delivery log, the webhook secret
and health, the email throttle, and the marks that make a delivery happen at most once."""
from __future__ import annotations

import base64
import json
import secrets
from typing import Any

import redis

from . import keys

DELIVERY_LOG_LENGTH = 200
CLAIM_SECONDS = 30 * 24 * 3600


class NotificationStore:
    def __init__(self, client: redis.Redis):
        self.r = client

    # -- the delivery log ------------------------------------------------------------------

    def record(self, player_id: str, delivery: dict[str, Any]) -> None:
        key = keys.player_deliveries(player_id)
        pipe = self.r.pipeline(transaction=False)
        pipe.lpush(key, json.dumps(delivery))
        pipe.ltrim(key, 0, DELIVERY_LOG_LENGTH - 1)
        pipe.execute()

    def deliveries(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in
                self.r.lrange(keys.player_deliveries(player_id), 0, limit - 1)]

    # -- at most once ------------------------------------------------------------------------

    def claim(self, name: str) -> bool:
        """True the first time a name (a delivery id, a Message-ID, a link) is claimed; False
        ever after (for a month)."""
        return bool(self.r.set(keys.claimed(name), 1, nx=True, ex=CLAIM_SECONDS))

    def is_claimed(self, name: str) -> bool:
        return bool(self.r.exists(keys.claimed(name)))

    def release(self, name: str) -> None:
        """Give a claim back after a failed attempt, so that a retry may go ahead."""
        self.r.delete(keys.claimed(name))

    # -- the email throttle ------------------------------------------------------------------

    def throttle(self, player_id: str, game_id: str, seconds: float) -> float:
        """Take the player's email window for this game: 0 if taken now, else the seconds
        left until it frees."""
        if seconds <= 0:
            return 0.0
        key = keys.email_throttle(player_id, game_id)
        if self.r.set(key, 1, nx=True, px=int(seconds * 1000)):
            return 0.0
        left = self.r.pttl(key)
        return max(left, 1) / 1000 if left and left > 0 else 0.001

    def take_invitation_window(self, invitee: str, inviter: str, delivery_id: str,
                               seconds: float) -> bool:
        """Whether this invitation email may go: True if it takes the window of invitations
        from `inviter` to `invitee` now, or took it before (a retried delivery); False while
        another invitation holds it."""
        if seconds <= 0:
            return True
        key = keys.invitation_window(invitee, inviter)
        if self.r.set(key, delivery_id, nx=True, px=int(seconds * 1000)):
            return True
        holder = self.r.get(key)
        return holder is not None and holder.decode() == delivery_id

    # -- the webhook -------------------------------------------------------------------------

    def webhook_secret(self, player_id: str) -> str | None:
        found = self.r.hget(keys.player_webhook(player_id), "secret")
        return None if found is None else found.decode()

    def new_webhook_secret(self, player_id: str) -> str:
        """`whsec_` + the standard base64 of 32 random bytes: the Standard Webhooks encoding,
        which its libraries decode to the HMAC key."""
        secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
        self.r.hset(keys.player_webhook(player_id), "secret", secret)
        return secret

    def webhook_failing(self, player_id: str) -> bool:
        return self.r.hget(keys.player_webhook(player_id), "failing") == b"1"

    def set_webhook_failing(self, player_id: str, failing: bool) -> None:
        self.r.hset(keys.player_webhook(player_id), "failing", "1" if failing else "0")

    # -- play by email ----------------------------------------------------------------------

    def seat_mail_token(self, game_id: str, seat: int) -> str:
        """The seat's reply token, made the first time it is asked for."""
        key = keys.seat_mail_token(game_id, seat)
        found = self.r.get(key)
        if found is not None:
            return found.decode()
        token = secrets.token_hex(16)
        if self.r.set(key, token, nx=True):
            self.r.set(keys.mail_token(token), json.dumps({"game_id": game_id, "seat": seat}))
            return token
        return self.r.get(key).decode()

    def mail_token_seat(self, token: str) -> tuple[str, int] | None:
        found = self.r.get(keys.mail_token(token))
        if found is None:
            return None
        record = json.loads(found)
        return record["game_id"], record["seat"]

    def server_secret(self) -> bytes:
        """The key that signs one-click links: made once, kept with the data."""
        self.r.set(keys.SERVER_SECRET, secrets.token_hex(32), nx=True)
        return bytes.fromhex(self.r.get(keys.SERVER_SECRET).decode())
