"""Matchmaking's record: per title, the pool of players waiting for a rated game (scored by
rating) and each player's latest request, in one slot with the bucket's outbox and schedule
(store/matchmaking.lua). The keys: store/keys.py, "matchmaking"."""

from __future__ import annotations

import json
from typing import Any

import redis

from . import keys
from .games import Script


class MatchmakingStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._script = Script(client, "matchmaking.lua")

    def _call(self, title: str, op: str, player: str, *args: Any) -> dict[str, Any] | None:
        bucket = keys.bucket_of(keys.matchmaking_subject(title))
        found = self._script(
            [
                keys.matchmaking_pool(title),
                keys.matchmaking_requests(title),
                keys.outbox(bucket),
                keys.schedule(bucket),
            ],
            [op, player, *args],
        )
        return json.loads(found) if found else None

    def ask(
        self, title: str, request: dict[str, Any], bot_at: int | None, bot_item: str
    ) -> dict[str, Any]:
        """Record the request, with its outbox entry and its bot's wake-up, unless the player
        is waiting already: the request that holds."""
        found = self._call(
            title,
            "ask",
            request["player_id"],
            json.dumps(request),
            "" if bot_at is None else bot_at,
            bot_item,
            title,
        )
        if found is None:
            raise RuntimeError(f"matchmaking.lua answered no request for {request['player_id']}")
        return found

    def pair(self, title: str, player: str, window: int, game_id: str) -> dict[str, Any] | None:
        return self._call(title, "pair", player, window, game_id)

    def bot(
        self, title: str, player: str, asked_at: int, bot: str, game_id: str
    ) -> dict[str, Any] | None:
        return self._call(title, "bot", player, asked_at, bot, game_id)

    def cancel(self, title: str, player: str) -> dict[str, Any] | None:
        return self._call(title, "cancel", player)

    def forget(self, title: str, player: str, name: str) -> None:
        """The player deleted their account: their request is gone, and a player matched with
        them reads them as `name`."""
        self._call(title, "forget", player, name)

    def request(self, title: str, player: str) -> dict[str, Any] | None:
        raw = self.r.hget(keys.matchmaking_requests(title), player)
        return None if raw is None else json.loads(raw)

    def waiting(self, title: str) -> int:
        return self.r.zcard(keys.matchmaking_pool(title))
