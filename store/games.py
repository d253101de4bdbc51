"""A game's event log (a Redis Stream), its snapshot, idempotent answers, the lobby."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import chain
from typing import Any

import orjson
import redis
from redis.exceptions import NoScriptError

from . import keys
from .connection import is_cluster
from .reads import Read, at_once
from .record import Event, read_event, stored
from .request_ids import REQUEST_ID
from .snapshot import Snapshot

IDEMPOTENCY_TTL = 24 * 3600
ATTEMPT_TTL = 600
"""How long the key a server makes for a write without an Idempotency-Key is kept: only the
request that made it reads it, when the append's answer was lost (service.play.commit)."""


@dataclass(frozen=True)
class Appended:
    version: int


@dataclass(frozen=True)
class Stale:
    current_version: int


@dataclass(frozen=True)
class FirstAnswer:
    """What an Idempotency-Key holds: the first answer to it, and the fingerprint of the
    request that got it (a retry must send the same request)."""

    request: str
    answer: dict[str, Any]
    attempt: str = ""
    """The request id of the append that wrote it (service.play.commit: whether it was this
    request's own append whose answer was lost, or another's with the same key)."""


@dataclass(frozen=True)
class Replayed:
    """The same Idempotency-Key was used before: here is the first answer."""

    first: FirstAnswer


@dataclass(frozen=True)
class Commit:
    """What one append writes: the events, the snapshot after them, and the changes to the
    game's entries in its bucket's schedule (members to remove, (score, member) to add)."""

    game_id: str
    expected_version: int
    events: list[dict]
    snapshot: Snapshot
    unschedule: list[str] = field(default_factory=list)
    schedule: list[tuple[int, str]] = field(default_factory=list)
    idempotency_key: str | None = None
    player_id: str = ""
    answer: dict | None = None
    request: str = ""
    """With an idempotency key: the fingerprint of the request the answer is for."""
    attempt: str = ""
    """The id of the request that runs this append, written under the idempotency key."""
    idempotency_ttl: int = IDEMPOTENCY_TTL


class Script:
    """One of the store's Lua scripts (store/*.lua), run with EVALSHA, or with EVAL on a Redis
    Cluster, whose client refuses EVALSHA in a pipeline. Either way every key a script
    touches is in one slot."""

    def __init__(self, client: redis.Redis, name: str):
        self.client = client
        self.text = resources.files("store").joinpath(name).read_text()
        self.cached = client.register_script(self.text)
        self.on_cluster = is_cluster(client)

    def __call__(self, keys: list[str], args: list, client=None):
        target = client if client is not None else self.client
        if self.on_cluster:
            return target.execute_command("EVAL", self.text, len(keys), *keys, *args)
        return self.cached(keys=keys, args=args, client=target)


def schedule_and_events(
    unschedule: list[str], schedule: list[tuple[int, str]], events: Sequence[bytes | str]
) -> list:
    """append.lua's last arguments: the schedule's members to take out, those to put in (score,
    member), then the events' JSON."""
    return [len(unschedule), *unschedule, len(schedule), *chain.from_iterable(schedule), *events]


LOBBY_MARKER_SECONDS = 7 * 86400
"""How long a game that left the lobby keeps the version it left at, against a late write of an
older one (the request's and the worker's writes of a commit are seconds apart, an outbox
entry's retries minutes)."""


class LogStore:
    """A store of logs (a game's, a tournament's) whose commits run store/append.lua and
    whose open ones the lobby lists (store/lobby.lua)."""

    def __init__(self, client: redis.Redis):
        self.r = client
        self.on_cluster = is_cluster(client)
        self._append = Script(client, "append.lua")
        self._lobby = Script(client, "lobby.lua")


