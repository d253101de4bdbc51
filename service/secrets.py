"""The server's keys, and what it keeps of the secrets it hands out.

- **The link key** signs one-click move links (service.notify.links) and derives each seat's reply
  token for play by email. It comes from LINK_SIGNING_KEYS: the first key signs, every key
  listed verifies, so a new key is put first and the old one stays listed until the links it
  signed have expired. Without that setting the server makes one key and keeps it in Redis.
- **Webhook secrets** must be kept (the server signs every delivery with them), so they are
  encrypted with Fernet (AES-128-CBC with HMAC-SHA256, from the `cryptography` library) under
  the keys of WEBHOOK_SECRET_KEYS: MultiFernet encrypts with the first and decrypts with any.
  Without that setting the server makes one key and keeps it in Redis, which protects nothing
  against someone who reads the whole database: set it in production.
- **The Web Push key pair** (VAPID, P-256) signs every push message; browsers subscribe with
  its public half. It is made the first time it is needed and kept in Redis;
  `turnpost rotate-push-keys` makes a new one (`rotate_push_keys`), which ends every
  subscription made with the old one (a push service refuses a message signed by another key):
  the settings page subscribes a device again, without asking, when it is next opened.
- **Reply tokens** are derived (HMAC of the game and seat under the link key) rather than
  stored, so a turn email can name the same token again; Redis keeps only the SHA-256 of each
  (store.notifications). API tokens and sign-in links are random and kept as SHA-256 too.

docs/operations.md, "Secrets and their rotation", tells an operator how to make and rotate
each key; `turnpost upgrade-secrets` re-encrypts under the first key and hashes what an older
version kept in clear.
"""

from __future__ import annotations

import hmac
from functools import cached_property

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from service.settings import Settings
from store.notifications import NotificationStore
from store.players import PlayerStore
from store.push import PushStore
from transports.web_push import VapidKeys

_REPLY_TOKEN_PURPOSE = b"turnpost reply token v1\n"  # keeps these MACs apart from the links'
REPLY_TOKEN_HEX = 32
MIN_LINK_KEY = 32
LEGACY_CLEAR_PREFIX = "whsec_"
"""A webhook secret stored before encryption starts with the secret's own prefix."""


class ServerKeys:
    """The keys of one process: from the settings, or made once and kept in Redis."""

    def __init__(self, settings: Settings, notes: NotificationStore):
        self.settings = settings
        self.notes = notes
        if any(len(key) < MIN_LINK_KEY for key in settings.link_signing_keys):
            raise ValueError(
                f"LINK_SIGNING_KEYS: each key must be at least {MIN_LINK_KEY} "
                "characters (secrets.token_urlsafe(32) makes 43)"
            )
        try:  # a mistyped key stops the process at once, not at its first webhook
            self._configured_webhook_keys = [Fernet(key) for key in settings.webhook_secret_keys]
        except ValueError as err:
            raise ValueError(
                "WEBHOOK_SECRET_KEYS: each key must be 32 url-safe base64-encoded "
                "bytes, as Fernet.generate_key() makes them"
            ) from err

    @cached_property
    def link_keys(self) -> list[bytes]:
        """The first signs; all verify."""
        configured = [key.encode() for key in self.settings.link_signing_keys]
        return configured or [self.notes.server_secret()]

    @cached_property
    def _webhook_keys(self) -> list[Fernet]:
        return self._configured_webhook_keys or [
            Fernet(self.notes.webhook_secrets_key(Fernet.generate_key().decode()))
        ]

    @cached_property
    def _webhook_box(self) -> MultiFernet:
        return MultiFernet(self._webhook_keys)

    def vapid(self) -> VapidKeys:
        """The Web Push key pair: made on first use, kept in Redis; read each time, so that a
        rotation by the operator takes effect in every process at once."""
        store = PushStore(self.notes.r)
        kept = store.vapid_keys()
        if kept is None:
            made = VapidKeys.make()
            kept = store.keep_vapid_keys({"private": made.private, "public": made.public})
        return VapidKeys(kept["private"], kept["public"])

    def reply_token(self, game_id: str, seat: int) -> str:
        """The seat's reply token, ready for a Reply-To address: the same for every email of
        the seat while the link key stays (a new key gives new tokens, and the old ones keep
        working); Redis keeps only its SHA-256."""
        mac = hmac.digest(  # OpenSSL's HMAC in one call: an hmac.new object's bytes
            self.link_keys[0], _REPLY_TOKEN_PURPOSE + f"{game_id}\n{seat}".encode(), "sha256"
        )
        token = mac.hex()[:REPLY_TOKEN_HEX]
        self.notes.register_reply_token(token, game_id, seat)
        return token

    def seal(self, webhook_secret: str) -> str:
        """A webhook secret as Redis keeps it."""
        return self._webhook_box.encrypt(webhook_secret.encode()).decode()

    def unseal(self, stored: str) -> str:
        """The webhook secret from what Redis keeps (one kept in clear by an older version
        reads as it is). Raises InvalidToken when no configured key opens it."""
        if stored.startswith(LEGACY_CLEAR_PREFIX):
            return stored
        return self._webhook_box.decrypt(stored.encode()).decode()

    def reseal(self, stored: str) -> str | None:
        """What `stored` should become under the first key; None when it is so already.
        Raises InvalidToken when no configured key opens it."""
        if stored.startswith(LEGACY_CLEAR_PREFIX):
            return self.seal(stored)
        try:
            self._webhook_keys[0].decrypt(stored.encode())
            return None
        except InvalidToken:
            return self._webhook_box.rotate(stored.encode()).decode()


