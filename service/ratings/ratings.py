"""Recording finished games (the ratings of rated ones, every person's record) and reading
them back: a game's rating changes, a title's leaderboard, a player's ratings and record."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from engine import registry
from service.errors import ErrorCode, no_game
from service.ratings.model import CENTRE, MU, SCALE, Skill, combined, rate
from service.ratings.results import Result, ResultSeat
from service.settings import Settings
from service.timefmt import iso
from service.words import gettext
from store.ratings import Entrant, RatingStore

APPLY_ATTEMPTS = 16
"""A game's ratings are read, computed and written only if no player's skill changed meanwhile
(another of their games ended at the same moment); tried again up to this many times."""
RECENT = 10
"""Results on a player's page."""
HISTORY = 100
"""Rated games per title in a player's rating history (the chart)."""
PAGE_SIZE = 50


@dataclass(frozen=True)
class RatingChange:
    """One seat's rating before and after a rated game."""

    seat: int
    player: str
    name: str
    place: int
    before: Skill
    after: Skill

    @property
    def change(self) -> int:
        return self.after.rating - self.before.rating

    def to_json(self) -> dict[str, Any]:
        """Its fields, the skills as Skill.to_json writes them."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RatingChange:
        return cls(
            data["seat"],
            data["player"],
            data["name"],
            data["place"],
            Skill.from_json(data["before"]),
            Skill.from_json(data["after"]),
        )

    def shown(self) -> dict[str, Any]:
        """As the API and the webhook give it."""
        return {
            "seat": self.seat,
            "player_id": None if self.player.startswith("bot:") else self.player,
            "name": self.name,
            "place": self.place,
            "rating_before": self.before.rating,
            "rating": self.after.rating,
            "change": self.change,
            "uncertainty": self.after.uncertainty,
            "provisional": self.after.provisional,
        }

    def words(self, you: bool = False) -> str:
        """ "Ada: 1500 → 1542 (+42), provisional", in the language spoken (service/words.py)."""
        said = {
            "who": gettext("You") if you else self.name,
            "before": self.before.rating,
            "after": self.after.rating,
            "change": f"{'+' if self.change >= 0 else '-'}{abs(self.change)}",
        }
        if self.after.provisional:
            return gettext("%(who)s: %(before)s → %(after)s (%(change)s), provisional", **said)
        return gettext("%(who)s: %(before)s → %(after)s (%(change)s)", **said)


@dataclass(frozen=True)
class GameRatings:
    """A rated game's rating changes, one per seat."""

    game_id: str
    game: str
    at: int
    changes: tuple[RatingChange, ...]

    def to_json(self) -> dict[str, Any]:
        """Its fields, each change as RatingChange.to_json writes it."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRatings:
        return cls(
            data["game_id"],
            data["game"],
            data["at"],
            tuple(RatingChange.from_json(c) for c in data["changes"]),
        )


def score(skill: Skill) -> float:
    """The leaderboard's order: the rating before rounding."""
    return CENTRE + SCALE * (skill.mu - MU)