class GameStore(LogStore):
    def __init__(self, client: redis.Redis):
        super().__init__(client)
        self._compact = Script(client, "compact.lua")

    def create(self, commit: Commit) -> bool:
        """Write a new game; False if the id is taken (the caller picks another)."""
        return isinstance(self.append(commit), Appended)

    def append(self, commit: Commit) -> Appended | Stale | Replayed:
        """Commit atomically (see append.lua), or answer stale / the first answer."""
        return self.append_many([commit])[0]

    def append_many(self, commits: list[Commit]) -> list[Appended | Stale | Replayed]:
        """Several games' commits in one round trip; each is atomic on its own."""
        pipe = self.r.pipeline(transaction=False)
        for commit in commits:
            self._append(*self._script_call(commit), client=pipe)
        return [_appended(status, value) for status, value in run_pipeline(pipe)]

    @staticmethod
    def _script_call(commit: Commit) -> tuple[list[str], list]:
        game_id = commit.game_id
        idem_key = keys.game_idempotency(game_id, commit.player_id, commit.idempotency_key or "-")
        bucket = keys.bucket_of(game_id)
        args: list = [
            commit.expected_version,
            _json(commit.snapshot),
            _json({"request": commit.request, "answer": commit.answer, "attempt": commit.attempt})
            if commit.idempotency_key
            else "",
            commit.idempotency_ttl,
            game_id,
            REQUEST_ID.get(),
            "",  # a game's outbox entry has no kind
            *schedule_and_events(
                commit.unschedule, commit.schedule, [_json(stored(e)) for e in commit.events]
            ),
        ]
        return (
            [
                keys.game_log(game_id),
                keys.game_snapshot(game_id),
                idem_key,
                keys.outbox(bucket),
                keys.schedule(bucket),
            ],
            args,
        )

    def snapshot(self, game_id: str) -> Snapshot | None:
        raw = self.r.get(keys.game_snapshot(game_id))
        return None if raw is None else read_snapshot(raw)

    def snapshot_and_answer(
        self, game_id: str, player_id: str, idempotency_key: str | None
    ) -> tuple[Snapshot | None, FirstAnswer | None]:
        """The snapshot and, when a key is given, the first answer to it: one round trip."""
        if not idempotency_key:
            return self.snapshot(game_id), None
        pipe = self.r.pipeline(transaction=False)
        pipe.get(keys.game_snapshot(game_id))
        pipe.get(keys.game_idempotency(game_id, player_id, idempotency_key))
        raw, first = pipe.execute()
        return (
            None if raw is None else read_snapshot(raw),
            None if first is None else _first_answer(first),
        )

    def snapshots(self, game_ids: list[str]) -> list[Snapshot | None]:
        """Many snapshots in one round trip: one MGET (a third cheaper for the client than a
        pipeline of GETs), or on a cluster a pipeline of GETs, since games in different buckets
        live on different nodes."""
        if not game_ids:
            return []
        names = [keys.game_snapshot(game_id) for game_id in game_ids]
        if self.on_cluster:
            pipe = self.r.pipeline(transaction=False)
            for name in names:
                pipe.get(name)
            found = pipe.execute()
        else:
            found = self.r.mget(names)
        return [None if raw is None else read_snapshot(raw) for raw in found]

    def idempotent_answer(self, game_id: str, player_id: str, key: str) -> FirstAnswer | None:
        raw = self.r.get(keys.game_idempotency(game_id, player_id, key))
        return None if raw is None else _first_answer(raw)

    def lobby_entry(self, game_id: str, version: int, open_since_ms: int | None, pipe=None) -> None:
        """Keep the lobby of games with an open seat (None: not open), newest version wins."""
        self._lobby(
            keys=[keys.OPEN_GAMES_SEEN, keys.OPEN_GAMES, keys.lobby_left(game_id)],
            args=[
                game_id,
                version,
                "" if open_since_ms is None else open_since_ms,
                LOBBY_MARKER_SECONDS,
            ],
            client=pipe or self.r,
        )

    def prune_lobby(self, batch: int = 1000) -> int:
        """Remove the versions of games no longer in the lobby, which a turnpost before
        lobby.lua kept for every game ever created; the number removed."""
        removed, cursor = 0, 0
        while True:
            cursor, found = self.r.hscan(keys.OPEN_GAMES_SEEN, cursor, count=batch)
            ids = list(found)
            if ids:
                pipe = self.r.pipeline(transaction=False)
                for game_id in ids:
                    pipe.zscore(keys.OPEN_GAMES, game_id)
                gone = [g for g, score in zip(ids, pipe.execute()) if score is None]
                if gone:
                    removed += self.r.hdel(keys.OPEN_GAMES_SEEN, *gone)
            if cursor == 0:
                return removed

    def open_games(self, limit: int) -> list[str]:
        return [g.decode() for g in self.r.zrevrange(keys.OPEN_GAMES, 0, limit - 1)]

    def claim_rematch(self, game_id: str, rematch_id: str) -> str:
        """Make `rematch_id` the rematch of the game unless it has one: the rematch's id."""
        key = keys.game_rematch(game_id)
        if self.r.set(key, rematch_id, nx=True):
            return rematch_id
        found = self.r.get(key)
        return found.decode() if found is not None else self.claim_rematch(game_id, rematch_id)

    def release_rematch(self, game_id: str, rematch_id: str) -> None:
        """Forget a rematch that could not be created (only if it is still this one)."""
        key = keys.game_rematch(game_id)
        if self.r.get(key) == rematch_id.encode():
            self.r.delete(key)

    def rematch_of(self, game_id: str) -> str | None:
        found = self.r.get(keys.game_rematch(game_id))
        return None if found is None else found.decode()

    def events(self, game_id: str, after: int = 0, count: int | None = None) -> list[Event]:
        """Events with version > after, oldest first, each with its "version"; from the
        archive once the game's log is compacted (both are read in one round trip)."""
        return self.events_read(game_id, after, count).run(self.r)

    def events_read(
        self, game_id: str, after: int = 0, count: int | None = None
    ) -> Read[list[Event]]:
        """`events` as a read that store.reads.at_once may run with others."""

        def queue(pipe) -> None:
            pipe.xrange(
                keys.game_log(game_id), min=f"({after}-0" if after else "-", max="+", count=count
            )
            pipe.get(keys.game_archive(game_id))

        def answer(replies: list) -> list[Event]:
            entries, archive = replies
            if archive is not None:
                return _from_archive(archive, after, count)
            return [_decode(entry_id, fields) for entry_id, fields in entries]

        return Read(queue, 2, answer)

    def events_of(self, wanted: list[tuple[str, int, int]]) -> list[list[Event]]:
        """`events(game_id, after, count)` of each (game_id, after, count), in one round trip."""
        if not wanted:
            return []
        return list(at_once(self.r, *(self.events_read(*each) for each in wanted)))

    def wait_events(self, game_id: str, after: int, block_ms: int) -> list[Event]:
        """Block until events after `after` exist (or the time runs out). A compacted game
        has all its events at once: it is over, nothing more will come."""
        archive = self.r.get(keys.game_archive(game_id))
        if archive is not None:
            return _from_archive(archive, after, None)
        found = self.r.xread({keys.game_log(game_id): f"{after}-0"}, block=block_ms)
        if not found:
            return []
        return [_decode(entry_id, fields) for entry_id, fields in found[0][1]]

    def compact(self, game_id: str) -> bool:
        """Keep a finished game's log as one compressed value instead of a Stream (a tenth of
        the memory or less); `events` and `wait_events` read it the same. False if the log
        changed while it was read (it is then left as it is), or is compacted already."""
        snap = self.snapshot(game_id)
        if snap is None or snap["status"] != "finished":  # a live game's log takes appends
            return False
        if self.r.exists(keys.game_archive(game_id)):
            return False
        events = self.events(game_id)
        if not events:
            return False
        packed = zlib.compress(json.dumps(events, separators=(",", ":")).encode(), 9)
        return bool(
            self._compact(
                [keys.game_log(game_id), keys.game_archive(game_id)], [packed, len(events)]
            )
        )


