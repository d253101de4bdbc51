"""The game record: the events of a game's log (the snapshot folded from them is in
`store.snapshot`).

Both are stored as JSON (one Redis stream entry per event, the snapshot as one string) and
read back as dicts; their shapes are written once, as TypedDicts, so that every reader
above the store is checked by the type checker against one definition, and the event
vocabulary is one enum (`EventType`; its members are strings, so the JSON is unchanged).

TypedDicts rather than classes: a snapshot is read and written as JSON on every request, and a
TypedDict is the very dict `json` gives, at no cost; a class would add a conversion each way
to the hottest path.

Every stored event carries the record's `schema` number. An event is read through `read_event`,
which refuses one written by a newer turnpost (and will upgrade an older one once there is
one: schema 1 is the first) with `UnreadableRecord`, rather than misread it. The snapshot has no number of
its own: it is a cache of the fold over the log, which `service.play.history.replay` rebuilds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict, cast

EVENT_SCHEMA = 1
"""The shape of the events written now. Raise it, with an upgrade of the older events in
`read_event`, when an event's fields change meaning."""


class EventType(StrEnum):
    GAME_CREATED = "GameCreated"
    PLAYER_JOINED = "PlayerJoined"
    GAME_STARTED = "GameStarted"
    ACTION_TAKEN = "ActionTaken"
    TURN_TIMED_OUT = "TurnTimedOut"
    PLAYER_RESIGNED = "PlayerResigned"
    GAME_ENDED = "GameEnded"
    INVITATION_DECLINED = "InvitationDeclined"
    GAME_CANCELLED = "GameCancelled"
    # table talk (service/play/talk.py): no effect on the match
    MESSAGE_SENT = "MessageSent"
    MESSAGE_HIDDEN = "MessageHidden"
    # proposals the other seats accept or decline (service/play/agreements.py)
    PROPOSAL_MADE = "ProposalMade"
    PROPOSAL_ANSWERED = "ProposalAnswered"
    PROPOSAL_CLOSED = "ProposalClosed"
    CALENDAR_SET = "CalendarSet"
    # a player deleted their account (service/players/own_data.py): their name goes
    PLAYER_DELETED = "PlayerDeleted"


class UnreadableRecord(Exception):
    """A stored event this turnpost cannot read: written by a newer one."""


class PersonSeat(TypedDict):
    """A seat held by a player, or one they are invited to take."""

    kind: Literal["player", "invited"]
    player_id: str
    name: str


class BotSeat(TypedDict):
    kind: Literal["bot"]
    player_id: None
    name: str
    """`bot:<name>`, as the seat was asked for."""
    bot: str


class OpenSeat(TypedDict):
    kind: Literal["open"]
    player_id: None
    name: None


SeatRecord = PersonSeat | BotSeat | OpenSeat


class TimeControl(TypedDict):
    """A game's clock (service/play/clock.py). A game recorded before clocks had kinds has
    `per_move_seconds` and `on_timeout` only: a clock per move, weekends on."""

    kind: NotRequired[Literal["per_move", "bank"]]
    per_move_seconds: NotRequired[int]
    initial_seconds: NotRequired[int]
    increment_seconds: NotRequired[int]
    max_seconds: NotRequired[int]
    weekends_off: NotRequired[bool]
    on_timeout: str


class SeatCalendar(TypedDict):
    """What a game records of a seated player's calendar, for its clock: their time zone (for
    weekends off; None: UTC), their vacations ([start, end) in epoch ms), and the number of
    the player's calendar this copies (`v`: a later copy never gives way to an earlier)."""

    zone: str | None
    vacations: list[list[int]]
    v: int


class Stamp(TypedDict):
    """What every event has once committed: its version in the log and its time (ms)."""

    version: int
    at: int
    schema: NotRequired[int]


class TournamentLink(TypedDict):
    """Where a tournament's game belongs: the tournament, its round and its board."""

    id: str
    round: int
    board: int


class GameCreated(Stamp):
    type: Literal[EventType.GAME_CREATED]
    game_id: str
    game: str
    rules_version: int
    options: dict[str, Any]
    seats: list[SeatRecord]
    time_control: TimeControl | None
    seed: str
    """The hex of the game's 32 secret bytes: server-side, never shown before the end."""
    commitment: str
    created_by: NotRequired[str | None]
    if_declined: NotRequired[str]
    rated: NotRequired[bool]
    """Whether the game counts for its players' ratings (absent: not rated)."""
    calendars: NotRequired[list[SeatCalendar | None]]
    """The calendar of each seat's player, for the seats taken at creation."""
    tournament: NotRequired[TournamentLink | None]
    """The tournament the game is a part of (absent: none)."""


class SeatEvent(Stamp):
    """PlayerJoined and InvitationDeclined: who, at which seat."""

    type: Literal[EventType.PLAYER_JOINED, EventType.INVITATION_DECLINED]
    seat: int
    player_id: str
    name: str
    calendar: NotRequired[SeatCalendar | None]
    """PlayerJoined: the player's calendar when they took the seat."""


