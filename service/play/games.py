"""The game use-cases: create, join, play, resign, view, legal moves, log, replay, lists."""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, cast

import orjson

from engine import match as runner
from engine import registry
from engine.bots import search
from engine.core import Game, GameError, InvalidOptions, validate_options
from engine.rng import Rng, commitment
from service.errors import ErrorCode, ServiceError, StaleVersion
from service.ids import new_id
from service.play import boards, history, lists, logview
from service.timefmt import iso
from store.connection import StoreUnavailable
from store.games import Appended, Commit, FirstAnswer, GameStore, Replayed, Stale
from store.players import PlayerStore
from store.record import Event, EventType
from store.schedule import member as schedule_member
from store.snapshot import Snapshot

log = logging.getLogger(__name__)

MIN_MOVE_SECONDS = 60
MAX_MOVE_SECONDS = 8 * 7 * 24 * 3600  # eight weeks
TIMEOUT_POLICIES = ("auto", "forfeit")
BOT_SEATS = ("bot:random", "bot:heuristic", "bot:expert")
IF_DECLINED = ("cancel", "open")
APPEND_ATTEMPTS = 16


class GameService:
    def __init__(
        self,
        games: GameStore,
        players: PlayerStore,
        clock: Callable[[], float] = time.time,
        min_move_seconds: int = MIN_MOVE_SECONDS,
        expert_seconds: float = 1.0,
    ):
        self.min_move_seconds = min_move_seconds
        self.expert_seconds = expert_seconds
        self.games = games
        self.players = players
        self.clock = clock
        self.moves_json = MovesJson()

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: str) -> Snapshot:
        snap = self.games.snapshot(game_id)
        if snap is None:
            raise ServiceError(ErrorCode.GAME_NOT_FOUND, f"there is no game {game_id}")
        return snap

    def summary(self, game_id: str) -> dict[str, Any]:
        return summarize(self.load(game_id))

    def view(
        self, game_id: str, player_id: str, unless_version: int | None = None
    ) -> dict[str, Any] | None:
        """The player's view (a spectator's without a seat); None if still at unless_version."""
        snap = self.load(game_id)
        if unless_version is not None and snap["version"] == unless_version:
            return None
        seat = seat_of(snap, player_id)
        _started(snap)
        return history.seat_view(snap, seat)

    def board(
        self, game_id: str, player_id: str, unless_version: int | None = None
    ) -> tuple[int, str] | None:
        """(version, the text board as the player's seat or a spectator sees it); None if
        still at unless_version."""
        snap = self.load(game_id)
        if unless_version is not None and snap["version"] == unless_version:
            return None
        seat = seat_of(snap, player_id)
        _started(snap)
        return snap["version"], boards.seat_text(snap, seat)

    def legal_moves(self, game_id: str, player_id: str) -> dict[str, Any]:
        snap = self.load(game_id)
        seat = seated(snap, player_id)
        match = _started(snap)
        moves = legal_move_list(history.game_of(snap), match, seat)
        return {"game": snap["game"], "version": snap["version"], "seat": seat, "moves": moves}

    def legal_moves_for_json(self, game_id: str, player_id: str) -> dict[str, Any]:
        """`legal_moves` for the API to write as JSON: the same answer, its moves as their JSON
        already written (an orjson.Fragment), remembered by `self.moves_json`."""
        snap = self.load(game_id)
        seat = seated(snap, player_id)
        match = _started(snap)
        moves = self.moves_json.of(snap, match, seat)
        return {"game": snap["game"], "version": snap["version"], "seat": seat, "moves": moves}

    def log(self, game_id: str, player_id: str, after: int = 0, limit: int = 100) -> dict[str, Any]:
        snap = self.load(game_id)
        seat = seat_of(snap, player_id)
        game = history.game_of(snap)
        events = self.games.events(game_id, after=after, count=limit)
        entries = [logview.render(game, snap["seats"], e, seat) for e in events]
        return {"version": snap["version"], "seat": seat, "entries": entries}

    def replay(self, game_id: str) -> Snapshot:
        """The snapshot rebuilt from the log alone."""
        self.load(game_id)
        return history.replay(self.games.events(game_id))

    def list_games(
        self,
        player_id: str,
        awaiting: bool = False,
        limit: int = 50,
        after: tuple[float, str] | None = None,
    ) -> tuple[list[dict], tuple[float, str] | None]:
        """A page of the player's games (or inbox) after the place `after`, and the place
        where the next page starts (None on the last page)."""
        found = self.players.page(player_id, awaiting, limit + 1, after)
        more, found = len(found) > limit, found[:limit]
        snaps = self.games.snapshots([game_id for game_id, _ in found])
        games = [summarize(s) for s in snaps if s is not None]
        following = (found[-1][1], found[-1][0]) if more and found else None
        return games, following

    def invitations(self, player_id: str, limit: int = 50) -> list[dict]:
        """The games with a seat reserved for the player, newest first."""
        return [
            summarize(s)
            for s in self.games.snapshots(self.players.invitations(player_id, limit))
            if s is not None and invitation_of(s, player_id) is not None
        ]

    def open_games(self, limit: int = 50) -> list[dict]:
        return [
            summarize(s)
            for s in self.games.snapshots(self.games.open_games(limit))
            if s is not None and lists.has_open_seat(s)
        ]

    # -- writing ---------------------------------------------------------------------------

    def create(
        self,
        creator: str,
        game_name: str,
        seats: list,
        options: dict | None = None,
        time_control: dict | None = None,
        if_declined: str = "cancel",
        game_id: str | None = None,
    ) -> dict[str, Any]:
        """A new game (with the id `game_id` when it is given: a rematch's, reserved). A seat naming another player reserves it for them (an invitation: they
        join or decline), unless they let the creator seat them (their friends); the game
        starts when every seat is taken. `if_declined`: "cancel" the game when an invitation
        is declined, or "open" the seat to anyone in the lobby."""
        game = registry.get(game_name)
        if game is None:
            raise ServiceError(
                ErrorCode.GAME_UNKNOWN,
                f"there is no game {game_name!r}; the games are: "
                f"{', '.join(sorted(registry.GAMES)) or 'none yet'}",
            )
        info = game.info
        if not info.min_players <= len(seats) <= info.max_players:
            raise ServiceError(
                ErrorCode.GAME_INVALID_SEATS,
                f"{info.title} is played by {info.min_players} to {info.max_players} "
                f"players; {len(seats)} seats were given",
            )
        try:
            options = validate_options(info, options)
        except InvalidOptions as err:
            raise ServiceError.from_game_error(err) from None
        if if_declined not in IF_DECLINED:
            raise ServiceError(ErrorCode.REQUEST_INVALID, "if_declined must be cancel or open")
        seat_records = self._seat_records(creator, seats, game)
        seed = secrets.token_bytes(32)
        created = {
            "type": EventType.GAME_CREATED,
            "game": info.name,
            "rules_version": info.rules_version,
            "options": options,
            "seats": seat_records,
            "time_control": _check_time_control(time_control, self.min_move_seconds),
            "seed": seed.hex(),
            "commitment": commitment(seed),
            "created_by": creator,
            "if_declined": if_declined,
        }
        while True:
            game_id = game_id or new_id("g_")
            snap, events = self._fold([({**created, "game_id": game_id}, None)], None)
            if not _waiting_seats(snap):
                snap, more = self._start(snap)
                events += more
            if self.games.create(
                Commit(game_id, 0, _stored(events), snap, schedule=_deadline_items(snap))
            ):
                break
            game_id = None  # a new id collided with a game's: draw another
        self._write_lists(snap)
        return summarize(snap)

    def rematch(self, game_id: str, player_id: str) -> tuple[dict[str, Any], bool]:
        """The rematch of a finished game, asked by one of its players: the same title,
        options, clock and seats, turned by one so that another seat begins. The other players
        are invited (or seated, if they let the asker seat them); the bots keep their seats.
        A game has one rematch: asking again, or another of its players asking, gives that
        game. Returns (its summary, whether this call created it)."""
        snap = self.load(game_id)
        seated(snap, player_id)
        if snap["status"] != "finished":
            raise ServiceError(
                ErrorCode.GAME_NOT_FINISHED,
                "the game is not over: a rematch follows a finished game",
            )
        existing = self.games.rematch_of(game_id)
        if existing is None:
            reserved = new_id("g_")
            existing = self.games.claim_rematch(game_id, reserved)
            if existing == reserved:
                seats = [r["name"] if r["kind"] == "bot" else r["player_id"] for r in snap["seats"]]
                try:
                    created = self.create(
                        player_id,
                        snap["game"],
                        seats[1:] + seats[:1],
                        options=snap["options"],
                        time_control=dict(snap["time_control"] or {}) or None,
                        if_declined=snap["if_declined"],
                        game_id=reserved,
                    )
                except ServiceError:
                    self.games.release_rematch(game_id, reserved)
                    raise
                return created, True
        rematch = self.games.snapshot(existing)
        if rematch is None:  # another player's request is creating it this very moment
            raise ServiceError(ErrorCode.GAME_BUSY, "the rematch is being created: try again")
        return summarize(rematch), False

    def rematch_of(self, game_id: str) -> str | None:
        """The id of the game's rematch, if one was asked for."""
        return self.games.rematch_of(game_id)

    def join(self, game_id: str, player_id: str, seat: int | None = None) -> dict[str, Any]:
        """Take an open seat, or the seat reserved for you (which accepts the invitation)."""
        name = self._player_name(player_id)
        for _ in range(APPEND_ATTEMPTS):
            snap = self.load(game_id)
            _not_cancelled(snap)
            if snap["status"] != "open":
                raise ServiceError(ErrorCode.GAME_FULL, "this game has no open seat")
            if seat_of(snap, player_id) is not None:
                raise ServiceError(
                    ErrorCode.GAME_ALREADY_SEATED, "you already have a seat in this game"
                )
            invited = invitation_of(snap, player_id)
            open_seats = [i for i, r in enumerate(snap["seats"]) if r["kind"] == "open"]
            if invited is not None:
                if seat is not None and seat != invited:
                    raise ServiceError(
                        ErrorCode.GAME_SEAT_TAKEN,
                        f"seat {invited} is reserved for you: join without a seat or with that one",
                    )
                chosen = invited
            elif not open_seats:
                raise ServiceError(
                    ErrorCode.GAME_FULL,
                    "this game has no open seat: its other seats are reserved for "
                    "the players it invited",
                )
            else:
                chosen = open_seats[0] if seat is None else seat
            if chosen != invited and chosen not in open_seats:
                raise ServiceError(
                    ErrorCode.GAME_SEAT_TAKEN,
                    f"seat {chosen} is not open; open seats: {', '.join(map(str, open_seats))}",
                )
            joined = {
                "type": EventType.PLAYER_JOINED,
                "seat": chosen,
                "player_id": player_id,
                "name": name,
            }
            new, events = self._fold([(joined, None)], snap)
            if not _waiting_seats(new):
                new, more = self._start(new)
                events += more
            if isinstance(self._append(snap, events, new), Appended):
                return summarize(new)
        raise ServiceError(ErrorCode.GAME_BUSY, "the game is busy; try again")

    def decline(self, game_id: str, player_id: str) -> dict[str, Any]:
        """Refuse the seat reserved for you: it opens to anyone in the lobby if the creator
        asked for that (`if_declined: open`), otherwise the game is cancelled."""
        for _ in range(APPEND_ATTEMPTS):
            snap = self.load(game_id)
            _not_cancelled(snap)
            seat = invitation_of(snap, player_id)
            if seat is None:
                raise ServiceError(
                    ErrorCode.GAME_NOT_INVITED, "you have no invitation to answer in this game"
                )
            declined = {
                "type": EventType.INVITATION_DECLINED,
                "seat": seat,
                "player_id": player_id,
                "name": snap["seats"][seat]["name"],
            }
            items: list[tuple[dict, dict | None]] = [(declined, None)]
            if snap["if_declined"] == "cancel":
                items.append(({"type": EventType.GAME_CANCELLED, "reason": "declined"}, None))
            new, events = self._fold(items, snap)
            if isinstance(self._append(snap, events, new), Appended):
                return summarize(new)
        raise ServiceError(ErrorCode.GAME_BUSY, "the game is busy; try again")

    def play(
        self,
        game_id: str,
        player_id: str,
        expected_version: int,
        notation: str | None = None,
        action: dict | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Play a move. With an `idempotency_key`, a retry of the same request answers the
        first attempt's answer (a ReplayedAnswer), also when it raced the first attempt (which
        then made its version stale); the key reused for another request is refused."""
        request = _move_fingerprint(expected_version, notation, action)
        for _ in range(APPEND_ATTEMPTS):
            snap, first = self.games.snapshot_and_answer(game_id, player_id, idempotency_key)
            if first is not None:
                return _replay(first, request)
            if snap is None:
                raise ServiceError(ErrorCode.GAME_NOT_FOUND, f"there is no game {game_id}")
            try:
                new, events, answer = self._move(
                    snap, player_id, expected_version, notation, action
                )
            except ServiceError:
                first = (
                    self.games.idempotent_answer(game_id, player_id, idempotency_key)
                    if idempotency_key
                    else None
                )
                if first:
                    return _replay(first, request)
                raise
            result = self._append(snap, events, new, idempotency_key, player_id, answer, request)
            if isinstance(result, Replayed):
                return _replay(result.first, request)
            if isinstance(result, Appended):
                return answer
        raise ServiceError(ErrorCode.GAME_BUSY, "the game is busy; try again")

    def _move(
        self,
        snap: Snapshot,
        player_id: str,
        expected_version: int,
        notation: str | None,
        action: dict | None,
    ) -> tuple[Snapshot, list[Event], dict[str, Any]]:
        seat = seated(snap, player_id)
        match = _started(snap)
        game = history.game_of(snap)
        try:
            if match["outcome"] is None and not runner.is_current(
                match, seat, expected_version, snap["version"]
            ):
                raise StaleVersion(snap["version"])
            runner.check_turn(game, match, seat)
            chosen = runner.read_action(game, notation, action)
            new, events = self._action_events(snap, seat, chosen)
        except GameError as err:
            raise ServiceError.from_game_error(err) from None
        answer = {"version": new["version"], "move": game.format(chosen), "game": summarize(new)}
        return new, events, answer

    def bot_move(self, game_id: str, seat: int, version: int) -> bool:
        """Play for a bot seat if the game is still at `version` and the bot may act.

        Safe to run late or twice: any other commit since `version` makes it do nothing (and
        that commit asked for a new bot move if one is due)."""
        snap = self.games.snapshot(game_id)
        if snap is None or snap["status"] != "active" or snap["version"] != version:
            return False
        record = snap["seats"][seat]
        game = history.game_of(snap)
        if record["kind"] != "bot" or seat not in snap["active_seats"]:
            return False
        chosen = _bot_choice(game, history.match_of(snap), seat, record["bot"], self.expert_seconds)
        new, events = self._action_events(snap, seat, chosen)
        return isinstance(self._append(snap, events, new), Appended)

    def play_for_timed_out(self, game_id: str, seat: int) -> bool:
        """Under `on_timeout: auto`, the computer (the heuristic bot) plays for a seat whose
        clock ran out, unless the seat's turn moved on meanwhile. Safe to run late or twice."""
        for _ in range(APPEND_ATTEMPTS):
            snap = self.games.snapshot(game_id)
            if (
                snap is None
                or snap["status"] != "active"
                or seat not in snap["timed_out"]
                or snap["time_control"] is None
                or snap["time_control"]["on_timeout"] != "auto"
            ):
                return False
            chosen = _bot_choice(history.game_of(snap), history.match_of(snap), seat, "heuristic")
            new, events = self._action_events(snap, seat, chosen)
            if isinstance(self._append(snap, events, new), Appended):
                return True
        return False

    def expire_turn(self, game_id: str, seat: int, since: int) -> str:
        """The seat's clock, started at version `since`, has run out. See expire_turns."""
        return self.expire_turns([(game_id, seat, since)])[0]

    def expire_turns(self, due: list[tuple[str, int, int]]) -> list[str]:
        """Record that these seats' clocks (game, seat, the version their turn started at) ran
        out: TurnTimedOut, and under `forfeit` the seat leaves the game; under `auto` the
        computer's move follows as the commit's consequence. All the games are read in one
        round trip and the timeouts appended in one more, a game's seats in one commit.

        Each answer is "applied"; "moot" if the seat's turn has moved on since (so a deadline
        met late, twice or by two clocks has its effect once); or "early" if the deadline has
        not come yet (the caller asks again at the deadline)."""
        now = self.clock() * 1000
        answers: list[str] = ["moot"] * len(due)  # a game that is gone stays moot
        by_game: dict[str, list[int]] = {}
        for i, (game_id, _, _) in enumerate(due):
            by_game.setdefault(game_id, []).append(i)
        commits: list[tuple[list[int], Snapshot, list[Event], Snapshot]] = []
        for items, snap in zip(by_game.values(), self.games.snapshots(list(by_game))):
            if snap is None:
                continue
            new, events, applied = snap, [], []
            for i in items:  # each seat's timeout on the game as the earlier ones left it
                _, seat, since = due[i]
                answers[i] = _timeout_verdict(new, seat, since, now)
                if answers[i] == "applied":
                    new, more = self._timeout_events(new, seat)
                    events += more
                    applied.append(i)
            if events:
                commits.append((applied, snap, events, new))
        results = self.games.append_many(
            [self._commit(snap, events, new) for _, snap, events, new in commits]
        )
        written = []
        for (applied, _, _, new), result in zip(commits, results):
            if isinstance(result, Appended):
                written.append(new)
            else:  # a move or another clock just now: one at a time
                for i in applied:
                    answers[i] = self._expire_one(*due[i])
        self._write_lists(*written)
        return answers

    def _expire_one(self, game_id: str, seat: int, since: int) -> str:
        for _ in range(APPEND_ATTEMPTS):
            snap = self.games.snapshot(game_id)
            if snap is None:
                return "moot"
            verdict = _timeout_verdict(snap, seat, since, self.clock() * 1000)
            if verdict != "applied":
                return verdict
            new, events = self._timeout_events(snap, seat)
            if isinstance(self._append(snap, events, new), Appended):
                return "applied"
        return "moot"

    def _timeout_events(self, snap: Snapshot, seat: int) -> tuple[Snapshot, list[Event]]:
        policy = history.clock_of(snap)["on_timeout"]
        timed_out = {"type": EventType.TURN_TIMED_OUT, "seat": seat, "policy": policy}
        if policy == "auto":
            return self._fold([(timed_out, None)], snap)
        return self._leave_events(snap, seat, "forfeit", before=[timed_out])

    def wait_log(
        self, game_id: str, player_id: str | None, after: int, block_ms: int
    ) -> list[dict[str, Any]]:
        """Log entries after `after` as the player may see them, waiting up to block_ms."""
        snap = self.load(game_id)
        seat = seat_of(snap, player_id)
        game = history.game_of(snap)
        events = self.games.wait_events(game_id, after, block_ms)
        if events:
            snap = self.load(game_id)
        return [logview.render(game, snap["seats"], e, seat) for e in events]

    def resign(self, game_id: str, player_id: str) -> dict[str, Any]:
        for _ in range(APPEND_ATTEMPTS):
            snap = self.load(game_id)
            seat = seated(snap, player_id)
            result = self._leave(snap, seat, "resigned")
            if result is not None:
                return summarize(result)
        raise ServiceError(ErrorCode.GAME_BUSY, "the game is busy; try again")

    # -- inner workings ----------------------------------------------------------------------

    def _leave(self, snap: Snapshot, seat: int, reason: str) -> Snapshot | None:
        """Record that `seat` resigned; None if the game moved meanwhile."""
        if snap["status"] == "finished":
            raise ServiceError(ErrorCode.MOVE_GAME_OVER, "the game is over")
        _not_cancelled(snap)
        if snap["status"] == "open":
            new, events = self._fold(
                [({"type": EventType.PLAYER_RESIGNED, "seat": seat, "reason": reason}, None)], snap
            )
        else:
            try:
                new, events = self._leave_events(snap, seat, reason)
            except GameError as err:
                raise ServiceError.from_game_error(err) from None
        return new if isinstance(self._append(snap, events, new), Appended) else None

    def _action_events(
        self, snap: Snapshot, seat: int, chosen: dict, before: Sequence[dict] = ()
    ) -> tuple[Snapshot, list[Event]]:
        """Events `before`, then the seat's ActionTaken (and GameEnded if it ends the game)."""
        game = history.game_of(snap)
        new, events = self._fold([(e, None) for e in before], snap)
        new_match, entries = runner.act(
            game, history.match_of(new), seat, chosen, _seed(snap), new["version"] + 1
        )
        taken = {
            "type": EventType.ACTION_TAKEN,
            "seat": seat,
            "action": chosen,
            "entries": [e.to_json() for e in entries],
        }
        new, more = self._fold([(taken, new_match)], new)
        return self._end_if_over(new, events + more)

    def _leave_events(
        self, snap: Snapshot, seat: int, reason: str, before: Sequence[dict] = ()
    ) -> tuple[Snapshot, list[Event]]:
        game = history.game_of(snap)
        new, events = self._fold([(e, None) for e in before], snap)
        new_match, entries = runner.resign(
            game, history.match_of(new), seat, new["version"] + 1, reason
        )
        left = {
            "type": EventType.PLAYER_RESIGNED,
            "seat": seat,
            "reason": reason,
            "entries": [e.to_json() for e in entries],
        }
        new, more = self._fold([(left, new_match)], new)
        return self._end_if_over(new, events + more)

    def _seat_records(self, creator: str, seats: list, game) -> list[dict]:
        """One record per seat: the creator's own seat, a bot, an open seat, a player who lets
        the creator seat them (kind "player"), or an invitation (kind "invited")."""
        records, seen = [], set()
        for entry in seats:
            if entry is None:
                records.append({"kind": "open", "player_id": None, "name": None})
            elif isinstance(entry, str) and entry.startswith("bot:"):
                if entry not in bots_of(game):
                    raise ServiceError(
                        ErrorCode.GAME_INVALID_SEATS,
                        f"there is no bot {entry!r} for {game.info.title}; its bots are: "
                        f"{', '.join(bots_of(game))}",
                    )
                records.append(
                    {
                        "kind": "bot",
                        "player_id": None,
                        "name": entry,
                        "bot": entry.removeprefix("bot:"),
                    }
                )
            elif isinstance(entry, str):
                if entry in seen:
                    raise ServiceError(
                        ErrorCode.GAME_INVALID_SEATS, f"player {entry} is given two seats"
                    )
                seen.add(entry)
                records.append(
                    {
                        "kind": "invited",
                        "player_id": entry,
                        "name": self._player_name(entry, ErrorCode.GAME_INVALID_SEATS),
                    }
                )
            else:
                raise ServiceError(
                    ErrorCode.GAME_INVALID_SEATS, "each seat is a player id, a bot name or null"
                )
        if all(r["kind"] == "bot" for r in records):
            raise ServiceError(
                ErrorCode.GAME_INVALID_SEATS, "a game needs at least one seat for a person"
            )
        others = [r for r in records if r["kind"] == "invited" and r["player_id"] != creator]
        friends = self.players.lets_seat([str(r["player_id"]) for r in others], creator)
        for record in records:
            if record["kind"] == "invited" and record["player_id"] == creator:
                record["kind"] = "player"
        for record, seats_directly in zip(others, friends):
            if seats_directly:
                record["kind"] = "player"
        return records

    def _player_name(self, player_id: str, error: ErrorCode = ErrorCode.PLAYER_NOT_FOUND) -> str:
        profile = self.players.get(player_id)
        if profile is None:
            raise ServiceError(error, f"there is no player {player_id}")
        return profile["name"]

    def _start(self, snap: Snapshot) -> tuple[Snapshot, list[Event]]:
        game = history.game_of(snap)
        # the options as created: a game that waited for a player since before an option was
        # added starts under the rules it was created with (and replays alike)
        match, entries = runner.start(
            game, len(snap["seats"]), snap["options"], _seed(snap), snap["version"] + 1, True
        )
        started = {"type": EventType.GAME_STARTED, "entries": [e.to_json() for e in entries]}
        return self._fold([(started, match)], snap)

    def _end_if_over(self, snap: Snapshot, events: list[Event]) -> tuple[Snapshot, list[Event]]:
        if history.match_of(snap)["outcome"] is None:
            return snap, events
        ended = {
            "type": EventType.GAME_ENDED,
            "outcome": history.match_of(snap)["outcome"],
            "seed": snap["secret_seed"],
        }
        new, more = self._fold([(ended, None)], snap)
        return new, events + more

    def _fold(
        self, items: Sequence[tuple[dict[str, Any], dict[str, Any] | None]], snap: Snapshot | None
    ) -> tuple[Snapshot, list[Event]]:
        """Stamp events with time and version and fold them; returns (snapshot, events)."""
        now = int(self.clock() * 1000)
        events: list[Event] = []
        for unstamped, computed in items:
            version = (snap["version"] if snap else 0) + 1
            event = cast(Event, {**unstamped, "at": now, "version": version})
            snap = history.fold(snap, event, computed)
            events.append(event)
        if snap is None:
            raise ValueError("nothing to fold: no snapshot and no event")
        return snap, events

    def _commit(
        self,
        before: Snapshot,
        events: list[Event],
        after: Snapshot,
        idempotency_key: str | None = None,
        player_id: str = "",
        answer: dict | None = None,
        request: str = "",
    ) -> Commit:
        """The append of `events` on `before`: the snapshot `after`, and the deadlines that
        start or stop with it (everything else a commit causes is derived from the outbox
        entry the append writes with it; see service.consequences)."""
        old, new = _deadline_items(before), _deadline_items(after)
        new_members = {m for _, m in new}
        return Commit(
            after["id"],
            before["version"],
            _stored(events),
            after,
            unschedule=[m for _, m in old if m not in new_members],
            schedule=[(at, m) for at, m in new if (at, m) not in old],
            idempotency_key=idempotency_key,
            player_id=player_id,
            answer=answer,
            request=request,
        )

    def _append(
        self,
        before: Snapshot,
        events: list[Event],
        after: Snapshot,
        idempotency_key: str | None = None,
        player_id: str = "",
        answer: dict | None = None,
        request: str = "",
    ) -> Appended | Stale | Replayed:
        result = self.games.append(
            self._commit(before, events, after, idempotency_key, player_id, answer, request)
        )
        if isinstance(result, Appended):
            self._write_lists(after)
        return result

    def _write_lists(self, *snaps: Snapshot) -> None:
        """Bring the players' game lists, inboxes and the lobby up to the committed snapshots
        now, so that the committing client reads its own write. A worker does the same from
        the outbox, so a failure here loses nothing, and the committed answer stands."""
        try:
            lists.write(self.games, self.players, list(snaps))
        except StoreUnavailable:
            log.warning(
                "lists of %s not written now; the outbox will",
                ", ".join(s["id"] for s in snaps),
                exc_info=True,
            )


