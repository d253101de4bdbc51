"""The game use-cases: create, join, play, resign, view, legal moves, log, replay, lists.

Each write is a small decision (below the class: what it checks and which events it adds)
that the one commit loop, service.play.commit, runs."""

from __future__ import annotations

import itertools
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

import orjson

from engine import match as runner
from engine import registry
from engine.bots import search
from engine.core import Action, GameError, InvalidOptions, LogEntry, validate_options
from engine.rng import Rng, commitment
from service.errors import (
    ErrorCode,
    ServiceError,
    StaleVersion,
    Words,
    game_not_found,
    no_game,
    no_player,
)
from service.ids import new_id
from service.play import agreements, boards, clock, history, lists, logview, move_words
from service.play.commit import Commits, Draft, Idempotency
from service.play.commit import ReplayedAnswer as ReplayedAnswer  # the API marks replays
from service.play.refusals import refused
from service.timefmt import iso
from store.connection import StoreUnavailable
from store.games import GameStore
from store.players import PlayerStore
from store.record import EventType, TournamentLink
from store.snapshot import Snapshot

log = logging.getLogger(__name__)

MIN_MOVE_SECONDS = 60
MAX_MOVE_SECONDS = 8 * 7 * 24 * 3600  # eight weeks
MAX_BANK_SECONDS = 8 * 7 * 24 * 3600
MAX_INCREMENT_SECONDS = 14 * 24 * 3600  # two weeks
CLOCK_KINDS = ("per_move", "bank")
TIMEOUT_POLICIES = ("auto", "forfeit")
DAY = 86400
CLOCK_PRESETS: tuple[tuple[str, str, dict[str, Any] | None], ...] = (
    ("none", "No clock: take as long as you like", None),
    ("day", "1 day per move", {"kind": "per_move", "per_move_seconds": DAY}),
    ("3days", "3 days per move", {"kind": "per_move", "per_move_seconds": 3 * DAY}),
    ("week", "1 week per move", {"kind": "per_move", "per_move_seconds": 7 * DAY}),
    ("2weeks", "2 weeks per move", {"kind": "per_move", "per_move_seconds": 14 * DAY}),
    (
        "bank10",
        "10 days, +1 day a move, at most 10 days",
        {
            "kind": "bank",
            "initial_seconds": 10 * DAY,
            "increment_seconds": DAY,
            "max_seconds": 10 * DAY,
        },
    ),
    (
        "bank3",
        "3 days, +12 h a move, at most 5 days",
        {
            "kind": "bank",
            "initial_seconds": 3 * DAY,
            "increment_seconds": DAY // 2,
            "max_seconds": 5 * DAY,
        },
    ),
)
"""The clocks the web form offers, in words (any other through the API, within the bounds)."""
CLOCK_WORDS = {
    "none": "No clock: each player takes as long as they like.",
    "per_move": "A clock per move: the same time for every move, afresh each turn.",
    "bank": "A time bank: it runs while it is your turn; each of your moves adds the "
    "increment, up to the most it may hold. Time left over is kept for later moves.",
}
BOT_SEATS = ("bot:random", "bot:heuristic", "bot:expert")
IF_DECLINED = ("cancel", "open")


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
        self.commits = Commits(games, players, lambda: self.clock())  # read at each commit
        self.moves_json = MovesJson()
        self.vacation_days: Callable[[list[str]], Callable[[str, int], bool]] | None = None
        """Given the players whose clocks a pass may find run out, (player, deadline) ->
        whether a vacation day of the player's now covers the deadline (VacationService.
        days_for, wired by the assembly): then the seat's clock stops a day instead of running
        out."""
        self.came_back: Callable[[str], None] | None = None
        """Called with a player who moved while on vacation: their vacation ends."""

    # -- reading ---------------------------------------------------------------------------

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    def load(self, game_id: str) -> Snapshot:
        snap = self.games.snapshot(game_id)
        if snap is None:
            raise game_not_found(game_id)
        return snap

    def summary(self, game_id: str) -> dict[str, Any]:
        return summarize(self.load(game_id), self._now_ms())

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
        _started(snap)
        moves = legal_move_list(snap, seat)
        return {"game": snap["game"], "version": snap["version"], "seat": seat, "moves": moves}

    def legal_moves_for_json(self, game_id: str, player_id: str) -> dict[str, Any]:
        """`legal_moves` for the API to write as JSON: the same answer, its moves as their JSON
        already written (an orjson.Fragment), remembered by `self.moves_json`."""
        snap = self.load(game_id)
        seat = seated(snap, player_id)
        _started(snap)
        moves = self.moves_json.of(snap, seat)
        return {"game": snap["game"], "version": snap["version"], "seat": seat, "moves": moves}

    def log(self, game_id: str, player_id: str, after: int = 0, limit: int = 100) -> dict[str, Any]:
        snap = self.load(game_id)
        seat = seat_of(snap, player_id)
        game = history.game_of(snap)
        events = self.games.events(game_id, after=after, count=limit)
        muted, hidden = self.unseen(snap, player_id)
        entries = [
            logview.render(game, snap["seats"], e, seat, deleted=history.deleted_players(snap))
            for e in events
            if logview.readable(e, seat, muted, hidden)
        ]
        read_to = events[-1]["version"] if events else after
        return {"version": snap["version"], "seat": seat, "entries": entries, "read_to": read_to}

    def unseen(
        self, snap: Snapshot, player_id: str | None
    ) -> tuple[frozenset[int], frozenset[int]]:
        """What of the game's messages the player does not read (logview.unseen): those of
        the players they blocked, and those an operator hid."""
        blocked = self.players.blocked(player_id) if player_id else set()
        return logview.unseen(snap, blocked)

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
        games = [summarize(s, self._now_ms()) for s in snaps if s is not None]
        following = (found[-1][1], found[-1][0]) if more and found else None
        return games, following

    def invitations(self, player_id: str, limit: int = 50) -> list[dict]:
        """The games with a seat reserved for the player, newest first."""
        return [
            summarize(s)
            for s in self.games.snapshots(self.players.invitations(player_id, limit))
            if s is not None and invitation_of(s, player_id) is not None
        ]

    def waiting_for(self, player_id: str) -> int:
        """How many games wait for the player: for their move, or their answer to an
        invitation (the count the web client's navigation shows)."""
        return self.players.waiting_count(player_id)

    def open_games(self, limit: int = 50, viewer: str | None = None) -> list[dict]:
        """The lobby: games with an open seat; for a `viewer`, not those with a player they
        blocked or who blocked them."""
        found = [
            s
            for s in self.games.snapshots(self.games.open_games(limit))
            if s is not None and lists.has_open_seat(s)
        ]
        if viewer is not None:
            people = [_people(s) for s in found]
            blocks = iter(self.players.blocks_between(viewer, [p for ps in people for p in ps]))
            found = [s for s, ps in zip(found, people) if not any([next(blocks) for _ in ps])]
        return [summarize(s) for s in found]

    def apply_timeout_policy(self, game_id: str, player_id: str) -> bool:
        """An operator suspended the player: the game goes on as their clock's policy says,
        now if it is their turn (`auto`: the computer plays for them; `forfeit`: they leave);
        in a game without a clock they leave it; in a game not begun their seat is given up
        (an invitation declined, a seat taken opened). Whether anything was written: nothing
        when `suspension_due` says nothing is owed (run twice, it writes once). The outbox
        runs it again whenever one of their turns begins (service.consequences)."""
        return self.commits.run(game_id, lambda draft: _suspended(draft, player_id), quiet=False)

    def forget_player(self, game_id: str, player_id: str) -> bool:
        """The player deleted their account: a PlayerDeleted event, after which the game names
        them "a deleted player" everywhere (the log before it is left as it was written).
        Whether it was appended (not when the game had them already, or never had them)."""
        return self.commits.run(game_id, lambda draft: _forget(draft, player_id), quiet=False)

    # -- writing: each use case is a decision (below the class) run by the one commit loop ----

    def create(
        self,
        creator: str,
        game_name: str,
        seats: list,
        options: dict | None = None,
        time_control: dict | None = None,
        if_declined: str = "cancel",
        game_id: str | None = None,
        rated: bool | None = None,
    ) -> dict[str, Any]:
        """A new game (with the id `game_id` when it is given: a rematch's, reserved). A seat naming another player reserves it for them (an invitation: they
        join or decline), unless they let the creator seat them (their friends); the game
        starts when every seat is taken. `if_declined`: "cancel" the game when an invitation
        is declined, or "open" the seat to anyone in the lobby. `rated`: whether the game
        counts for the players' ratings (service/ratings); by default a game between people
        only (no bot seat) is."""
        game = registry.get(game_name)
        if game is None:
            raise no_game(game_name, ErrorCode.GAME_UNKNOWN, registry.GAMES)
        info = game.info
        if not info.min_players <= len(seats) <= info.max_players:
            raise ServiceError(
                ErrorCode.GAME_INVALID_SEATS,
                Words(
                    "%(title)s is played by %(least)s to %(most)s players; %(seats)s seats were "
                    "given",
                    title=info.title,
                    least=info.min_players,
                    most=info.max_players,
                    seats=len(seats),
                ),
            )
        try:
            options = validate_options(info, options)
        except InvalidOptions as err:
            raise refused(err) from None
        if if_declined not in IF_DECLINED:
            raise ServiceError(ErrorCode.REQUEST_INVALID, "if_declined must be cancel or open")
        seat_records = self._seat_records(creator, seats, game)
        calendars = self._calendars(
            [r["player_id"] if r["kind"] == "player" else None for r in seat_records]
        )
        seed = secrets.token_bytes(32)
        created: dict[str, Any] = {
            "type": EventType.GAME_CREATED,
            "game": info.name,
            "rules_version": info.rules_version,
            "options": options,
            "seats": seat_records,
            "time_control": check_time_control(time_control, self.min_move_seconds),
            "seed": seed.hex(),
            "commitment": commitment(seed),
            "created_by": creator,
            "if_declined": if_declined,
            "rated": all(r["kind"] != "bot" for r in seat_records) if rated is None else rated,
        }
        if any(calendars):
            created["calendars"] = calendars
        # the id given, then new ones while an id collides with a game's (the append is stale)
        ids = itertools.chain([game_id] if game_id else [], iter(partial(new_id, "g_"), None))
        return self.commits.run(
            None, lambda draft: _create(draft, {**created, "game_id": next(ids)})
        )

    def check_time_control(self, time_control: dict | None) -> dict | None:
        """A clock as a game would take it (per_move_seconds in range, a known policy)."""
        return check_time_control(time_control, self.min_move_seconds)

    def create_seated(
        self,
        game_id: str,
        game_name: str,
        seats: list[str],
        options: dict,
        time_control: dict,
        rated: bool,
        tournament: TournamentLink | None = None,
    ) -> bool:
        """A game whose players agreed to play it already, with the id its maker gave it: a
        tournament's game (its players signed up) or matchmaking's (they asked for one). The
        seats are player ids, seated at once (no invitation), or bots (`bot:<name>`); it starts
        at once, each player's calendar copied in as `create` does. False, and nothing
        written, if a game has that id already: the worker that makes it did so before (its
        work carried out again), so such a game is created once however often it tries."""
        if self.games.snapshot(game_id) is not None:
            return False
        game = registry.GAMES[game_name]
        seed = secrets.token_bytes(32)
        records = self._seat_records(seats[0], seats, game)
        for record in records:
            if record["kind"] == "invited":
                record["kind"] = "player"
        calendars = self._calendars(
            [r["player_id"] if r["kind"] == "player" else None for r in records]
        )
        created = {
            "type": EventType.GAME_CREATED,
            "game_id": game_id,
            "game": game.info.name,
            "rules_version": game.info.rules_version,
            "options": validate_options(game.info, options),
            "seats": records,
            "time_control": check_time_control(time_control, self.min_move_seconds),
            "seed": seed.hex(),
            "commitment": commitment(seed),
            "created_by": seats[0],
            "if_declined": "cancel",
            "rated": rated,
            **({"tournament": tournament} if tournament else {}),
            **({"calendars": calendars} if any(calendars) else {}),
        }
        return self.commits.run(
            None, lambda draft: bool(_create(draft, created)), attempts=1, quiet=False
        )

    def withdraw_seat(self, game_id: str, player_id: str) -> bool:
        """The player left the tournament this game is a part of: their seat is resolved as
        the game's clock says a seat that runs out of time is. Under `forfeit` they leave the
        game now; under `auto` their turn, when it is theirs, is timed out now and the computer
        plays it (and the next, as each comes: service.consequences asks again). Whether
        anything was recorded; safe to run again."""
        return self.commits.run(game_id, lambda draft: _withdraw(draft, player_id), quiet=False)

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
                        rated=snap.get("rated", False),
                    )
                except ServiceError:
                    self.games.release_rematch(game_id, reserved)
                    raise
                return created, True
        rematch = self.games.snapshot(existing)
        if rematch is None:  # another player's request is creating it this very moment
            raise ServiceError(ErrorCode.GAME_BUSY, "the rematch is being created: try again")
        return summarize(rematch, self._now_ms()), False

    def rematch_of(self, game_id: str) -> str | None:
        """The id of the game's rematch, if one was asked for."""
        return self.games.rematch_of(game_id)

    def join(self, game_id: str, player_id: str, seat: int | None = None) -> dict[str, Any]:
        """Take an open seat, or the seat reserved for you (which accepts the invitation). An
        open seat is not taken at a table with a player who blocked you or whom you blocked."""
        name = self._player_name(player_id)
        snap = self.load(game_id)
        if invitation_of(snap, player_id) is None and any(
            self.players.blocks_between(player_id, _people(snap))
        ):
            raise ServiceError(
                ErrorCode.GAME_BLOCKED,
                "you and a player of this game have blocked one another: take a seat elsewhere",
            )
        calendar = self._calendars([player_id])[0]
        return self.commits.run(
            game_id, lambda draft: _join(draft, player_id, name, seat, calendar)
        )

    def decline(self, game_id: str, player_id: str) -> dict[str, Any]:
        """Refuse the seat reserved for you: it opens to anyone in the lobby if the creator
        asked for that (`if_declined: open`), otherwise the game is cancelled."""
        return self.commits.run(game_id, lambda draft: _decline(draft, player_id))

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
        idempotency = None
        if idempotency_key:
            request = Idempotency.fingerprint(
                expected_version=expected_version, notation=notation, action=action
            )
            idempotency = Idempotency(idempotency_key, player_id, request)
        away: list[bool] = []
        answer = self.commits.run(
            game_id,
            lambda draft: _move(draft, player_id, expected_version, notation, action, away),
            idempotency=idempotency,
        )
        if any(away) and self.came_back is not None:
            try:
                self.came_back(player_id)
            except StoreUnavailable:  # the move stands; their next move ends the vacation
                log.warning("%s moved while away; the vacation not ended now", player_id)
        return answer

    def set_calendar(self, game_id: str, player_id: str, calendar: dict) -> bool:
        """Copy the player's calendar (service/players/vacations.py) to their seat in the game,
        re-arming its deadline, unless the game has it, or a later copy, already: whether it
        was appended. Safe to run late or twice."""
        return self.commits.run(
            game_id, lambda draft: _calendar(draft, player_id, calendar), quiet=False
        )

    def resign(self, game_id: str, player_id: str) -> dict[str, Any]:
        return self.commits.run(game_id, lambda draft: _resign(draft, player_id))

    def bot_move(self, game_id: str, seat: int, version: int) -> bool:
        """Play for a bot seat if the game is still at `version` and the bot may act.

        Safe to run late or twice: any other commit since `version` makes it do nothing (and
        that commit asked for a new bot move if one is due)."""
        return self.commits.run(
            game_id,
            lambda draft: _bot_move(draft, seat, version, self.expert_seconds),
            attempts=1,
            quiet=False,
        )

    def play_for_timed_out(self, game_id: str, seat: int) -> bool:
        """Under `on_timeout: auto`, the computer (the heuristic bot) plays for a seat whose
        clock ran out, unless the seat's turn moved on meanwhile. Safe to run late or twice."""
        return self.commits.run(game_id, lambda draft: _computer_move(draft, seat), quiet=False)

    def expire_turn(self, game_id: str, seat: int, since: int) -> str:
        """The seat's clock, started at version `since`, has run out. See expire_turns."""
        snap = self.games.snapshot(game_id)
        now_ms = self._now_ms()
        if snap is not None:
            use_day = self._vacation_days([(snap, [(seat, since)])], now_ms)
            if _vacation_day_used(use_day, snap, seat, since, now_ms):
                return "vacation"
        return self.commits.run(game_id, lambda draft: _expire(draft, seat, since), quiet="moot")

    def _vacation_days(
        self, found: list[tuple[Snapshot, list[tuple[int, int]]]], now_ms: int
    ) -> Callable[[str, int], bool] | None:
        """The vacation days of the players whose seats' timeouts are due now in these games
        (a snapshot and its (seat, since) pairs): their calendars read at once
        (VacationService.days_for)."""
        if self.vacation_days is None:
            return None
        players = {
            str(snap["seats"][seat]["player_id"]): None
            for snap, seats in found
            for seat, since in seats
            if snap["seats"][seat]["kind"] == "player"
            and _timeout_verdict(snap, seat, since, now_ms) == "applied"
        }
        return self.vacation_days(list(players)) if players else None

    def expire_turns(self, due: list[tuple[str, int, int]]) -> list[str]:
        """Record that these seats' clocks (game, seat, the version their turn started at) ran
        out: TurnTimedOut, and under `forfeit` the seat leaves the game; under `auto` the
        computer's move follows as the commit's consequence. All the games are read in one
        round trip and the timeouts appended in one more, a game's seats in one commit.

        Each answer is "applied"; "moot" if the seat's turn has moved on since (so a deadline
        met late, twice or by two clocks has its effect once); or "early" if the deadline has
        not come yet (the caller asks again at the deadline)."""
        return self._expire_turns(due, batched_retries=1)

    def _expire_turns(self, due: list[tuple[str, int, int]], batched_retries: int) -> list[str]:
        """expire_turns; the timeouts whose games changed between the read and the append (a
        move, or another clock with the game's other seats) are decided again on the games as
        they are now, all at once, `batched_retries` times, then one at a time."""
        now_ms = int(self.clock() * 1000)
        answers: list[str] = ["moot"] * len(due)  # a game that is gone stays moot
        by_game: dict[str, list[int]] = {}
        for i, (game_id, _, _) in enumerate(due):
            by_game.setdefault(game_id, []).append(i)
        found = [
            (snap, items)
            for items, snap in zip(by_game.values(), self.games.snapshots(list(by_game)))
            if snap is not None
        ]
        use_day = self._vacation_days(
            [(snap, [due[i][1:] for i in items]) for snap, items in found], now_ms
        )
        drafts: list[tuple[list[int], Draft]] = []
        for snap, items in found:
            draft = Draft(snap, now_ms)
            for i in items:  # each seat's timeout on the game as the earlier ones left it
                if _vacation_day_used(use_day, draft.snap, *due[i][1:], now_ms):
                    answers[i] = "vacation"
                    continue
                answers[i] = _expire(draft, *due[i][1:])
            if draft.events:
                drafts.append(([i for i in items if answers[i] == "applied"], draft))
        appended = self.commits.append_many([draft for _, draft in drafts])
        stale = [i for (applied, _), done in zip(drafts, appended) if not done for i in applied]
        if stale:  # a move or another clock just now
            again = [due[i] for i in stale]
            answers_again = (
                self._expire_turns(again, batched_retries - 1)
                if batched_retries
                else [self.expire_turn(*item) for item in again]
            )
            for i, answer in zip(stale, answers_again):
                answers[i] = answer
        return answers

    def wait_log(
        self, game_id: str, player_id: str | None, after: int, block_ms: int
    ) -> tuple[list[dict[str, Any]], int]:
        """Log entries after `after` as the player may see them, waiting up to block_ms; and
        the version read up to (past the events the player may not read)."""
        snap = self.load(game_id)
        seat = seat_of(snap, player_id)
        game = history.game_of(snap)
        events = self.games.wait_events(game_id, after, block_ms)
        if events:
            snap = self.load(game_id)
        muted, hidden = self.unseen(snap, player_id)
        entries = [
            logview.render(game, snap["seats"], e, seat, deleted=history.deleted_players(snap))
            for e in events
            if logview.readable(e, seat, muted, hidden)
        ]
        return entries, events[-1]["version"] if events else after

    # -- inner workings ----------------------------------------------------------------------

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
                        Words(
                            "there is no bot %(bot)r for %(title)s; its bots are: %(bots)s",
                            bot=entry,
                            title=game.info.title,
                            bots=", ".join(bots_of(game)),
                        ),
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
                        ErrorCode.GAME_INVALID_SEATS,
                        Words("player %(player)s is given two seats", player=entry),
                    )
                seen.add(entry)
                profile = self._profile(entry, ErrorCode.GAME_INVALID_SEATS)
                if profile.get("suspended"):
                    raise ServiceError(
                        ErrorCode.GAME_INVALID_SEATS,
                        Words(
                            "%(name)s cannot be seated: an operator suspended them",
                            name=profile["name"],
                        ),
                    )
                records.append({"kind": "invited", "player_id": entry, "name": profile["name"]})
            else:
                raise ServiceError(
                    ErrorCode.GAME_INVALID_SEATS, "each seat is a player id, a bot name or null"
                )
        if all(r["kind"] == "bot" for r in records):
            raise ServiceError(
                ErrorCode.GAME_INVALID_SEATS, "a game needs at least one seat for a person"
            )
        others = [r for r in records if r["kind"] == "invited" and r["player_id"] != creator]
        blocks = self.players.blocks_between(creator, [str(r["player_id"]) for r in others])
        for record, blocked in zip(others, blocks):
            if blocked:
                raise ServiceError(
                    ErrorCode.GAME_INVALID_SEATS,
                    Words(
                        "%(name)s cannot be seated with you: one of you has blocked the other",
                        name=record["name"],
                    ),
                )
        friends = self.players.lets_seat([str(r["player_id"]) for r in others], creator)
        for record in records:
            if record["kind"] == "invited" and record["player_id"] == creator:
                record["kind"] = "player"
        for record, seats_directly in zip(others, friends):
            if seats_directly:
                record["kind"] = "player"
        return records

    def _calendars(self, player_ids: list[str | None]) -> list[dict[str, Any] | None]:
        """The calendar each player (None: no one) brings to their seat."""
        wanted = [p for p in player_ids if p]
        found = dict(zip(wanted, self.players.calendars(wanted)))
        now_ms = self._now_ms()
        return [seat_calendar_copy(*found[p], now_ms) if p else None for p in player_ids]

    def _player_name(self, player_id: str, error: ErrorCode = ErrorCode.PLAYER_NOT_FOUND) -> str:
        return self._profile(player_id, error)["name"]

    def _profile(self, player_id: str, error: ErrorCode) -> dict[str, Any]:
        profile = self.players.get(player_id)
        if profile is None:
            raise no_player(player_id, error)
        return profile


