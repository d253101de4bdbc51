"""The tournament use-cases. A request only records a player's intent (create, sign up, leave
or withdraw) as events on the tournament's log; everything a tournament causes is the worker's,
as consequences of its commits (service.consequences): starting it and pairing its rounds
(`advance`), creating a round's games through the game service (each game its own commit, its
id given by the tournament, so that it is created once), recording each game's result when the
game ends (`record_game`), resolving the games of a player who left. Each step is idempotent:
a worker killed anywhere and the entry carried out again has each effect once.

Like a game's, each write is a decision (below the class) on a draft of the tournament's next
commit, appended only if the tournament is still at the version read, else decided again."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

from engine import registry
from engine.core import InvalidOptions, validate_options
from service.errors import ErrorCode, ServiceError, Words, no_game, no_player
from service.ids import new_id
from service.play.commit import Drafting
from service.play.games import GameService
from service.play.refusals import refused
from service.play.results import TournamentGameResult
from service.ratings.ratings import Ratings
from service.timefmt import epoch_ms, iso
from service.tournaments import events
from service.tournaments.pairing import SwissPlayer, round_robin, swiss
from service.tournaments.standings import Played, Row, standings
from service.words import number
from store.games import Appended
from store.players import PlayerStore
from store.record import TournamentLink
from store.schedule import member as schedule_member
from store.tournaments import (
    TournamentCommit,
    TournamentEventType,
    TournamentState,
    TournamentStore,
)

T = TournamentEventType
A = TypeVar("A")

FORMATS = ("round_robin", "swiss")
TIEBREAK = {"round_robin": "sonneborn_berger", "swiss": "buchholz"}
SIZES = {"round_robin": (3, 10), "swiss": (4, 64)}
"""The fewest players a tournament starts with, and the most it takes."""
MAX_NAME = 80
MAX_START_DAYS = 366
ATTEMPTS = 16
LISTED = 100


def points(value: float) -> str:
    """Points or a tiebreak as people write them, in the language spoken: 2.5 as "2½", 0.25
    as "0.25" ("0,25" in Russian and Italian)."""
    whole = int(value)
    if value - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return number(value)


def default_rounds(size: int) -> int:
    """A Swiss's rounds when its creator names none: enough for one winner among `size` with
    two-result games, log2 of the field rounded up."""
    return max(1, math.ceil(math.log2(size)))


def game_id_for(tournament_id: str, round_no: int, board: int) -> str:
    """The id of a tournament's game: given by the tournament, so it is created once."""
    return f"g_{tournament_id.removeprefix('t_')}-{round_no}-{board}"


class Draft(Drafting[TournamentState]):
    """The next commit on a tournament (see service.play.commit.Drafting)."""

    @property
    def state(self) -> TournamentState:
        return self._after_them("TournamentCreated")

    def add(self, unstamped: dict[str, Any]) -> None:
        event = self._stamped(unstamped)
        self._after = events.fold(self._after, event)
        self.events.append(event)


