"""Reads of several stores in one round trip.

A store method that reads a few keys can also hand its read over as a `Read`: the commands it
puts on a pipeline and how it makes its answer of their replies. `at_once` then runs the reads
of several stores on one pipeline, so that a caller who needs them all (a turn email needs the
reader's profile and the game's recent events) waits for Redis once, not once a store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import redis

T = TypeVar("T")


@dataclass(frozen=True)
class Read(Generic[T]):
    """`queue` puts `size` commands on a pipeline; `answer` makes the read's value of their
    replies, in order."""

    queue: Callable[[Any], None]
    size: int
    answer: Callable[[list[Any]], T]

    def run(self, client: redis.Redis) -> T:
        """This read alone, in one round trip."""
        return at_once(client, self)[0]


def at_once(client: redis.Redis, *reads: Read[Any]) -> tuple[Any, ...]:
    """The values of `reads`, in their order, read in one round trip (a pipeline without a
    transaction: on a cluster, redis-py sends each node its commands)."""
    pipe = client.pipeline(transaction=False)
    for read in reads:
        read.queue(pipe)
    replies = pipe.execute()
    values, start = [], 0
    for read in reads:
        values.append(read.answer(replies[start : start + read.size]))
        start += read.size
    return tuple(values)
