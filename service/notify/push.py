"""Web Push: the devices on which a player turned notifications on (their browsers'
subscriptions), the message a notice becomes, and sending it to each device at most once.

A message is written from the reader's table (service/play/table.py) or, for an invitation,
from names and the game's title: nothing its reader may not know. It is short (a title, a line,
the page it opens) because a push service sees its size and a lock screen shows it to anyone
near the device. Each device's send is claimed in Redis under the delivery id before the POST,
so a job that dies mid-send and runs again never sends it twice to that device; a push service
answering 404 or 410 has forgotten the subscription, and it is removed.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from service.errors import ErrorCode, ServiceError, Words
from service.play.table import SeatTable
from service.secrets import ServerKeys
from service.settings import Settings
from service.timefmt import iso
from service.words import gettext
from store.notifications import NotificationStore
from store.push import PushStore
from transports import web_push
from transports.safe_urls import UnsafeUrl
from transports.web_push import InvalidSubscription, PushResult, Subscription

DEVICE_LENGTH = 64
TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def subscription_id(endpoint: str) -> str:
    """A subscription's id: the same endpoint (a browser subscribing again) gives the same id."""
    return "s_" + hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def shown(subscription: dict[str, Any]) -> dict[str, Any]:
    """A subscription as its player sees it: which device, which push service, since when
    (never its keys)."""
    return {
        "id": subscription["id"],
        "device": subscription["device"],
        "push_service": urlsplit(subscription["endpoint"]).hostname or "",
        "created_at": iso(subscription["created_at"]),
    }


# -- the messages -----------------------------------------------------------------------------


def turn_message(table: SeatTable, event: str, continues: bool, url: str, result: str) -> dict:
    """A turn, a reminder or a game's end, from the reader's table (`result`: the end's words,
    "you won (scores: ...)", for a finished game), in the language spoken (service.words)."""
    others = [s.name for s in table.seats if not s.you]
    with_whom = (
        gettext("%(title)s with %(others)s", title=table.title, others=", ".join(others))
        if others
        else table.title
    )
    you = table.you
    round_ = (table.view or {}).get("round")
    if event == "game.finished":
        title = gettext("%(game)s: the game is over", game=with_whom)
        body = gettext("The game is over: %(reason)s.", reason=result)
    elif event == "turn.reminder":
        title = gettext("%(game)s: reminder", game=with_whom)
        body = (
            gettext("It is still your move (round %(round)s).", round=round_)
            if round_ is not None
            else gettext("It is still your move.")
        )
    elif continues:
        title = gettext("%(game)s: your turn goes on", game=with_whom)
        body = (
            gettext("Your next step (round %(round)s).", round=round_)
            if round_ is not None
            else gettext("Your next step.")
        )
    else:
        title = gettext("%(game)s: your move", game=with_whom)
        body = (
            gettext("It is your move (round %(round)s).", round=round_)
            if round_ is not None
            else gettext("It is your move.")
        )
    if event != "game.finished" and you is not None and you.deadline:
        body += " " + gettext("Deadline: %(deadline)s.", deadline=you.deadline)
    return {"title": title, "body": body.strip(), "url": url}


def invitation_message(
    event: str, title: str, inviter: str, others: list[str], declined_by: str | None, url: str
) -> dict:
    """An invitation, or the news that a game was cancelled: names and the game's title only,
    in the language spoken (service.words)."""
    if event == "game.invited":
        return {
            "title": gettext("%(inviter)s invites you to %(title)s", inviter=inviter, title=title),
            "body": gettext(
                "A game of %(title)s with %(others)s: open it to accept or decline.",
                title=title,
                others=", ".join(others),
            )
            if others
            else gettext("A game of %(title)s: open it to accept or decline.", title=title),
            "url": url,
        }
    return {
        "title": gettext("%(title)s: the game is cancelled", title=title),
        "body": gettext("%(who)s declined, so the game will not start.", who=declined_by)
        if declined_by
        else gettext("An invited player declined, so the game will not start."),
        "url": url,
    }


