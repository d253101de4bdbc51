"""The snapshot: a game as of its last event, folded from its log (store.record's events).

It holds everything, the secret seed included, so it stays in `service/play` (which folds it
and builds each reader's table from it, service/play/table.py) and the store: an import-linter
contract in pyproject.toml forbids importing this module anywhere else. A surface renders a
seat's table, never the snapshot.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from store.record import ProposalKind, SeatCalendar, SeatRecord, TimeControl, TournamentLink


class OpenProposal(TypedDict):
    """A proposal still waiting for answers (store.record.ProposalMade, folded)."""

    id: int
    seat: int
    kind: ProposalKind
    deadline: int
    waiting: list[int]
    accepted: list[int]
    move: NotRequired[int]
    days: NotRequired[int]


class LastMove(TypedDict):
    version: int
    seat: int
    undoable: bool
    """engine.match.can_take_back's answer for it, when it was played."""


class Agreements(TypedDict):
    """What proposals need of a started game (service/play/agreements.py)."""

    open: list[OpenProposal]
    last_move: LastMove | None
    """The game's last move, while nothing else (a timeout, a resignation, a takeback) has
    happened to the match since."""
    turns: list[int]
    """Turns each seat has begun (a seat's steps in a row count as one)."""
    last_actor: int | None
    paused_until: int | None
    """The clocks run again from this time (ms), after an accepted pause."""
    pauses: NotRequired[list[list[int]]]
    """Each accepted pause, [start, end) in epoch ms (absent: none accepted yet)."""


class Snapshot(TypedDict):
    """A game as of its last event: `service.play.history.fold` is the only code that makes
    one. Server-side: summaries and views are built from it by whitelist."""

    id: str
    game: str
    rules_version: int
    options: dict[str, Any]
    time_control: TimeControl | None
    commitment: str
    seats: list[SeatRecord]
    status: Literal["open", "active", "finished", "cancelled"]
    match: dict[str, Any] | None
    """The engine's match (engine.match): state, counter, outcome, seat_since; None until the
    game starts."""
    deadlines: list[int | None]
    active_seats: list[int]
    timed_out: list[int]
    created_at: int
    secret_seed: str
    revealed_seed: str | None
    created_by: str | None
    if_declined: str
    declined: list[dict[str, Any]]
    rated: NotRequired[bool]
    """Whether the game counts for the players' ratings (absent: created before ratings, not
    rated)."""
    tournament: NotRequired[TournamentLink | None]
    """The tournament the game is a part of (absent or None: none)."""
    version: int
    updated_at: int
    agreements: NotRequired[Agreements]
    """From the start of a game on (absent in a game started before proposals were)."""
    calendars: NotRequired[list[SeatCalendar | None]]
    """What the game recorded of each seat's player's calendar (absent in a snapshot stored
    before clocks had calendars: none)."""
    clocks: NotRequired[list[dict[str, Any]] | None]
    """Each seat's clock ({"bank": ms, "since": epoch ms or None}: service.play.clock), once the
    game has started with a time control (absent in a snapshot stored before banks: read from
    its deadlines)."""
    hidden_messages: NotRequired[list[int]]
    """The versions of the messages an operator hid (absent while there is none)."""
    closed_version: NotRequired[int]
    """A finished or cancelled game's version when a player of it first deleted their account
    (absent before): the commit that ended it is told of (service.notify.notifications.notices),
    never the deletions after."""
    deleted_players: NotRequired[list[str]]
    """The players of the game who deleted their account (absent while there is none): their
    seats' and refusals' names read `history.DELETED_NAME`, and no list of theirs is written."""