# -- the decisions: what each use case adds to a game's draft (see service.play.commit) ------


def _create(draft: Draft, created: dict[str, Any]) -> dict[str, Any]:
    draft.add(created)
    _start_if_seated(draft)
    return summarize(draft.snap, draft.now_ms)


def _join(
    draft: Draft, player_id: str, name: str, seat: int | None, calendar: dict | None = None
) -> dict[str, Any]:
    snap = draft.snap
    _not_cancelled(snap)
    if snap["status"] != "open":
        raise ServiceError(ErrorCode.GAME_FULL, "this game has no open seat")
    if seat_of(snap, player_id) is not None:
        raise ServiceError(ErrorCode.GAME_ALREADY_SEATED, "you already have a seat in this game")
    invited = invitation_of(snap, player_id)
    open_seats = [i for i, r in enumerate(snap["seats"]) if r["kind"] == "open"]
    if invited is not None:
        if seat is not None and seat != invited:
            raise ServiceError(
                ErrorCode.GAME_SEAT_TAKEN,
                Words(
                    "seat %(seat)s is reserved for you: join without a seat or with that one",
                    seat=invited,
                ),
            )
        chosen = invited
    elif not open_seats:
        raise ServiceError(
            ErrorCode.GAME_FULL,
            "this game has no open seat: its other seats are reserved for the players it invited",
        )
    else:
        chosen = open_seats[0] if seat is None else seat
    if chosen != invited and chosen not in open_seats:
        raise ServiceError(
            ErrorCode.GAME_SEAT_TAKEN,
            Words(
                "seat %(seat)s is not open; open seats: %(open)s",
                seat=chosen,
                open=", ".join(map(str, open_seats)),
            ),
        )
    joined = {"type": EventType.PLAYER_JOINED, "seat": chosen, "player_id": player_id, "name": name}
    if calendar is not None:
        joined["calendar"] = calendar
    draft.add(joined)
    _start_if_seated(draft)
    return summarize(draft.snap, draft.now_ms)


