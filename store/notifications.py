"""What notification delivery keeps in Redis: the per-player delivery log, the webhook secret
(encrypted), health and deliveries in flight, the email throttle, the marks that make a
delivery happen at most once, and the hashes of the seats' reply tokens."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import redis

from . import keys
from .games import Script
from .players import token_hash
from .reads import Read

DELIVERY_LOG_LENGTH = 200
CLAIM_SECONDS = 30 * 24 * 3600


EMAILED_DAYS = 90
"""How long the version of a player's last email per game is kept after their latest email."""


class NotificationStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._record = Script(client, "record_delivery.lua")

    # -- the delivery log ------------------------------------------------------------------

    def record(
        self, player_id: str, delivery: dict[str, Any], emailed: tuple[str, int] | None = None
    ) -> None:
        """Keep the delivery at the head of the player's list, numbered (`seq`, which pages
        the list: it only grows: `{**delivery, "seq": seq}` as JSON); with `emailed` (a game
        and its version), the sent email's `emailed` too, in the same round trip."""
        if not delivery:
            raise ValueError("a delivery has fields")
        found = [keys.player_deliveries(player_id), keys.player_deliveries_count(player_id)]
        args: list = [json.dumps(delivery)[:-1], DELIVERY_LOG_LENGTH]
        if emailed is not None:
            found.append(keys.emailed_versions(player_id))
            args += [emailed[0], emailed[1], EMAILED_DAYS * 86400]
        self._record(found, args)

    def deliveries(
        self, player_id: str, limit: int, before: int | None = None
    ) -> list[dict[str, Any]]:
        """The latest deliveries, newest first, or those numbered below `before` (a page's
        last `seq`). The list is short (DELIVERY_LOG_LENGTH): it is read whole for a page."""
        if before is None:
            return [
                json.loads(raw)
                for raw in self.r.lrange(keys.player_deliveries(player_id), 0, limit - 1)
            ]
        every = [
            json.loads(raw)
            for raw in self.r.lrange(keys.player_deliveries(player_id), 0, DELIVERY_LOG_LENGTH - 1)
        ]
        return [d for d in every if d.get("seq", 0) < before][:limit]

    # -- deliveries being retried ----------------------------------------------------------

    def retrying(self, channel: str, delivery_id: str, at_ms: int) -> None:
        """A delivery failed and is tried again at `at_ms`."""
        self.r.zadd(keys.deliveries_retrying(channel), {delivery_id: at_ms})

    def settled(self, channel: str, delivery_id: str) -> None:
        """A delivery is no longer retried: delivered, given up or moot."""
        self.r.zrem(keys.deliveries_retrying(channel), delivery_id)

    def retrying_counts(self, channels: tuple[str, ...]) -> dict[str, int]:
        pipe = self.r.pipeline(transaction=False)
        for channel in channels:
            pipe.zcard(keys.deliveries_retrying(channel))
        return dict(zip(channels, pipe.execute()))

    # -- at most once ------------------------------------------------------------------------

    def claim(self, name: str, holder: str = "") -> bool:
        """True the first time a name (a delivery id, a Message-ID, a link) is claimed; False
        ever after (for a month). With a `holder` (the id of one run of a job), a claim that
        this holder made already answers True too: a run whose claim was applied but whose
        answer was lost (Redis killed) claims again and goes on, and no other run does."""
        if self.r.set(keys.claimed(name), holder or 1, nx=True, ex=CLAIM_SECONDS):
            return True
        return bool(holder) and self.r.get(keys.claimed(name)) == holder.encode()

    def is_claimed(self, name: str) -> bool:
        return bool(self.r.exists(keys.claimed(name)))

    def release(self, name: str) -> None:
        """Give a claim back after a failed attempt, so that a retry may go ahead."""
        self.r.delete(keys.claimed(name))

    # -- the email throttle ------------------------------------------------------------------

    def last_emailed(self, player_id: str, game_id: str) -> int | None:
        """The version the player's last email about this game was written at, if any."""
        found = self.r.hget(keys.emailed_versions(player_id), game_id)
        return None if found is None else int(found)

    def emailed(self, player_id: str, game_id: str, version: int) -> None:
        key = keys.emailed_versions(player_id)
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(key, game_id, version)
        pipe.expire(key, EMAILED_DAYS * 86400)
        pipe.execute()

    def throttle(self, player_id: str, game_id: str, seconds: float, about: str = "turns") -> float:
        """Take the player's email window for this game (`about` its turns, or its
        "messages": a window each): 0 if taken now, else the seconds left until it frees."""
        if seconds <= 0:
            return 0.0
        key = (
            keys.chat_email_throttle(player_id, game_id)
            if about == "messages"
            else keys.email_throttle(player_id, game_id)
        )
        if self.r.set(key, 1, nx=True, px=int(seconds * 1000)):
            return 0.0
        left = self.r.pttl(key)
        return max(left, 1) / 1000 if left and left > 0 else 0.001

    def windows_read(self, pairs: list[tuple[str, str]]) -> Read[list[int]]:
        """How long (ms) each (player, game)'s window for turn emails (`throttle`) stays taken,
        0 when it is free, as a read that store.reads.at_once may run with others."""

        def queue(pipe) -> None:
            for player_id, game_id in pairs:
                pipe.pttl(keys.email_throttle(player_id, game_id))

        return Read(queue, len(pairs), lambda replies: [max(int(ms), 0) for ms in replies])

    def free_window(self, player_id: str, game_id: str, about: str = "turns") -> None:
        """Give the window `throttle` took back: its email was not sent after all."""
        self.r.delete(
            keys.chat_email_throttle(player_id, game_id)
            if about == "messages"
            else keys.email_throttle(player_id, game_id)
        )

    def take_invitation_window(
        self, invitee: str, inviter: str, delivery_id: str, seconds: float
    ) -> bool:
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

    def take_chat_line_window(
        self, player_id: str, game_id: str, delivery_id: str, seconds: float
    ) -> float:
        """Take the player's window for a chat app's line about a game's messages: 0 if this
        delivery takes it now or took it before (a retried one), else the seconds until it
        frees."""
        if seconds <= 0:
            return 0.0
        key = keys.chat_line_window(player_id, game_id)
        if self.r.set(key, delivery_id, nx=True, px=int(seconds * 1000)):
            return 0.0
        pipe = self.r.pipeline(transaction=False)
        pipe.get(key)
        pipe.pttl(key)
        holder, left = pipe.execute()
        if holder is not None and holder.decode() == delivery_id:
            return 0.0
        return max(left, 1) / 1000 if left and left > 0 else 0.001

    # -- the webhook -------------------------------------------------------------------------

    def webhook_secret(self, player_id: str) -> str | None:
        """The secret as stored: encrypted (service.secrets seals it), or in clear if it was
        made before secrets were encrypted."""
        found = self.r.hget(keys.player_webhook(player_id), "secret")
        return None if found is None else found.decode()

    def set_webhook_secret(self, player_id: str, stored: str) -> None:
        self.r.hset(keys.player_webhook(player_id), "secret", stored)

    def replace_webhook_secret(self, player_id: str, old: str, new: str) -> bool:
        """Store `new` only if the secret is still `old` (an upgrade must not undo a rotation
        made meanwhile)."""
        return bool(
            self.r.eval(
                _COMPARE_AND_SET_FIELD, 1, keys.player_webhook(player_id), "secret", old, new
            )
        )

    def webhook_failing(self, player_id: str) -> bool:
        return self.r.hget(keys.player_webhook(player_id), "failing") == b"1"

    def set_webhook_failing(self, player_id: str, failing: bool) -> None:
        self.r.hset(keys.player_webhook(player_id), "failing", "1" if failing else "0")

    def take_webhook_slot(
        self, player_id: str, delivery_id: str, now_ms: int, hold_ms: int, cap: int
    ) -> bool:
        """Count a delivery as in flight to the player's webhook, unless `cap` others are;
        each holds its slot until it gives it back or for `hold_ms` at most."""
        return bool(
            self.r.eval(
                _TAKE_SLOT,
                1,
                keys.player_webhook_in_flight(player_id),
                now_ms,
                now_ms + hold_ms,
                cap,
                delivery_id,
                hold_ms,
            )
        )

    def give_webhook_slot(self, player_id: str, delivery_id: str) -> None:
        self.r.zrem(keys.player_webhook_in_flight(player_id), delivery_id)

    def mark_webhook_slow(self, player_id: str, seconds: float) -> None:
        self.r.set(keys.player_webhook_slow(player_id), 1, px=max(1, int(seconds * 1000)))

    def clear_webhook_slow(self, player_id: str) -> None:
        self.r.delete(keys.player_webhook_slow(player_id))

    def webhook_slow(self, player_id: str) -> bool:
        return bool(self.r.exists(keys.player_webhook_slow(player_id)))

    # -- play by email ----------------------------------------------------------------------

    def register_reply_token(self, token: str, game_id: str, seat: int) -> None:
        """Make a seat's reply token work: Redis keeps only its SHA-256."""
        self.r.set(
            keys.reply_token(token_hash(token)),
            json.dumps({"game_id": game_id, "seat": seat}),
            nx=True,
        )

    def reply_token_seat(self, token: str) -> tuple[str, int] | None:
        found = self.r.get(keys.reply_token(token_hash(token)))
        if found is None:
            found = self._upgrade_legacy_reply_token(token)
            if found is None:
                return None
        record = json.loads(found)
        return record["game_id"], record["seat"]

    def _upgrade_legacy_reply_token(self, token: str) -> bytes | None:
        """A token stored in clear before they were hashed: kept hashed from now on."""
        found = self.r.get(keys.legacy_mail_token(token))
        if found is not None:
            self.upgrade_legacy_reply_token(token, found)
        return found

    def upgrade_legacy_reply_token(self, token: str, record: bytes) -> None:
        seat = json.loads(record)
        self.r.set(keys.reply_token(token_hash(token)), record)
        self.r.delete(
            keys.legacy_mail_token(token),
            keys.legacy_seat_mail_token(seat["game_id"], seat["seat"]),
        )

    def legacy_reply_tokens(self) -> Iterator[tuple[str, bytes]]:
        """(token, record) of every reply token an older version stored in clear."""
        prefix = keys.legacy_mail_token("")
        for key in self.r.scan_iter(match=prefix + "*", count=1000):
            record = self.r.get(key)
            if record is not None:
                yield key.decode().removeprefix(prefix), record

    def delete_legacy_seat_tokens(self) -> int:
        found = list(self.r.scan_iter(match=keys.LEGACY_SEAT_MAIL_TOKENS, count=1000))
        for key in found:
            self.r.delete(key)
        return len(found)

    def webhook_secrets(self) -> Iterator[tuple[str, str]]:
        """(player id, the secret as stored) of every player with a webhook secret."""
        for key in self.r.scan_iter(match=keys.player_webhook("*"), count=1000):
            stored = self.r.hget(key, "secret")
            if stored is not None:
                yield key.decode().split("{", 1)[1].split("}", 1)[0], stored.decode()

    # -- the player's feeds ----------------------------------------------------------------------

    def feed_generation(self, player_id: str) -> int:
        found = self.r.get(keys.player_feeds(player_id))
        return 0 if found is None else int(found)

    def next_feed_generation(self, player_id: str) -> int:
        return int(self.r.incr(keys.player_feeds(player_id)))

    # -- the server's own keys, when configuration gives none ---------------------------------

    def server_secret(self) -> bytes:
        """The key that signs one-click links when LINK_SIGNING_KEYS is not set: made once,
        kept with the data."""
        self.r.set(keys.SERVER_SECRET, secrets.token_hex(32), nx=True)
        return bytes.fromhex(self.r.get(keys.SERVER_SECRET).decode())

    def webhook_secrets_key(self, made: str) -> str:
        """The Fernet key of webhook secrets when WEBHOOK_SECRET_KEYS is not set: `made` is
        kept unless a key is kept already; the kept one is answered."""
        self.r.set(keys.WEBHOOK_SECRETS_KEY, made, nx=True)
        return self.r.get(keys.WEBHOOK_SECRETS_KEY).decode()


_COMPARE_AND_SET_FIELD = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
"""

_TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0
"""
