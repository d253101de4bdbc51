"""Registering players, authenticating, replacing and rotating their tokens, their profile,
notification settings and webhook secret, and the log of what was delivered to them."""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable, Collection
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from service.errors import ErrorCode, ServiceError, Words, no_player
from service.ids import new_id
from service.languages import LANGUAGES
from service.notify import digest, emails
from service.notify.notifications import merged, preferences
from service.players.sessions import WebSessions
from service.secrets import ServerKeys
from service.settings import Settings
from service.timefmt import time_zones
from store.notifications import NotificationStore
from store.players import PROOF_FIELD, PlayerStore
from store.schedule import ScheduleStore
from store.sessions import SessionStore
from transports.safe_urls import UnsafeUrl, UrlPolicy

PROFILE_FIELDS = ("name", "email", "webhook_url", "webhook_kind", "time_zone", "language")
WEBHOOK_KINDS = ("signed", "discord", "slack")
"""signed: the JSON documented in docs/notifications.md, signed with the player's secret;
discord, slack: a line of text in that chat app's incoming-webhook JSON (service.notify.chat_apps)."""
MAX_FRIENDS = 500
#: How a list of friends or of blocked players is refused: too long, and naming its owner.
OTHERS_REFUSED = {
    "friends": (
        Words("at most %(most)d friends", most=MAX_FRIENDS),
        Words("you cannot be your own friend here: you always take your own seat"),
    ),
    "blocked": (
        Words("at most %(most)d blocked players", most=MAX_FRIENDS),
        Words("you cannot block yourself"),
    ),
}


def new_token() -> str:
    """An API token: 256 random bits (Redis keeps only its SHA-256)."""
    return "tp_" + secrets.token_urlsafe(32)


STREAM_TICKET_SECONDS = 60
"""How long a stream ticket may be used to open an event stream (the stream then lasts); it
opens one, once."""
_TICKET_SALT = "turnpost stream ticket v1"  # keeps these signatures apart from the key's others