def _decline(draft: Draft, player_id: str) -> dict[str, Any]:
    snap = draft.snap
    _not_cancelled(snap)
    seat = invitation_of(snap, player_id)
    if seat is None:
        raise ServiceError(
            ErrorCode.GAME_NOT_INVITED, "you have no invitation to answer in this game"
        )
    name = snap["seats"][seat]["name"]
    draft.add(
        {
            "type": EventType.INVITATION_DECLINED,
            "seat": seat,
            "player_id": player_id,
            "name": name,
        }
    )
    if snap["if_declined"] == "cancel":
        draft.add({"type": EventType.GAME_CANCELLED, "reason": "declined"})
    return summarize(draft.snap, draft.now_ms)


def _move(
    draft: Draft,
    player_id: str,
    expected_version: int,
    notation: str | None,
    action: dict | None,
    away: list[bool] | None = None,
) -> dict[str, Any]:
    snap = draft.snap
    seat = seated(snap, player_id)
    if away is not None:  # a player who moves while on vacation is back (play() ends it)
        away[:] = [clock.paused(draft.now_ms, history.seat_calendar(snap, seat)) == "vacation"]
    match = _started(snap)
    game = history.game_of(snap)
    try:
        moved = runner.move(
            game,
            match,
            seat,
            _seed(snap),
            expected_version=expected_version,
            version=snap["version"],
            notation=notation,
            action=action,
        )
    except runner.StaleMove as stale:
        raise StaleVersion(stale.current_version) from None
    except GameError as err:
        raise refused(err) from None
    _taken(draft, seat, moved)
    new = draft.snap
    return {
        "version": new["version"],
        "move": game.format(moved.action),
        "game": summarize(new, draft.now_ms),
    }