@dataclass(eq=False)
class TournamentService:
    store: TournamentStore
    games: GameService
    players: PlayerStore
    ratings: Ratings
    clock: Callable[[], float] = time.time

    # -- the loop ------------------------------------------------------------------------------

    def _run(
        self,
        tournament_id: str | None,
        decide: Callable[[Draft], A],
        schedule: Callable[[Draft], list[tuple[int, str]]] | None = None,
        quiet: bool = False,
    ) -> A:
        """Run `decide` on the tournament until its events are appended (or it adds none);
        the lists (the lobby, the players') are written after. `quiet`: a worker's decision,
        for which a tournament that is gone is nothing to do (None)."""
        for _ in range(ATTEMPTS):
            before = None if tournament_id is None else self.store.state(tournament_id)
            if tournament_id is not None and before is None:
                if quiet:
                    return None  # type: ignore[return-value]
                raise ServiceError(
                    ErrorCode.TOURNAMENT_NOT_FOUND,
                    Words("there is no tournament %(tournament)s", tournament=tournament_id),
                )
            draft = Draft(before, epoch_ms(self.clock))
            answer = decide(draft)
            if not draft.events:
                return answer
            result = self.store.append(
                TournamentCommit(
                    draft.state["id"],
                    0 if before is None else before["version"],
                    draft.events,
                    draft.state,
                    schedule=schedule(draft) if schedule else [],
                )
            )
            if isinstance(result, Appended):
                self._write_lists(draft)
                return answer
        raise ServiceError(ErrorCode.TOURNAMENT_BUSY, "the tournament is busy; try again")

    def _write_lists(self, draft: Draft) -> None:
        self.store.write_lists(draft.state)
        for event in draft.events:
            if event["type"] == T.LEFT:
                self.store.forget_player(event["player_id"], draft.state["id"], event["version"])

    # -- a player's intent (the requests) -----------------------------------------------------

    def create(
        self,
        creator: str,
        game: str,
        format: str,
        size: int,
        time_control: dict | None,
        name: str | None = None,
        options: dict | None = None,
        rated: bool = True,
        rounds: int | None = None,
        start_at: int | None = None,
    ) -> dict[str, Any]:
        """A new tournament, taking sign-ups (its creator is not signed up by creating it).
        It starts when `size` players signed up, or at `start_at` (epoch ms) with those who
        did (at least the format's fewest: else it is cancelled)."""
        found = registry.GAMES.get(game)
        if found is None:
            raise no_game(game, ErrorCode.GAME_UNKNOWN, registry.GAMES)
        info = found.info
        if not info.min_players <= 2 <= info.max_players:
            raise _invalid(
                Words(
                    "%(title)s cannot be played by two: a tournament's games are two-player games",
                    title=info.title,
                )
            )
        if format not in FORMATS:
            raise _invalid(Words("format must be round_robin or swiss"))
        fewest, most = SIZES[format]
        if not fewest <= size <= most:
            raise _invalid(
                Words(
                    "a %(format)s takes %(fewest)d to %(most)d players",
                    format=_format_words(format),
                    fewest=fewest,
                    most=most,
                )
            )
        if format == "round_robin":
            rounds = 1
        elif rounds is None:
            rounds = default_rounds(size)
        elif not 1 <= rounds < size:
            raise _invalid(
                Words("a Swiss of %(size)d plays 1 to %(most)d rounds", size=size, most=size - 1)
            )
        clock = self.games.check_time_control(time_control)
        if clock is None:  # none asked, {"kind": "none"}, or a clock per move without its time
            raise ServiceError(
                ErrorCode.GAME_INVALID_TIME_CONTROL,
                "a tournament needs a clock (time_control): a game without one could hold up "
                "its round for ever",
            )
        try:
            checked = validate_options(info, options)
        except InvalidOptions as err:
            raise refused(err) from None
        now = epoch_ms(self.clock)
        if start_at is not None and not now < start_at <= now + MAX_START_DAYS * 86_400_000:
            raise _invalid(Words("start_at must be in the future, within a year"))
        title = (name or "").strip() or f"{info.title} {_format_words(format)}"
        if len(title) > MAX_NAME:
            raise _invalid(
                Words("a tournament's name has at most %(most)d characters", most=MAX_NAME)
            )
        created = {
            "type": T.CREATED,
            "game": info.name,
            "name": title,
            "options": checked,
            "time_control": clock,
            "rated": bool(rated),
            "format": format,
            "size": size,
            "rounds": rounds,
            "start_at": start_at,
            "created_by": creator,
        }
        self._player(creator)

        def wake(draft: Draft) -> list[tuple[int, str]]:
            item = wake_item(draft.state["id"])
            return [] if start_at is None else [(start_at, schedule_member(item))]

        # a new id at each attempt: an id taken already makes the append stale
        state = self._run(
            None,
            lambda draft: _add(draft, {**created, "tournament_id": new_id("t_")}),
            schedule=wake,
        )
        return self.shown(state)

    def sign_up(self, tournament_id: str, player_id: str) -> dict[str, Any]:
        name = self._player(player_id)["name"]
        return self.shown(
            self._run(tournament_id, lambda draft: _sign_up(draft, player_id, name)), player_id
        )

    def leave(self, tournament_id: str, player_id: str) -> dict[str, Any]:
        """Before the start: off the list. After it: withdrawn, and the player's remaining
        games resolved by the clock's policy (the worker does it; see `advance`)."""
        return self.shown(
            self._run(tournament_id, lambda draft: _leave(draft, player_id)), player_id
        )

    def ever_entered(self, player_id: str) -> list[str]:
        """The ids of every tournament the player signed up to, left ones too."""
        return self.store.ever_entered(player_id)

    def forget_player(self, tournament_id: str, player_id: str) -> bool:
        """The player deleted their account: the tournament names them "a deleted player"
        from now on (a PlayerDeleted event); whether it was appended."""
        return self._run(tournament_id, lambda draft: _forget(draft, player_id), quiet=True)

    # -- reading -----------------------------------------------------------------------------

    def get(self, tournament_id: str, reader: str | None = None) -> dict[str, Any]:
        return self.shown(self._load(tournament_id), reader)

    def deleted_players(self, tournament_id: str) -> frozenset[str]:
        """The players of the tournament who deleted their account: named "a deleted player",
        they have no page to link to."""
        return frozenset(self._load(tournament_id).get("deleted_players", []))

    def version(self, tournament_id: str) -> int:
        return self._load(tournament_id)["version"]

    def open_list(self, limit: int = LISTED) -> list[dict[str, Any]]:
        """The tournaments taking sign-ups, newest first."""
        found = self.store.states(self.store.open_ids(limit))
        return [self.summary(s) for s in found if s is not None and s["status"] == "signup"]

    def of_player(self, player_id: str, limit: int = LISTED) -> list[dict[str, Any]]:
        """The tournaments the player signed up to, newest first."""
        found = self.store.states(self.store.of_player(player_id, limit))
        return [
            self.summary(s)
            for s in found
            if s is not None and any(p["player_id"] == player_id for p in s["players"])
        ]

    def events_after(self, tournament_id: str, after: int, block_ms: int) -> list[dict]:
        self._load(tournament_id)
        found = self.store.wait_events(tournament_id, after, block_ms)
        if not found:
            return found
        state = self._load(tournament_id)  # as of the events read, or later
        return [events.as_read(e, state) for e in found]

    def _load(self, tournament_id: str) -> TournamentState:
        state = self.store.state(tournament_id)
        if state is None:
            raise ServiceError(
                ErrorCode.TOURNAMENT_NOT_FOUND,
                Words("there is no tournament %(tournament)s", tournament=tournament_id),
            )
        return state

    def _player(self, player_id: str) -> dict[str, Any]:
        profile = self.players.get(player_id)
        if profile is None:
            raise no_player(player_id)
        return profile

    def summary(self, state: TournamentState) -> dict[str, Any]:
        """What a list shows of a tournament."""
        return {
            "id": state["id"],
            "name": state["name"],
            "game": state["game"],
            "title": registry.GAMES[state["game"]].info.title,
            "format": state["format"],
            "status": state["status"],
            "size": state["size"],
            "signed_up": len(state["players"]),
            "rounds": state["rounds"],
            "rated": state["rated"],
            "time_control": state["time_control"],
            "start_at": iso(state["start_at"]),
            "created_at": iso(state["created_at"]),
            "version": state["version"],
        }

    def shown(self, state: TournamentState, reader: str | None = None) -> dict[str, Any]:
        """Everything anyone may know of a tournament (nothing in it is secret), with its
        standings and each round's games; `you` says where the reader stands."""
        names = {p["player_id"]: p["name"] for p in state["players"]}
        rows = table(state)

        def who(player_id: str | None) -> dict[str, Any] | None:
            if player_id is None:
                return None
            return {"player_id": player_id, "name": names.get(player_id, player_id)}

        entered = next((p for p in state["players"] if p["player_id"] == reader), None)
        return {
            **self.summary(state),
            "options": state["options"],
            "tiebreak": TIEBREAK[state["format"]],
            "created_by": state["created_by"],
            "current_round": len(state["round_list"]),
            "cancelled_because": state["cancelled_because"],
            "players": [
                {
                    "player_id": p["player_id"],
                    "name": p["name"],
                    "rating": p.get("rating"),
                    "withdrawn": p.get("withdrawn"),
                }
                for p in state["players"]
            ],
            "standings": [
                {
                    "place": r.place,
                    **(who(r.player) or {}),
                    "points": r.points,
                    "tiebreak": r.tiebreak,
                    "games": r.games,
                    "wins": r.wins,
                    "draws": r.draws,
                    "losses": r.losses,
                    "byes": r.byes,
                    "withdrawn": next(
                        p.get("withdrawn") for p in state["players"] if p["player_id"] == r.player
                    ),
                }
                for r in rows
            ],
            "pairings": [
                {
                    "round": r["round"],
                    "started": r["started"],
                    "ended": r["ended"],
                    "bye": who(r["bye"]),
                    "games": [
                        {
                            "board": i + 1,
                            "game_id": b["game_id"],
                            "first": who(b["first"]),
                            "second": who(b["second"]),
                            "first_score": b["score"],
                            "result": _result_words(b["score"]),
                        }
                        for i, b in enumerate(r["boards"])
                    ],
                }
                for r in state["round_list"]
            ],
            "you": None
            if reader is None
            else {
                "signed_up": entered is not None,
                "withdrawn": None if entered is None else entered.get("withdrawn"),
            },
        }

    # -- the worker's --------------------------------------------------------------------------

    def advance(self, tournament_id: str) -> TournamentState | None:
        """Everything due on the tournament now, until nothing is: start it (or cancel it)
        when it is full or its date came; create the games of a round paired and not yet
        started, then record that it started; resolve the open games of players who left.
        Idempotent: each step looks at what is done already. The state after (None: gone)."""
        for _ in range(ATTEMPTS):
            state = self.store.state(tournament_id)
            if state is None:
                return None
            if start_due(state, epoch_ms(self.clock)):
                seeds = self.ratings.skills(
                    state["game"], [p["player_id"] for p in state["players"]]
                )
                ratings = {p: s.rating for p, s in seeds.items()}
                self._run(tournament_id, partial(_start, ratings=ratings), quiet=True)
                continue
            current = state["round_list"][-1] if state["round_list"] else None
            if state["status"] == "running" and current and not current["started"]:
                for board, b in enumerate(current["boards"], start=1):
                    link: TournamentLink = {
                        "id": tournament_id,
                        "round": current["round"],
                        "board": board,
                    }
                    self.games.create_seated(
                        b["game_id"],
                        state["game"],
                        [b["first"], b["second"]],
                        state["options"],
                        dict(state["time_control"]),
                        state["rated"],
                        link,
                    )
                self._run(
                    tournament_id, partial(_round_started, number=current["round"]), quiet=True
                )
                continue
            self._resolve_withdrawn(state)
            self.store.write_lists(state)
            return state
        return self.store.state(tournament_id)

    def _resolve_withdrawn(self, state: TournamentState) -> None:
        """The open games of the players who left, as their clock's policy says: each game's
        use case does nothing if it is done already."""
        gone = {p["player_id"] for p in state["players"] if p.get("withdrawn")}
        if not gone or state["status"] != "running":
            return
        for r in state["round_list"]:
            if not r["started"]:
                continue
            for b in r["boards"]:
                if b["score"] is None:
                    for player in (b["first"], b["second"]):
                        if player in gone:
                            self.games.withdraw_seat(b["game_id"], player)

    def record_game(self, result: TournamentGameResult) -> None:
        """A tournament game ended: its score in the tournament (once), a player who lost it
        on time withdrawn, and the round closed when it was its last game (the next paired,
        or the tournament ended)."""
        self._run(result.tournament_id, lambda draft: _record(draft, result), quiet=True)

    def withdrawn(self, tournament_id: str) -> set[str]:
        """The players who left the running tournament."""
        state = self.store.state(tournament_id)
        if state is None:
            return set()
        return {p["player_id"] for p in state["players"] if p.get("withdrawn")}

    def events(self, tournament_id: str, first: int, last: int) -> list[dict]:
        if last < first:
            return []
        return self.store.events(tournament_id, first - 1, last - first + 1)


