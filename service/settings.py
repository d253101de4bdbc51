"""Notification and mail settings, read from the environment once per process."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from transports.safe_urls import UrlPolicy


@dataclass(frozen=True)
class Settings:
    public_url: str = "http://127.0.0.1:8000"
    mail_from: str = "turnpost <turnpost@localhost>"
    smtp_url: str | None = None  # smtp://user:pass@host:587?starttls=true, smtps://...
    outbox_dir: str = "data/outbox"  # where emails go when there is no SMTP server
    mail_domain: str | None = None  # replies to move+TOKEN.VERSION@mail_domain play moves
    mail_in_per_sender_per_hour: int = 500  # emails one address may send the mail receiver
    email_delay_seconds: float = 30.0  # a turn email waits this long: a quick move makes it moot
    email_throttle_seconds: float = 300.0  # at most one email per player and game per window
    invitation_email_seconds: float = 3600.0  # at most one invitation email from one player to
    # another per window (the rest are only listed)
    webhook_attempts: int = 3
    webhook_retry_seconds: float = 30.0  # the first retry's delay; each next one doubles
    webhook_timeout_seconds: float = 3.0  # connect, and each read: short, because a receiver
    # that does not answer holds a worker this long
    webhook_in_flight_per_player: int = 2  # deliveries to one player's webhook at once; more
    # wait in the schedule
    webhook_slow_seconds: float = 300.0  # after a delivery got no answer in time, the webhook
    # is not called for this long (attempts fail at once)
    webhook_allow_http: bool = False  # http:// webhooks, for development and tests only
    webhook_allow_loopback: bool = False  # webhooks on 127.0.0.1/::1, same
    one_click_max_moves: int = 12  # list a link per move when there are at most this many
    inbound_secret: str | None = None  # the shared secret of POST /v1/inbound/email
    bot_delay_seconds: float = 1.0  # a bot seat moves this long after its turn begins
    expert_seconds: float = 1.0  # how long bot:expert searches for each move (in a worker)
    min_move_seconds: int = 60  # the shortest clock a game may have (seconds, for tests,
    # soaks and demonstrations of timeouts)
    outbox_lease_seconds: float = 15.0  # an outbox entry read and not finished this long
    # (its worker died) is taken over by another worker
    schedule_lease_seconds: float = 15.0  # likewise for a batch of due deadlines and notices
    ready_worker_seconds: float = 10.0  # /readyz: a worker silent this long counts as gone
    ready_backlog_seconds: float = 60.0  # /readyz: the oldest outbox entry may wait this long
    cors_origins: tuple[str, ...] = ()  # browser origins that may call the API (CORS_ORIGINS)
    finished_log_days: float = 7.0  # a finished game's log is compacted after this long
    link_signing_keys: tuple[str, ...] = ()  # sign one-click links and derive reply tokens: the
    # first signs, all verify; none: made once, in Redis
    webhook_secret_keys: tuple[str, ...] = ()  # Fernet keys encrypting webhook secrets: the
    # first encrypts, all decrypt; none: in Redis
    sign_in_link_seconds: float = 900.0  # an emailed sign-in link works once, this long
    sign_in_per_address_per_hour: int = 5  # sign-in requests for one email address

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        def number(name: str, default: float) -> float:
            return float(env[name]) if env.get(name) else default

        def listed(name: str) -> tuple[str, ...]:
            return tuple(item.strip() for item in env.get(name, "").split(",") if item.strip())

        def flag(name: str) -> bool:
            return env.get(name, "").strip().lower() in ("1", "on", "true", "yes")

        base = cls()
        return cls(
            public_url=env.get("PUBLIC_URL", base.public_url).rstrip("/"),
            mail_from=env.get("MAIL_FROM", base.mail_from),
            smtp_url=env.get("SMTP_URL") or None,
            outbox_dir=env.get("OUTBOX_DIR", base.outbox_dir),
            mail_domain=env.get("MAIL_DOMAIN") or None,
            mail_in_per_sender_per_hour=int(
                number("MAIL_IN_PER_SENDER_PER_HOUR", base.mail_in_per_sender_per_hour)
            ),
            email_delay_seconds=number("EMAIL_DELAY_SECONDS", base.email_delay_seconds),
            email_throttle_seconds=number("EMAIL_THROTTLE_SECONDS", base.email_throttle_seconds),
            invitation_email_seconds=number(
                "INVITATION_EMAIL_SECONDS", base.invitation_email_seconds
            ),
            webhook_attempts=int(number("WEBHOOK_ATTEMPTS", base.webhook_attempts)),
            webhook_retry_seconds=number("WEBHOOK_RETRY_SECONDS", base.webhook_retry_seconds),
            webhook_timeout_seconds=number("WEBHOOK_TIMEOUT_SECONDS", base.webhook_timeout_seconds),
            webhook_allow_http=flag("WEBHOOK_ALLOW_HTTP"),
            webhook_allow_loopback=flag("WEBHOOK_ALLOW_LOOPBACK"),
            one_click_max_moves=int(number("ONE_CLICK_MAX_MOVES", base.one_click_max_moves)),
            inbound_secret=env.get("INBOUND_SECRET") or None,
            bot_delay_seconds=number("BOT_DELAY_SECONDS", base.bot_delay_seconds),
            min_move_seconds=int(number("MIN_MOVE_SECONDS", base.min_move_seconds)),
            expert_seconds=number("EXPERT_SECONDS", base.expert_seconds),
            outbox_lease_seconds=number("OUTBOX_LEASE_SECONDS", base.outbox_lease_seconds),
            schedule_lease_seconds=number("SCHEDULE_LEASE_SECONDS", base.schedule_lease_seconds),
            ready_worker_seconds=number("READY_WORKER_SECONDS", base.ready_worker_seconds),
            ready_backlog_seconds=number("READY_BACKLOG_SECONDS", base.ready_backlog_seconds),
            cors_origins=tuple(
                origin.strip().rstrip("/")
                for origin in env.get("CORS_ORIGINS", "").split(",")
                if origin.strip()
            ),
            finished_log_days=number("FINISHED_LOG_DAYS", base.finished_log_days),
            link_signing_keys=listed("LINK_SIGNING_KEYS"),
            webhook_secret_keys=listed("WEBHOOK_SECRET_KEYS"),
            sign_in_link_seconds=number("SIGN_IN_LINK_SECONDS", base.sign_in_link_seconds),
            sign_in_per_address_per_hour=int(
                number("SIGN_IN_PER_ADDRESS_PER_HOUR", base.sign_in_per_address_per_hour)
            ),
            webhook_in_flight_per_player=int(
                number("WEBHOOK_IN_FLIGHT_PER_PLAYER", base.webhook_in_flight_per_player)
            ),
            webhook_slow_seconds=number("WEBHOOK_SLOW_SECONDS", base.webhook_slow_seconds),
        )

    @property
    def webhook_urls(self) -> UrlPolicy:
        return UrlPolicy(
            allow_http=self.webhook_allow_http, allow_loopback=self.webhook_allow_loopback
        )