# -- the devices ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceResult:
    """What became of one device's send: "sent", "retry" (429, 5xx or no answer: its claim
    given back), "gone" (the push service forgot it: removed), "refused" (another answer),
    "duplicate" (it had this delivery before) or "stale" (subscribed with a key rotated since:
    removed)."""

    subscription: dict[str, Any]
    outcome: str
    result: PushResult | None = None


@dataclass(eq=False)
class PushDevices:
    """A player's push subscriptions, and sending a message to each of them."""

    store: PushStore
    notes: NotificationStore
    keys: ServerKeys
    settings: Settings
    clock: Callable[[], float] = time.time

    def public_key(self) -> str:
        """The applicationServerKey browsers subscribe with (base64url)."""
        return self.keys.vapid().public

    def listed(self, player_id: str) -> dict[str, Any]:
        return {
            "application_server_key": self.public_key(),
            "subscriptions": [shown(s) for s in self.store.of(player_id)],
        }

    def add(
        self, player_id: str, endpoint: str, p256dh: str, auth: str, device: str | None = None
    ) -> dict[str, Any]:
        """Keep a browser's subscription (made with the current public key); the same
        endpoint again replaces its keys. 422 when it cannot be used, 409 past the cap."""
        subscription = Subscription(endpoint, p256dh, auth)
        try:
            subscription.check(self.settings.webhook_urls)
        except InvalidSubscription as err:
            raise ServiceError(ErrorCode.PUSH_INVALID_SUBSCRIPTION, err.words) from err
        except UnsafeUrl as err:
            raise ServiceError(ErrorCode.PUSH_UNSAFE_ENDPOINT, err.words) from err
        kept = {
            "id": subscription_id(endpoint),
            "endpoint": endpoint,
            "p256dh": p256dh,
            "auth": auth,
            "key": self.public_key(),
            "device": (device or "").strip()[:DEVICE_LENGTH] or "a browser",
            "created_at": int(self.clock() * 1000),
        }
        if not self.store.add(player_id, kept, self.settings.push_devices_per_player):
            raise ServiceError(
                ErrorCode.PUSH_TOO_MANY,
                Words(
                    "you have %(most)d devices with notifications on: remove one in your "
                    "settings first",
                    most=self.settings.push_devices_per_player,
                ),
            )
        return shown(kept)

    def remove(self, player_id: str, subscription_id: str) -> None:
        if not self.store.remove(player_id, subscription_id):
            raise ServiceError(
                ErrorCode.PUSH_NOT_FOUND,
                Words("you have no push subscription %(id)s", id=subscription_id),
            )

    def send(
        self, player_id: str, delivery_id: str, message: dict, topic: str | None
    ) -> list[DeviceResult]:
        """Send the message to each of the player's devices that has not had this delivery
        yet: each is claimed before its POST (so at most once per device, whatever happens
        next) and given back when the push service could not take it now (429, 5xx, no
        answer), for the retry. A device the push service forgot (404, 410), or subscribed
        with a key rotated since, is removed."""
        keys = self.keys.vapid()
        done = []
        for subscription in self.store.of(player_id):
            if subscription.get("key") != keys.public:
                self.store.remove_if(player_id, subscription)
                done.append(DeviceResult(subscription, "stale"))
                continue
            claim = f"{delivery_id}.{subscription['id']}"
            if not self.notes.claim(claim):
                done.append(DeviceResult(subscription, "duplicate"))
                continue
            result = web_push.send(
                Subscription(
                    subscription["endpoint"], subscription["p256dh"], subscription["auth"]
                ),
                {**message, "delivery_id": delivery_id},
                keys,
                self.settings.push_contact,
                int(self.clock()),
                self.settings.push_ttl_seconds,
                self.settings.push_timeout_seconds,
                self.settings.webhook_urls,
                topic if topic and TOPIC.match(topic) else None,
            )
            if result.ok:
                outcome = "sent"
            elif result.transient:
                self.notes.release(claim)
                outcome = "retry"
            elif result.gone:
                self.store.remove_if(player_id, subscription)
                outcome = "gone"
            else:
                outcome = "refused"
            done.append(DeviceResult(subscription, outcome, result))
        return done
