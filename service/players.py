"""Registering players, authenticating their tokens, their profile."""
from __future__ import annotations

import secrets
import time
from typing import Any, Callable

from store.players import PlayerStore

from .errors import Invalid, NotFound, Unauthorized

PROFILE_FIELDS = ("name", "email", "webhook_url")


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)


class PlayerService:
    def __init__(self, players: PlayerStore, clock: Callable[[], float] = time.time):
        self.players = players
        self.clock = clock

    def register(self, name: str, email: str | None = None,
                 webhook_url: str | None = None) -> dict[str, Any]:
        """A new player and their API token, which is shown only in this answer."""
        name = (name or "").strip()
        if not name:
            raise Invalid("a player needs a name", code="player/invalid")
        token = "tp_" + secrets.token_urlsafe(32)
        profile = {"name": name, "email": email, "webhook_url": webhook_url,
                   "created_at": int(self.clock() * 1000)}
        while True:
            player_id = new_id("p_")
            if self.players.create(player_id, profile, token):
                return {"id": player_id, "name": name, "token": token}

    def authenticate(self, token: str | None) -> str:
        if not token:
            raise Unauthorized("this needs a bearer token: Authorization: Bearer <token>")
        player_id = self.players.by_token(token)
        if player_id is None:
            raise Unauthorized("that token is not valid", code="auth/bad_token")
        return player_id

    def profile(self, player_id: str) -> dict[str, Any]:
        profile = self.players.get(player_id)
        if profile is None:
            raise NotFound(f"there is no player {player_id}", code="player/not_found")
        return {"id": player_id, **{k: profile.get(k) for k in PROFILE_FIELDS}}

    def update(self, player_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        profile = self.players.get(player_id)
        if profile is None:
            raise NotFound(f"there is no player {player_id}", code="player/not_found")
        for key in PROFILE_FIELDS:
            if key in changes:
                profile[key] = changes[key]
        if not (profile.get("name") or "").strip():
            raise Invalid("a player needs a name", code="player/invalid")
        self.players.save(player_id, profile)
        return self.profile(player_id)
