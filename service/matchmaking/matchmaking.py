"""Matchmaking's use cases: asking for a game, reading and withdrawing the request (the
requests'), pairing and the bot's game (the worker's, each once: a request is matched by one
atomic script, and its game is created with the id the script recorded)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import registry
from service.errors import ErrorCode, ServiceError, Words, no_game, no_player
from service.ids import new_id
from service.play.games import GameService, bots_of
from service.ratings.ratings import Ratings
from service.settings import Settings
from service.timefmt import iso
from store.matchmaking import MatchmakingStore
from store.players import PlayerStore
from store.schedule import member as schedule_member

MAX_BOT_WAIT_SECONDS = 7 * 86400


@dataclass(eq=False)
class Matchmaking:
    store: MatchmakingStore
    games: GameService
    players: PlayerStore
    ratings: Ratings
    settings: Settings
    clock: Callable[[], float] = time.time

    # -- the requests' ---------------------------------------------------------------------

    def ask(
        self, player_id: str, title: str, bot_after_seconds: int | None
    ) -> tuple[dict[str, Any], bool]:
        """Ask for a rated game of the title against someone near your rating; after
        `bot_after_seconds` without one (None: never), against the bot nearest your rating.
        Asking again while waiting keeps the first request. (The request, whether this call
        made it.)"""
        _title(title)
        if bot_after_seconds is not None and not 0 <= bot_after_seconds <= MAX_BOT_WAIT_SECONDS:
            raise ServiceError(
                ErrorCode.REQUEST_INVALID, "bot_after_seconds is from 0 to 604800 (a week)"
            )
        profile = self.players.get(player_id)
        if profile is None:
            raise no_player(player_id)
        now = int(self.clock() * 1000)
        rating = self.ratings.skills(title, [player_id])[player_id].rating
        request = {
            "player_id": player_id,
            "name": profile["name"],
            "game": title,
            "rating": rating,
            "at": now,
            "bot_after_seconds": bot_after_seconds,
            "status": "waiting",
            "game_id": None,
            "opponent": None,
            "first_seat": None,
            "request_id": secrets.token_hex(8),  # whether this call made it (asked twice in 1 ms)
        }
        bot_at = None if bot_after_seconds is None else now + bot_after_seconds * 1000
        item = bot_item(title, player_id, now)
        found = self.store.ask(title, request, bot_at, schedule_member(item))
        return self.shown(found), found.get("request_id") == request["request_id"]

    def get(self, player_id: str, title: str) -> dict[str, Any]:
        _title(title)
        found = _asked(self.store.request(title, player_id), title)
        return self.shown(found)

    def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The player's latest request of each title, those waiting or matched."""
        found = [self.store.request(title, player_id) for title in sorted(registry.GAMES)]
        return [self.shown(r) for r in found if r and r["status"] in ("waiting", "matched")]

    def cancel(self, player_id: str, title: str) -> dict[str, Any]:
        """Stop waiting (a request matched already has its game: 409)."""
        _title(title)
        found = _asked(self.store.cancel(title, player_id), title)
        if found["status"] == "matched":
            raise ServiceError(
                ErrorCode.MATCHMAKING_MATCHED,
                Words(
                    "your request is matched already: your game is %(game)s",
                    game=found["game_id"],
                ),
                game_id=found["game_id"],
            )
        return self.shown(found)

    def shown(self, request: dict[str, Any]) -> dict[str, Any]:
        opponent = request.get("opponent") or None
        bot_after = request.get("bot_after_seconds")
        return {
            "game": request["game"],
            "title": registry.GAMES[request["game"]].info.title,
            "status": request["status"],
            "rating": request["rating"],
            "window": self.settings.matchmaking_window,
            "asked_at": iso(request["at"]),
            "bot_after_seconds": bot_after,
            "bot_at": None if bot_after is None else iso(request["at"] + bot_after * 1000),
            "game_id": request.get("game_id") or None,
            "opponent": None
            if not opponent
            else {
                "player_id": opponent.get("player_id") or None,
                "name": opponent["name"],
                "bot": bool(opponent.get("bot")),
            },
            "first_seat": request.get("first_seat"),
        }

    # -- the worker's ------------------------------------------------------------------------

    def pair(self, title: str, player_id: str) -> dict[str, Any] | None:
        """Pair the player, if they are still waiting, with the waiting player nearest their
        rating, and create their game (once: the pairing is recorded first, with the game's
        id). The request as it is then."""
        found = self.store.pair(title, player_id, self.settings.matchmaking_window, new_id("g_"))
        if found and found["status"] == "matched":
            self._create(found)
        return found

    def bot_due(self, title: str, player_id: str, asked_at: int) -> dict[str, Any] | None:
        """The player's wait for a person is over: a game against the bot nearest their rating,
        if the request of `asked_at` is still waiting (or was matched with a bot just now)."""
        found = self.store.request(title, player_id)
        if found is None or found["at"] != asked_at:
            return found
        if found["status"] == "waiting":
            bot = self.nearest_bot(title, found["rating"])
            found = self.store.bot(title, player_id, asked_at, bot, new_id("g_"))
        if found and found["status"] == "matched" and found["at"] == asked_at:
            self._create(found)
        return found

    def nearest_bot(self, title: str, rating: int) -> str:
        """The bot whose rating at the title is nearest `rating` (the weaker on a tie)."""
        bots = list(bots_of(registry.GAMES[title]))
        skills = self.ratings.skills(title, bots)
        return min(bots, key=lambda b: (abs(skills[b].rating - rating), skills[b].rating))

    def _create(self, request: dict[str, Any]) -> None:
        opponent = request["opponent"]
        other = opponent.get("player_id") or opponent["bot"]
        me = request["player_id"]
        seats = [me, other] if request["first_seat"] else [other, me]
        self.games.create_seated(
            request["game_id"],
            request["game"],
            seats,
            {},
            {"per_move_seconds": self.settings.matchmaking_move_seconds, "on_timeout": "auto"},
            rated=True,
        )


def bot_item(title: str, player_id: str, asked_at: int) -> dict[str, Any]:
    """The schedule's item that ends a request's wait for a person."""
    return {"kind": "seek", "game": title, "player": player_id, "at": asked_at}


def _title(title: str) -> None:
    if title not in registry.GAMES:
        raise no_game(title, ErrorCode.MATCHMAKING_NOT_FOUND, registry.GAMES)


def _asked(request: dict[str, Any] | None, title: str) -> dict[str, Any]:
    """The player's request of `title`, refused when they have none."""
    if request is None:
        raise ServiceError(
            ErrorCode.MATCHMAKING_NOT_FOUND,
            Words("you have not asked for a game of %(title)s", title=title),
        )
    return request