class ReplayedAnswer(dict):
    """The first answer to an Idempotency-Key, given again to a retry of the same request: a
    dict like any answer, marked so that the API can say so (Idempotent-Replayed: true)."""


def _move_fingerprint(expected_version: int, notation: str | None, action: dict | None) -> str:
    """What makes two move requests the same request: the SHA-256 of their fields as
    canonical JSON (so spacing and key order do not matter; notation and action do)."""
    canonical = json.dumps(
        {"expected_version": expected_version, "notation": notation, "action": action},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(first: FirstAnswer, request: str) -> ReplayedAnswer:
    if first.request != request:
        raise ServiceError(
            ErrorCode.REQUEST_IDEMPOTENCY_MISMATCH,
            "this Idempotency-Key was used for another move: a retry must send the "
            "same body; a new move needs a new key",
        )
    return ReplayedAnswer(first.answer)


def _timeout_verdict(snap: Snapshot, seat: int, since: int, now_ms: float) -> str:
    if snap["status"] != "active":
        return "moot"
    deadline = snap["deadlines"][seat]
    if (
        seat not in snap["active_seats"]
        or history.match_of(snap)["seat_since"][seat] != since
        or deadline is None
        or seat in snap["timed_out"]
    ):
        return "moot"
    return "early" if deadline > now_ms else "applied"


def timeout_item(game_id: str, seat: int, since: int) -> dict[str, Any]:
    """The schedule's item for a seat's deadline (the clock records the timeout)."""
    return {"kind": "timeout", "game": game_id, "seat": seat, "since": since}


def _deadline_items(snap: Snapshot | None) -> list[tuple[int, str]]:
    """(deadline, schedule member) of every seat whose clock runs in this snapshot."""
    if snap is None or snap["match"] is None or snap["status"] != "active":
        return []
    since = snap["match"]["seat_since"]
    return [
        (deadline, schedule_member(timeout_item(snap["id"], seat, since[seat])))
        for seat, deadline in enumerate(snap["deadlines"])
        if deadline is not None and seat in snap["active_seats"]
    ]


def _stored(events: list[Event]) -> list[dict[str, Any]]:
    """Events as the log keeps them: the version is the entry's ID, not a field."""
    return [{k: v for k, v in e.items() if k != "version"} for e in events]


def bots_of(game) -> tuple[str, ...]:
    """The bot seats a title offers: bot:expert where its bots can search (engine/bots/search)."""
    return tuple(b for b in BOT_SEATS if b != "bot:expert" or search.expert_for(game))


WALL_FACTOR = 4
"""bot:expert's search also ends after this many times its budget of wall-clock time."""


def cpu_budget(seconds: float) -> Callable[[], bool]:
    """The expert's `more()` for a search of `seconds` of this thread's CPU time ("1 s on one
    core"): the same search on a busy machine as on an idle one, only later; after
    WALL_FACTOR times the budget of wall-clock time it ends anyway, so that an overloaded
    worker does not hold a move for long."""
    cpu_end = time.thread_time() + seconds
    wall_end = time.monotonic() + WALL_FACTOR * seconds
    return lambda: time.thread_time() < cpu_end and time.monotonic() < wall_end


def _bot_choice(game, match: dict, seat: int, bot: str, expert_seconds: float = 1.0) -> dict:
    """A bot sees what its seat sees; its own randomness need not replay (its move is logged).
    The expert searches for `expert_seconds` of CPU time (in a worker, never in a request)."""
    legal = runner.legal_actions(game, match, seat)
    rng = Rng(secrets.token_bytes(32))
    if bot == "expert":
        budget = cpu_budget(expert_seconds)
        return search.expert_move(game, match["state"], seat, legal, rng, budget)
    return game.bots[bot](game.view(match["state"], seat), legal, rng)


def _seed(snap: Snapshot) -> bytes:
    return bytes.fromhex(snap["secret_seed"])


def _started(snap: Snapshot) -> dict[str, Any]:
    if snap["match"] is None:
        _not_cancelled(snap)
        waiting = len(_waiting_seats(snap))
        raise ServiceError(
            ErrorCode.GAME_NOT_STARTED,
            f"the game has not started: it waits for {waiting} more "
            f"player{'s' if waiting != 1 else ''}",
        )
    return snap["match"]


def _not_cancelled(snap: Snapshot) -> None:
    if snap["status"] == "cancelled":
        raise ServiceError(
            ErrorCode.GAME_CANCELLED, "the game was cancelled: an invited player declined"
        )


def _waiting_seats(snap: Snapshot) -> list[int]:
    """The seats still to be taken: open ones and those reserved for invited players."""
    return [s for s, r in enumerate(snap["seats"]) if r["kind"] in ("open", "invited")]


def invitation_of(snap: Snapshot, player_id: str | None) -> int | None:
    """The seat reserved for the player, if they are invited and have not answered."""
    for seat, record in enumerate(snap["seats"]):
        if record["kind"] == "invited" and record["player_id"] == player_id:
            return seat
    return None


def _check_time_control(control: dict | None, min_seconds: int) -> dict | None:
    if control is None:
        return None
    seconds = control.get("per_move_seconds")
    policy = control.get("on_timeout", "auto")
    if seconds is None:
        return None
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not (min_seconds <= seconds <= MAX_MOVE_SECONDS)
    ):
        raise ServiceError(
            ErrorCode.GAME_INVALID_TIME_CONTROL,
            f"per_move_seconds must be a whole number from {min_seconds} to "
            f"{MAX_MOVE_SECONDS} (eight weeks)",
        )
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError(
            ErrorCode.GAME_INVALID_TIME_CONTROL, "on_timeout must be auto or forfeit"
        )
    return {"per_move_seconds": seconds, "on_timeout": policy}


