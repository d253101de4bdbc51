"""Links in turn emails that play without an API token.

- A **turn page** (`/t/<token>`): the board as the seat sees it and forms that compose any of
  its legal moves (service.play.composer). Its link carries no move: it is bound to the game, the
  seat and the version the email was written for, and opens while that turn is on; after a
  move, the page of the next step (when the turn goes on) has a fresh link.
- A **one-click move** (`/m/<token>`), when a turn has few legal moves: a signed link per
  move, played only after the player confirms (a mail scanner that fetches every link must
  not play); it works once.

Both expire with the turn's clock (or after LIFETIME_WITHOUT_CLOCK).

- An **invitation's answer** (`/i/<token>`): an invitation email carries a link to accept and
  one to refuse, signed for the invited seat (apart from move links: links.INVITATION). Its
  page asks first; its button answers, as the invited player (`join` or `decline`). An
  invitation answered already (here, in the web client or through the API) is said to be.
  They expire after LIFETIME_WITHOUT_CLOCK.
- A **proposal's answer** (`/p/<token>`): the email of a proposal to answer (take back a move,
  pause the clocks, a shared result, an abort) carries a link to accept and one to decline,
  signed for the asked seat and the proposal (links.PROPOSAL). Its page asks first; its button
  answers, as the player asked (service.play.talk's `answer`). A proposal no longer waiting for
  this seat's answer is said to be. They expire with the proposal's deadline.

Each page's sentences, its table and its refusals are said in the `language` its reader reads
(the page's: web.i18n), from the service's catalogue (service/words.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from service.errors import ErrorCode, ServiceError
from service.notify.links import (
    INVITATION,
    MOVE,
    PROPOSAL,
    LinkError,
    MoveLink,
    read_link,
    sign_link,
)
from service.play.agreements import proposed
from service.play.games import GameService
from service.play.table import SeatTable, Tables
from service.play.talk import Talk
from service.secrets import ServerKeys
from service.settings import Settings
from service.words import N_, gettext, language, said, speaking
from store.notifications import NotificationStore

LIFETIME_WITHOUT_CLOCK = 14 * 24 * 3600
SEAT_GIVEN_UP = N_("The move was not played: this seat was given up before the game began.")
EXPIRED = N_("This link has expired: the turn it was made for is over.")
NOT_VALID = N_("This link is not valid. Was it copied whole?")
NO_GAME = N_("There is no such game.")
USED = N_("This link was already used.")


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
    table: SeatTable | None = None
    """The link's seat's table (after a move: the table then)."""
    next_url: str | None = None
    """After a move, when the turn goes on: the page of its next step."""

    @property
    def moves(self) -> tuple:
        """The moves the page offers: the table's while the turn is on."""
        return self.table.moves if self.table is not None and self.status == "ready" else ()


class InvitationLinks(NamedTuple):
    accept: str
    refuse: str


ACCEPT, REFUSE = "accept", "refuse"
"""The answers an invitation link carries (where a move link has its notation)."""
INVITED_AT = 1
"""The version every invitation is made at (the game's GameCreated reserves its seats)."""


class ProposalLinks(NamedTuple):
    accept: str
    decline: str


DECLINE = "decline"
"""A proposal link's other answer (the first is ACCEPT)."""


@dataclass(frozen=True)
class AnswerState:
    """What an invitation's or a proposal's answer link does, or did."""

    status: str  # ready | accepted | refused (declined) | answered | expired | invalid | failed
    message: str
    game_id: str | None = None
    answer: str | None = None
    """ACCEPT, or REFUSE (an invitation) or DECLINE (a proposal): what the link does."""
    proposal: int | None = None
    """A proposal's link: the proposal it answers."""
    started: bool = False
    """An accepted invitation: the game began with this answer."""


@dataclass(frozen=True)
class LinkState:
    status: str  # ready | played | used | stale | expired | invalid | refused
    message: str
    link: MoveLink | None = None
    player_id: str | None = None
    """Ready: who holds the link's seat (None: it was given up before the game began)."""

    @property
    def game_id(self) -> str | None:
        return self.link.game_id if self.link else None


