"""Links in turn emails that play without an API token.

- A **turn page** (`/t/<token>`): the board as the seat sees it and forms that compose any of
  its legal moves (service.play.composer). Its link carries no move: it is bound to the game, the
  seat and the version the email was written for, and opens while that turn is on; after a
  move, the page of the next step (when the turn goes on) has a fresh link.
- A **one-click move** (`/m/<token>`), when a turn has few legal moves: a signed link per
  move, played only after the player confirms (a mail scanner that fetches every link must
  not play); it works once.

Both expire with the turn's clock (or after LIFETIME_WITHOUT_CLOCK).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from engine import match as runner
from service.errors import ServiceError
from service.notify.links import LinkError, MoveLink, read_link, sign_link
from service.play import composer, history, move_words
from service.play.games import GameService
from service.secrets import ServerKeys
from service.settings import Settings
from store.notifications import NotificationStore
from store.record import Snapshot

LIFETIME_WITHOUT_CLOCK = 14 * 24 * 3600
SEAT_GIVEN_UP = "The move was not played: this seat was given up before the game began."


class TurnLinks(NamedTuple):
    turn_page: str
    moves: dict[str, str]
    """notation -> its one-click link"""


TURN_PAGE = ""
"""The notation a turn page's link carries: none (a move link always names its move)."""


@dataclass(frozen=True)
class TurnPage:
    status: str  # ready | played | refused | stale | over | expired | invalid
    message: str
    link: MoveLink | None = None
    snap: Snapshot | None = None
    legal: list[dict] = field(default_factory=list)
    forms: list[composer.Form] = field(default_factory=list)
    caused: list[str] = field(default_factory=list)
    """After a move: the log lines since the page's version, as this seat may read them."""
    next_url: str | None = None
    """After a move, when the turn goes on: the page of its next step."""


@dataclass(frozen=True)
class LinkState:
    status: str  # ready | played | used | stale | expired | invalid | refused
    message: str
    link: MoveLink | None = None

    @property
    def game_id(self) -> str | None:
        return self.link.game_id if self.link else None