def seated(snap: Snapshot, player_id: str) -> int:
    """The player's seat; 403 for a player without one."""
    seat = seat_of(snap, player_id)
    if seat is None:
        raise ServiceError(ErrorCode.GAME_NOT_A_PLAYER, "you have no seat in this game")
    return seat


def seat_of(snap: Snapshot, player_id: str | None) -> int | None:
    for seat, record in enumerate(snap["seats"]):
        if record["kind"] == "player" and record["player_id"] == player_id:
            return seat
    return None


def legal_move_list(game: Game, match: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's legal moves as the API lists them: each with its notation."""
    return [
        {"notation": notation, "action": a}
        for notation, a in runner.notated_legal_actions(game, match, seat)
    ]


class MovesJson:
    """The JSON of legal move lists (bytes, which no reader can change), remembered by what
    decides a list: the title, its rules version and the seat's digest that the runner keeps
    in the match (engine.match._settle: a hash of the phase's `choice_key`, as The Nine
    Domains' commit names the seat's hand, or else of the list itself), so that two seats or
    positions with one digest have one list. The largest list, The Nine Domains' 504 moves,
    comes at the opening of every game, where both hands are the same nine cards: it is made
    once per process instead of at every request (two thirds of its CPU). The SIZE lists used
    last are kept."""

    SIZE = 64

    def __init__(self) -> None:
        self.lists: OrderedDict[tuple[str, Any, str], orjson.Fragment] = OrderedDict()
        self.lock = threading.Lock()

    def of(self, snap: Snapshot, match: dict[str, Any], seat: int) -> orjson.Fragment:
        digests = match.get("seat_digest")
        digest = digests[seat] if digests else None
        if not digest:  # a seat not to act (its list is empty), or an older match
            return self._written(snap, match, seat)
        key = (snap["game"], snap["rules_version"], digest)
        with self.lock:
            found = self.lists.get(key)
            if found is not None:
                self.lists.move_to_end(key)
                return found
        found = self._written(snap, match, seat)
        with self.lock:
            self.lists[key] = found
            while len(self.lists) > self.SIZE:
                self.lists.popitem(last=False)
        return found

    @staticmethod
    def _written(snap: Snapshot, match: dict[str, Any], seat: int) -> orjson.Fragment:
        moves = legal_move_list(history.game_of(snap), match, seat)
        return orjson.Fragment(orjson.dumps(moves, option=orjson.OPT_SORT_KEYS))


def summarize(snap: Snapshot) -> dict[str, Any]:
    """The public summary of a game, built by whitelist from its snapshot."""
    match = snap["match"]
    active = snap["active_seats"]
    deadlines = [d for s, d in enumerate(snap["deadlines"]) if s in active and d is not None]
    return {
        "id": snap["id"],
        "game": snap["game"],
        "status": snap["status"],
        "version": snap["version"],
        "seats": [
            {
                "seat": i,
                "kind": r["kind"],
                "player_id": r["player_id"],
                "name": r["name"],
                "deadline": iso(snap["deadlines"][i]),
            }
            for i, r in enumerate(snap["seats"])
        ],
        "active_seats": active,
        "deadline": iso(min(deadlines)) if deadlines else None,
        "outcome": None if match is None else match["outcome"],
        "options": snap["options"],
        "time_control": snap["time_control"],
        "rules_version": snap["rules_version"],
        "seed_commitment": snap["commitment"],
        "seed": snap["revealed_seed"],
        "created_at": iso(snap["created_at"]),
        "updated_at": iso(snap["updated_at"]),
    }