def _resign(draft: Draft, player_id: str) -> dict[str, Any]:
    snap = draft.snap
    seat = seated(snap, player_id)
    if snap["status"] == "finished":
        raise ServiceError(ErrorCode.MOVE_GAME_OVER, "the game is over")
    _not_cancelled(snap)
    if snap["status"] == "open":
        draft.add({"type": EventType.PLAYER_RESIGNED, "seat": seat, "reason": "resigned"})
    else:
        try:
            _leave(draft, seat, "resigned")
        except GameError as err:
            raise refused(err) from None
    return summarize(draft.snap, draft.now_ms)


def _bot_move(draft: Draft, seat: int, version: int, expert_seconds: float) -> bool:
    snap = draft.snap
    if snap["status"] != "active" or snap["version"] != version:
        return False
    record = snap["seats"][seat]
    if record["kind"] != "bot" or seat not in snap["active_seats"]:
        return False
    game, match = history.game_of(snap), history.match_of(snap)
    _act(draft, seat, _bot_choice(game, match, seat, record["bot"], expert_seconds))
    return True


def _computer_move(draft: Draft, seat: int) -> bool:
    snap = draft.snap
    if (
        snap["status"] != "active"
        or seat not in snap["timed_out"]
        or snap["time_control"] is None
        or snap["time_control"]["on_timeout"] != "auto"
    ):
        return False
    game, match = history.game_of(snap), history.match_of(snap)
    _act(draft, seat, _bot_choice(game, match, seat, "heuristic"))
    return True