class PlayerService:
    def __init__(
        self,
        players: PlayerStore,
        notes: NotificationStore | None = None,
        clock: Callable[[], float] = time.time,
        webhook_urls: UrlPolicy | None = None,
        keys: ServerKeys | None = None,
        sessions: WebSessions | None = None,
        digest_day_seconds: float = digest.DAY,
        confirmations: Callable[[str], bool] | None = None,
    ):
        """`confirmations(email)` sends an address that a player gave the letter that
        confirms it (service.players.sign_in: SignIn.ask_confirmation); None sends nothing."""
        self.digest_day_seconds = digest_day_seconds
        self.confirmations = confirmations
        self.players = players
        self.sessions = sessions or WebSessions(SessionStore(players.r), clock)
        self.notes = notes or NotificationStore(players.r)
        self.clock = clock
        self.webhook_urls = webhook_urls or UrlPolicy()
        self.keys = keys or ServerKeys(Settings(), self.notes)
        self.zone_changed: Callable[[str], None] | None = None
        """Called with a player whose time zone changed (their weekends move)."""

    def _check_webhook(self, url: str | None) -> None:
        if url:
            try:
                self.webhook_urls.check(url)
            except UnsafeUrl as err:
                raise ServiceError(ErrorCode.PLAYER_UNSAFE_WEBHOOK, err.words) from err

    def register(
        self,
        name: str,
        email: str | None = None,
        webhook_url: str | None = None,
        webhook_kind: str | None = None,
        language: str | None = None,
    ) -> dict[str, Any]:
        """A new player and their API token, which is shown only in this answer (and the
        webhook secret, when a webhook is given). An address is emailed nothing but the
        letter that confirms it until its owner follows that letter's link. `language` is
        one of service.languages.LANGUAGES, or None (the browser's choice, page by page)."""
        name = (name or "").strip()
        if not name:
            raise ServiceError(ErrorCode.PLAYER_INVALID, "a player needs a name")
        _check_language(language)
        email = _mailable(email)
        self._check_webhook(webhook_url)
        _check_kind(webhook_kind)
        token = new_token()
        profile = {
            "name": name,
            "email": email,
            "webhook_url": webhook_url,
            "webhook_kind": webhook_kind or "signed",
            "language": language,
            "created_at": int(self.clock() * 1000),
            PROOF_FIELD: True,
        }
        while True:
            player_id = new_id("p_")
            if self.players.create(player_id, profile, token):
                break
        answer = {"id": player_id, "name": name, "token": token}
        if email and self.confirmations is not None:
            self.confirmations(email)
        if webhook_url:
            answer["webhook_secret"] = self._new_webhook_secret(player_id)
        return answer

    def wait_events(
        self, player_id: str, after: str, block_ms: int
    ) -> list[tuple[str, dict[str, str]]]:
        """The player's events after the event id `after`, waiting up to block_ms."""
        return self.players.wait_events(player_id, after, block_ms)

    def last_event_id(self, player_id: str) -> str:
        """The id of the player's newest event ("0-0" without one): a stream opened without
        Last-Event-ID starts after it."""
        return self.players.last_event_id(player_id)

    def stream_ticket(self, player_id: str) -> dict[str, Any]:
        """A short-lived credential for the player's event streams, for a browser's
        EventSource, which cannot send the Authorization header: `?ticket=` on the URL. It
        names the player and a nonce of its own (two tickets made in one second differ)."""
        nonce = secrets.token_urlsafe(12)
        ticket = URLSafeTimedSerializer(self.keys.link_keys[0], salt=_TICKET_SALT).dumps(
            [player_id, nonce]
        )
        return {"ticket": ticket, "expires_in": STREAM_TICKET_SECONDS}

    def redeem_stream_ticket(self, ticket: str) -> str:
        """The player a stream ticket was made for, once (401 when forged, altered, used or
        expired). Its use is marked by its signed nonce, not its text, so that no other
        spelling of the same ticket opens a second stream."""
        for key in self.keys.link_keys:  # the first signs; older keys still read
            try:
                signed = URLSafeTimedSerializer(key, salt=_TICKET_SALT).loads(
                    ticket, max_age=STREAM_TICKET_SECONDS
                )
            except SignatureExpired:
                raise ServiceError(
                    ErrorCode.AUTH_BAD_TOKEN, "the stream ticket has expired: ask for a new one"
                ) from None
            except BadSignature:
                continue
            if not (
                isinstance(signed, list)
                and len(signed) == 2
                and all(isinstance(part, str) for part in signed)
                and self.players.get(signed[0]) is not None
            ):
                break
            player_id, nonce = signed
            # kept a little longer than the ticket lives, so that it never outlives its mark
            if not self.players.use_stream_ticket(nonce, STREAM_TICKET_SECONDS + 5):
                raise ServiceError(
                    ErrorCode.AUTH_BAD_TOKEN,
                    "that stream ticket was used already: a ticket opens one stream, once; "
                    "ask for a new one",
                )
            return player_id
        raise ServiceError(ErrorCode.AUTH_BAD_TOKEN, "that stream ticket is not valid")

    def authenticate(self, token: str | None) -> str:
        if not token:
            raise ServiceError(
                ErrorCode.AUTH_UNAUTHORIZED,
                "this needs a bearer token: Authorization: Bearer <token>",
            )
        player_id = self.players.by_token(token)
        if player_id is None:
            raise ServiceError(ErrorCode.AUTH_BAD_TOKEN, "that token is not valid")
        return player_id

    def named(self, name: str, limit: int = 20) -> list[dict[str, str]]:
        """The players whose name starts with `name` (any case), by name: id and name."""
        ids = self.players.named(name, limit) if name.strip() else []
        return [
            {"id": i, "name": p["name"]}
            for i, p in zip(ids, self.players.get_many(ids))
            if p is not None
        ]

    def public_profile(self, player_id: str) -> dict[str, Any]:
        """What anyone may read of a player: their name and how many games they sat in."""
        profile = self._get(player_id)
        return {
            "id": player_id,
            "name": profile["name"],
            "games_played": self.players.games_count(player_id),
        }

    def profile(self, player_id: str) -> dict[str, Any]:
        profile = self._get(player_id)
        status = "none"
        if profile.get("webhook_url"):
            status = "failing" if self.notes.webhook_failing(player_id) else "ok"
        return {
            "id": player_id,
            **{k: profile.get(k) for k in PROFILE_FIELDS},
            "webhook_kind": profile.get("webhook_kind") or "signed",
            "email_confirmed": self.players.email_confirmed(player_id, profile),
            "notifications": preferences(profile),
            "webhook_status": status,
        }

    def update(self, player_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Change profile fields and notification settings. A first webhook gets a secret,
        shown in this answer only; a changed webhook starts again as not failing."""
        profile = self._get(player_id)
        zone_before = profile.get("time_zone")
        self._check_webhook(changes.get("webhook_url"))
        _check_kind(changes.get("webhook_kind"))
        digest_before = preferences(profile)["digest_at"]
        before = _address(profile.get("email"))
        if "email" in changes:
            changes = {**changes, "email": _mailable(changes["email"])}
        for key in PROFILE_FIELDS:
            if key in changes:
                profile[key] = changes[key]
        if "notifications" in changes:
            profile["notifications"] = merged(preferences(profile), changes["notifications"])
        if not (profile.get("name") or "").strip():
            raise ServiceError(ErrorCode.PLAYER_INVALID, "a player needs a name")
        if profile.get("time_zone") is not None and profile["time_zone"] not in time_zones():
            raise ServiceError(
                ErrorCode.PLAYER_INVALID,
                Words(
                    "there is no time zone %(zone)r: name one such as Europe/Rome or "
                    "America/New_York",
                    zone=profile["time_zone"],
                ),
            )
        _check_language(profile.get("language"))
        digest_at = preferences(profile)["digest_at"]
        if digest_at is not None and not digest.TIME_OF_DAY.match(str(digest_at)):
            raise ServiceError(
                ErrorCode.PLAYER_INVALID,
                Words(
                    "a digest's time of day is written HH:MM, such as 07:30, not %(given)r",
                    given=digest_at,
                ),
            )
        new_address = _address(profile.get("email")) not in ("", before)
        if new_address:
            profile[PROOF_FIELD] = True  # a new address is confirmed by its own owner
        self.players.save(player_id, profile)
        if digest_at and digest_at != digest_before:  # the clock emails the first at that time
            due = digest.next_due(
                int(self.clock() * 1000),
                digest_at,
                profile.get("time_zone"),
                self.digest_day_seconds,
            )
            ScheduleStore(self.players.r).add(
                player_id, due, digest.item(player_id, digest_at, due)
            )
        if profile.get("time_zone") != zone_before and self.zone_changed is not None:
            self.zone_changed(player_id)
        answer = self.profile(player_id)
        if new_address and not answer["email_confirmed"] and self.confirmations is not None:
            self.confirmations(profile["email"])
        if changes.get("webhook_url"):
            self.notes.set_webhook_failing(player_id, False)
            self.notes.clear_webhook_slow(player_id)
            answer["webhook_status"] = "ok"
            if self.notes.webhook_secret(player_id) is None:
                answer["webhook_secret"] = self._new_webhook_secret(player_id)
        return answer

    def rotate_webhook_secret(self, player_id: str) -> dict[str, Any]:
        """A new webhook secret (the old one stops working at once); shown only here."""
        profile = self._get(player_id)
        if not profile.get("webhook_url"):
            raise ServiceError(
                ErrorCode.PLAYER_NO_WEBHOOK, "you have no webhook: set webhook_url first"
            )
        return {"webhook_secret": self._new_webhook_secret(player_id)}

    def _new_webhook_secret(self, player_id: str) -> str:
        """`whsec_` + the standard base64 of 32 random bytes (the Standard Webhooks encoding,
        which its libraries decode to the HMAC key); stored encrypted, shown once."""
        secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
        self.notes.set_webhook_secret(player_id, self.keys.seal(secret))
        return secret

    def new_token(self, player_id: str) -> dict[str, Any]:
        """A new API token for the player, shown only in this answer; the one before stops
        working at once, and so does every web session of the player (whoever could make a
        token in one could make another: the browser that asked signs in again)."""
        self._get(player_id)
        token = new_token()
        self.players.replace_token(player_id, token)
        self.sessions.end_all(player_id)
        return {"token": token}

    def friends(self, player_id: str) -> dict[str, Any]:
        """The players who may seat this one in a game without inviting them."""
        self._get(player_id)
        return {"friends": self._named(self.players.friends(player_id))}

    def blocked(self, player_id: str) -> dict[str, Any]:
        """The players this one has blocked: no invitation from them, their messages hidden
        from this player, not seated together from the lobby."""
        self._get(player_id)
        return {"blocked": self._named(sorted(self.players.blocked(player_id)))}

    def set_blocked(self, player_id: str, blocked: list[str]) -> dict[str, Any]:
        """Replace the players this one has blocked (all of them players, not the player)."""
        self.players.set_blocked(player_id, self._others(player_id, blocked, "blocked"))
        return self.blocked(player_id)

    def set_friends(self, player_id: str, friends: list[str]) -> dict[str, Any]:
        """Replace the player's friends (all of them players, not the player)."""
        self.players.set_friends(player_id, self._others(player_id, friends, "friends"))
        return self.friends(player_id)

    def _named(self, ids: list[str]) -> list[dict[str, str]]:
        """The players of `ids` that still exist, each with their name."""
        profiles = self.players.get_many(ids)
        return [{"id": i, "name": p["name"]} for i, p in zip(ids, profiles) if p is not None]

    def _others(self, player_id: str, others: list[str], kind: str) -> list[str]:
        """`others` (the player's `kind` of list: friends or blocked), sorted without repeats:
        at most MAX_FRIENDS players who exist, the player not among them (else refused in the
        words of OTHERS_REFUSED)."""
        too_many, self_named = OTHERS_REFUSED[kind]
        self._get(player_id)
        wanted = sorted(set(others))
        if len(wanted) > MAX_FRIENDS:
            raise ServiceError(ErrorCode.PLAYER_INVALID_FRIENDS, too_many)
        if player_id in wanted:
            raise ServiceError(ErrorCode.PLAYER_INVALID_FRIENDS, self_named)
        unknown = [i for i, p in zip(wanted, self.players.get_many(wanted)) if p is None]
        if unknown:
            raise no_player(", ".join(unknown[:5]), ErrorCode.PLAYER_INVALID_FRIENDS)
        return wanted

    def deliveries(
        self, player_id: str, limit: int = 50, before: int | None = None
    ) -> dict[str, Any]:
        """A page of the player's latest deliveries, newest first (below `before`), and
        where the next page starts (`next_before`, None on the last page)."""
        self._get(player_id)
        found = self.notes.deliveries(player_id, limit + 1, before)
        page = found[:limit]
        following = page[-1].get("seq") if len(found) > limit and page else None
        return {"deliveries": page, "next_before": following}

    def _get(self, player_id: str) -> dict[str, Any]:
        profile = self.players.get(player_id)
        if profile is None:
            raise no_player(player_id)
        return profile


def _check_kind(kind: str | None) -> None:
    kinds = ", ".join(WEBHOOK_KINDS)
    refusal = Words("a webhook's kind is one of %(kinds)s, not %(given)r", kinds=kinds, given=kind)
    _check_one_of(kind, WEBHOOK_KINDS, refusal)


def _check_language(language: str | None) -> None:
    languages = ", ".join(LANGUAGES)
    refusal = Words(
        "a language is one of %(languages)s, not %(given)r", languages=languages, given=language
    )
    _check_one_of(language, LANGUAGES, refusal)


def _check_one_of(given: str | None, allowed: Collection[str], refusal: Words) -> None:
    """PLAYER_INVALID with `refusal` unless `given` is None or one of `allowed`."""
    if given is not None and given not in allowed:
        raise ServiceError(ErrorCode.PLAYER_INVALID, refusal)


def _mailable(email: str | None) -> str | None:
    """The address as it is kept and mailed (emails.mailable); None and "" as they are."""
    if not email:
        return email
    try:
        return emails.mailable(email)
    except ValueError as err:
        raise ServiceError(ErrorCode.PLAYER_INVALID, err.args[0]) from err


def _address(email: str | None) -> str:
    return (email or "").strip().lower()
