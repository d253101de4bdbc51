"""A tournament's record: its log of events (a Redis Stream), its state (JSON, folded from the
events by service.tournaments.history), the lobby of tournaments taking sign-ups and each
player's list of tournaments. The keys: store/keys.py, "tournaments".

A tournament's events and state are public (who signed up, the pairings, the results): there is
nothing secret in them, unlike a game's snapshot."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NotRequired, TypedDict, cast

import orjson
import redis

from . import keys
from .games import (
    LOBBY_MARKER_SECONDS,
    Appended,
    LogStore,
    Script,
    Stale,
    run_pipeline,
    schedule_and_events,
)
from .record import TimeControl, UnreadableRecord
from .request_ids import REQUEST_ID

TOURNAMENT_SCHEMA = 1
"""The shape of the tournament events written now (as store.record.EVENT_SCHEMA for games)."""


class TournamentEventType(StrEnum):
    CREATED = "TournamentCreated"
    SIGNED_UP = "PlayerSignedUp"
    LEFT = "PlayerLeft"
    """Left before the start: off the list."""
    STARTED = "TournamentStarted"
    ROUND_PAIRED = "RoundPaired"
    ROUND_STARTED = "RoundStarted"
    """The round's games are created."""
    GAME_RECORDED = "GameRecorded"
    WITHDREW = "PlayerWithdrew"
    ROUND_ENDED = "RoundEnded"
    ENDED = "TournamentEnded"
    CANCELLED = "TournamentCancelled"
    PLAYER_DELETED = "PlayerDeleted"
    """A player deleted their account: from then on the tournament names them "a deleted
    player" (the log before it is left as it was written, and read so)."""


class Entrant(TypedDict):
    player_id: str
    name: str
    rating: NotRequired[int]
    """Their rating at the title when the tournament began (the seed order)."""
    withdrawn: NotRequired[str | None]
    """Why they left a running tournament ("withdrew", "timed out"); None while playing."""


class Board(TypedDict):
    """One game of a round."""

    game_id: str
    first: str
    """The player id in the first seat."""
    second: str
    score: float | None
    """The first seat's score (1, 1/2, 0; the second has 1 minus it); None while it is played."""


class Round(TypedDict):
    round: int
    boards: list[Board]
    bye: str | None
    started: bool
    """Its games are created."""
    ended: bool


class TournamentState(TypedDict):
    """A tournament as of its last event: service.tournaments.history.fold makes it."""

    id: str
    version: int
    game: str
    name: str
    options: dict[str, Any]
    time_control: TimeControl
    rated: bool
    format: str
    """round_robin or swiss."""
    size: int
    """The most players; with `start_at` None it starts when this many signed up."""
    rounds: int
    """Swiss: the rounds to play (at most one fewer than the players); a round-robin has one
    round, all its games at once."""
    start_at: int | None
    created_by: str
    created_at: int
    updated_at: int
    status: str
    """signup, running, finished or cancelled."""
    players: list[Entrant]
    """In sign-up order, then from the start in seed order."""
    round_list: list[Round]
    cancelled_because: str | None
    deleted_players: NotRequired[list[str]]
    """The players who deleted their account (PlayerDeleted), named "a deleted player"."""


@dataclass(frozen=True)
class TournamentCommit:
    tournament_id: str
    expected_version: int
    events: list[dict[str, Any]]
    state: TournamentState
    unschedule: list[str] = field(default_factory=list)
    schedule: list[tuple[int, str]] = field(default_factory=list)


