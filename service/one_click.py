"""One-click moves: a signed link per legal move in a turn email, played only after the
player confirms on a small page (a mail scanner that fetches every link must not play).

A link is bound to the game, the seat, the version the email was written for and the move; it
expires with the turn's clock (or after LIFETIME_WITHOUT_CLOCK) and works once.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from engine import match as runner
from store.notifications import NotificationStore

from .errors import ServiceError
from .games import GameService
from .links import LinkError, MoveLink, read_link, sign_link
from .secrets import ServerKeys
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
                 keys: ServerKeys, clock: Callable[[], float] = time.time):
        self.games = games
        self.notes = notes
        self.settings = settings
        self.keys = keys
        self.clock = clock

    def _read(self, token: str) -> MoveLink:
        """The link, if any of the link keys signed it (the first signs; the others are
        older keys, still accepted while their links live)."""
        keys = self.keys.link_keys
        for key in keys[:-1]:
            try:
                return read_link(key, token, self.clock())
            except LinkError as err:
                if err.code != "link/bad_signature":
                    raise
        return read_link(keys[-1], token, self.clock())

    def links(self, snap: dict, seat: int, moves: list[str]) -> list[tuple[str, str]]:
        """(notation, url) for each move, when there are few enough to list."""
        if not moves or len(moves) > self.settings.one_click_max_moves:
            return []
        deadline = snap["deadlines"][seat]
        expires = (deadline // 1000 if deadline is not None
                   else int(self.clock()) + LIFETIME_WITHOUT_CLOCK)
        secret = self.keys.link_keys[0]
        return [(move, f"{self.settings.public_url}/m/"
                       f"{sign_link(secret, snap['id'], seat, snap['version'], move, expires)}")
                for move in moves]

    def inspect(self, token: str) -> LinkState:
        """What opening the link would do, without doing it."""
        try:
            link = self._read(token)
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
        link = state.link
        if state.status != "ready" or link is None:  # a ready state always has its link
            return state
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
