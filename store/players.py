"""Players, their API tokens, their games and their inbox of games awaiting their move."""
from __future__ import annotations

import hashlib
import json
from typing import Any

import redis

from . import keys
from .games import Script


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class PlayerStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._project = Script(client, "project.lua")

    def create(self, player_id: str, profile: dict[str, Any], token: str) -> bool:
        """Store a new player and the hash of their token; False if the id is taken."""
        if not self.r.set(keys.player(player_id), json.dumps(profile), nx=True):
            return False
        self.r.set(keys.token(token_hash(token)), player_id)
        return True

    def get(self, player_id: str) -> dict[str, Any] | None:
        raw = self.r.get(keys.player(player_id))
        return None if raw is None else json.loads(raw)

    def get_many(self, player_ids: list[str]) -> list[dict[str, Any] | None]:
        if not player_ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.get(keys.player(player_id))
        return [None if raw is None else json.loads(raw) for raw in pipe.execute()]

    def save(self, player_id: str, profile: dict[str, Any]) -> None:
        self.r.set(keys.player(player_id), json.dumps(profile))

    def by_token(self, token: str) -> str | None:
        found = self.r.get(keys.token(token_hash(token)))
        return None if found is None else found.decode()

    def project(self, player_id: str, game_id: str, version: int, activity_ms: float | None,
                awaiting_score: float | None, invited_score: float | None = None,
                pipe=None) -> None:
        """Put the game in or out of the player's games (scored by last activity), their inbox
        (scored by deadline) and their invitations (scored by creation): None leaves it out of
        that list. Unless a newer version was written already."""
        self._project(keys=[keys.player_seen(player_id), keys.player_games(player_id),
                            keys.player_inbox(player_id), keys.player_invitations(player_id)],
                      args=[game_id, version] + ["" if score is None else score for score in
                                                 (activity_ms, awaiting_score, invited_score)],
                      client=pipe or self.r)

    def games(self, player_id: str, limit: int, offset: int = 0) -> list[str]:
        return [g.decode() for g in
                self.r.zrevrange(keys.player_games(player_id), offset, offset + limit - 1)]

    def invitations(self, player_id: str, limit: int) -> list[str]:
        """Games with a seat reserved for the player, newest first."""
        return [g.decode() for g in
                self.r.zrevrange(keys.player_invitations(player_id), 0, limit - 1)]

    # -- friends: who may seat this player without an invitation -----------------------------

    def friends(self, player_id: str) -> list[str]:
        return sorted(f.decode() for f in self.r.smembers(keys.player_friends(player_id)))

    def set_friends(self, player_id: str, friends: list[str]) -> None:
        key = keys.player_friends(player_id)
        pipe = self.r.pipeline(transaction=True)
        pipe.delete(key)
        if friends:
            pipe.sadd(key, *friends)
        pipe.execute()

    def lets_seat(self, player_ids: list[str], creator: str) -> list[bool]:
        """For each player: whether they let `creator` seat them directly (a friend)."""
        pipe = self.r.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.sismember(keys.player_friends(player_id), creator)
        return [bool(found) for found in pipe.execute()]

    def inbox(self, player_id: str, limit: int, offset: int = 0) -> list[str]:
        """Games awaiting the player's move, the nearest deadline first."""
        return [g.decode() for g in
                self.r.zrange(keys.player_inbox(player_id), offset, offset + limit - 1)]