@dataclass(eq=False)
class Ratings:
    store: RatingStore
    settings: Settings
    clock: Callable[[], float] = time.time

    # -- a finished game (the worker's) ---------------------------------------------------------

    def record(self, result: Result) -> GameRatings | None:
        """Apply a finished rated game to its players' ratings, once, then add the game to each
        person's record, once each: safe to run again after a worker died anywhere in it. The
        game's rating changes (None for an unrated game)."""
        rated = None
        if result.rated:
            rated = self.of_game(result.game_id)
            if rated is None:
                rated = self._apply(result)
                self.store.keep_game_ratings(result.game_id, json.dumps(rated.to_json()))
        changes = {c.seat: c for c in rated.changes} if rated else {}
        for seat in result.seats:
            if seat.person:
                self._add_result(result, seat, changes.get(seat.seat))
        return rated

    def _apply(self, result: Result) -> GameRatings:
        players = list(dict.fromkeys(s.player for s in result.seats))
        cut_off = result.at - int(self.settings.leaderboard_active_days * 86_400_000)
        for _ in range(APPLY_ATTEMPTS):
            stored = self.store.skills(result.game, players)
            priors = {
                p: Skill.from_json(json.loads(raw) if raw else None)
                for p, raw in zip(players, stored)
            }
            updates = rate(
                [priors[s.player] for s in result.seats], [s.place for s in result.seats]
            )
            after = {
                p: combined(priors[p], [u for s, u in zip(result.seats, updates) if s.player == p])
                for p in players
            }
            record = GameRatings(
                result.game_id,
                result.game,
                result.at,
                tuple(
                    RatingChange(
                        s.seat, s.player, s.name, s.place, priors[s.player], after[s.player]
                    )
                    for s in result.seats
                ),
            )
            names = {s.player: s.name for s in result.seats}
            applied = self.store.apply(
                result.game,
                result.game_id,
                json.dumps(record.to_json()),
                result.at,
                [
                    Entrant(
                        p,
                        names[p],
                        raw,
                        json.dumps(after[p].to_json()),
                        score(after[p]),
                        after[p].games,
                    )
                    for p, raw in zip(players, stored)
                ],
                cut_off,
                self.settings.leaderboard_min_games,
            )
            if applied.record is not None:
                return GameRatings.from_json(json.loads(applied.record))
        raise RuntimeError(
            f"the ratings of game {result.game_id} met {APPLY_ATTEMPTS} other games' at once"
        )

    def _add_result(self, result: Result, seat: ResultSeat, change: RatingChange | None) -> None:
        title = result.game
        others = [s for s in result.seats if s.seat != seat.seat]
        record = {
            "game_id": result.game_id,
            "game": title,
            "at": result.at,
            "seat": seat.seat,
            "place": seat.place,
            "seats": len(result.seats),
            "rated": change is not None,
            "others": [{"player": o.player, "name": o.name, "place": o.place} for o in others],
            "before": change.before.to_json() if change else None,
            "after": change.after.to_json() if change else None,
        }
        tally = {
            f"{title}:games": 1,
            f"{title}:rated": int(change is not None),
            f"{title}:wins": int(seat.place == 1),
            f"{title}:place:{seat.place}": 1,
        }
        rivals: dict[str, int] = {}
        for o in others:
            if o.player == seat.player:
                continue
            verdict = "won" if seat.place < o.place else "lost" if seat.place > o.place else "drawn"
            field = f"{title}:{o.player}:{verdict}"
            rivals[field] = rivals.get(field, 0) + 1
        self.store.add_result(seat.player, title, result.game_id, result.at, record, tally, rivals)

    # -- reading -------------------------------------------------------------------------------

    def skills(self, title: str, players: list[str]) -> dict[str, Skill]:
        """Each player's (or bot's) skill at the title now (a newcomer's for one with none)."""
        stored = self.store.skills(title, players)
        return {
            p: Skill.from_json(json.loads(raw) if raw else None) for p, raw in zip(players, stored)
        }

    def of_game(self, game_id: str) -> GameRatings | None:
        found = self.store.game_ratings(game_id)
        return None if found is None else GameRatings.from_json(found)

    def leaderboard(self, title: str, page: int = 1, per_page: int = PAGE_SIZE) -> dict[str, Any]:
        """A page of the title's leaderboard: the players with at least
        `leaderboard_min_games` rated games who played one in the last
        `leaderboard_active_days`, best first."""
        info = _title(title)
        first = (page - 1) * per_page
        total, rows = self.store.board(title, first, per_page)
        return {
            "game": title,
            "title": info.title,
            "page": page,
            "per_page": per_page,
            "pages": max(1, -(-total // per_page)),
            "total": total,
            "min_games": self.settings.leaderboard_min_games,
            "active_days": self.settings.leaderboard_active_days,
            "players": [
                {
                    "rank": first + i + 1,
                    "player_id": None if row.player.startswith("bot:") else row.player,
                    "name": row.name,
                    **Skill.from_json(row.skill).shown(),
                }
                for i, row in enumerate(rows)
            ],
        }

    def of_player(self, player_id: str, reader: str | None = None) -> dict[str, Any]:
        """A player's ratings per title (with their rank and history), their record per
        title (games, wins, places), their latest results, and how they fared against
        `reader` (None when there is no reader, or it is the player)."""
        titles = sorted(registry.GAMES)
        rival = reader if reader and reader != player_id else None
        fields = (
            [f"{t}:{rival}:{v}" for t in titles for v in ("won", "lost", "drawn")] if rival else []
        )
        tally, rivals, recent, history = self.store.record(
            player_id, titles, fields, RECENT, HISTORY
        )
        ratings = []
        for title, (raw, rank, size) in zip(titles, self.store.standings(player_id, titles)):
            if not raw:
                continue
            points = [
                {
                    "game_id": r["game_id"],
                    "at": iso(r["at"]),
                    "rating": Skill.from_json(r["after"]).rating,
                }
                for r in reversed(history[title])
                if r.get("after")
            ]
            ratings.append(
                {
                    "game": title,
                    "title": registry.GAMES[title].info.title,
                    **Skill.from_json(json.loads(raw)).shown(),
                    "rank": None if rank is None else rank + 1,
                    "ranked_players": size,
                    "history": points,
                }
            )
        record = [
            {
                "game": title,
                "title": registry.GAMES[title].info.title,
                "games": tally.get(f"{title}:games", 0),
                "rated_games": tally.get(f"{title}:rated", 0),
                "wins": tally.get(f"{title}:wins", 0),
                "places": [
                    {"place": p, "games": tally[f"{title}:place:{p}"]}
                    for p in range(1, 7)
                    if tally.get(f"{title}:place:{p}")
                ],
            }
            for title in titles
            if tally.get(f"{title}:games")
        ]
        head_to_head = None
        if rival:
            per_title: list[dict[str, Any]] = [
                {
                    "game": t,
                    "title": registry.GAMES[t].info.title,
                    **{v: rivals.get(f"{t}:{rival}:{v}", 0) for v in ("won", "lost", "drawn")},
                }
                for t in titles
            ]
            head_to_head = {
                "player_id": rival,
                **{v: sum(row[v] for row in per_title) for v in ("won", "lost", "drawn")},
                "games": [row for row in per_title if row["won"] + row["lost"] + row["drawn"]],
            }
        return {
            "ratings": ratings,
            "record": record,
            "recent": [_result_shown(r) for r in recent],
            "head_to_head": head_to_head,
        }


def _result_shown(r: dict[str, Any]) -> dict[str, Any]:
    before = Skill.from_json(r["before"]) if r.get("before") else None
    after = Skill.from_json(r["after"]) if r.get("after") else None
    return {
        "game_id": r["game_id"],
        "game": r["game"],
        "title": registry.GAMES[r["game"]].info.title,
        "ended_at": iso(r["at"]),
        "place": r["place"],
        "seats": r["seats"],
        "rated": r["rated"],
        "rating": after.rating if after else None,
        "change": after.rating - before.rating if after and before else None,
        "others": [
            {
                "player_id": None if o["player"].startswith("bot:") else o["player"],
                "name": o["name"],
                "place": o["place"],
            }
            for o in r["others"]
        ],
    }


def _title(title: str):
    game = registry.GAMES.get(title)
    if game is None:
        raise no_game(title, ErrorCode.LEADERBOARD_NOT_FOUND, registry.GAMES)
    return game.info