def _calendar(draft: Draft, player_id: str, calendar: dict) -> bool:
    snap = draft.snap
    seat = seat_of(snap, player_id)
    if seat is None or snap["status"] not in ("open", "active"):
        return False
    held = history.calendars_of(snap)[seat]
    if held is not None and held["v"] >= calendar["v"]:
        return False
    draft.add({"type": EventType.CALENDAR_SET, "seat": seat, "calendar": calendar})
    return True


KEPT_MS = 10 * 7 * 86_400_000
"""A game's copy of a calendar keeps the vacations that ended less than this long ago (longer
than any clock runs between two charges): a copy that comes late still charges nothing for
the time its vacation covered."""


def seat_calendar_copy(
    zone: str | None, calendar: dict[str, Any], now_ms: int
) -> dict[str, Any] | None:
    """What a game records of a player's calendar: their time zone and their latest vacations
    (KEPT_MS), with the calendar's number (None for a player with neither, who never had
    one)."""
    vacations = [
        [v["start"], v["end"]] for v in calendar["vacations"] if v["end"] > now_ms - KEPT_MS
    ]
    if zone is None and not vacations and calendar["v"] == 0:
        return None
    return {"zone": zone, "vacations": vacations, "v": calendar["v"]}


def suspension_due(snap: Snapshot, seat: int) -> bool:
    """Whether the seat of a player an operator suspended is owed its resolution now: a seat
    held or reserved in a game not begun (it is given up), a seat still in a game under way
    without a clock (it leaves), or one whose turn is running under a clock (its policy
    applies at once, as if the clock had run out)."""
    if snap["status"] == "open":
        return snap["seats"][seat]["kind"] in ("player", "invited")
    if snap["status"] != "active" or seat in history.match_of(snap)["resigned"]:
        return False
    if snap["time_control"] is None:
        return True
    return seat in snap["active_seats"] and seat not in snap["timed_out"]


