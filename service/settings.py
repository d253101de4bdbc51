"""The server's settings, read from the environment once per process.

Every settings class (`Settings` here, and `api.front_door.FrontDoor` for the HTTP side) is a
frozen dataclass derived from `FromEnvironment`, with one field per setting declared by
`setting(default, meaning)`. A field's environment variable is its name in capitals, and its
type says how the text is read: a number, a switch (`read_switch`), a comma-separated list or
plain text. A variable that is unset or empty leaves the default; one that does not read
stops the process at start with a `SettingError` naming it. `turnpost settings` prints them all.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any, Self
from urllib.parse import urlsplit

from transports.safe_urls import UrlPolicy

SWITCH_WORDS = {
    **dict.fromkeys(("1", "on", "true", "yes"), True),
    **dict.fromkeys(("0", "off", "false", "no"), False),
}


class SettingError(ValueError):
    """A variable whose text does not read as its setting's type; the message names it."""


def read_switch(text: str) -> bool:
    """On or off: 1/0, on/off, true/false or yes/no, in any case."""
    try:
        return SWITCH_WORDS[text.strip().lower()]
    except KeyError:
        raise ValueError("expected 1/0, on/off, true/false or yes/no") from None


def read_list(text: str) -> tuple[str, ...]:
    """Comma-separated items, each trimmed; empty ones are dropped."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _refusing(read: Callable[[str], Any], expected: str) -> Callable[[str], Any]:
    """`read`, its ValueError saying what was expected (Python's own names only the text)."""

    def read_or_refuse(text: str) -> Any:
        try:
            return read(text)
        except ValueError:
            raise ValueError(f"expected {expected}") from None

    return read_or_refuse


READERS: dict[object, Callable[[str], Any]] = {
    bool: read_switch,
    int: _refusing(int, "a whole number"),
    float: _refusing(float, "a number"),
    str: str,
    str | None: str,
    tuple[str, ...]: read_list,
}


def setting(
    default: Any,
    meaning: str,
    *,
    secret: bool = False,
    read: Callable[[str], Any] | None = None,
) -> Any:
    """A setting's field: its default, what it means in one line, whether its value is a secret
    (never printed), and how its text is read when its type alone does not say."""
    return dataclasses.field(
        default=default, metadata={"meaning": meaning, "secret": secret, "read": read}
    )


@dataclass(frozen=True)
class Shown:
    """A setting as `turnpost settings` prints it, secrets masked."""

    variable: str
    value: str
    default: str
    meaning: str


@dataclass(frozen=True)
class FromEnvironment:
    """The base of every settings class: `from_env` reads each field from its variable (a field
    declared without `setting` too, by its type; tests/service/test_settings.py asks every
    field for its meaning)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Self:
        types = typing.get_type_hints(cls)
        given: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            variable = field.name.upper()
            text = env.get(variable, "")
            if not text:
                continue
            read = field.metadata.get("read") or READERS[types[field.name]]
            try:
                given[field.name] = read(text)
            except ValueError as error:
                raise SettingError(f"{variable}: {error}") from None
        return cls(**given)

    def shown(self) -> list[Shown]:
        """Each setting's variable, value and default as text (secrets masked), and meaning."""
        shown = []
        for field in dataclasses.fields(self):
            secret = field.metadata.get("secret", False)
            value, default = getattr(self, field.name), field.default
            meaning = field.metadata.get("meaning", "")
            variable = field.name.upper()
            shown.append(Shown(variable, _masked(value, secret), _masked(default, secret), meaning))
        return shown


def _masked(value: Any, secret: bool) -> str:
    """A value as text: none or empty as "unset", a secret as *** (one per key of a list), a
    switch as on or off, and the password of an address as ***."""
    if value is None or value == ():
        return "unset"
    if secret:
        return ",".join("***" for _ in value) if isinstance(value, tuple) else "***"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(value)
    if isinstance(value, str):
        return without_password(value)
    return str(value)


def without_password(text: str) -> str:
    """An address (a Redis or SMTP URL) with its password shown as ***, to print or log."""
    parts = urlsplit(text)
    if parts.password is None:
        return text
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{parts.username or ''}:***@{host}").geturl()


def _address(text: str) -> str:
    return text.strip().rstrip("/")


def _origins(text: str) -> tuple[str, ...]:
    return tuple(_address(origin) for origin in read_list(text))


@dataclass(frozen=True)
class Settings(FromEnvironment):
    """What the use-cases, the notifications and the workers read."""

    public_url: str = setting(
        "http://127.0.0.1:8000",
        "the server's address, for links in emails and webhooks",
        read=_address,
    )
    mail_from: str = setting("turnpost <turnpost@localhost>", "the From of every email")
    smtp_url: str | None = setting(
        None, "smtp://user:pass@host:587[?starttls=true], smtps://...; unset: .eml files"
    )
    smtp_timeout_seconds: float = setting(
        30.0, "the mail server's connect, and each answer; a silent one fails the send then"
    )
    outbox_dir: str = setting("data/outbox", "where emails go when there is no SMTP server")
    mail_domain: str | None = setting(
        None, "replies to move+TOKEN.VERSION@MAIL_DOMAIN play moves; unset: no play by email"
    )
    mail_in_per_sender_per_hour: int = setting(
        500, "emails one address may send `turnpost mail-in` in an hour; more are dropped"
    )
    email_delay_seconds: float = setting(
        30.0, "a turn email waits this long: a quick move makes it moot"
    )
    email_attempts: int = setting(
        8, "how many times an email is tried while the mail server is away or refuses it"
    )
    email_retry_seconds: float = setting(
        30.0, "an email's first retry; each next doubles (8 attempts: given up after about 1 h)"
    )
    email_throttle_seconds: float = setting(
        300.0, "at most one turn email per player and game per window"
    )
    chat_email_delay_seconds: float = setting(
        600.0, "an email about messages waits until the table is this long quiet"
    )
    chat_email_every_seconds: float = setting(
        3600.0, "at most one email about a game's messages per player per window"
    )
    invitation_email_seconds: float = setting(
        3600.0, "at most one invitation email from one player to another per window"
    )
    invitations_per_address_per_hour: int = setting(
        10, "invitation emails one address may get in an hour, whoever invites; more are not sent"
    )
    webhook_attempts: int = setting(3, "how many times a webhook delivery is tried")
    webhook_retry_seconds: float = setting(30.0, "the first retry's delay; each next doubles")
    webhook_timeout_seconds: float = setting(
        3.0, "a webhook's connect, and each read: a silent receiver holds a worker this long"
    )
    webhook_in_flight_per_player: int = setting(
        2, "deliveries to one player's webhook at once; more wait in the schedule"
    )
    webhook_slow_seconds: float = setting(
        300.0, "a webhook that left a delivery unanswered is not called for this long"
    )
    webhook_allow_http: bool = setting(
        False, "http:// webhooks and push services, for development and tests only"
    )
    webhook_allow_loopback: bool = setting(
        False, "webhooks and push services on 127.0.0.1/::1, likewise"
    )
    push_delay_seconds: float = setting(
        30.0, "a turn's push message waits this long: a quick move makes it moot"
    )
    push_attempts: int = setting(
        4, "how many times a push message is tried on 429, 5xx or no answer"
    )
    push_retry_seconds: float = setting(
        30.0, "a push message's first retry (or the push service's Retry-After); each next doubles"
    )
    push_timeout_seconds: float = setting(5.0, "a push service's connect, and each read")
    push_ttl_seconds: int = setting(
        86400, "how long a push service keeps a message for a device that is offline"
    )
    push_subject: str | None = setting(
        None, "the VAPID contact (mailto: or https:) push services see; unset: MAIL_FROM's address"
    )
    push_devices_per_player: int = setting(20, "push subscriptions one player may keep")
    digest_day_seconds: float = setting(
        86400.0, "the length of a digest's day: 86400 (tests shorten it; then the time is ignored)"
    )
    one_click_max_moves: int = setting(12, "list a link per move when there are at most this many")
    inbound_secret: str | None = setting(
        None, "the shared secret of POST /v1/inbound/email; unset: 404", secret=True
    )
    bot_delay_seconds: float = setting(1.0, "a bot seat moves this long after its turn begins")
    expert_seconds: float = setting(1.0, "CPU seconds bot:expert searches for each move")
    min_move_seconds: int = setting(
        60, "the shortest clock a game may be created with (seconds: lower for tests and soaks)"
    )
    vacation_days_a_year: int = setting(
        30,
        "vacation days each player has a calendar year (taken ahead, or used when a clock runs out)",
    )
    day_seconds: float = setting(
        86400.0, "how long a vacation day used by a running-out clock lasts (lower for tests)"
    )
    outbox_lease_seconds: float = setting(
        15.0, "an outbox entry unfinished this long (its worker died) is taken over"
    )
    schedule_lease_seconds: float = setting(15.0, "likewise for a clock's batch of due items")
    ready_worker_seconds: float = setting(10.0, "/readyz: a worker silent this long counts as gone")
    ready_backlog_seconds: float = setting(60.0, "/readyz: the oldest outbox entry may wait this")
    cors_origins: tuple[str, ...] = setting(
        (), "browser origins that may call the API, comma-separated", read=_origins
    )
    finished_log_days: float = setting(7.0, "a finished game's log is compacted after this long")
    leaderboard_min_games: int = setting(
        10, "rated games of a title a player needs to be on its leaderboard"
    )
    leaderboard_active_days: float = setting(
        90.0, "a player leaves a leaderboard when their last rated game is older than this"
    )
    matchmaking_window: int = setting(
        200, "matchmaking pairs two players whose ratings differ by at most this"
    )
    matchmaking_move_seconds: int = setting(
        86400, "the clock of a game matchmaking makes (on_timeout auto)"
    )
    link_signing_keys: tuple[str, ...] = setting(
        (), "keys signing links and reply tokens: the first signs, all verify", secret=True
    )
    webhook_secret_keys: tuple[str, ...] = setting(
        (), "Fernet keys of webhook secrets: the first encrypts, all decrypt", secret=True
    )
    talk_per_minute: int = setting(
        10, "messages and proposals one player may write in a minute; more answer 429"
    )
    talk_per_hour: int = setting(120, "likewise in an hour")
    proposal_hours: float = setting(
        48.0, "a proposal (takeback, pause, shared result, abort) lapses unanswered after this"
    )
    sign_in_link_seconds: float = setting(900.0, "an emailed sign-in link works once, this long")
    sign_in_per_address_per_hour: int = setting(
        5,
        "letters (sign-in links, confirmations) one address may get in an hour, whoever asks; "
        "more sign-in requests answer 429",
    )

    @property
    def webhook_urls(self) -> UrlPolicy:
        return UrlPolicy(
            allow_http=self.webhook_allow_http, allow_loopback=self.webhook_allow_loopback
        )

    @property
    def push_contact(self) -> str:
        """The VAPID `sub` claim: PUSH_SUBJECT, or MAIL_FROM's address as a mailto: link."""
        return self.push_subject or "mailto:" + parseaddr(self.mail_from)[1]
