"""The API's server-sent event streams (a game's log, a player's events), answered alike: a
slot among the few streams one player may hold, a `retry:` hint at once, the events as they
come, a keep-alive comment when nothing came for a while, and an end after STREAM_SECONDS
(the client reconnects with Last-Event-ID) or when nothing more will come."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, request

from service.errors import ErrorCode, ServiceError, TooMany, Words

from . import context


@dataclass(frozen=True)
class Event:
    id: Any  # what the client resumes after (Last-Event-ID), and the waiter's next `after`
    name: str
    data: dict


Waiter = Callable[[Any, int], tuple[list[Event], bool]]
"""Given the id of the last event sent and how long to wait (ms): the events after it, and
whether the stream is over (nothing more will come)."""


def event_stream(player: str, after: Any, wait: Waiter) -> Response:
    door = context.front_door()
    slots = context.stream_slots()
    slot = slots.take(player, door.streams_per_player)
    if slot is None:
        raise TooMany(
            Words(
                "you have %(most)d event streams open, the most one player may: close one first",
                most=door.streams_per_player,
            ),
            retry_after=door.stream_retry_ms // 1000 or 1,
            error=ErrorCode.STREAM_TOO_MANY,
        )
    until = time.monotonic() + current_app.config["STREAM_SECONDS"]
    keepalive_ms = int(door.stream_keepalive_seconds * 1000)
    # the first wait is shorter by a random part, so that streams opened together (a
    # restart, a benchmark) do not all wake at the same instant ever after
    first_wait_ms = int(keepalive_ms * random.uniform(0.5, 1.0))

    def events(after: Any = after, wait_ms: int = first_wait_ms) -> Iterator[str]:
        yield f"retry: {door.stream_retry_ms}\n\n"
        while True:
            left_ms = int((until - time.monotonic()) * 1000)
            found, over = wait(after, min(wait_ms, max(left_ms, 1)))
            wait_ms = keepalive_ms
            for event in found:
                after = event.id
                yield f"id: {event.id}\nevent: {event.name}\ndata: {json.dumps(event.data)}\n\n"
            if over or left_ms <= 0:
                return
            if not found:
                yield ": keep-alive\n\n"

    response = Response(
        events(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(lambda: slots.release(player, slot))
    return response


def resume_point(event_id: re.Pattern[str], kind: str) -> str | None:
    """Where the client resumes: its Last-Event-ID header, or else its `after` query parameter
    (for a client that cannot send the header); None when it sent neither. Each one given
    must be an event id of this stream (`kind` says what one looks like), else 422."""
    given = [request.headers.get("Last-Event-ID"), request.args.get("after")]
    if any(raw and not event_id.fullmatch(raw) for raw in given):
        raise ServiceError(
            ErrorCode.REQUEST_INVALID, Words("Last-Event-ID and after must be %(kind)s", kind=kind)
        )
    return next((raw for raw in given if raw), None)


def event_schema(
    id_pattern: str, id_description: str, event: dict[str, Any], data_description: str
) -> dict[str, Any]:
    """The OpenAPI form of one server-sent event: its id, its name (`event` narrows it) and its
    data, JSON in a string."""
    return {
        "type": "object",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": f"^{id_pattern}$", "description": id_description},
            "event": {"type": "string", **event},
            "data": {"type": "string", "description": data_description},
        },
    }


def resume_parameters(
    schema: dict[str, Any], header_description: str, query_description: str
) -> list[dict[str, Any]]:
    """The OpenAPI parameters `resume_point` reads: Last-Event-ID and `after`."""
    return [
        {
            "name": name,
            "in": place,
            "required": False,
            "schema": schema,
            "description": description,
        }
        for name, place, description in [
            ("Last-Event-ID", "header", header_description),
            ("after", "query", query_description),
        ]
    ]
