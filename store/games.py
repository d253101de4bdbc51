"""A game's event log (a Redis Stream), its snapshot, idempotent answers, the lobby."""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

import redis

from . import keys

IDEMPOTENCY_TTL = 24 * 3600
EVENT_SCHEMA = 1


@dataclass(frozen=True)
class Appended:
    version: int


@dataclass(frozen=True)
class Stale:
    current_version: int


@dataclass(frozen=True)
class Replayed:
    """The same Idempotency-Key was used before: here is the first answer."""
    answer: dict[str, Any]


class GameStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._append = client.register_script(
            resources.files("store").joinpath("append.lua").read_text())

    def create(self, game_id: str, events: list[dict], snapshot: dict) -> bool:
        """Write a new game; False if the id is taken (the caller picks another)."""
        return isinstance(self.append(game_id, 0, events, snapshot), Appended)

    def append(self, game_id: str, expected_version: int, events: list[dict], snapshot: dict,
               idempotency_key: str | None = None, player_id: str = "",
               answer: dict | None = None) -> Appended | Stale | Replayed:
        idem_key = keys.game_idempotency(game_id, player_id, idempotency_key or "-")
        args = [expected_version, json.dumps(snapshot, separators=(",", ":")),
                json.dumps(answer) if idempotency_key else "", IDEMPOTENCY_TTL]
        args += [json.dumps({"schema": EVENT_SCHEMA, **e}, separators=(",", ":")) for e in events]
        status, value = self._append(
            keys=[keys.game_log(game_id), keys.game_snapshot(game_id), idem_key], args=args)
        if status == 1:
            return Appended(int(value))
        if status == 2:
            return Replayed(json.loads(value))
        return Stale(int(value))

    def snapshot(self, game_id: str) -> dict | None:
        raw = self.r.get(keys.game_snapshot(game_id))
        return None if raw is None else json.loads(raw)

    def snapshots(self, game_ids: list[str]) -> list[dict | None]:
        if not game_ids:
            return []
        raws = self.r.mget([keys.game_snapshot(g) for g in game_ids])
        return [None if raw is None else json.loads(raw) for raw in raws]

    def idempotent_answer(self, game_id: str, player_id: str, key: str) -> dict | None:
        raw = self.r.get(keys.game_idempotency(game_id, player_id, key))
        return None if raw is None else json.loads(raw)

    def mark_open(self, game_id: str, is_open: bool, at_ms: int) -> None:
        """Keep the lobby of games with an open seat."""
        if is_open:
            self.r.zadd(keys.OPEN_GAMES, {game_id: at_ms})
        else:
            self.r.zrem(keys.OPEN_GAMES, game_id)

    def open_games(self, limit: int) -> list[str]:
        return [g.decode() for g in self.r.zrevrange(keys.OPEN_GAMES, 0, limit - 1)]

    def events(self, game_id: str, after: int = 0, count: int | None = None) -> list[dict]:
        """Events with version > after, oldest first, each with its "version"."""
        entries = self.r.xrange(keys.game_log(game_id), min=f"({after}-0" if after else "-",
                                max="+", count=count)
        return [_decode(entry_id, fields) for entry_id, fields in entries]

    def wait_events(self, game_id: str, after: int, block_ms: int) -> list[dict]:
        """Block until events after `after` exist (or the time runs out)."""
        found = self.r.xread({keys.game_log(game_id): f"{after}-0"}, block=block_ms)
        if not found:
            return []
        return [_decode(entry_id, fields) for entry_id, fields in found[0][1]]


def _decode(entry_id: bytes, fields: dict) -> dict:
    event = json.loads(fields[b"e"])
    event["version"] = int(entry_id.split(b"-")[0])
    return event
