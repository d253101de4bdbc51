"""A seat's table: everything one reader may know of a game, built once per seat and version.

Every surface that shows a game to a person (the web game page, the turn page, the public
page, the turn email, the webhook, the API's text board) renders a `SeatTable` and nothing
else. It is built here from the snapshot, as the boards are, through the seat's view: the game's
state (another seat's hand, the deck, the seed) never reaches it, so no surface can show what
its reader may not know. A spectator's table has no seat.

Seats are numbered from 1 where people read them (`SeatLine.number`); `SeatLine.seat` and
`active_seats` keep the API's numbers (from 0) for machines (the webhook).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import match as runner
from engine.core import Game
from service.errors import ErrorCode, ServiceError
from service.play import boards, composer, history, logview
from service.play.boards import Html
from service.play.boards.table import Table
from service.play.games import invitation_of, seat_of
from service.timefmt import in_words, iso
from store.games import GameStore
from store.record import Event, EventType, SeatRecord, Snapshot

LOG_PAGE = 50
"""Events per page of a table's log."""
SINCE_WINDOW = 300
"""How far back (in events) "since your last move" looks for the seat's last move."""
SINCE_LINES = 30
"""At most this many lines of "since your last move" (the latest; a first line counts the
others)."""
TIMEOUT_WORDS = {
    "auto": "the server plays a move for them (the game goes on)",
    "forfeit": "they lose the game",
}


@dataclass(frozen=True)
class SeatLine:
    """One seat as people read it."""

    seat: int
    """The API's number (from 0)."""
    name: str
    """The public name: "Ann", "Ann (invited)", "Ann (refused)", "an open seat"."""
    kind: str
    """player, bot, invited (reserved for a player who has not answered) or open."""
    player_id: str | None
    """The player who holds the seat (None for a bot, an open or a reserved seat)."""
    you: bool
    to_move: bool
    deadline: str | None
    """When this seat must have moved, in words in the reader's time zone."""
    deadline_at: str | None
    """The same deadline as ISO 8601 in UTC."""

    @property
    def number(self) -> int:
        """The seat's number for people (from 1)."""
        return self.seat + 1


@dataclass(frozen=True)
class Move:
    """One legal move of the reader's seat."""

    notation: str
    action: Mapping[str, Any]
    description: str
    """The move in words."""


@dataclass(frozen=True)
class Happening:
    """One event of the log in the reader's words; `number` is its place in the log (from 1,
    with no gaps: an event whose every line is hidden from the reader still says who moved)."""

    number: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class LogPage:
    page: int
    pages: int
    entries: tuple[Happening, ...]


@dataclass(frozen=True)
class SeatTable:
    game_id: str
    game: str
    """The title's name (`ninedomains`)."""
    title: str
    """The title as people read it (The Nine Domains)."""
    version: int
    status: str
    """open, active, finished or cancelled."""
    seat: int | None
    """The reader's seat (None: a spectator, or a player not seated)."""
    seats: tuple[SeatLine, ...]
    active_seats: tuple[int, ...]
    clock: str
    """The game's time control, in words."""
    view: Mapping[str, Any] | None
    """The game's whitelisted view for the reader, with its envelope (None before the start)."""
    board_text: str | None
    board_html: Html | None
    score: str | None
    since: tuple[str, ...]
    """What happened since the reader's seat last moved (that move's own lines included), in
    words: empty for a spectator."""
    moves: tuple[Move, ...]
    """The reader's legal moves (empty when it is not their turn)."""
    forms: tuple[composer.Form, ...]
    """The composer's controls for those moves: one form per kind of move."""
    notation_help: tuple[str, ...]
    """How the kinds of those moves are written."""
    turn_since: int | None
    """While the reader may act: the version since which their legal moves are unchanged (a
    move made on any version from it to `version` is still current)."""
    outcome: Mapping[str, Any] | None
    """Public once the game is over: winners, scores, reason."""
    result: str | None
    """ "Game over: you won (reason)", or None while the game goes on."""
    log: LogPage
    invited: bool = False
    """The reader has an unanswered invitation to a seat of this game."""

    @property
    def your_turn(self) -> bool:
        return self.seat is not None and self.status == "active" and self.seat in self.active_seats

    @property
    def players(self) -> str:
        """ "Ann vs Ben (refused)"."""
        return " vs ".join(s.name for s in self.seats)

    @property
    def you(self) -> SeatLine | None:
        return None if self.seat is None else self.seats[self.seat]

    def legend(self, action_type: str) -> str:
        """The help line for one kind of move, or its type when the game has none."""
        return next(iter(composer.notation_lines(self.notation_help, [action_type])), action_type)