def _suspended(draft: Draft, player_id: str) -> bool:
    snap = draft.snap
    invited = invitation_of(snap, player_id)
    seat = seat_of(snap, player_id) if invited is None else invited
    if seat is None or not suspension_due(snap, seat):
        return False
    control = snap["time_control"]
    if invited is not None:
        _decline(draft, player_id)  # as if they refused: the seat opens, or the game is off
    elif snap["status"] == "open":
        draft.add({"type": EventType.PLAYER_RESIGNED, "seat": seat, "reason": "suspended"})
    elif control is None:
        _leave(draft, seat, "suspended")
    else:
        draft.add({"type": EventType.TURN_TIMED_OUT, "seat": seat, "policy": control["on_timeout"]})
        if control["on_timeout"] == "forfeit":
            _leave(draft, seat, "forfeit")
        void_moot_proposals(draft)
    return True


def _forget(draft: Draft, player_id: str) -> bool:
    snap = draft.snap
    sat = [r["player_id"] for r in snap["seats"]] + [d["player_id"] for d in snap["declined"]]
    if player_id not in sat or player_id in history.deleted_players(snap):
        return False
    draft.add({"type": EventType.PLAYER_DELETED, "player_id": player_id})
    return True


def _people(snap: Snapshot) -> list[str]:
    """The players holding or invited to the game's seats."""
    return [str(r["player_id"]) for r in snap["seats"] if r["kind"] in ("player", "invited")]


def _withdraw(draft: Draft, player_id: str) -> bool:
    snap = draft.snap
    seat = seat_of(snap, player_id)
    if snap["status"] != "active" or seat is None or seat in history.match_of(snap)["resigned"]:
        return False
    control = snap["time_control"]
    if control is None or control["on_timeout"] == "forfeit":
        _leave(draft, seat, "withdrawn")
        return True
    if seat not in snap["active_seats"] or seat in snap["timed_out"]:
        return False
    draft.add(
        {"type": EventType.TURN_TIMED_OUT, "seat": seat, "policy": "auto", "reason": "withdrawn"}
    )
    return True


def _vacation_day_used(
    use_day: Callable[[str, int], bool] | None, snap: Snapshot, seat: int, since: int, now_ms: int
) -> bool:
    """Whether the seat's timeout, due now, is put off by a vacation day of its player's
    (`use_day`: GameService._vacation_days; a day at a time, while they have days left): the
    vacation's re-arming of the game's deadlines follows through the player's calendar."""
    if use_day is None or _timeout_verdict(snap, seat, since, now_ms) != "applied":
        return False
    record = snap["seats"][seat]
    deadline = snap["deadlines"][seat]
    if record["kind"] != "player" or deadline is None:
        return False
    return use_day(str(record["player_id"]), deadline)