def wake_item(tournament_id: str) -> dict[str, Any]:
    """The schedule's item that wakes a tournament at its start date."""
    return {"kind": "tournament", "tournament": tournament_id}


def start_due(state: TournamentState, now_ms: int) -> bool:
    if state["status"] != "signup":
        return False
    if state["start_at"] is None:
        return len(state["players"]) >= state["size"]
    return now_ms >= state["start_at"]


def table(state: TournamentState) -> list[Row]:
    """The standings now (none before the start)."""
    if state["status"] in ("signup", "cancelled") and not state["round_list"]:
        return []
    played = [
        Played(b["first"], b["second"], b["score"])
        for r in state["round_list"]
        for b in r["boards"]
        if b["score"] is not None
    ]
    byes: dict[str, int] = {}
    for r in state["round_list"]:
        if r["bye"]:
            byes[r["bye"]] = byes.get(r["bye"], 0) + 1
    return standings(
        [p["player_id"] for p in state["players"]], played, byes, TIEBREAK[state["format"]]
    )


def _invalid(message: Words) -> ServiceError:
    return ServiceError(ErrorCode.TOURNAMENT_INVALID, message)


def _format_words(format: str) -> str:
    return {"round_robin": Words("round-robin"), "swiss": Words("Swiss")}[format]