def upgrade_secrets(
    players: PlayerStore, notes: NotificationStore, keys: ServerKeys
) -> dict[str, int]:
    """Bring what an older version stored up to date, and re-encrypt under the first key:
    reply tokens kept in clear are kept hashed; webhook secrets in clear, or encrypted under
    an older key, are encrypted under the first of WEBHOOK_SECRET_KEYS; every player's token
    is recorded (so that a new token revokes it), their address indexed (so that a sign-in
    link reaches them) and their name (so that others find them by name). Safe to run again, and while the server runs. Returns counts."""
    done = {
        "reply_tokens": 0,
        "seat_tokens": 0,
        "webhook_secrets": 0,
        "unreadable_webhook_secrets": 0,
        "tokens": 0,
        "addresses": 0,
        "names": 0,
    }
    for token, record in notes.legacy_reply_tokens():
        notes.upgrade_legacy_reply_token(token, record)
        done["reply_tokens"] += 1
    done["seat_tokens"] = notes.delete_legacy_seat_tokens()
    for player_id, stored in notes.webhook_secrets():
        try:
            resealed = keys.reseal(stored)
        except InvalidToken:
            done["unreadable_webhook_secrets"] += 1
            continue
        if resealed is not None and notes.replace_webhook_secret(player_id, stored, resealed):
            done["webhook_secrets"] += 1
    for hashed, player_id in players.tokens():
        done["tokens"] += players.record_token(player_id, hashed)
    for player_id, profile in players.profiles():
        players.index_name(player_id, profile["name"])
        done["names"] += 1
        if profile.get("email"):
            players.index_email(player_id, profile["email"])
            done["addresses"] += 1
    return done


def rotate_push_keys(push: PushStore) -> dict[str, int | str]:
    """A new Web Push key pair in place of the old. The subscriptions made with the old key
    cannot be used with the new (their push services refuse it), so they are removed; a
    browser whose permission stands subscribes again with the new key when its player next
    opens the settings page. Returns the new public key and how many players lost devices."""
    made = VapidKeys.make()
    push.replace_vapid_keys({"private": made.private, "public": made.public})
    return {
        "public_key": made.public,
        "players": sum(1 for _ in push.remove_made_with_other_keys(made.public)),
    }