def _expire(draft: Draft, seat: int, since: int) -> str:
    """The seat's timeout if it is due ("applied"), or why not ("moot", "early")."""
    verdict = _timeout_verdict(draft.snap, seat, since, draft.now_ms)
    if verdict == "applied":
        policy = history.clock_of(draft.snap)["on_timeout"]
        draft.add({"type": EventType.TURN_TIMED_OUT, "seat": seat, "policy": policy})
        if policy == "forfeit":
            _leave(draft, seat, "forfeit")
        void_moot_proposals(draft)
    return verdict


# -- the steps the decisions share ------------------------------------------------------------


def _start_if_seated(draft: Draft) -> None:
    """GameStarted once every seat is taken."""
    snap = draft.snap
    if _waiting_seats(snap):
        return
    # the options as created: a game that waited for a player since before an option was
    # added starts under the rules it was created with (and replays alike)
    match, entries = runner.start(
        history.game_of(snap),
        len(snap["seats"]),
        snap["options"],
        _seed(snap),
        snap["version"] + 1,
        True,
    )
    draft.add({"type": EventType.GAME_STARTED, "entries": _json(entries)}, match)


def _act(draft: Draft, seat: int, chosen: Action) -> None:
    """A well-formed action chosen by the server (a bot's, the computer's)."""
    snap = draft.snap
    match, entries = runner.act(
        history.game_of(snap),
        history.match_of(snap),
        seat,
        chosen,
        _seed(snap),
        snap["version"] + 1,
    )
    _taken(draft, seat, runner.Moved(chosen, match, entries))


def _taken(draft: Draft, seat: int, moved: runner.Moved) -> None:
    """The seat's ActionTaken (and GameEnded if it ends the game)."""
    draft.add(
        {
            "type": EventType.ACTION_TAKEN,
            "seat": seat,
            "action": moved.action,
            "entries": _json(moved.entries),
        },
        moved.match,
    )
    _end_if_over(draft)
    void_moot_proposals(draft)


def _leave(draft: Draft, seat: int, reason: str) -> None:
    """The seat leaves a started game (and GameEnded if that ends it)."""
    snap = draft.snap
    match, entries = runner.resign(
        history.game_of(snap), history.match_of(snap), seat, snap["version"] + 1, reason
    )
    draft.add(
        {
            "type": EventType.PLAYER_RESIGNED,
            "seat": seat,
            "reason": reason,
            "entries": _json(entries),
        },
        match,
    )
    _end_if_over(draft)
    void_moot_proposals(draft)


def void_moot_proposals(draft: Draft) -> None:
    """Close as void the open proposals that the draft's events made moot (a move after the
    one a takeback is about, the game's end...: service/play/agreements.py)."""
    snap = draft.snap
    for proposal_id in agreements.moot(snap):
        proposal = agreements.find(snap, proposal_id)
        if proposal is not None:
            draft.add(
                {
                    "type": EventType.PROPOSAL_CLOSED,
                    "proposal": proposal_id,
                    "kind": proposal["kind"],
                    "proposer": proposal["seat"],
                    "result": "void",
                    "by": None,
                    "asked": [*proposal["accepted"], *proposal["waiting"]],
                }
            )


def _end_if_over(draft: Draft) -> None:
    snap = draft.snap
    outcome = history.match_of(snap)["outcome"]
    if outcome is not None:
        draft.add({"type": EventType.GAME_ENDED, "outcome": outcome, "seed": snap["secret_seed"]})


def _json(entries: list[LogEntry]) -> list[dict[str, Any]]:
    return [entry.to_json() for entry in entries]


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


def bots_of(game) -> tuple[str, ...]:
    """The bot seats a title offers: bot:expert where its bots can search (engine/bots/search)."""
    return tuple(b for b in BOT_SEATS if b != "bot:expert" or game.info.name in registry.EXPERTS)


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
        expert = registry.EXPERTS[game.info.name]
        return search.expert_move(game, expert, match["state"], seat, legal, rng, budget)
    return game.bots[bot](game.view(match["state"], seat), legal, rng)


def _seed(snap: Snapshot) -> bytes:
    return bytes.fromhex(snap["secret_seed"])


