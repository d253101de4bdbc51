"""One-click moves: a signed link per legal move in a turn email, played only after the
player confirms on a small page (a mail scanner that fetches every link must not play).

A link is bound to the game, the seat, the version the email was written for and the move; it
expires with the turn's clock (or after LIFETIME_WITHOUT_CLOCK) and works once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from engine import match as runner
from store.notifications import NotificationStore

from .errors import ServiceError
from .games import GameService
from .links import LinkError, MoveLink, read_link, sign_link
from .settings import Settings

LIFETIME_WITHOUT_CLOCK = 14 * 24 * 3600


@dataclass(frozen=True)
class LinkState:
    status: str            # ready | played | used | stale | expired | invalid | refused
    message: str
    link: MoveLink | None = None

    @property
    def game_id(self) -> str | None:
        return self.link.game_id if self.link else None


class OneClick:
    def __init__(self, games: GameService, notes: NotificationStore, settings: Settings,
                 clock: Callable[[], float] = time.time):
        self.games = games
        self.notes = notes
        self.settings = settings
        self.clock = clock

    @cached_property
    def secret(self) -> bytes:
        """The server's signing key: made once and kept in Redis, so read once per process."""
        return self.notes.server_secret()

    def links(self, snap: dict, seat: int, moves: list[str]) -> list[tuple[str, str]]:
        """(notation, url) for each move, when there are few enough to list."""
        if not moves or len(moves) > self.settings.one_click_max_moves:
            return []
        deadline = snap["deadlines"][seat]
        expires = (deadline // 1000 if deadline is not None
                   else int(self.clock()) + LIFETIME_WITHOUT_CLOCK)
        secret = self.secret
        return [(move, f"{self.settings.public_url}/m/"
                       f"{sign_link(secret, snap['id'], seat, snap['version'], move, expires)}")
                for move in moves]

    def inspect(self, token: str) -> LinkState:
        """What opening the link would do, without doing it."""
        try:
            link = read_link(self.secret, token, self.clock())
        except LinkError as err:
            if err.code == "link/expired":
                return LinkState("expired", "This link has expired: the turn it was made "
                                            "for is over.")
            return LinkState("invalid", "This link is not valid. Was it copied whole?")
        if self.notes.is_claimed(f"link-{link.link_id}"):
            return LinkState("used", "This link was already used.", link)
        snap = self.games.games.snapshot(link.game_id)
        if snap is None or snap["status"] != "active" or link.seat not in snap["active_seats"] \
                or not runner.is_current(snap["match"], link.seat, link.version,
                                         snap["version"]):
            return LinkState("stale", "The game has moved on since this email: this move "
                                      "can no longer be played from it.", link)
        return LinkState("ready", f"Play {link.notation}?", link)

    def confirm(self, token: str) -> LinkState:
        """Play the link's move, once."""
        state = self.inspect(token)
        if state.status != "ready":
            return state
        link = state.link
        if not self.notes.claim(f"link-{link.link_id}"):
            return LinkState("used", "This link was already used.", link)
        snap = self.games.load(link.game_id)
        player_id = snap["seats"][link.seat]["player_id"]
        try:
            answer = self.games.play(link.game_id, player_id, link.version,
                                     notation=link.notation,
                                     idempotency_key=f"link-{link.link_id}")
        except ServiceError as err:
            return LinkState("refused", f"The move was not played: {err.message}", link)
        return LinkState("played", f"Played {answer['move']}.", link)
