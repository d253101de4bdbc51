"""Ratings and players' records of finished games (the keys: store/keys.py, "ratings").

A title's skills, names, leaderboard and the markers of the games applied share the title's
hash tag, so that `apply` (store/rate.lua) changes every seat of a game, the board and the
marker in one atomic step, and a game is applied once however often it is tried. A player's
record of finished games is in their own keys, written once per game (store/player_result.lua).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis

from . import keys
from .games import Script

APPLIED_MARKER_SECONDS = 30 * 86400
"""How long a title keeps the marker of a game it applied. The worker writes the game's own
copy (`keep_game_ratings`) right after, and reads that first; the marker only has to outlive a
worker that died between the two (an outbox entry is taken over within seconds)."""


@dataclass(frozen=True)
class Entrant:
    """One player's (or bot's) part in `RatingStore.apply`."""

    id: str
    name: str
    before: str
    """Their skill as it was read (JSON; '' for none): the write happens only if unchanged."""
    after: str
    rating: float
    games: int


@dataclass(frozen=True)
class Applied:
    status: str
    """applied (now), done (before), or stale (a player's skill changed since it was read)."""
    record: str | None
    """The game's record (JSON) as applied; None when stale."""


@dataclass(frozen=True)
class BoardRow:
    player: str
    rating: float
    skill: dict[str, Any] | None
    name: str


class RatingStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._rate = Script(client, "rate.lua")
        self._result = Script(client, "player_result.lua")
        self._board = Script(client, "board.lua")

    # -- a finished game -----------------------------------------------------------------------

    def skills(self, title: str, players: list[str]) -> list[str]:
        """Each player's skill at the title as stored (JSON; '' for none)."""
        if not players:
            return []
        return [
            "" if raw is None else raw.decode()
            for raw in self.r.hmget(keys.rating_skills(title), players)
        ]

    def apply(
        self,
        title: str,
        game_id: str,
        record: str,
        at_ms: int,
        entrants: list[Entrant],
        board_from_ms: int,
        board_games: int,
    ) -> Applied:
        """Write the game's rating changes if it was never applied and no skill changed since
        it was read (see store/rate.lua)."""
        args: list[Any] = [record, at_ms, board_from_ms, board_games, APPLIED_MARKER_SECONDS]
        for e in entrants:
            args += [e.id, e.before, e.after, e.rating, e.games, e.name]
        status, found = self._rate(
            [
                keys.rating_applied(title, game_id),
                keys.rating_skills(title),
                keys.rating_names(title),
                keys.rating_board(title),
                keys.rating_active(title),
            ],
            args,
        )
        status = status.decode()
        return Applied(status, None if status == "stale" else found.decode())

    def keep_game_ratings(self, game_id: str, record: str) -> None:
        """The game's own copy of its rating changes (the same whenever it is written)."""
        self.r.set(keys.game_ratings(game_id), record)

    def forget_player(
        self, player_id: str, titles: list[str], game_ids: list[str], name: str
    ) -> None:
        """A player deleted their account: off every leaderboard, and named `name` where their
        name was kept (the titles' names, their games' rating changes). Key by key: each of
        these keys has a slot of its own."""
        for title in titles:
            self.r.zrem(keys.rating_board(title), player_id)
            self.r.zrem(keys.rating_active(title), player_id)
            if self.r.hexists(keys.rating_names(title), player_id):
                self.r.hset(keys.rating_names(title), player_id, name)
        for game_id in game_ids:
            record = self.game_ratings(game_id)
            if record is None:
                continue
            for change in record["changes"]:
                if change["player"] == player_id:
                    change["name"] = name
            self.keep_game_ratings(game_id, json.dumps(record))

    def rename_in_results(self, players: list[str], game_id: str, gone: str, name: str) -> None:
        """In the other `players`' records of a finished game (written once, by the worker),
        the player `gone` is named `name`."""
        for player_id in players:
            raw = self.r.hget(keys.player_result_records(player_id), game_id)
            if raw is None:
                continue
            record = json.loads(raw)
            for other in record["others"]:
                if other["player"] == gone:
                    other["name"] = name
            self.r.hset(keys.player_result_records(player_id), game_id, json.dumps(record))

    def game_ratings(self, game_id: str) -> dict[str, Any] | None:
        raw = self.r.get(keys.game_ratings(game_id))
        return None if raw is None else json.loads(raw)

    def add_result(
        self,
        player_id: str,
        title: str,
        game_id: str,
        at_ms: int,
        result: dict[str, Any],
        tally: dict[str, int],
        rivals: dict[str, int],
    ) -> bool:
        """Record the game in the player's record, once (False: it was recorded before)."""
        args: list[Any] = [game_id, at_ms, json.dumps(result), len(tally)]
        for pairs in (tally, rivals):
            args += [item for field, n in pairs.items() for item in (field, n)]
        return bool(
            self._result(
                [
                    keys.player_result_records(player_id),
                    keys.player_results(player_id),
                    keys.player_results(player_id, title),
                    keys.player_tally(player_id),
                    keys.player_rivals(player_id),
                ],
                args,
            )
        )

    # -- reading -------------------------------------------------------------------------------

    def board(self, title: str, first: int, count: int) -> tuple[int, list[BoardRow]]:
        """(the board's size, the `count` rows from rank `first` (from 0)), one round trip."""
        found = self._board(
            [keys.rating_board(title), keys.rating_skills(title), keys.rating_names(title)],
            [first, first + count - 1],
        )
        rows = [
            BoardRow(
                found[i].decode(),
                float(found[i + 1]),
                json.loads(found[i + 2]) if found[i + 2] else None,
                found[i + 3].decode(),
            )
            for i in range(1, len(found), 4)
        ]
        return int(found[0]), rows

    def standings(self, player: str, titles: list[str]) -> list[tuple[str, int | None, int]]:
        """Per title: (the player's skill as stored, '' for none; their place on the
        leaderboard from 0, None when not on it; the board's size). One round trip."""
        pipe = self.r.pipeline(transaction=False)
        for title in titles:
            pipe.hget(keys.rating_skills(title), player)
            pipe.zrevrank(keys.rating_board(title), player)
            pipe.zcard(keys.rating_board(title))
        found = pipe.execute()
        return [
            (
                "" if found[i] is None else found[i].decode(),
                None if found[i + 1] is None else int(found[i + 1]),
                int(found[i + 2]),
            )
            for i in range(0, len(found), 3)
        ]

    def record(
        self, player_id: str, titles: list[str], rivals: list[str], recent: int, history: int
    ) -> tuple[dict[str, int], dict[str, int], list[dict], dict[str, list[dict]]]:
        """A player's record in two round trips: their tally, the rivalry fields asked for,
        their `recent` last results, and per title the last `history` results."""
        pipe = self.r.pipeline(transaction=False)  # single-key commands: a cluster's too
        pipe.hgetall(keys.player_tally(player_id))
        pipe.zrevrange(keys.player_results(player_id), 0, recent - 1)
        for title in titles:
            pipe.zrevrange(keys.player_results(player_id, title), 0, history - 1)
        if rivals:
            pipe.hmget(keys.player_rivals(player_id), rivals)
        tally_raw, recent_ids, *found = pipe.execute()
        per_title, rivals_raw = found[: len(titles)], found[len(titles) :]
        tally = {k.decode(): int(v) for k, v in tally_raw.items()}
        rival = {field: int(n or 0) for field, n in zip(rivals, rivals_raw[0] if rivals else [])}
        wanted = list(dict.fromkeys([*recent_ids, *(g for ids in per_title for g in ids)]))
        records = dict(
            zip(
                wanted,
                self.r.hmget(keys.player_result_records(player_id), wanted) if wanted else [],
            )
        )

        def read(ids: list[bytes]) -> list[dict]:
            return [json.loads(records[g]) for g in ids if records.get(g)]

        return (
            tally,
            rival,
            read(recent_ids),
            {title: read(ids) for title, ids in zip(titles, per_title)},
        )