class OneClick:
    def __init__(
        self,
        games: GameService,
        notes: NotificationStore,
        settings: Settings,
        keys: ServerKeys,
        clock: Callable[[], float] = time.time,
    ):
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

    def links(self, snap: Snapshot, seat: int, moves: list[str]) -> TurnLinks:
        """A turn email's links: its turn page, and a link per move when there are few
        enough (ONE_CLICK_MAX_MOVES)."""
        turn_page = self.turn_url(snap, seat)
        if not moves or len(moves) > self.settings.one_click_max_moves:
            return TurnLinks(turn_page, {})
        secret, expires = self.keys.link_keys[0], self._expires(snap, seat)
        return TurnLinks(
            turn_page,
            {
                move: f"{self.settings.public_url}/m/"
                f"{sign_link(secret, snap['id'], seat, snap['version'], move, expires)}"
                for move in moves
            },
        )

    def turn_url(self, snap: Snapshot, seat: int) -> str:
        token = sign_link(
            self.keys.link_keys[0],
            snap["id"],
            seat,
            snap["version"],
            TURN_PAGE,
            self._expires(snap, seat),
        )
        return f"{self.settings.public_url}/t/{token}"

    def _expires(self, snap: Snapshot, seat: int) -> int:
        deadline = snap["deadlines"][seat]
        return (
            deadline // 1000 if deadline is not None else int(self.clock()) + LIFETIME_WITHOUT_CLOCK
        )

    # -- the turn page -----------------------------------------------------------------------

    def open_turn(self, token: str) -> TurnPage:
        """The turn page's content: what the seat sees and may do, if the turn is still on."""
        try:
            link = self._read(token)
        except LinkError as err:
            if err.code == "link/expired":
                return TurnPage(
                    "expired", "This link has expired: the turn it was made for is over."
                )
            return TurnPage("invalid", "This link is not valid. Was it copied whole?")
        if link.notation != TURN_PAGE:
            return TurnPage("invalid", "This is a link for one move, not a turn page.")
        snap = self.games.games.snapshot(link.game_id)
        if snap is None:
            return TurnPage("invalid", "There is no such game.")
        page = TurnPage("ready", "", link, snap)
        if snap["status"] != "active":
            return replace(page, status="over", message="The game is over.")
        if link.seat not in snap["active_seats"] or not runner.is_current(
            history.match_of(snap), link.seat, link.version, snap["version"]
        ):
            return replace(
                page,
                status="stale",
                message=(
                    "The game has moved on since this page was made: your latest email has the "
                    "page for your turn now."
                ),
            )
        game = history.game_of(snap)
        legal = runner.legal_actions(game, history.match_of(snap), link.seat)
        return replace(page, legal=legal, forms=composer.forms(legal, game.info.field_words))

    def play_turn(self, token: str, fields: Mapping[str, str]) -> TurnPage:
        """Play the move the submitted form describes; the page after it (the next step's,
        when the turn goes on, with what the move caused)."""
        page = self.open_turn(token)
        if page.status != "ready" or page.link is None or page.snap is None:
            return page
        link, snap = page.link, page.snap
        action = composer.action_from(fields, page.legal)
        if action is None:
            return replace(
                page,
                status="refused",
                message=("That combination is not one of your legal moves: choose again."),
            )
        player_id = snap["seats"][link.seat]["player_id"]
        if player_id is None:
            return replace(page, status="refused", message=SEAT_GIVEN_UP)
        try:
            answer = self.games.play(
                link.game_id,
                player_id,
                link.version,
                action=action,
                idempotency_key=f"turn-{link.link_id}",
            )
        except ServiceError as err:
            return replace(
                page, status="refused", message=f"The move was not played: {err.message}"
            )
        after = self.games.games.snapshot(link.game_id) or snap
        caused = self.games.log(link.game_id, player_id, after=link.version)["entries"]
        played = replace(
            page,
            status="played",
            message=f"You played {answer['move']}.",
            snap=after,
            legal=[],
            forms=[],
            caused=[line["text"] for e in caused for line in e["lines"]],
        )
        if (
            after["status"] == "active"
            and link.seat in after["active_seats"]
            and history.match_of(after)["seat_since"][link.seat] > link.version
        ):
            return replace(played, next_url=self.turn_url(after, link.seat))
        return played

    def inspect(self, token: str) -> LinkState:
        """What opening the link would do, without doing it."""
        try:
            link = self._read(token)
        except LinkError as err:
            if err.code == "link/expired":
                return LinkState(
                    "expired", "This link has expired: the turn it was made for is over."
                )
            return LinkState("invalid", "This link is not valid. Was it copied whole?")
        if self.notes.is_claimed(f"link-{link.link_id}"):
            return LinkState("used", "This link was already used.", link)
        snap = self.games.games.snapshot(link.game_id)
        if (
            snap is None
            or snap["status"] != "active"
            or link.seat not in snap["active_seats"]
            or not runner.is_current(
                history.match_of(snap), link.seat, link.version, snap["version"]
            )
        ):
            return LinkState(
                "stale",
                "The game has moved on since this email: this move "
                "can no longer be played from it.",
                link,
            )
        action = history.game_of(snap).parse(link.notation)  # still legal: the turn is current
        words = move_words.describe_move(snap, link.seat, action)
        return LinkState("ready", f"{words} ({link.notation})?", link)

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
        if player_id is None:
            return LinkState("refused", SEAT_GIVEN_UP, link)
        try:
            answer = self.games.play(
                link.game_id,
                player_id,
                link.version,
                notation=link.notation,
                idempotency_key=f"link-{link.link_id}",
            )
        except ServiceError as err:
            return LinkState("refused", f"The move was not played: {err.message}", link)
        return LinkState("played", f"Played {answer['move']}.", link)
