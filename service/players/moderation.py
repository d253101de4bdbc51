"""Reports and the operators' actions on them (`turnpost reports`).

A player reports a message they may read, or a player, with a reason (text checked as a
message's: service/play/talk.py); the report keeps the message's text for the operator. An
operator hides a message (a MessageHidden event in the game's log: nobody reads the message
from then on, its readers read that it was hidden), suspends a player (sign-in refused, their
API token revoked, their games go to the timeout policy: service.play.games'
`apply_timeout_policy`) or restores one. Every action is kept in the audit log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.errors import ErrorCode, ServiceError, Words, no_player
from service.play.facts import load
from service.play.games import GameService
from service.play.talk import Talk, check_text
from service.timefmt import iso
from store.moderation import ModerationStore
from store.players import PlayerStore

SUSPENDED_GAMES = 1000
"""A suspension goes through at most this many of the player's latest games (and as many
invitations)."""
GOING = ("open", "active")
"""The games a suspension resolves the player's seat in: not begun, or under way."""


@dataclass(eq=False)
class Moderation:
    games: GameService
    talk: Talk
    players: PlayerStore
    store: ModerationStore
    clock: Callable[[], float] = time.time

    def _now(self) -> str | None:
        return iso(int(self.clock() * 1000))

    # -- the players' side ---------------------------------------------------------------------

    def report(
        self,
        reporter: str,
        reason: Any,
        player_id: str | None = None,
        game_id: str | None = None,
        message: int | None = None,
    ) -> dict[str, Any]:
        """Report a message (`game_id` and `message`, its version) the reporter may read, or
        a player: kept for the operators, who are the only ones to read reports."""
        why = check_text(reason)
        report: dict[str, Any] = {"reporter": reporter, "reason": why, "at": self._now()}
        if message is not None and game_id is not None:
            report |= self._reported_message(reporter, game_id, message)
        elif player_id is not None and player_id != reporter:
            if self.players.get(player_id) is None:
                raise no_player(player_id, ErrorCode.REPORT_INVALID)
            report["player"] = player_id
        else:
            raise ServiceError(
                ErrorCode.REPORT_INVALID,
                "name the player you report (not yourself), or the game and the message",
            )
        self.talk.check_rate(reporter)
        return {"id": self.store.add_report(report), "status": "received"}

    def _reported_message(self, reporter: str, game_id: str, version: int) -> dict[str, Any]:
        game = load(self.games.games, game_id)
        seat = game.seat_of(reporter)
        found = self.games.games.events(game_id, after=version - 1, count=1) if version > 0 else []
        # a message the reporter may read, whoever wrote it (blocked or not)
        event = game.message_for(seat, found[0], set()) if found and seat is not None else None
        if event is None:
            raise ServiceError(
                ErrorCode.REPORT_INVALID,
                Words("there is no message %(version)s of another player here", version=version),
            )
        return {
            "player": game.seats[event["seat"]].player_id,
            "game": game_id,
            "message": version,
            "text": event["text"],
        }

    # -- the operators' side -------------------------------------------------------------------

    def reports(self, count: int = 100) -> list[dict[str, Any]]:
        return self.store.reports(count)

    def audit_log(self, count: int = 100) -> list[dict[str, Any]]:
        return self.store.audit_log(count)

    def hide(self, game_id: str, message: int, reason: str, operator: str) -> dict[str, Any]:
        """Hide a message from everyone (an event of the game's log), and say so in the audit
        log."""
        writer = self.talk.hide(game_id, message, reason)
        return self._audit("hide", operator, reason, game=game_id, message=message, player=writer)

    def suspend(self, player_id: str, reason: str, operator: str) -> dict[str, Any]:
        """The player may no longer sign in, their token stops working, and their games go on
        by their timeout policy (`GameService.apply_timeout_policy`); the outbox applies it
        again to each of their turns that begins later. Safe to run twice."""
        profile = self._profile(player_id)
        self.players.save(player_id, {**profile, "suspended": True})
        self.players.revoke_token(player_id)
        games, _ = self.games.list_games(player_id, limit=SUSPENDED_GAMES)
        invited = self.games.invitations(player_id, limit=SUSPENDED_GAMES)
        going = dict.fromkeys(g["id"] for g in [*games, *invited] if g["status"] in GOING)
        changed = [g for g in going if self.games.apply_timeout_policy(g, player_id)]
        return self._audit("suspend", operator, reason, player=player_id, games=changed)

    def restore(self, player_id: str, operator: str, reason: str = "") -> dict[str, Any]:
        """Lift a suspension: the player may sign in again (and make a new token)."""
        profile = self._profile(player_id)
        self.players.save(player_id, {k: v for k, v in profile.items() if k != "suspended"})
        return self._audit("restore", operator, reason, player=player_id)

    def _profile(self, player_id: str) -> dict[str, Any]:
        profile = self.players.get(player_id)
        if profile is None:
            raise no_player(player_id)
        return profile

    def _audit(self, action: str, operator: str, reason: str, **what: Any) -> dict[str, Any]:
        entry = {
            "action": action,
            "operator": operator,
            "reason": reason,
            "at": self._now(),
            **what,
        }
        return {"id": self.store.audit(entry), **entry}