def describe(game: Game, notation: str, action: Mapping[str, Any]) -> str:
    """A legal move in words. Until each title says its moves in words, the notation: the one
    place to switch."""
    return notation


def build(
    snap: Snapshot,
    seat: int | None,
    recent: Sequence[Event],
    log_events: Sequence[Event],
    log_page: int,
    now_ms: int,
    zone: str | None = None,
    invited: bool = False,
) -> SeatTable:
    """The table of `snap` as `seat` (None: a spectator) sees it. `recent` are the game's
    latest events (at most SINCE_WINDOW, for "since your last move"); `log_events` the events
    of page `log_page` of the log (LOG_PAGE events a page); times in words in `zone`."""
    game = history.game_of(snap)
    match = snap["match"]
    names = [seat_name(snap, s) for s in range(len(snap["seats"]))]
    view = history.seat_view(snap, seat) if match is not None else None
    outcome = match["outcome"] if match is not None else None
    board_text, board_html, score, result = (
        _drawn(view, [logview.seat_name(r) for r in snap["seats"]], outcome)
        if view is not None
        else (None, None, None, None)
    )
    your_turn = seat is not None and snap["status"] == "active" and seat in snap["active_seats"]
    moves = (
        tuple(
            Move(notation, action, describe(game, notation, action))
            for notation, action in runner.notated_legal_actions(game, match, seat)
        )
        if your_turn and match is not None and seat is not None
        else ()
    )
    legal = [dict(m.action) for m in moves]
    return SeatTable(
        game_id=snap["id"],
        game=snap["game"],
        title=game.info.title,
        version=snap["version"],
        status=snap["status"],
        seat=seat,
        seats=tuple(
            SeatLine(
                seat=s,
                name=names[s],
                kind=record["kind"],
                player_id=record["player_id"] if record["kind"] == "player" else None,
                you=s == seat,
                to_move=snap["status"] == "active" and s in snap["active_seats"],
                deadline=_deadline_words(snap, s, now_ms, zone),
                deadline_at=iso(_deadline(snap, s)),
            )
            for s, record in enumerate(snap["seats"])
        ),
        active_seats=tuple(snap["active_seats"]),
        clock=clock_words(snap, now_ms),
        view=view,
        board_text=board_text,
        board_html=board_html,
        score=score,
        since=since_last_move(game, snap["seats"], recent, seat),
        moves=moves,
        forms=tuple(composer.forms(legal, game.info.field_words)),
        notation_help=tuple(
            composer.notation_lines(game.info.notation, {a["type"] for a in legal})
        ),
        turn_since=match["seat_since"][seat]
        if your_turn and match is not None and seat is not None
        else None,
        outcome=outcome,
        result=result,
        log=LogPage(
            page=log_page,
            pages=log_pages(snap["version"]),
            entries=tuple(
                Happening(e["version"], happening(game, snap["seats"], e, seat)) for e in log_events
            ),
        ),
        invited=invited,
    )


def _drawn(
    view: dict[str, Any], names: list[str], outcome: dict[str, Any] | None
) -> tuple[str, Html, str | None, str | None]:
    """The text and HTML boards, the score line and the result, from the view alone."""
    return (
        boards.text_board(view, names, outcome),
        boards.html_board(view, names, outcome),
        boards.scores_of(view, names, outcome),
        Table(view, names, outcome).result(),
    )


def seat_name(snap: Snapshot, seat: int) -> str:
    """The seat's public name; an open seat whose invited player refused reads "Ben
    (refused)"."""
    record = snap["seats"][seat]
    if record["kind"] == "open":
        refused = [d["name"] for d in snap["declined"] if d["seat"] == seat]
        if refused:
            return f"{refused[-1]} (refused)"
    return logview.seat_name(record)


