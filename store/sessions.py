"""The web client's sessions, kept server-side so that they can end: one key per session (the
SHA-256 of the secret its cookie holds) with when it signed in, when it was last seen and its
browser, expiring with the session, and a set of a player's sessions to list and end them.
All of a player's keys share the tag {player id}."""

from __future__ import annotations

import json
from typing import Any

import redis

from . import keys


class SessionStore:
    def __init__(self, client: redis.Redis):
        self.r = client

    def start(self, player_id: str, session: str, record: dict[str, Any], seconds: int) -> None:
        pipe = self.r.pipeline(transaction=True)
        pipe.set(keys.web_session(player_id, session), json.dumps(record), ex=seconds)
        pipe.sadd(keys.web_sessions(player_id), session)
        pipe.expire(keys.web_sessions(player_id), seconds)
        pipe.execute()

    def get(self, player_id: str, session: str) -> dict[str, Any] | None:
        found = self.r.get(keys.web_session(player_id, session))
        return None if found is None else json.loads(found)

    def touch(self, player_id: str, session: str, record: dict[str, Any], seconds: int) -> bool:
        """Write the session's record again (last seen), only while it exists: a session
        ended meanwhile stays ended (SET XX). Whether it still existed."""
        pipe = self.r.pipeline(transaction=False)
        pipe.set(keys.web_session(player_id, session), json.dumps(record), ex=seconds, xx=True)
        pipe.expire(keys.web_sessions(player_id), seconds, gt=True)
        return bool(pipe.execute()[0])

    def all(self, player_id: str) -> dict[str, dict[str, Any]]:
        """The player's live sessions; the set forgets those that expired."""
        members = sorted(m.decode() for m in self.r.smembers(keys.web_sessions(player_id)))
        if not members:
            return {}
        pipe = self.r.pipeline(transaction=False)
        for session in members:
            pipe.get(keys.web_session(player_id, session))
        found = dict(zip(members, pipe.execute()))
        gone = [session for session, raw in found.items() if raw is None]
        if gone:
            self.r.srem(keys.web_sessions(player_id), *gone)
        return {session: json.loads(raw) for session, raw in found.items() if raw is not None}

    def end(self, player_id: str, sessions: list[str]) -> int:
        """End these sessions of the player; how many were live."""
        if not sessions:
            return 0
        pipe = self.r.pipeline(transaction=True)
        pipe.delete(*[keys.web_session(player_id, session) for session in sessions])
        pipe.srem(keys.web_sessions(player_id), *sessions)
        return int(pipe.execute()[0])

    def end_all(self, player_id: str) -> int:
        """End every session of the player (one that signs in while this runs may outlive
        it: it began after the request to end them all); how many were live."""
        members = [m.decode() for m in self.r.smembers(keys.web_sessions(player_id))]
        return self.end(player_id, members)