class TournamentStore(LogStore):
    def __init__(self, client: redis.Redis):
        super().__init__(client)
        self._project = Script(client, "project.lua")

    def append(self, commit: TournamentCommit) -> Appended | Stale:
        """Commit atomically (store/append.lua, as a game's commit without an idempotency key),
        or answer stale."""
        tid = commit.tournament_id
        bucket = keys.bucket_of(tid)
        events = [_json({"schema": TOURNAMENT_SCHEMA, **e}) for e in commit.events]
        args: list = [
            commit.expected_version,
            _json(commit.state),
            "",  # no idempotency key: KEYS[3] is not read
            0,
            tid,
            REQUEST_ID.get(),
            "tournament",
            *schedule_and_events(commit.unschedule, commit.schedule, events),
        ]
        state = keys.tournament_state(tid)
        status, value = self._append(
            [keys.tournament_log(tid), state, state, keys.outbox(bucket), keys.schedule(bucket)],
            args,
        )
        return Appended(int(value)) if status == 1 else Stale(int(value))

    def state(self, tournament_id: str) -> TournamentState | None:
        raw = self.r.get(keys.tournament_state(tournament_id))
        return None if raw is None else cast(TournamentState, orjson.loads(raw))

    def states(self, tournament_ids: list[str]) -> list[TournamentState | None]:
        """Many states in one round trip (a pipeline of GETs: they live in many buckets)."""
        if not tournament_ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for tid in tournament_ids:
            pipe.get(keys.tournament_state(tid))
        return [
            None if raw is None else cast(TournamentState, orjson.loads(raw))
            for raw in pipe.execute()
        ]

    def events(self, tournament_id: str, after: int = 0, count: int | None = None) -> list[dict]:
        """Events with version > after, oldest first, each with its "version"."""
        found = self.r.xrange(
            keys.tournament_log(tournament_id),
            min=f"({after}-0" if after else "-",
            max="+",
            count=count,
        )
        return [_event(entry_id, fields) for entry_id, fields in found]

    def wait_events(self, tournament_id: str, after: int, block_ms: int) -> list[dict]:
        """Block until events after `after` exist (or the time runs out)."""
        found = self.r.xread({keys.tournament_log(tournament_id): f"{after}-0"}, block=block_ms)
        if not found:
            return []
        return [_event(entry_id, fields) for entry_id, fields in found[0][1]]

    # -- the lists --------------------------------------------------------------------------

    def write_lists(self, state: TournamentState) -> None:
        """The lobby's entry (while it takes sign-ups) and each player's list, as of this
        state, in one round trip; an older version never overwrites a newer one, so the
        request and the worker may both write, in either order."""
        pipe = self.r.pipeline(transaction=False)
        tid, version = state["id"], state["version"]
        open_now = state["status"] == "signup"
        self._lobby(
            keys=[
                keys.OPEN_TOURNAMENTS_SEEN,
                keys.OPEN_TOURNAMENTS,
                keys.lobby_tournament_left(tid),
            ],
            args=[tid, version, state["created_at"] if open_now else "", LOBBY_MARKER_SECONDS],
            client=pipe,
        )
        for entrant in state["players"]:
            self._project(
                keys=[
                    keys.player_tournaments_seen(entrant["player_id"]),
                    keys.player_tournaments(entrant["player_id"]),
                ],
                args=[tid, version, state["created_at"]],
                client=pipe,
            )
        run_pipeline(pipe)

    def forget_player(self, player_id: str, tournament_id: str, version: int) -> None:
        """Take the tournament off the list of a player who left it before it began."""
        self._project(
            keys=[keys.player_tournaments_seen(player_id), keys.player_tournaments(player_id)],
            args=[tournament_id, version, ""],
        )

    def open_ids(self, limit: int) -> list[str]:
        return [t.decode() for t in self.r.zrevrange(keys.OPEN_TOURNAMENTS, 0, limit - 1)]

    def ever_entered(self, player_id: str) -> list[str]:
        """Every tournament the player signed up to, those they left before it began too (its
        list forgets those; the versions written to it remember them)."""
        return sorted(t.decode() for t in self.r.hkeys(keys.player_tournaments_seen(player_id)))

    def of_player(self, player_id: str, limit: int) -> list[str]:
        return [
            t.decode() for t in self.r.zrevrange(keys.player_tournaments(player_id), 0, limit - 1)
        ]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _event(entry_id: bytes, fields: dict) -> dict:
    event = json.loads(fields[b"e"])
    schema = event.get("schema", 1)
    if not isinstance(schema, int) or schema > TOURNAMENT_SCHEMA:
        raise UnreadableRecord(
            f"tournament event {entry_id!r} was written with schema {schema!r}; this turnpost "
            f"reads schemas up to {TOURNAMENT_SCHEMA}: upgrade turnpost"
        )
    event["version"] = int(entry_id.split(b"-")[0])
    return event
