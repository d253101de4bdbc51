"""Sending an email: over SMTP when SMTP_URL is set, else as an .eml file in the outbox folder
(so that a newcomer running `make serve` can read what would have been sent)."""

from __future__ import annotations

import contextlib
import smtplib
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from functools import cached_property
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit


@dataclass(frozen=True)
class Mail:
    """A message laid out already (service/notify/emails.layout): its envelope and its bytes as
    they go on the wire (ASCII, CRLF line ends), sent as they are, without the standard
    library's flattening of an EmailMessage."""

    sender: str
    recipients: tuple[str, ...]
    data: bytes
    name: str
    """What the message is (its delivery id), for an .eml file's name."""


class Mailer(Protocol):
    def send(self, message: Mail | EmailMessage) -> None: ...

    def session(self) -> contextlib.AbstractContextManager[None]:
        """Sends inside the block may share one connection (a batch of emails)."""
        ...


class SmtpMailer:
    """smtp://[user:password@]host[:port][?starttls=true] or smtps://... (TLS from the start).
    Login happens when a user is given; STARTTLS when asked or when the server offers it.
    `cafile=/path.pem` in the query trusts a private certificate authority."""

    IDLE_CHECK_SECONDS = 1.0
    """A session's connection unused longer than this is checked (NOOP) before a send."""

    def __init__(self, url: str, timeout: float = 30.0):
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("SMTP_URL must look like smtp://user:pass@host:587")
        self.implicit_tls = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.implicit_tls else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        query = parse_qs(parts.query)
        self.starttls = query.get("starttls", ["auto"])[0].lower()
        self.cafile = query.get("cafile", [None])[0]
        self.timeout = timeout
        self._open = threading.local()
        """This thread's session, while one is open: its connection (None until the first
        send) and when it was last used."""

    @cached_property
    def tls(self) -> ssl.SSLContext:
        """Made once, and only when TLS is used: loading the CA store takes tens of ms."""
        return ssl.create_default_context(cafile=self.cafile)

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """Sends inside the block, in this thread, share one connection: a batch of emails pays
        the connection, EHLO, TLS and login once (bench/RESULTS.md, "Email deliveries").
        It is opened at the first send, checked with a NOOP before a send that follows a
        pause of more than IDLE_CHECK_SECONDS (a server drops idle clients), opened again
        after a send that failed, and closed with QUIT at the end."""
        self._open.smtp, self._open.used = None, 0.0
        self._open.active = True
        try:
            yield
        finally:
            self._open.active = False
            self._drop()

    def send(self, message: Mail | EmailMessage) -> None:
        if not getattr(self._open, "active", False):
            with self._connected() as alone:
                _deliver(alone, message)
            return
        if self._open.smtp is not None and (
            time.monotonic() - self._open.used > self.IDLE_CHECK_SECONDS
        ):
            try:
                self._open.smtp.noop()
            except (smtplib.SMTPException, OSError):
                self._drop()
        if self._open.smtp is None:
            self._open.smtp = self._connected()
        smtp: smtplib.SMTP = self._open.smtp
        try:
            _deliver(smtp, message)
        except BaseException:
            self._drop()  # the connection's state is unknown: the next send opens another
            raise
        self._open.used = time.monotonic()

    def _drop(self) -> None:
        smtp, self._open.smtp = self._open.smtp, None
        if smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                smtp.quit()
            smtp.close()

    def _connected(self) -> smtplib.SMTP:
        """A connection ready for mail: greeted, TLS when it is used, logged in when a user
        is given."""
        smtp: smtplib.SMTP
        if self.implicit_tls:
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self.tls)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        try:
            smtp.ehlo()
            if not self.implicit_tls and (
                self.starttls == "true" or (self.starttls == "auto" and smtp.has_extn("starttls"))
            ):
                smtp.starttls(context=self.tls)
                smtp.ehlo()
            if self.user:
                smtp.login(self.user, self.password or "")
        except BaseException:
            smtp.close()
            raise
        return smtp


def _deliver(smtp: smtplib.SMTP, message: Mail | EmailMessage) -> None:
    if isinstance(message, Mail):
        smtp.sendmail(message.sender, list(message.recipients), message.data)
    else:
        smtp.send_message(message)


class OutboxMailer:
    """Writes each message as <time>-<id>.eml into a folder."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def send(self, message: Mail | EmailMessage) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        name = (
            message.name
            if isinstance(message, Mail)
            else message.get("X-Turnpost-Delivery", "message")
        ).replace("/", "_")
        path = self.folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}.eml"
        temporary = path.with_suffix(".part")
        temporary.write_bytes(message.data if isinstance(message, Mail) else bytes(message))
        temporary.rename(path)

    def session(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def mailer_for(smtp_url: str | None, outbox_dir: str | Path, timeout: float = 30.0) -> Mailer:
    return SmtpMailer(smtp_url, timeout) if smtp_url else OutboxMailer(outbox_dir)
