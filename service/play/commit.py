"""The write side's one loop (docs/architecture.md, "A move, from request to log"): read the
game's snapshot, decide, fold the decided events into the next snapshot, append them with one
script, write the players' lists; and all again from a fresh read while the append finds that
the game moved on meanwhile (stale).

A decision is a function of a `Draft` of the commit, which starts at the snapshot read: it
refuses with a ServiceError, or adds the events it decides on to the draft, and returns the
answer its caller gets once they are appended. A decision that adds no event answers without
writing anything.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from service.errors import ErrorCode, OutcomeUnknown, ServiceError, game_not_found
from service.play import agreements, history, lists
from store.connection import StoreUnavailable
from store.games import (
    ATTEMPT_TTL,
    IDEMPOTENCY_TTL,
    Appended,
    Commit,
    FirstAnswer,
    GameStore,
    Replayed,
    Stale,
)
from store.players import PlayerStore
from store.record import Event
from store.schedule import member as schedule_member
from store.snapshot import Snapshot

log = logging.getLogger(__name__)

APPEND_ATTEMPTS = 16
OUTCOME_SECONDS = 8.0
"""How long a request whose append's answer was lost waits for the store to come back and
tell whether it was applied, before it answers 503 server/unavailable (outcome unknown)."""
RETRY_AFTER_SECONDS = 5

A = TypeVar("A")
R = TypeVar("R", bound=Mapping[str, object])  # a game's snapshot, a tournament's state


class Drafting(Generic[R]):
    """The next commit on a record (a game's snapshot, a tournament's state) as a decision
    makes it: the record read (`before`, None for a new one), the events added, each stamped
    with the decision's time and the record's next version, and the record they fold into."""

    def __init__(self, before: R | None, now_ms: int) -> None:
        self.before = before
        self.now_ms = now_ms
        self.events: list[Any] = []
        self._after = before

    def _after_them(self, new: str) -> R:
        """The record as the events added so far leave it (`new`: the event a new one's draft
        begins with)."""
        if self._after is None:
            raise ValueError(f"a draft of a new record begins with {new}")
        return self._after

    def _stamped(self, unstamped: dict[str, Any]) -> dict[str, Any]:
        """The event as it will be stored: the decision's time and the record's next version."""
        version = 1 if self._after is None else cast(int, self._after["version"]) + 1
        return {**unstamped, "at": self.now_ms, "version": version}


class Draft(Drafting[Snapshot]):
    """The next commit on a game (see Drafting)."""

    @property
    def snap(self) -> Snapshot:
        """The game as the events added so far leave it."""
        return self._after_them("GameCreated")

    def add(self, unstamped: dict[str, Any], computed: dict[str, Any] | None = None) -> None:
        """Add an event; `computed` is the match the engine computed for it (see history.fold)."""
        event = cast(Event, self._stamped(unstamped))
        self._after = history.fold(self._after, event, computed)
        self.events.append(event)

    def commit(
        self, idempotency: Idempotency | None = None, answer: Any = None, attempt: str = ""
    ) -> Commit:
        """The append of the events on `before`: the snapshot after them, and the deadlines
        that start or stop with it (everything else a commit causes is derived from the outbox
        entry the append writes with it; see service.consequences). `attempt`, the id of the
        request that appends, is written under the request's Idempotency-Key, or without one
        under a key of its own (kept ATTEMPT_TTL), so that a request whose append's answer was
        lost can learn whether it was applied."""
        old, new = deadline_items(self.before), deadline_items(self.snap)
        new_members = {m for _, m in new}
        if idempotency is not None:
            key, player_id, request, kept = (
                idempotency.key,
                idempotency.player_id,
                idempotency.request,
                IDEMPOTENCY_TTL,
            )
        elif attempt:
            key, player_id, request, kept, answer = f"~{attempt}", "", "", ATTEMPT_TTL, None
        else:
            key, player_id, request, kept, answer = None, "", "", IDEMPOTENCY_TTL, None
        return Commit(
            self.snap["id"],
            0 if self.before is None else self.before["version"],
            [{k: v for k, v in e.items() if k != "version"} for e in self.events],
            self.snap,
            unschedule=[m for _, m in old if m not in new_members],
            schedule=[(at, m) for at, m in new if (at, m) not in old],
            idempotency_key=key,
            player_id=player_id,
            answer=answer,
            request=request,
            attempt=attempt,
            idempotency_ttl=kept,
        )


class ReplayedAnswer(dict):
    """The first answer to an Idempotency-Key, given again to a retry of the same request: a
    dict like any answer, marked so that the API can say so (Idempotent-Replayed: true)."""


@dataclass(frozen=True)
class Idempotency:
    """A request's Idempotency-Key, who sent it, and the fingerprint of what it asked (a retry
    must ask the same)."""

    key: str
    player_id: str
    request: str

    @staticmethod
    def fingerprint(**fields: Any) -> str:
        """What makes two requests the same request: the SHA-256 of their fields as canonical
        JSON (so spacing and key order do not matter; the values do)."""
        canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def replay(self, first: FirstAnswer) -> ReplayedAnswer:
        if first.request != self.request:
            raise ServiceError(
                ErrorCode.REQUEST_IDEMPOTENCY_MISMATCH,
                "this Idempotency-Key was used for another move: a retry must send the "
                "same body; a new move needs a new key",
            )
        return ReplayedAnswer(first.answer)


class Commits:
    """The loop, on the game store, the players' lists and the service's clock."""

    def __init__(self, games: GameStore, players: PlayerStore, clock: Callable[[], float]):
        self.games = games
        self.players = players
        self.clock = clock
        self.outcome_seconds = OUTCOME_SECONDS

    def run(
        self,
        game_id: str | None,
        decide: Callable[[Draft], A],
        *,
        attempts: int = APPEND_ATTEMPTS,
        quiet: A | None = None,
        idempotency: Idempotency | None = None,
    ) -> A:
        """Run `decide` on the game `game_id` (None: a new game, nothing to read) until its
        events are appended, at most `attempts` times; a game that is not there answers 404
        and one still busy after the last attempt 409 game/busy, or both `quiet` (a worker's
        decision, which then has nothing to do).

        With `idempotency` (a move's), a retry of the same request answers the first attempt's
        answer (a ReplayedAnswer), also when it raced the first attempt (which then made its
        version stale, or its decision refused); the key reused for another request is refused.
        Reading the game reads the first answer in the same round trip.

        Every append carries this run's id (`attempt`), written by the append script under the
        Idempotency-Key or a key of the run's own. When the connection fails after the script
        was sent, nobody knows whether it ran: the run sends the same append again until the
        store answers, within `outcome_seconds`; the key tells whether the first one ran (its
        answer stands: this run's own) or it runs now. Past that time the answer is 503
        server/unavailable (OutcomeUnknown), never "nothing was changed". A worker's run
        (`quiet`) raises the store's error at once: it is carried out again from the outbox,
        where every decision checks the game's version."""
        attempt = uuid.uuid4().hex
        for _ in range(attempts):
            if game_id is None:
                snap = None
            else:
                snap, first = self._read(game_id, idempotency)
                if first is not None and idempotency is not None:
                    return cast(A, idempotency.replay(first))  # an idempotent run answers dicts
                if snap is None:
                    if quiet is not None:
                        return quiet
                    raise game_not_found(game_id)
            draft = Draft(snap, int(self.clock() * 1000))
            try:
                answer = decide(draft)
            except ServiceError:
                if idempotency is None or game_id is None:
                    raise
                first = self.games.idempotent_answer(
                    game_id, idempotency.player_id, idempotency.key
                )
                if first is None:
                    raise
                return cast(A, idempotency.replay(first))
            if not draft.events:
                return answer
            commit = draft.commit(idempotency, answer, attempt)
            result = self._append(commit, wait=quiet is None)
            if isinstance(result, Replayed) and result.first.attempt == attempt:
                result = Appended(draft.snap["version"])  # this run's own, its answer lost
            if isinstance(result, Replayed) and idempotency is not None:
                return cast(A, idempotency.replay(result.first))
            if isinstance(result, Appended):
                self.write_lists(draft.snap)
                return answer
        if quiet is not None:
            return quiet
        raise ServiceError(ErrorCode.GAME_BUSY, "the game is busy; try again")

    def _append(self, commit: Commit, wait: bool) -> Appended | Stale | Replayed:
        """Append; when the answer is lost, the same append again until the store answers
        (see run)."""
        try:
            return self.games.append(commit)
        except StoreUnavailable:
            if not wait or not commit.idempotency_key:
                raise
            log.warning(
                "the append to %s was sent and its answer lost; learning its outcome",
                commit.game_id,
                exc_info=True,
            )
        deadline = time.monotonic() + self.outcome_seconds
        pause = 0.05
        while True:
            time.sleep(max(0.0, min(pause, deadline - time.monotonic())))
            try:
                return self.games.append(commit)
            except StoreUnavailable as lost:
                if time.monotonic() >= deadline:
                    log.error("the outcome of the append to %s is unknown", commit.game_id)
                    raise OutcomeUnknown(commit.game_id, RETRY_AFTER_SECONDS) from lost
            pause = min(pause * 2, 1.0)

    def _read(
        self, game_id: str, idempotency: Idempotency | None
    ) -> tuple[Snapshot | None, FirstAnswer | None]:
        """The game's snapshot and, for an idempotent request, the first answer to its key:
        one round trip."""
        if idempotency is None:
            return self.games.snapshot(game_id), None
        return self.games.snapshot_and_answer(game_id, idempotency.player_id, idempotency.key)

    def append_many(self, drafts: Sequence[Draft]) -> list[bool]:
        """Several games' drafts appended in one round trip (each atomic on its own): whether
        each was appended. The clock's (GameService.expire_turns): no request waits to read
        its own write, so the lists are left to the worker that carries out the commits'
        outbox entries (Consequences.begin writes them), off the clock's pass."""
        results = self.games.append_many([draft.commit() for draft in drafts])
        return [isinstance(result, Appended) for result in results]

    def write_lists(self, *snaps: Snapshot) -> None:
        """Bring the players' game lists, inboxes and the lobby up to the committed snapshots
        now, so that the committing client reads its own write. A worker does the same from
        the outbox, so a failure here loses nothing, and the committed answer stands."""
        try:
            lists.write(self.games, self.players, list(snaps))
        except StoreUnavailable:
            log.warning(
                "lists of %s not written now; the outbox will",
                ", ".join(s["id"] for s in snaps),
                exc_info=True,
            )


def timeout_item(game_id: str, seat: int, since: int) -> dict[str, Any]:
    """The schedule's item for a seat's deadline (the clock records the timeout)."""
    return {"kind": "timeout", "game": game_id, "seat": seat, "since": since}


def lapse_item(game_id: str, proposal: int) -> dict[str, Any]:
    """The schedule's item for an open proposal's deadline (the clock makes it lapse)."""
    return {"kind": "lapse", "game": game_id, "proposal": proposal}


def deadline_items(snap: Snapshot | None) -> list[tuple[int, str]]:
    """(deadline, schedule member) of every seat whose clock runs in this snapshot, and of
    every open proposal (service/play/agreements.py)."""
    if snap is None or snap["match"] is None or snap["status"] != "active":
        return []
    since = snap["match"]["seat_since"]
    return [
        (deadline, schedule_member(timeout_item(snap["id"], seat, since[seat])))
        for seat, deadline in enumerate(snap["deadlines"])
        if deadline is not None and seat in snap["active_seats"]
    ] + [
        (p["deadline"], schedule_member(lapse_item(snap["id"], p["id"])))
        for p in agreements.open_proposals(snap)
    ]