def _result_words(score: float | None) -> str | None:
    return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}.get(score) if score is not None else None


def start_words(ms: int | None) -> str:
    if ms is None:
        return "when full"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%d %B %Y %H:%M UTC")


# -- the decisions: what each use case adds to a tournament's draft ---------------------------


def _add(draft: Draft, created: dict[str, Any]) -> TournamentState:
    draft.add(created)
    return draft.state


def _sign_up(draft: Draft, player_id: str, name: str) -> TournamentState:
    state = draft.state
    if state["status"] != "signup":
        raise ServiceError(
            ErrorCode.TOURNAMENT_CLOSED, "sign-ups are closed: the tournament has begun or is over"
        )
    if any(p["player_id"] == player_id for p in state["players"]):
        raise ServiceError(
            ErrorCode.TOURNAMENT_ALREADY_SIGNED_UP, "you are signed up to this tournament already"
        )
    if len(state["players"]) >= state["size"]:
        raise ServiceError(ErrorCode.TOURNAMENT_CLOSED, "sign-ups are closed: it is full")
    draft.add({"type": T.SIGNED_UP, "player_id": player_id, "name": name})
    return draft.state


def _leave(draft: Draft, player_id: str) -> TournamentState:
    state = draft.state
    entered = next((p for p in state["players"] if p["player_id"] == player_id), None)
    if state["status"] in ("finished", "cancelled"):
        raise ServiceError(ErrorCode.TOURNAMENT_OVER, "the tournament is over")
    if entered is None or entered.get("withdrawn"):
        raise ServiceError(
            ErrorCode.TOURNAMENT_NOT_ENTERED,
            "you are not playing in this tournament (never signed up, left or withdrew)",
        )
    if state["status"] == "signup":
        draft.add({"type": T.LEFT, "player_id": player_id})
    else:
        draft.add({"type": T.WITHDREW, "player_id": player_id, "reason": "withdrew"})
    return draft.state


