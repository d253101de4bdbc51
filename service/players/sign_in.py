"""Signing in by email, which is also how an address is confirmed: a player asks for a link
at their address (the web client's sign-in page, or POST /v1/sign-in for a lost API token),
and following it signs their browser in to the web client, whose settings make a new API
token. Registering with an address, or changing to a new one, sends the same letter, to
confirm it: until its owner follows a link emailed to it for an account, that account sends
the address nothing but these letters (no turn email, reminder or invitation).

An address gets one letter per request, naming every account registered with it (a link
each, those it is confirmed for first), and at most SIGN_IN_PER_ADDRESS_PER_HOUR letters in
any hour, whoever asks and for whichever account: past that a sign-in request answers 429 and
a registration or a change of address sends nothing. A request answers the same whoever owns
the address, and does the same work: it counts against the address's quota (registered or
not) and leaves an item in the clock's schedule; a worker then sends the letter, or nothing
to an address no player has. So neither the answer nor its timing tells who is registered. A
link is 256 random bits; Redis keeps its SHA-256 (with the player and the address it went to)
for SIGN_IN_LINK_SECONDS, and it works once. Opening it changes nothing (mail scanners fetch
links): the page's button does, and it confirms the address for that account if the account
still has it.

The web client signs in with the same two steps: `request_link`, then `redeem_link` for the
player it names.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable

from service.errors import ErrorCode, ServiceError, TooMany, Words
from service.notify import emails
from service.settings import Settings
from service.words import gettext, ngettext, speaking
from store.connection import StoreUnavailable
from store.players import PlayerStore, address_hash
from store.quota import AddressQuota
from store.schedule import ScheduleStore
from transports.mailer import Mailer

SIGN_IN_EVENT = "sign_in.link"
LETTERS = "letters"  # the address quota's kind: sign-in and confirmation letters
LISTED_ACCOUNTS = 20
"""The most accounts one letter names (those confirmed for the address, then the oldest)."""
_LINK = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_ADDRESS = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
log = logging.getLogger(__name__)


class SignIn:
    def __init__(
        self,
        players: PlayerStore,
        schedule: ScheduleStore,
        mailer: Mailer,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        quota: AddressQuota | None = None,
    ):
        self.players = players
        self.schedule = schedule
        self.mailer = mailer
        self.settings = settings
        self.clock = clock
        self.quota = quota or AddressQuota(players.r, clock)

    def request_link(self, email: str) -> None:
        """Ask for a sign-in letter to `email`: TooMany past the address's quota; otherwise
        the same for every address."""
        address = (email or "").strip().lower()
        if not _ADDRESS.fullmatch(address) or len(address) > 254:
            raise ServiceError(ErrorCode.REQUEST_INVALID, "that is not an email address")
        try:
            address = emails.mailable(address)
        except ValueError as err:
            raise ServiceError(ErrorCode.REQUEST_INVALID, err.args[0]) from err
        wait = self._take(address)
        if wait:
            raise TooMany(
                Words(
                    "too many sign-in links were sent to this address (at most %(most)d an "
                    "hour, whoever asks); wait the Retry-After seconds",
                    most=self.settings.sign_in_per_address_per_hour,
                ),
                retry_after=int(wait),
            )
        self._schedule(address, "sign_in")

    def ask_confirmation(self, email: str | None) -> bool:
        """A player gave `email` (registering, or changing their address): send it the letter
        that confirms it, within the address's quota; past it, nothing (the owner can ask
        for a sign-in link later). Whether a letter was asked for."""
        try:
            address = emails.mailable((email or "").strip().lower())
        except ValueError:
            return False
        if not _ADDRESS.fullmatch(address) or len(address) > 254 or self._take(address):
            return False
        self._schedule(address, "confirm")
        return True

    def _take(self, address: str) -> float:
        return self.quota.take(LETTERS, address, self.settings.sign_in_per_address_per_hour, 3600)

    def _schedule(self, address: str, why: str) -> None:
        # any id places an item in a bucket of the schedule: the address's own is as good
        item = {"kind": "sign_in", "email": address, "why": why}
        self.schedule.add(address, int(self.clock() * 1000), item)

    def send_due(self, item: dict) -> str:
        """Send the letter of a schedule item (`_schedule`'s): "sent", "none" (no player has
        the address), "retry" (the send failed: the mail server away, refusing or silent; the
        item comes due again after EMAIL_RETRY_SECONDS, doubling at each attempt) or "failed"
        (given up after EMAIL_ATTEMPTS). It raises only when Redis does: a failed send must
        not fail the clock's batch, whose other items would be carried out again."""
        attempt, why = item.get("attempt", 1), item.get("why", "sign_in")
        try:
            return "sent" if self.send_links(item["email"], why) else "none"
        except StoreUnavailable:
            raise
        except Exception as err:
            if attempt >= self.settings.email_attempts:
                log.warning("a %s letter given up after %d attempts: %s", why, attempt, err)
                return "failed"
            delay = self.settings.email_retry_seconds * 2 ** (attempt - 1)
            log.warning("a %s letter failed (%s); again in %g s", why, err, delay)
            again = {**item, "attempt": attempt + 1}
            self.schedule.add(item["email"], int((self.clock() + delay) * 1000), again)
            return "retry"

    def send_links(self, email: str, why: str = "sign_in") -> int:
        """Email the address one letter with a fresh link for each player registered with it
        (run by a worker); how many letters went (0 when no player has the address)."""
        address = (email or "").strip().lower()
        accounts = []
        for player_id in self.players.with_email(address):
            profile = self.players.get(player_id)
            if not profile or (profile.get("email") or "").strip().lower() != address:
                continue
            if profile.get("suspended"):  # an operator suspended them: no sign-in
                continue
            confirmed = self.players.email_confirmed(player_id, profile)
            accounts.append((not confirmed, profile.get("created_at", 0), player_id, profile))
        if not accounts:
            return 0
        accounts.sort(key=lambda account: account[:3])
        listed = accounts[:LISTED_ACCOUNTS]
        links = []
        for unconfirmed, _, player_id, profile in listed:
            link = secrets.token_urlsafe(32)
            self.players.add_sign_in_link(
                link, player_id, address, self.settings.sign_in_link_seconds
            )
            links.append((profile["name"], not unconfirmed, link))
        with speaking(listed[0][3].get("language")):  # the first account's language
            letter = self._letter(address, links, len(accounts) - len(listed), why)
        self.mailer.send(letter)
        return 1

    def _letter(self, address: str, links: list[tuple[str, bool, str]], more: int, why: str):
        minutes = max(1, round(self.settings.sign_in_link_seconds / 60))
        url = f"{self.settings.public_url}/sign-in/"
        confirmed = [
            (gettext("Sign in as %(name)s", name=name), url + link)
            for name, ok, link in links
            if ok
        ]
        unconfirmed = [
            (gettext("Sign in as %(name)s", name=name), url + link)
            for name, ok, link in links
            if not ok
        ]
        sections: list[tuple[str, list[str | tuple[str, str]]]] = []
        if confirmed:
            sections.append((gettext("Accounts with this address:"), list(confirmed)))
        if unconfirmed:
            sections.append(
                (
                    gettext(
                        "Accounts that gave this address, not confirmed yet (following the link "
                        "confirms that the address is yours for that account; if it is not "
                        "yours, ignore it: it emails you nothing):"
                    ),
                    list(unconfirmed),
                )
            )
        if more:
            sections.append(
                (
                    ngettext(
                        "%(num)d more account gave this address; ask again to sign in to it.",
                        "%(num)d more accounts gave this address; ask again to sign in to them.",
                        more,
                    ),
                    [],
                )
            )
        one = links[0][0] if len(links) == 1 and not more else None
        if why == "confirm":
            subject = gettext("[turnpost] Confirm your email address")
            lead = gettext(
                "Someone, we hope you, gave this address to turnpost. Open the link and press "
                "its button: that confirms the address and signs you in, in that browser. "
                "Until then turnpost sends this address nothing else."
            )
        else:
            subject = (
                gettext("[turnpost] Your sign-in link")
                if one
                else gettext("[turnpost] Your sign-in links")
            )
            lead = gettext(
                "Someone, we hope you, asked to sign in to turnpost with this address. Open a "
                "link and press its button: you are signed in, in that browser. Lost your API "
                "token? Once in, Settings makes you a new one."
            )
        works = ngettext(
            "Each link works once, within %(num)d minute.",
            "Each link works once, within %(num)d minutes.",
            minutes,
        )
        letter = emails.Letter(
            subject=subject,
            greeting=emails.hello(one),
            lead=f"{lead} {works}",
            sections=sections,
            footer=gettext("If you did not ask for this, ignore this email: nothing changes."),
        )
        delivery_id = "sign-in-" + hashlib.sha256(links[0][2].encode()).hexdigest()[:16]
        return emails.layout(
            letter,
            one or "",
            address,
            self.settings.mail_from,
            delivery_id,
            headers={"X-Turnpost-Event": SIGN_IN_EVENT},
        )

    def link_player(self, link: str) -> str | None:
        """The player a link would sign in, without using it; None for a link that is not
        valid (malformed, forged, used or expired: they look the same)."""
        found = self.players.sign_in_link_player(link) if _LINK.fullmatch(link or "") else None
        return None if found is None else found[0]

    def redeem_link(self, link: str) -> str | None:
        """Use the link: the player it signs in, once; None as for link_player. Following it
        proves that its reader reads the address it was emailed to: if the player still has
        that address, it is confirmed for them."""
        found = self.players.take_sign_in_link(link) if _LINK.fullmatch(link or "") else None
        if found is None:
            return None
        player_id, emailed_to = found
        profile = self.players.get(player_id) or {}
        email = profile.get("email")
        if emailed_to is not None and email and address_hash(email) == emailed_to:
            self.players.confirm_email(player_id, email)
        return player_id