def _started(snap: Snapshot) -> dict[str, Any]:
    if snap["match"] is None:
        _not_cancelled(snap)
        waiting = len(_waiting_seats(snap))
        raise ServiceError(
            ErrorCode.GAME_NOT_STARTED,
            Words("the game has not started: it waits for %(num)s more player", num=waiting)
            if waiting == 1
            else Words("the game has not started: it waits for %(num)s more players", num=waiting),
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


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def check_time_control(control: dict | None, min_seconds: int) -> dict | None:
    """A game's clock as it is recorded, from what a creator asked for (CLOCK_KINDS says the
    bounds); None for a game without a clock. A clock without `kind` is a clock per move, as
    every game's was before banks."""
    if control is None:
        return None
    kind = control.get("kind", "per_move")
    policy = control.get("on_timeout", "auto")
    weekends_off = control.get("weekends_off", False)
    if kind == "none":
        return None
    if kind not in CLOCK_KINDS:
        raise ServiceError(
            ErrorCode.GAME_INVALID_TIME_CONTROL,
            Words(
                "there is no clock %(kind)r; the clocks are: none, %(kinds)s",
                kind=kind,
                kinds=", ".join(CLOCK_KINDS),
            ),
        )
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError(
            ErrorCode.GAME_INVALID_TIME_CONTROL, "on_timeout must be auto or forfeit"
        )
    if not isinstance(weekends_off, bool):
        raise ServiceError(ErrorCode.GAME_INVALID_TIME_CONTROL, "weekends_off is true or false")
    recorded: dict[str, Any] = {"kind": kind}
    for name, (low, high, meaning) in clock_bounds(min_seconds)[kind].items():
        value = control.get(name)
        if kind == "per_move" and name == "per_move_seconds" and value is None:
            return None  # as before kinds: a clock per move without its time is no clock
        if not _whole(value, low, high):
            raise ServiceError(
                ErrorCode.GAME_INVALID_TIME_CONTROL,
                Words(
                    "%(name)s (%(meaning)s) must be a whole number of seconds from %(low)s to "
                    "%(high)s",
                    name=name,
                    meaning=meaning,
                    low=low,
                    high=high,
                ),
            )
        recorded[name] = value
    if kind == "bank" and recorded["max_seconds"] < recorded["initial_seconds"]:
        raise ServiceError(
            ErrorCode.GAME_INVALID_TIME_CONTROL,
            "max_seconds (the most the bank holds) must be at least initial_seconds",
        )
    return {**recorded, "weekends_off": weekends_off, "on_timeout": policy}


def clock_bounds(min_seconds: int) -> dict[str, dict[str, tuple[int, int, str]]]:
    """Each kind of clock's fields: (least, most, meaning), in seconds."""
    return {
        "per_move": {
            "per_move_seconds": (min_seconds, MAX_MOVE_SECONDS, Words("the time for each move"))
        },
        "bank": {
            "initial_seconds": (min_seconds, MAX_BANK_SECONDS, Words("the bank at the start")),
            "increment_seconds": (
                0,
                MAX_INCREMENT_SECONDS,
                Words("added after each of your moves"),
            ),
            "max_seconds": (min_seconds, MAX_BANK_SECONDS, Words("the most the bank holds")),
        },
    }


def clock_catalog(min_seconds: int) -> list[dict[str, Any]]:
    """The kinds of clock, their words, fields and bounds, and the web form's presets."""
    bounds = clock_bounds(min_seconds)
    return [
        {
            "kind": kind,
            "description": CLOCK_WORDS[kind],
            "fields": {
                name: {"minimum": low, "maximum": high, "description": meaning}
                for name, (low, high, meaning) in bounds.get(kind, {}).items()
            },
            "presets": [
                {"words": words, "time_control": control or {"kind": "none"}}
                for _, words, control in CLOCK_PRESETS
                if (control or {"kind": "none"})["kind"] == kind
            ],
        }
        for kind in ("none", *CLOCK_KINDS)
    ]


def clock_record(snap: Snapshot) -> dict[str, Any] | None:
    """The game's clock as clients read it: a game recorded before kinds reads as a clock per
    move with weekends on."""
    control = snap["time_control"]
    if control is None:
        return None
    return {"kind": "per_move", "weekends_off": False, **control}


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


def legal_move_list(snap: Snapshot, seat: int) -> list[dict[str, Any]]:
    """The seat's legal moves as the API lists them: each with its notation and its words."""
    notated = runner.notated_legal_actions(history.game_of(snap), history.match_of(snap), seat)
    words = move_words.describe_moves(snap, seat, [action for _, action in notated])
    return [
        {"notation": notation, "action": action, "description": description}
        for (notation, action), description in zip(notated, words, strict=True)
    ]


class MovesJson:
    """The JSON of legal move lists (bytes, which no reader can change), remembered by the
    game, its version and the seat: a snapshot never changes at a version (every change is an
    event), so these three decide the list, its words and the names in them. A seat that
    reads its moves again, as a client that polls or the API after the game page, gets them
    without listing, describing and writing them again (The Nine Domains' opening: 504 moves,
    about 2 ms). The SIZE lists used last are kept."""

    SIZE = 64

    def __init__(self) -> None:
        self.lists: OrderedDict[tuple[str, int, int], orjson.Fragment] = OrderedDict()
        self.lock = threading.Lock()

    def of(self, snap: Snapshot, seat: int) -> orjson.Fragment:
        key = (snap["id"], snap["version"], seat)
        with self.lock:
            found = self.lists.get(key)
            if found is not None:
                self.lists.move_to_end(key)
                return found
        found = orjson.Fragment(
            orjson.dumps(legal_move_list(snap, seat), option=orjson.OPT_SORT_KEYS)
        )
        with self.lock:
            self.lists[key] = found
            while len(self.lists) > self.SIZE:
                self.lists.popitem(last=False)
        return found


def refused_by(snap: Snapshot, seat: int) -> str | None:
    """Who refused the invitation to an open seat (the seat opened to the lobby after it)."""
    if snap["seats"][seat]["kind"] != "open":
        return None
    refused = [d["name"] for d in snap.get("declined", []) if d["seat"] == seat]
    return refused[-1] if refused else None


def summarize(snap: Snapshot, now_ms: int | None = None) -> dict[str, Any]:
    """The public summary of a game, built by whitelist from its snapshot; each seat's clock
    as it stands at `now_ms` (the time now when None)."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
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
                "clock": history.seat_clock(snap, i, now_ms),
                "refused_by": refused_by(snap, i),
            }
            for i, r in enumerate(snap["seats"])
        ],
        "active_seats": active,
        "deadline": iso(min(deadlines)) if deadlines else None,
        "outcome": None if match is None else match["outcome"],
        "options": snap["options"],
        "time_control": clock_record(snap),
        "rated": snap.get("rated", False),
        "tournament": snap.get("tournament"),
        "rules_version": snap["rules_version"],
        "seed_commitment": snap["commitment"],
        "seed": snap["revealed_seed"],
        "created_at": iso(snap["created_at"]),
        "updated_at": iso(snap["updated_at"]),
    }
