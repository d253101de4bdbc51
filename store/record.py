"""The game record: the events of a game's log (the snapshot is folded from them by
service.play.history).

Events are stored as JSON, one Redis stream entry each, and read back as dicts. Their
vocabulary is one enum, `EventType`, used by every module that writes or reads an event (its
members are strings, so the JSON is unchanged).

Every stored event carries the record's `schema` number. An event is read through `read_event`,
which upgrades an older one (none yet: schema 1 is the first) and refuses one written by a
newer turnpost with `UnreadableRecord`, rather than misread it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

EVENT_SCHEMA = 1
"""The shape of the events written now. Raise it with an upgrade in `_UPGRADES` for the one
before, when an event's fields change meaning."""


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


_UPGRADES: dict[int, Any] = {}
"""schema -> a function from an event of that schema to one of the next."""


def stored(event: dict[str, Any]) -> dict[str, Any]:
    """The event as it is written: with the schema it is written in."""
    return {"schema": EVENT_SCHEMA, **event}


def read_event(event: dict[str, Any]) -> dict[str, Any]:
    """A stored event, in today's shape: upgraded if older, refused if newer."""
    schema = event.get("schema", 1)
    if not isinstance(schema, int) or schema > EVENT_SCHEMA:
        raise UnreadableRecord(
            f"event {event.get('version')} ({event.get('type')}) was written with record schema "
            f"{schema!r}; this turnpost reads schemas up to {EVENT_SCHEMA}: upgrade turnpost"
        )
    while schema < EVENT_SCHEMA:
        event = _UPGRADES[schema](event)
        schema += 1
    return event
