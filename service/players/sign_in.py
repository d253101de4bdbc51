"""Signing in by email: a player asks for a link at their address (the web client's sign-in
page, or POST /v1/sign-in for a lost API token), and following it signs their browser in to
the web client, whose settings make a new API token.

The request answers the same whoever owns the address, and does the same work: it counts the
request against the address's hourly quota (refused past it, registered or not) and leaves
an item in the clock's schedule; a worker then sends one link to each player registered with
that address, and nothing to an address no player has. So neither the answer nor its timing
tells who is registered. A link is 256 random bits; Redis keeps its SHA-256 for
SIGN_IN_LINK_SECONDS, and it works once. Opening it changes nothing (mail scanners fetch
links): the page's button does.

The web client signs in with the same two steps: `request_link`, then `redeem_link` for the
player it names.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable

from service.errors import ErrorCode, ServiceError, TooMany
from service.notify import emails
from service.settings import Settings
from store.players import PlayerStore
from store.schedule import ScheduleStore
from transports.mailer import Mailer

SIGN_IN_EVENT = "sign_in.link"
_LINK = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_ADDRESS = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class SignIn:
    def __init__(
        self,
        players: PlayerStore,
        schedule: ScheduleStore,
        mailer: Mailer,
        settings: Settings,
        clock: Callable[[], float] = time.time,
    ):
        self.players = players
        self.schedule = schedule
        self.mailer = mailer
        self.settings = settings
        self.clock = clock

    def request_link(self, email: str) -> None:
        """Ask for sign-in links to be emailed to `email`: TooMany past the address's quota;
        otherwise the same for every address."""
        address = (email or "").strip().lower()
        if not _ADDRESS.fullmatch(address) or len(address) > 254:
            raise ServiceError(ErrorCode.REQUEST_INVALID, "that is not an email address")
        count, left = self.players.count_sign_in_request(address)
        if count > self.settings.sign_in_per_address_per_hour:
            raise TooMany(
                f"too many sign-in links were asked for this address (at most "
                f"{self.settings.sign_in_per_address_per_hour} an hour); wait the "
                f"Retry-After seconds",
                retry_after=left,
            )
        # any id places an item in a bucket of the schedule: the address's own is as good
        self.schedule.add(address, int(self.clock() * 1000), {"kind": "sign_in", "email": address})

    def send_links(self, email: str) -> int:
        """Email a fresh link to each player registered with the address (run by a worker);
        how many went."""
        sent = 0
        for player_id in self.players.with_email(email):
            profile = self.players.get(player_id)
            if not profile or (profile.get("email") or "").strip().lower() != email:
                continue
            if profile.get("suspended"):  # an operator suspended them: no sign-in
                continue
            link = secrets.token_urlsafe(32)
            self.players.add_sign_in_link(link, player_id, self.settings.sign_in_link_seconds)
            self.mailer.send(self._letter(profile, link))
            sent += 1
        return sent

    def _letter(self, profile: dict, link: str):
        minutes = max(1, round(self.settings.sign_in_link_seconds / 60))
        letter = emails.Letter(
            subject="[turnpost] Your sign-in link",
            greeting=f"Hello {profile['name']},",
            lead=(
                f"Someone, we hope you, asked to sign in to turnpost as {profile['name']}. "
                f"Open the link and press its button: you are signed in, in that browser. "
                f"Lost your API token? Once in, Settings makes you a new one. The link works "
                f"once, within {minutes} minutes."
            ),
            links=[("Sign in", f"{self.settings.public_url}/sign-in/{link}")],
            footer="If you did not ask for this, ignore this email: nothing changes.",
        )
        delivery_id = "sign-in-" + hashlib.sha256(link.encode()).hexdigest()[:16]
        return emails.layout(
            letter,
            profile["name"],
            profile["email"],
            self.settings.mail_from,
            delivery_id,
            headers={"X-Turnpost-Event": SIGN_IN_EVENT},
        )

    def link_player(self, link: str) -> str | None:
        """The player a link would sign in, without using it; None for a link that is not
        valid (malformed, forged, used or expired: they look the same)."""
        return self.players.sign_in_link_player(link) if _LINK.fullmatch(link or "") else None

    def redeem_link(self, link: str) -> str | None:
        """Use the link: the player it signs in, once; None as for link_player."""
        return self.players.take_sign_in_link(link) if _LINK.fullmatch(link or "") else None