@dataclass(eq=False)
class OneClick:
    games: GameService
    tables: Tables
    notes: NotificationStore
    settings: Settings
    keys: ServerKeys
    talk: Talk
    clock: Callable[[], float] = time.time

    def _read(self, token: str, purpose: bytes = MOVE) -> MoveLink:
        """The link, if any of the link keys signed it (the first signs; the others are
        older keys, still accepted while their links live)."""
        keys = self.keys.link_keys
        for key in keys[:-1]:
            try:
                return read_link(key, token, self.clock(), purpose)
            except LinkError as err:
                if err.code != "link/bad_signature":
                    raise
        return read_link(keys[-1], token, self.clock(), purpose)

    def links(self, table: SeatTable, moves: list[str]) -> TurnLinks:
        """A turn email's links: its turn page, and a link per move when there are few
        enough (ONE_CLICK_MAX_MOVES)."""
        turn_page = self.turn_url(table)
        if not moves or len(moves) > self.settings.one_click_max_moves:
            return TurnLinks(turn_page, {})
        return TurnLinks(
            turn_page,
            {move: f"{self.settings.public_url}/m/{self._sign(table, move)}" for move in moves},
        )

    def turn_url(self, table: SeatTable) -> str:
        return f"{self.settings.public_url}/t/{self._sign(table, TURN_PAGE)}"

    def _sign(self, table: SeatTable, notation: str) -> str:
        """A link for the table's seat at its version, which lives as long as the seat's
        turn (or LIFETIME_WITHOUT_CLOCK without a clock)."""
        if table.you is None:
            raise ValueError("a link is for a seat: a spectator's table has none")
        deadline = table.you.deadline_ms
        expires = (
            deadline // 1000 if deadline is not None else int(self.clock()) + LIFETIME_WITHOUT_CLOCK
        )
        return sign_link(
            self.keys.link_keys[0], table.game_id, table.you.seat, table.version, notation, expires
        )

    # -- the turn page -----------------------------------------------------------------------

    def open_turn(self, token: str, language: str | None = None) -> TurnPage:
        """The turn page's content: what the seat sees and may do, if the turn is still on,
        in `language`."""
        with speaking(language):
            return self._open_turn(token)

    def _open_turn(self, token: str) -> TurnPage:
        try:
            link = self._read(token)
        except LinkError as err:
            return TurnPage(*_closed(err, EXPIRED))
        if link.notation != TURN_PAGE:
            return TurnPage("invalid", gettext("This is a link for one move, not a turn page."))
        table = self._table(link)
        if table is None:
            return TurnPage("invalid", gettext(NO_GAME))
        page = TurnPage("ready", "", link, table)
        if table.status != "active":
            return replace(page, status="over", message=gettext("The game is over."))
        if not _current(table, link):
            return replace(
                page,
                status="stale",
                message=gettext(
                    "The game has moved on since this page was made: your latest email has the "
                    "page for your turn now."
                ),
            )
        return page

    def play_turn(
        self, token: str, fields: Mapping[str, str], language: str | None = None
    ) -> TurnPage:
        """Play the move the submitted form describes; the page after it (the next step's,
        when the turn goes on, with what the move caused), in `language`."""
        with speaking(language):
            return self._play_turn(token, fields)

    def _play_turn(self, token: str, fields: Mapping[str, str]) -> TurnPage:
        page = self._open_turn(token)
        if page.status != "ready" or page.link is None or page.table is None:
            return page
        link, table = page.link, page.table
        action = table.action_from(fields)
        if action is None:
            return replace(
                page,
                status="refused",
                message=gettext("That combination is not one of your legal moves: choose again."),
            )
        player_id = table.seats[link.seat].player_id
        if player_id is None:
            return replace(page, status="refused", message=gettext(SEAT_GIVEN_UP))
        try:
            answer = self.games.play(
                link.game_id,
                player_id,
                link.version,
                action=action,
                idempotency_key=f"turn-{link.link_id}",
            )
        except ServiceError as err:
            return replace(page, status="refused", message=_not_played(err))
        after = self._table(link) or table
        played = replace(
            page,
            status="played",
            message=gettext("You played %(move)s.", move=answer["move"]),
            table=after,
        )
        if after.your_turn and after.turn_since is not None and after.turn_since > link.version:
            return replace(played, next_url=self.turn_url(after))
        return played

    def _table(self, link: MoveLink) -> SeatTable | None:
        """The link's seat's table now, in the language spoken; None if there is no such
        game."""
        try:
            return self.tables.for_seat(link.game_id, link.seat, language=language())
        except ServiceError as err:
            if err.error is not ErrorCode.GAME_NOT_FOUND:
                raise
            return None

    # -- an invitation's or a proposal's answer links ---------------------------------------

    def _answer_links(
        self,
        path: str,
        purpose: bytes,
        game_id: str,
        seat: int,
        version: int,
        expires: int,
        no: str,
    ) -> list[str]:
        """An invitation's or a proposal's links (/`path`/<token>): to accept, and to answer
        `no`, signed for `purpose` with the first link key."""
        key = self.keys.link_keys[0]
        url = f"{self.settings.public_url}/{path}/"
        return [
            url + sign_link(key, game_id, seat, version, answer, expires, purpose)
            for answer in (ACCEPT, no)
        ]

    def _asked(
        self, token: str, purpose: bytes, no: str, expired: str
    ) -> tuple[AnswerState, MoveLink | None, SeatTable | None]:
        """An invitation's or a proposal's answer link (ACCEPT or `no`, signed for `purpose`):
        "ready", with the link and its seat's table; or why it cannot be answered (`expired`,
        not valid, its game gone)."""
        try:
            link = self._read(token, purpose)
        except LinkError as err:
            return AnswerState(*_closed(err, expired)), None, None
        if link.notation not in (ACCEPT, no):
            return AnswerState("invalid", gettext("This link is not valid.")), None, None
        proposal = link.version if purpose == PROPOSAL else None
        state = AnswerState("ready", "", link.game_id, link.notation, proposal)
        table = self._table(link)
        if table is None:
            return replace(state, status="invalid", message=gettext(NO_GAME)), None, None
        return state, link, table

    # -- an invitation's answer -------------------------------------------------------------

    def invitation_links(self, game_id: str, seat: int) -> InvitationLinks:
        """An invitation email's links: to accept, and to refuse, the seat reserved."""
        expires = int(self.clock()) + LIFETIME_WITHOUT_CLOCK
        return InvitationLinks(
            *self._answer_links("i", INVITATION, game_id, seat, INVITED_AT, expires, REFUSE)
        )

    def inspect_invitation(self, token: str, language: str | None = None) -> AnswerState:
        """What the link would do, without doing it (said in `language`)."""
        with speaking(language):
            return self._invitation(token)[0]

    def _invitation(self, token: str) -> tuple[AnswerState, str | None]:
        """What the link would do, and while it may still be answered, who is invited."""
        expired = N_("This link has expired: answer the invitation on the game's page.")
        state, link, table = self._asked(token, INVITATION, REFUSE, expired)
        if link is None or table is None:
            return state, None
        seat = table.seats[link.seat]
        if table.status != "open" or seat.kind != "invited":
            return replace(
                state,
                status="answered",
                message=gettext(
                    "This invitation has been answered already, or the game was "
                    "cancelled: the game's page shows where it stands."
                ),
            ), None
        invited = gettext(
            "%(name)s, you are invited to a game of %(title)s with %(others)s.",
            name=_unmarked(seat.name),
            title=table.title,
            others=_and([s.name for s in table.seats if s.seat != link.seat]),
        )
        if link.notation == ACCEPT:
            then = gettext(
                "Accept, and you take your seat: the game starts once every invited player has "
                "accepted."
            )
        else:
            then = gettext("Refuse, and you will not be seated in it.")
        return replace(state, message=f"{invited} {then}"), seat.player_id

    def answer_invitation(self, token: str, language: str | None = None) -> AnswerState:
        """Accept or refuse, as the link says, for the player invited to its seat (said in
        `language`)."""
        with speaking(language):
            return self._answer_invitation(token)

    def _answer_invitation(self, token: str) -> AnswerState:
        state, player_id = self._invitation(token)
        if state.status != "ready" or player_id is None or state.game_id is None:
            return state
        try:
            if state.answer == ACCEPT:
                summary = self.games.join(state.game_id, player_id)
            else:
                summary = self.games.decline(state.game_id, player_id)
        except ServiceError as err:
            return replace(state, status="failed", message=_nothing_done(err))
        if state.answer == REFUSE:
            return replace(state, status="refused", message=gettext("You refused the invitation."))
        started = summary["status"] == "active"
        return replace(
            state,
            status="accepted",
            started=started,
            message=gettext("You accepted: the game has begun.")
            if started
            else gettext("You accepted: the game begins once every invited player has accepted."),
        )

    # -- a proposal's answer ---------------------------------------------------------------

    def proposal_links(
        self, game_id: str, seat: int, proposal: int, deadline_ms: int
    ) -> ProposalLinks:
        """A proposal email's links: to accept, and to decline, the proposal the seat is asked
        to answer; they live until the proposal's deadline."""
        expires = deadline_ms // 1000
        return ProposalLinks(
            *self._answer_links("p", PROPOSAL, game_id, seat, proposal, expires, DECLINE)
        )

    def inspect_proposal(self, token: str, language: str | None = None) -> AnswerState:
        """What the link would do, without doing it (said in `language`)."""
        with speaking(language):
            return self._proposal(token)[0]

    def _proposal(self, token: str) -> tuple[AnswerState, str | None]:
        """What the link would do, and while the proposal waits for the seat's answer, who
        holds the seat."""
        expired = N_("This link has expired: the proposal lapsed at its deadline.")
        state, link, table = self._asked(token, PROPOSAL, DECLINE, expired)
        if link is None or table is None:
            return state, None
        player_id = table.seats[link.seat].player_id
        found = next(
            (
                p
                for p in self.talk.proposals(link.game_id, player_id)["proposals"]
                if p["id"] == link.version
            ),
            None,
        )
        if player_id is None or found is None or link.seat not in found["waiting"]:
            return replace(
                state,
                status="answered",
                message=gettext(
                    "This proposal is not waiting for your answer: it was answered, "
                    "withdrawn or lapsed. The game's page shows where it stands."
                ),
            ), None
        proposes = f"{proposed(found, found['name'])}."
        if link.notation == ACCEPT:
            then = gettext("Accept, and it is agreed once every player asked accepts.")
        else:
            then = gettext("Decline, and it is closed: nothing changes.")
        return replace(state, message=f"{proposes} {then}"), player_id

    def answer_proposal(self, token: str, language: str | None = None) -> AnswerState:
        """Accept or decline, as the link says, for the player asked at its seat (said in
        `language`)."""
        with speaking(language):
            return self._answer_proposal(token)

    def _answer_proposal(self, token: str) -> AnswerState:
        state, player_id = self._proposal(token)
        if (
            state.status != "ready"
            or player_id is None
            or state.game_id is None
            or state.proposal is None
        ):
            return state
        accept = state.answer == ACCEPT
        try:
            answer = self.talk.answer(state.game_id, player_id, state.proposal, accept)
        except ServiceError as err:
            return replace(state, status="failed", message=_nothing_done(err))
        if not accept:
            return replace(state, status="declined", message=gettext("You declined the proposal."))
        return replace(
            state,
            status="accepted",
            message=gettext("You accepted: the proposal is agreed.")
            if answer["status"] == "accepted"
            else gettext("You accepted: the others asked are still to answer.")
            if answer["status"] == "open"
            else gettext("You accepted, but what it was about changed first: it is void."),
        )

    # -- a one-click move --------------------------------------------------------------------

    def inspect(self, token: str, language: str | None = None) -> LinkState:
        """What opening the link would do, without doing it (said in `language`)."""
        with speaking(language):
            return self._inspect(token)

    def _inspect(self, token: str) -> LinkState:
        try:
            link = self._read(token)
        except LinkError as err:
            return LinkState(*_closed(err, EXPIRED))
        if self.notes.is_claimed(f"link-{link.link_id}"):
            return LinkState("used", gettext(USED), link)
        table = self._table(link)
        if table is None or table.status != "active" or not _current(table, link):
            return LinkState(
                "stale",
                gettext(
                    "The game has moved on since this email: this move "
                    "can no longer be played from it."
                ),
                link,
            )
        move = next((m for m in table.moves if m.notation == link.notation), None)
        words = move.description if move else link.notation
        return LinkState(
            "ready",
            f"{words}?" if words == link.notation else f"{words} ({link.notation})?",
            link,
            table.seats[link.seat].player_id,
        )

    def confirm(self, token: str, language: str | None = None) -> LinkState:
        """Play the link's move, once (said in `language`)."""
        with speaking(language):
            return self._confirm(token)

    def _confirm(self, token: str) -> LinkState:
        state = self._inspect(token)
        link = state.link
        if state.status != "ready" or link is None:  # a ready state always has its link
            return state
        if not self.notes.claim(f"link-{link.link_id}"):
            return LinkState("used", gettext(USED), link)
        if state.player_id is None:
            return LinkState("refused", gettext(SEAT_GIVEN_UP), link)
        try:
            answer = self.games.play(
                link.game_id,
                state.player_id,
                link.version,
                notation=link.notation,
                idempotency_key=f"link-{link.link_id}",
            )
        except ServiceError as err:
            return LinkState("refused", _not_played(err), link)
        return LinkState("played", gettext("Played %(move)s.", move=answer["move"]), link)


def _closed(err: LinkError, expired: str) -> tuple[str, str]:
    """A link that does not read: its status and message, in the language spoken ("expired"
    and `expired`, or "invalid")."""
    if err.code == "link/expired":
        return "expired", gettext(expired)
    return "invalid", gettext(NOT_VALID)


def _not_played(err: ServiceError) -> str:
    """A move's refusal, its reason in the language spoken (the service's: service.words)."""
    return gettext("The move was not played: %(why)s", why=said(err.message))


def _nothing_done(err: ServiceError) -> str:
    return gettext("Nothing was done: %(why)s.", why=said(err.message))


def _and(names: list[str]) -> str:
    """ "Ada, Bo and Cy" in the language spoken."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(one)s and %(other)s", one=", ".join(names[:-1]), other=names[-1])


def _unmarked(name: str) -> str:
    """An invited seat's name without its mark ("Ann (invited)": "Ann")."""
    return name.removesuffix(gettext("%(name)s (invited)", name=""))


def _current(table: SeatTable, link: MoveLink) -> bool:
    """Whether a move made on the link's version is still current: the seat may act and
    nothing it could act on changed since."""
    return (
        table.your_turn
        and table.turn_since is not None
        and table.turn_since <= link.version <= table.version
    )