def _appended(status: int, value) -> Appended | Stale | Replayed:
    if status == 1:
        return Appended(int(value))
    if status == 2:
        return Replayed(_first_answer(value))
    return Stale(int(value))


def _first_answer(raw: bytes) -> FirstAnswer:
    stored = json.loads(raw)
    return FirstAnswer(stored["request"], stored["answer"], stored.get("attempt", ""))


def read_snapshot(raw: bytes) -> Snapshot:
    """A stored snapshot, read by orjson: a fifth of json.loads' time (6 against 28 us for a
    1.5 KB snapshot of The Nine Domains), on every read of a game. What orjson refuses and
    Python's json writes (NaN, a lone surrogate) is read by json. orjson would read an integer
    beyond 64 bits as a float, but no snapshot holds one: the engine's numbers are small and
    what players send stays within 2^53 (api/hostile_input.py); tests/store/test_read_snapshot.py
    checks that both read the same snapshots of every game."""
    try:
        snapshot: Snapshot = orjson.loads(raw)
    except orjson.JSONDecodeError:
        snapshot = json.loads(raw)
    return snapshot


def _json(value: Any) -> bytes | str:
    """What a commit writes (its snapshot, its events, the answer kept under its idempotency
    key) as compact JSON, by orjson: every move writes them, and json.dumps took ten times as
    long. orjson writes text as UTF-8 where json wrote `\\u` escapes; every reader of these
    values (read_snapshot, _decode, _first_answer, and the lists' and tables' readers of the
    snapshot through them) reads both as the same text. What orjson refuses (a lone
    surrogate, an integer beyond 64 bits, a key that is not a string) json writes as before.
    (orjson would write a NaN or an infinity as null, where json wrote what only json reads:
    no commit holds one. The engine's numbers are integers, a game's options whole numbers,
    booleans or text (engine.core.validate_options), the service's times milliseconds.)"""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"))


def _from_archive(archive: bytes, after: int, count: int | None) -> list[Event]:
    events = [read_event(e) for e in json.loads(zlib.decompress(archive)) if e["version"] > after]
    return events if count is None else events[:count]


def _decode(entry_id: bytes, fields: dict) -> Event:
    event = json.loads(fields[b"e"])
    event["version"] = int(entry_id.split(b"-")[0])
    return read_event(event)


def run_pipeline(pipe: redis.client.Pipeline) -> list:
    """Execute a pipeline that calls scripts (Script) in one round trip.

    redis-py asks the server SCRIPT EXISTS before every pipeline that calls a script, one more
    round trip each time. Here the calls go out as EVALSHA alone; only when the server has lost
    a script (a restart, SCRIPT FLUSH) does it refuse those calls with NOSCRIPT, and a refused
    call did not run: the scripts are then loaded and the refused commands, alone, sent again.
    Like `execute()`, raises the first error once every command has run. On a cluster the
    scripts go out as EVAL (see Script), so there is nothing to ask first."""
    if is_cluster(pipe):
        return pipe.execute()
    scripts, pipe.scripts = list(pipe.scripts), set()
    stack = list(pipe.command_stack)
    results = pipe.execute(raise_on_error=False)
    refused = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
    if refused:
        for script in scripts:
            script.sha = script.registered_client.script_load(script.script)
        for i in refused:
            args, options = stack[i]
            pipe.execute_command(*args, **options)
        for i, result in zip(refused, pipe.execute(raise_on_error=False)):
            results[i] = result
    for result in results:
        if isinstance(result, Exception):
            raise result
    return results