class CalendarSet(Stamp):
    """A seated player's calendar changed (a vacation taken, ended or used, a new time zone):
    the game's copy of it, which re-arms the seat's deadline."""

    type: Literal[EventType.CALENDAR_SET]
    seat: int
    calendar: SeatCalendar


class GameCancelled(Stamp):
    type: Literal[EventType.GAME_CANCELLED]
    reason: str


class GameStarted(Stamp):
    type: Literal[EventType.GAME_STARTED]
    entries: list[dict[str, Any]]


class ActionTaken(Stamp):
    type: Literal[EventType.ACTION_TAKEN]
    seat: int
    action: dict[str, Any]
    entries: list[dict[str, Any]]


class TurnTimedOut(Stamp):
    type: Literal[EventType.TURN_TIMED_OUT]
    seat: int
    policy: str
    reason: NotRequired[str]
    """"withdrawn": the seat's player left the game's tournament, and its turns are timed out
    at once (absent: the clock ran out)."""


class PlayerResigned(Stamp):
    type: Literal[EventType.PLAYER_RESIGNED]
    seat: int
    reason: str
    entries: NotRequired[list[dict[str, Any]]]
    """Absent when the seat was left before the game started (the seat opens again)."""


class GameEnded(Stamp):
    type: Literal[EventType.GAME_ENDED]
    outcome: dict[str, Any]
    seed: str
    """The game's seed, revealed: anyone may now check it against GameCreated's commitment."""


class MessageSent(Stamp):
    """A seated player's message to the table, or to one other player (`private`). `to` names
    the seats that may read it, the writer's included: a spectator never does."""

    type: Literal[EventType.MESSAGE_SENT]
    seat: int
    text: str
    to: list[int]
    private: bool


class MessageHidden(Stamp):
    """An operator hid a message (`message`: its version; `turnpost reports hide`): nobody
    reads it from then on; its readers (`to`) read that a message was hidden."""

    type: Literal[EventType.MESSAGE_HIDDEN]
    message: int
    to: list[int]
    reason: str


class PlayerDeleted(Stamp):
    """A player of the game deleted their account: from then on every seat they held or
    declined reads as "a deleted player" (the events before keep what they said: the log is
    never rewritten; every reader names seats from the snapshot)."""

    type: Literal[EventType.PLAYER_DELETED]
    player_id: str


ProposalKind = Literal["takeback", "pause", "draw", "abort"]
ProposalResult = Literal["accepted", "declined", "withdrawn", "lapsed", "void"]


class ProposalMade(Stamp):
    """A seat proposes something the other seats accept or decline: take back its last move
    (`move`: that move's version), pause the clocks (`days`), end the game with a shared
    result, or abort it. Its id is its version. `waiting`: the seats whose yes it needs (the
    other players still in the game); it lapses at `deadline` (ms)."""

    type: Literal[EventType.PROPOSAL_MADE]
    seat: int
    kind: ProposalKind
    deadline: int
    waiting: list[int]
    move: NotRequired[int]
    days: NotRequired[int]


class ProposalAnswered(Stamp):
    """A yes to a proposal that still waits for another seat's."""

    type: Literal[EventType.PROPOSAL_ANSWERED]
    proposal: int
    seat: int


class ProposalClosed(Stamp):
    """The end of a proposal: `accepted` (its effect is folded from this event: the move taken
    back, the clocks paused, the result shared, the game aborted), `declined`, `withdrawn` by
    its proposer, `lapsed` at its deadline, or `void` (what it was about changed first).
    `by`: the seat that closed it (the last yes, the no, the proposer), None for the clock or
    the game; `asked`: the seats whose yes it waited for."""

    type: Literal[EventType.PROPOSAL_CLOSED]
    proposal: int
    kind: ProposalKind
    proposer: int
    result: ProposalResult
    by: int | None
    asked: list[int]


Event = (
    GameCreated
    | SeatEvent
    | GameCancelled
    | GameStarted
    | ActionTaken
    | TurnTimedOut
    | PlayerResigned
    | GameEnded
    | MessageSent
    | MessageHidden
    | ProposalMade
    | ProposalAnswered
    | ProposalClosed
    | CalendarSet
    | PlayerDeleted
)


def stored(event: dict[str, Any]) -> dict[str, Any]:
    """The event as it is written: with the schema it is written in."""
    return {"schema": EVENT_SCHEMA, **event}


def read_event(event: dict[str, Any]) -> Event:
    """A stored event, in today's shape; refused if a newer turnpost wrote it. (Schema 1 is the
    only one yet: the day it changes, the upgrade of an older event goes here.)"""
    schema = event.get("schema", 1)
    if not isinstance(schema, int) or schema > EVENT_SCHEMA:
        raise UnreadableRecord(
            f"event {event.get('version')} ({event.get('type')}) was written with record schema "
            f"{schema!r}; this turnpost reads schemas up to {EVENT_SCHEMA}: upgrade turnpost"
        )
    return cast(Event, event)
