"""Web sessions that end when they are ended.

Signing in by an emailed link starts a session: 256 random bits that the browser's signed
cookie holds beside the player's id, and a record in Redis named by their SHA-256 (when it
signed in, when it was last seen, its browser). A cookie counts only while its record lives,
so signing out, "sign out everywhere", signing out one session from the settings, and a new
API token (which ends them all) refuse every copy of the cookie at once. A session lasts
SESSION_DAYS after it was last seen; "last seen" is written again at most every
TOUCH_SECONDS, so it is rough, and a page costs one read. A player keeps at most
MAX_SESSIONS; signing in past that ends the one seen longest ago.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from store.sessions import SessionStore

SESSION_DAYS = 30
TOUCH_SECONDS = 300
MAX_SESSIONS = 20
AGENT_LENGTH = 300
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_NAME = re.compile(r"[0-9a-f]{64}")


def _name(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class WebSessions:
    def __init__(self, store: SessionStore, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        self.seconds = SESSION_DAYS * 86400

    def _now(self) -> int:
        return int(self.clock() * 1000)

    def start(self, player_id: str, agent: str) -> str:
        """A new session for the player: the secret for the cookie (shown nowhere else)."""
        secret = secrets.token_urlsafe(32)
        now = self._now()
        record = {"signed_in": now, "seen": now, "agent": agent[:AGENT_LENGTH]}
        self.store.start(player_id, _name(secret), record, self.seconds)
        live = self.store.all(player_id)
        if len(live) > MAX_SESSIONS:
            oldest = sorted(live, key=lambda name: live[name]["seen"])
            self.store.end(player_id, oldest[: len(live) - MAX_SESSIONS])
        return secret

    def check(self, player_id: str, secret: Any) -> bool:
        """Whether the cookie's session is live (and note that it was seen, now and then)."""
        if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
            return False
        name = _name(secret)
        record = self.store.get(player_id, name)
        if record is None:
            return False
        now = self._now()
        if now - record["seen"] >= TOUCH_SECONDS * 1000:
            return self.store.touch(player_id, name, {**record, "seen": now}, self.seconds)
        return True

    def end(self, player_id: str, secret: Any) -> None:
        """Sign out the cookie's session."""
        if isinstance(secret, str) and _SECRET.fullmatch(secret):
            self.store.end(player_id, [_name(secret)])

    def end_one(self, player_id: str, session_id: str) -> bool:
        """Sign out one of the player's sessions by its id (from `list`); False when the
        player has no such session."""
        if not _NAME.fullmatch(session_id or ""):
            return False
        return self.store.end(player_id, [session_id]) == 1

    def end_all(self, player_id: str) -> int:
        """Sign out every session of the player; how many there were."""
        return self.store.end_all(player_id)

    def list(self, player_id: str, current: Any) -> list[dict[str, Any]]:
        """The player's sessions, the one seen last first: its id (to end it), its browser,
        when it signed in and was last seen (epoch ms), and whether it is `current` (the
        secret of the cookie asking)."""
        here = _name(current) if isinstance(current, str) else None
        live = self.store.all(player_id)
        return [
            {
                "id": name,
                "agent": record.get("agent", ""),
                "signed_in": record["signed_in"],
                "seen": record["seen"],
                "current": name == here,
            }
            for name, record in sorted(live.items(), key=lambda item: -item[1]["seen"])
        ]


def browser_of(agent: str) -> str:
    """A User-Agent in a few words: "Firefox on Linux", "Safari on iPhone"; the start of
    the header itself when neither is recognised."""
    browsers = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("FxiOS/", "Firefox"),
        ("CriOS/", "Chrome"),
        ("Chrome/", "Chrome"),
        ("HeadlessChrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    systems = [
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    browser = next((name for mark, name in browsers if mark in agent), None)
    system = next((name for mark, name in systems if mark in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    if browser or system:
        return browser or f"a browser on {system}"
    return agent[:60].strip() or "an unknown browser"
