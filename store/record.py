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
    per_move_seconds: int
    on_timeout: str


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
    tournament: NotRequired[TournamentLink | None]
    """The tournament the game is a part of (absent: none)."""


class SeatEvent(Stamp):
    """PlayerJoined and InvitationDeclined: who, at which seat."""

    type: Literal[EventType.PLAYER_JOINED, EventType.INVITATION_DECLINED]
    seat: int
    player_id: str
    name: str


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


Event = (
    GameCreated
    | SeatEvent
    | GameCancelled
    | GameStarted
    | ActionTaken
    | TurnTimedOut
    | PlayerResigned
    | GameEnded
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