def _deadline(snap: Snapshot, seat: int) -> int | None:
    return snap["deadlines"][seat] if seat in snap["active_seats"] else None


def _deadline_words(snap: Snapshot, seat: int, now_ms: int, zone: str | None) -> str | None:
    deadline = _deadline(snap, seat)
    return None if deadline is None else in_words(deadline, now_ms, zone)


def clock_words(snap: Snapshot, now_ms: int) -> str:
    control = snap["time_control"]
    if not control:
        return "No clock: each player takes as long as they like."
    seconds = control["per_move_seconds"]
    span = in_words(now_ms + seconds * 1000, now_ms).split(" (")[0].removeprefix("in ")
    return (
        f"{span} per move; a player who runs out of time: {TIMEOUT_WORDS[control['on_timeout']]}."
    )


def log_pages(version: int) -> int:
    return max(1, -(-version // LOG_PAGE))


def happening(
    game: Game, seats: list[SeatRecord], event: Event, reader: int | None
) -> tuple[str, ...]:
    """What `reader` may read of one event: a move whose every line is hidden from them (a
    choice made face down) still says that its player moved."""
    lines = tuple(line["text"] for line in logview.render(game, seats, event, reader)["lines"])
    if not lines and event["type"] == EventType.ACTION_TAKEN:
        lines = (f"{logview.seat_name(seats[event['seat']])} moved",)
    return lines


def since_last_move(
    game: Game, seats: list[SeatRecord], recent: Sequence[Event], seat: int | None
) -> tuple[str, ...]:
    """The lines of `recent` from the seat's last move on (all of them if it has not moved
    among them), as the seat reads them: the opponents' moves and what they caused, and
    what the seat's own move caused."""
    if seat is None:
        return ()
    own = [
        i for i, e in enumerate(recent) if e["type"] == EventType.ACTION_TAKEN and e["seat"] == seat
    ]
    later = recent[own[-1] :] if own else recent
    lines = [
        line
        for e in later
        if e["type"] not in (EventType.GAME_CREATED, EventType.GAME_ENDED)
        for line in happening(game, seats, e, seat)
    ]
    if len(lines) > SINCE_LINES:
        earlier = len(lines) - SINCE_LINES
        lines = [f"... {earlier} earlier lines in the game's log", *lines[-SINCE_LINES:]]
    return tuple(lines)


class Tables:
    """Reads a game and builds a reader's table (two round trips: the snapshot, then the
    events for "since your last move" and the log's page)."""

    def __init__(self, games: GameStore, clock: Callable[[], float] = time.time):
        self.games = games
        self.clock = clock

    def load(self, game_id: str) -> Snapshot:
        snap = self.games.snapshot(game_id)
        if snap is None:
            raise ServiceError(ErrorCode.GAME_NOT_FOUND, f"there is no game {game_id}")
        return snap

    def for_player(
        self,
        game_id: str,
        player_id: str | None,
        zone: str | None = None,
        page: int | None = None,
    ) -> SeatTable:
        """The table as the player sees it: from their seat, or as a spectator when they have
        none (or are not signed in). `page` of the log: the latest when None or out of range."""
        snap = self.load(game_id)
        invited = player_id is not None and invitation_of(snap, player_id) is not None
        return self.of(snap, seat_of(snap, player_id), zone, page, invited)

    def for_seat(
        self, game_id: str, seat: int | None, zone: str | None = None, page: int | None = None
    ) -> SeatTable:
        return self.of(self.load(game_id), seat, zone, page)

    def of(
        self,
        snap: Snapshot,
        seat: int | None,
        zone: str | None = None,
        page: int | None = None,
        invited: bool = False,
    ) -> SeatTable:
        """The table of a snapshot already read."""
        pages = log_pages(snap["version"])
        page = page if page is not None and 1 <= page <= pages else pages
        recent, log_events = self.games.events_of(
            [
                (
                    snap["id"],
                    max(0, snap["version"] - SINCE_WINDOW) if seat is not None else snap["version"],
                    SINCE_WINDOW,
                ),
                (snap["id"], (page - 1) * LOG_PAGE, LOG_PAGE),
            ]
        )
        now_ms = int(self.clock() * 1000)
        return build(snap, seat, recent, log_events, page, now_ms, zone, invited)