def _forget(draft: Draft, player_id: str) -> bool:
    if player_id in draft.state.get("deleted_players", []):
        return False
    draft.add({"type": T.PLAYER_DELETED, "player_id": player_id})
    return True


def _start(draft: Draft, ratings: dict[str, int]) -> None:
    state = draft.state
    if not start_due(state, draft.now_ms):
        return
    fewest = SIZES[state["format"]][0]
    players = state["players"]
    if len(players) < fewest:
        draft.add(
            {
                "type": T.CANCELLED,
                "reason": f"too few players: {len(players)} signed up, {fewest} needed",
            }
        )
        return
    seeded = sorted(players, key=lambda p: -ratings.get(p["player_id"], 1500))  # stable
    rounds = 1 if state["format"] == "round_robin" else min(state["rounds"], len(players) - 1)
    draft.add(
        {
            "type": T.STARTED,
            "rounds": rounds,
            "players": [
                {
                    "player_id": p["player_id"],
                    "name": p["name"],
                    "rating": ratings.get(p["player_id"], 1500),
                }
                for p in seeded
            ],
        }
    )
    _pair_next(draft)


def _pair_next(draft: Draft) -> None:
    state = draft.state
    number = len(state["round_list"]) + 1
    playing = [p["player_id"] for p in state["players"] if not p.get("withdrawn")]
    bye = None
    if state["format"] == "round_robin":
        pairs = round_robin(playing)
    else:
        pairing = swiss(_swiss_players(state, playing), number)
        pairs, bye = list(pairing.pairs), pairing.bye
    draft.add(
        {
            "type": T.ROUND_PAIRED,
            "round": number,
            "boards": [
                {"game_id": game_id_for(state["id"], number, i + 1), "first": a, "second": b}
                for i, (a, b) in enumerate(pairs)
            ],
            "bye": bye,
        }
    )


def _swiss_players(state: TournamentState, playing: list[str]) -> list[SwissPlayer]:
    """The players still playing as a Swiss round is paired, in seed order."""
    points = {r.player: r.points for r in table(state)}
    found = []
    for player in playing:
        opponents, firsts, seconds, last, byes = set(), 0, 0, None, 0
        for r in state["round_list"]:
            byes += r["bye"] == player
            for b in r["boards"]:
                if player == b["first"]:
                    opponents.add(b["second"])
                    firsts, last = firsts + 1, 0
                elif player == b["second"]:
                    opponents.add(b["first"])
                    seconds, last = seconds + 1, 1
        found.append(
            SwissPlayer(
                player, points.get(player, 0.0), frozenset(opponents), byes, firsts, seconds, last
            )
        )
    return found


def _round_started(draft: Draft, number: int) -> None:
    current = draft.state["round_list"][-1]
    if current["round"] != number or current["started"]:
        return
    draft.add({"type": T.ROUND_STARTED, "round": number})
    _close_round_if_done(draft)  # a round of byes only (all the others left)


def _record(draft: Draft, result: TournamentGameResult) -> None:
    state = draft.state
    found = [
        (r, b)
        for r in state["round_list"]
        if r["round"] == result.round
        for b in r["boards"]
        if b["game_id"] == result.game_id
    ]
    if not found or found[0][1]["score"] is not None:
        return  # recorded already (its end carried out again)
    draft.add(
        {
            "type": T.GAME_RECORDED,
            "round": result.round,
            "game_id": result.game_id,
            "score": result.first_score,
        }
    )
    late = result.lost_on_time
    if late and any(p["player_id"] == late and not p.get("withdrawn") for p in state["players"]):
        draft.add({"type": T.WITHDREW, "player_id": late, "reason": "timed out"})
    _close_round_if_done(draft)


def _close_round_if_done(draft: Draft) -> None:
    """The current round ended when its last game has its result: the next one is paired,
    or the tournament is over (its last round, or fewer than two players left)."""
    state = draft.state
    if state["status"] != "running" or not state["round_list"]:
        return
    current = state["round_list"][-1]
    if not current["started"] or current["ended"]:
        return
    if any(b["score"] is None for b in current["boards"]):
        return
    draft.add({"type": T.ROUND_ENDED, "round": current["round"]})
    playing = [p for p in draft.state["players"] if not p.get("withdrawn")]
    if current["round"] >= state["rounds"] or len(playing) < 2:
        draft.add({"type": T.ENDED})
    else:
        _pair_next(draft)
