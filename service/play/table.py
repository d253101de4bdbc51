"""A seat's table: everything one reader may know of a game, built once per seat and version,
its words in the reader's language (service/words.py; English unless a surface asks for
another).

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
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine import match as runner
from engine import registry
from engine.core import Game, GameError, LogEntry
from service.errors import game_not_found
from service.play import (
    agreements,
    boards,
    clock,
    composer,
    history,
    logview,
    move_words,
    parts,
    phrases,
    talk,
)
from service.play.boards import Html
from service.play.facts import GameFacts
from service.play.games import clock_record, invitation_of, refused_by, seat_of
from service.ratings.ratings import GameRatings, RatingChange
from service.timefmt import duration, in_words, iso, stamp
from service.words import N_, gettext, ngettext, pgettext, speaking
from store.games import GameStore
from store.players import PlayerStore
from store.ratings import RatingStore
from store.reads import Read
from store.record import Event, EventType, SeatRecord
from store.snapshot import OpenProposal, Snapshot

LOG_PAGE = 50
"""Events per page of a table's log."""
SINCE_WINDOW = 300
"""How far back (in events) "since your last move" looks for the seat's last move."""
SINCE_LINES = 30
"""At most this many lines of "since your last move" (the latest; a first line counts the
others)."""
CHAT_SHOWN = 30
"""The latest messages a table shows (older ones are in the log's pages)."""
SINCE_MOVE = N_("Since your last move")
SINCE_EMAIL = N_("Since your last email")
TIMEOUT_WORDS = {
    "auto": N_("the server plays a move for them (the game goes on)"),
    "forfeit": N_("they lose the game"),
}
"""In English (the API's catalog gives them so); said in the reader's language through
`gettext`."""


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
    """The player who holds the seat, or is invited to it (None for a bot, an open seat, and
    a player who deleted their account: no page is theirs any more)."""
    you: bool
    to_move: bool
    deadline: str | None
    """When this seat must have moved, in words in the reader's time zone."""
    deadline_ms: int | None
    """The same deadline in epoch milliseconds."""
    bank_ms: int | None = None
    """What the seat's bank holds now (ms; under a clock per move, what is left of the move's
    time); None in a game without a clock or before its start."""
    paused: str | None = None
    """Why the seat's running clock stands still now, in words: "paused for the weekend",
    "on vacation until Monday 30 November 2026, 00:00 UTC"."""
    vacation_until: str | None = None
    """While the seat's player is on vacation (their clock is frozen, whether or not it is
    their turn): until when, in words in the reader's time zone."""
    language: str = "en"
    """The reader's language, which the words of this line are in."""

    @property
    def bank(self) -> str | None:
        """What the bank holds, in words ("4 days and 3 hours")."""
        if self.bank_ms is None:
            return None
        with speaking(self.language):
            return duration(self.bank_ms)

    @property
    def clock_line(self) -> str | None:
        """The seat's clock in a line: "4 days and 3 hours left; deadline in ... (...);
        paused for the weekend"."""
        bank = self.bank
        with speaking(self.language):
            parts = []
            if bank is not None and self.to_move:
                parts.append(gettext("%(bank)s left", bank=bank))
            elif bank is not None:
                parts.append(gettext("%(bank)s in the bank", bank=bank))
            if self.deadline is not None and self.to_move:
                parts.append(gettext("deadline %(when)s", when=self.deadline))
            if self.vacation_until is not None:
                parts.append(gettext("on vacation until %(when)s", when=self.vacation_until))
            elif self.paused is not None:
                parts.append(self.paused)
            return "; ".join(parts) or None

    @property
    def deadline_at(self) -> str | None:
        """The deadline as ISO 8601 in UTC."""
        return iso(self.deadline_ms)

    @property
    def number(self) -> int:
        """The seat's number for people (from 1)."""
        return self.seat + 1


class Move(NamedTuple):
    """One legal move of the reader's seat. A named tuple rather than a frozen dataclass: a
    turn email's table makes a hundred or more of them (The Nine Domains' laying of three
    cards), and a tuple is made in a third of the time."""

    notation: str
    action: Mapping[str, Any]
    description: str
    """The move in words."""
    parts: tuple[str, ...] = ()
    """The board parts that pick it, in order (service/play/parts; empty for a game without
    them): no other legal move's parts begin with these."""
    changes: tuple[str, ...] = ()
    """The board parts it changes, for its preview."""


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
    size: int
    """Events a page."""
    total: int
    """Events in the whole log."""
    entries: tuple[Happening, ...]

    @property
    def first(self) -> int:
        return (self.page - 1) * self.size + 1

    @property
    def last(self) -> int:
        return self.first + len(self.entries) - 1


@dataclass(frozen=True)
class ProposalLine:
    """An open proposal as the reader reads it (service/play/agreements.py)."""

    id: int
    kind: str
    words: str
    """ "Ada proposes to pause the clocks for 3 days", "you propose to take back your last move"."""
    deadline: str
    """When it lapses unanswered, in words in the reader's time zone."""
    yours: bool
    """The reader made it: they may withdraw it."""
    asked: bool
    """The reader is to answer it."""
    waiting: tuple[str, ...]
    """Whose answers it still waits for ("you", names)."""


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
    on_timeout: str | None
    """What happens to a seat that runs out of time (auto, forfeit); None without a clock."""
    clock_kind: str | None
    """The kind of clock (per_move, bank; service.play.clock.KINDS); None without a clock."""
    view: Mapping[str, Any] | None
    """The game's whitelisted view for the reader, with its envelope (None before the start)."""
    board_text: str | None
    board_html: Html | None
    score: str | None
    since: tuple[str, ...]
    """What happened since the reader's seat last moved (that move's own lines included), in
    words: empty for a spectator. From the reader's last email instead, when the table is
    built for an email and that came first (`told_until`)."""
    since_heading: str
    """ "Since your last move", or "Since your last email" when `since` starts there."""
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
    won: str | None
    """Once the game is over: "you won", "Ada won", "you and Bo share the win", "nobody won"."""
    log: LogPage
    invited: bool = False
    """The reader has an unanswered invitation to a seat of this game."""
    rated: bool = False
    """The game counts for its players' ratings."""
    ratings: GameRatings | None = None
    """Once a rated game is over and the worker has applied it: each seat's rating change."""
    language: str = "en"
    """The reader's language (service/words.py), which the table's words are in."""

    @property
    def ratings_pending(self) -> bool:
        """A rated game is over and its ratings are being applied (the worker's, in seconds)."""
        return self.rated and self.status == "finished" and self.ratings is None

    @property
    def rating_lines(self) -> tuple[str, ...]:
        """ "You: 1500 → 1542 (+42), provisional", one per seat, the reader's first."""
        if self.ratings is None:
            return ()
        ordered = sorted(self.ratings.changes, key=lambda c: (c.seat != self.seat, c.seat))
        with speaking(self.language):
            return tuple(c.words(you=c.seat == self.seat) for c in ordered)

    @property
    def your_rating(self) -> RatingChange | None:
        if self.ratings is None or self.seat is None:
            return None
        return next((c for c in self.ratings.changes if c.seat == self.seat), None)

    chat: tuple[talk.ChatLine, ...] = ()
    """The latest messages the reader may read (none for a spectator), oldest first."""
    chat_since: tuple[talk.ChatLine, ...] = ()
    """Those written since the reader's last move (or last email: see `since`)."""
    chat_open: bool = False
    """The reader may write to the table now (a seated player of a game that is on)."""
    private_to: tuple[SeatLine, ...] = ()
    """The players the reader may write to privately (a game of three seats or more)."""
    proposals: tuple[ProposalLine, ...] = ()
    """The game's open proposals (everyone may see them)."""
    may_propose: tuple[str, ...] = ()
    """What the reader may propose now (agreements.KINDS)."""
    paused_until: str | None = None
    """While the clocks are paused by agreement: until when, in words."""
    updated_ms: int = 0
    """When the game last moved (epoch ms): a feed's "updated"."""
    marks: frozenset[str] = frozenset()
    """The board parts that what `since` tells changed, but for what the reader did, marked on
    `board_html`."""
    part_labels: Mapping[str, str] = field(default_factory=dict)
    """Each board part the moves pick, in words for the reader."""

    @property
    def result(self) -> str | None:
        """ "Game over: you won (reason)", or None while the game goes on."""
        if self.won is None or self.outcome is None:
            return None
        with speaking(self.language):
            return gettext(
                "Game over: %(won)s (%(reason)s)",
                won=self.won,
                reason=logview.reason_words(self.game, self.outcome.get("reason", "")),
            )

    @property
    def your_turn(self) -> bool:
        return self.seat is not None and self.status == "active" and self.seat in self.active_seats

    def action_from(self, fields: Mapping[str, str]) -> dict[str, Any] | None:
        """The reader's legal move that a submitted form's fields describe (`forms`); None when
        they describe none of them (a combination not allowed, or fields tampered with)."""
        return composer.action_from(fields, [dict(m.action) for m in self.moves])

    def steps_of(self, lines: Sequence[str]) -> list[str]:
        """The notations of a turn written in lines: each line split into its steps as the
        title writes several steps of one turn on a line; a line it cannot split stays whole
        (and is refused as a move, with the title's own words)."""
        game = registry.GAMES[self.game]
        steps: list[str] = []
        for line in lines:
            try:
                steps += runner.split_steps(game, line)
            except GameError:
                steps.append(line)
        return steps

    @property
    def players(self) -> str:
        """ "Ann vs Ben (refused)", in the reader's language ("Ann против Ben")."""
        with speaking(self.language):
            return f" {gettext('vs')} ".join(s.name for s in self.seats)

    @property
    def you(self) -> SeatLine | None:
        return None if self.seat is None else self.seats[self.seat]

    def legend(self, action_type: str) -> str:
        """The help line for one kind of move, or its type when the game has none."""
        return next(iter(composer.notation_lines(self.notation_help, [action_type])), action_type)


def build(
    snap: Snapshot,
    seat: int | None,
    recent: Sequence[Event],
    log_events: Sequence[Event],
    log_page: int,
    now_ms: int,
    zone: str | None = None,
    invited: bool = False,
    page_size: int = LOG_PAGE,
    told_until: int | None = None,
    ratings: GameRatings | None = None,
    blocked: frozenset[str] = frozenset(),
    letter_lists: int | None = None,
    language: str | None = None,
) -> SeatTable:
    """The table of `snap` as `seat` (None: a spectator) sees it, its words in `language`
    (service/words.py; English when None). `blocked`: the players whose messages the reader
    does not read. `recent` are the game's latest events (at most SINCE_WINDOW, for "since your
    last move"); `log_events` the events of page `log_page` of the log (`page_size` events a
    page); times in words in `zone`;
    `told_until`: for an email, the version of the reader's last email about the game;
    `ratings`: a finished rated game's rating changes (public once it is over);
    `letter_lists`: None for a page's table; for a letter's, the most moves the letter lists in
    words (it sums up more). A letter's table is the cheaper one, as a letter is the most
    frequent thing rendered (a turn email for most moves): its moves carry no board parts (a
    letter has nothing to pick, and a hundred moves' parts cost more than the rest of the
    letter), are put in words only when the letter lists them, and it has no log page
    (`log_events` are not read into lines)."""
    with speaking(language) as spoken:
        pickable = letter_lists is None
        game = history.game_of(snap)
        match = snap["match"]
        names = [seat_name(snap, s) for s in range(len(snap["seats"]))]
        view = history.seat_view(snap, seat) if match is not None else None
        outcome = match["outcome"] if match is not None else None
        marks = (
            parts.marks(
                view, happened_since(recent[since_start(recent, seat, told_until)[0] :], seat)
            )
            if view is not None and seat is not None
            else frozenset()
        )
        board_text, board_html, score = (
            _drawn(view, [logview.seat_name(r) for r in snap["seats"]], outcome, marks)
            if view is not None
            else (None, None, None)
        )
        your_turn = seat is not None and snap["status"] == "active" and seat in snap["active_seats"]
        notated = (
            runner.notated_legal_actions(game, match, seat)
            if your_turn and match is not None and seat is not None
            else []
        )
        words = (
            move_words.said_to(game, view, snap["seats"], seat, [a for _, a in notated])
            if notated
            and seat is not None
            and (letter_lists is None or len(notated) <= letter_lists)
            else [n for n, _ in notated]  # a letter that sums its moves up says none in words
        )
        legal = [a for _, a in notated]
        moves = (
            tuple(
                Move(n, a, w, parts.picks(view, a), parts.changes(view, a))
                for (n, a), w in zip(notated, words)
            )
            if view is not None and pickable
            else tuple(map(Move, [n for n, _ in notated], legal, words))  # with no board parts
        )
        deleted = history.deleted_players(snap)
        since = since_last_move(game, snap["seats"], recent, seat, told_until, deleted)
        muted, hidden = logview.unseen(snap, blocked)
        chat = talk.chat_lines(recent, snap["seats"], seat, zone, muted, hidden)
        chat_since = _chat_since(chat, recent, seat, told_until)
        seat_lines = tuple(
            SeatLine(
                seat=s,
                name=names[s],
                kind=record["kind"],
                player_id=None if record["player_id"] in deleted else record["player_id"],
                you=s == seat,
                to_move=snap["status"] == "active" and s in snap["active_seats"],
                deadline=_deadline_words(snap, s, now_ms, zone),
                deadline_ms=_deadline(snap, s),
                **_clock_of(snap, s, now_ms, zone),
                language=spoken,
            )
            for s, record in enumerate(snap["seats"])
        )
        labels = (
            {
                part: logview.game_words(snap["game"], parts.label(view, part), snap["seats"], seat)
                for part in dict.fromkeys(p for m in moves for p in m.parts)
            }
            if view is not None and seat is not None
            else {}
        )
        return SeatTable(
            game_id=snap["id"],
            game=snap["game"],
            title=game.info.title,
            version=snap["version"],
            status=snap["status"],
            seat=seat,
            seats=seat_lines,
            active_seats=tuple(snap["active_seats"]),
            clock=clock_words(snap, now_ms),
            on_timeout=snap["time_control"]["on_timeout"] if snap["time_control"] else None,
            clock_kind=snap["time_control"].get("kind", "per_move")
            if snap["time_control"]
            else None,
            view=view,
            board_text=board_text,
            board_html=board_html,
            score=score,
            since=since[1],
            since_heading=gettext(since[0]),
            moves=moves,
            forms=tuple(composer.forms(legal, phrases.field_words(game.info.field_words))),
            notation_help=tuple(
                logview.game_words(snap["game"], line, snap["seats"])
                for line in composer.notation_lines(game.info.notation, {a["type"] for a in legal})
            ),
            turn_since=match["seat_since"][seat]
            if your_turn and match is not None and seat is not None
            else None,
            outcome=outcome,
            won=None if outcome is None else won_words(names, outcome, seat),
            log=LogPage(
                page=log_page,
                pages=log_pages(snap["version"], page_size),
                size=page_size,
                total=snap["version"],
                entries=tuple(
                    Happening(
                        e["version"],
                        happening(game, snap["seats"], e, seat, history.deleted_players(snap)),
                    )
                    for e in (log_events if pickable else ())
                    if logview.readable(e, seat, muted, hidden)
                ),
            ),
            invited=invited,
            updated_ms=snap["updated_at"],
            rated=snap.get("rated", False),
            ratings=ratings if snap["status"] == "finished" else None,
            chat=chat[-CHAT_SHOWN:],
            chat_since=chat_since[-CHAT_SHOWN:],
            chat_open=seat is not None and snap["status"] == "active",
            private_to=tuple(
                line
                for line in seat_lines
                if seat is not None
                and len(seat_lines) >= 3
                and line.kind == "player"
                and line.seat != seat
            ),
            proposals=tuple(
                _proposal_line(p, names, seat, now_ms, zone)
                for p in agreements.open_proposals(snap)
            ),
            may_propose=()
            if seat is None
            else tuple(k for k in agreements.KINDS if agreements.why_not(snap, seat, k, 1) is None),
            paused_until=in_words(agreements.paused_until(snap), now_ms, zone)
            if agreements.paused_until(snap) > now_ms
            else None,
            marks=marks,
            part_labels=labels,
            language=spoken,
        )


def _proposal_line(
    proposal: OpenProposal, names: list[str], seat: int | None, now_ms: int, zone: str | None
) -> ProposalLine:
    def who(s: int) -> str:
        return gettext("you") if s == seat else names[s]

    mine = proposal["seat"] == seat
    return ProposalLine(
        id=proposal["id"],
        kind=proposal["kind"],
        words=agreements.proposed(dict(proposal), None if mine else names[proposal["seat"]]),
        deadline=in_words(proposal["deadline"], now_ms, zone),
        yours=mine,
        asked=seat in proposal["waiting"],
        waiting=tuple(who(s) for s in proposal["waiting"]),
    )


def _drawn(
    view: dict[str, Any],
    names: list[str],
    outcome: dict[str, Any] | None,
    marks: frozenset[str] = frozenset(),
) -> tuple[str, Html, str | None]:
    """The text and HTML boards and the score line, from the view alone."""
    return (
        boards.text_board(view, names, outcome),
        boards.html_board(view, names, outcome, marks),
        boards.scores_of(view, names, outcome),
    )


def won_words(names: list[str], outcome: Mapping[str, Any], seat: int | None) -> str:
    """ "you won", "Ada won", "you and Bo share the win", "nobody won": `seat` is "you"."""
    said = [gettext("you") if s == seat else names[s] for s in outcome.get("winners") or []]
    if not said:
        return gettext("nobody won")
    if len(said) == 1:
        return (
            gettext("you won")
            if seat in outcome["winners"]
            else gettext("%(who)s won", who=said[0])
        )
    some, last = ", ".join(said[:-1]), said[-1]
    if seat in outcome["winners"]:  # "you" among the subjects: the languages conjugate for it
        return pgettext(
            YOU_AMONG_WINNERS, "%(some)s and %(last)s share the win", some=some, last=last
        )
    return gettext("%(some)s and %(last)s share the win", some=some, last=last)


YOU_AMONG_WINNERS = "the reader among the winners"


def seat_name(snap: Snapshot, seat: int) -> str:
    """The seat's public name; an open seat whose invited player refused reads "Ben
    (refused)"."""
    refused = refused_by(snap, seat)
    if refused:
        return gettext("%(name)s (refused)", name=refused)
    return logview.seat_name(snap["seats"][seat])


def _deadline(snap: Snapshot, seat: int) -> int | None:
    return snap["deadlines"][seat] if seat in snap["active_seats"] else None


def _deadline_words(snap: Snapshot, seat: int, now_ms: int, zone: str | None) -> str | None:
    deadline = _deadline(snap, seat)
    return None if deadline is None else in_words(deadline, now_ms, zone)


def _clock_of(snap: Snapshot, seat: int, now_ms: int, zone: str | None) -> dict[str, Any]:
    """The SeatLine's bank, pause and vacation, from the seat's clock and calendar."""
    clocks = history.clocks_of(snap)
    calendar = history.seat_calendar(snap, seat)
    vacation = clock.vacation_at(now_ms, calendar)
    found: dict[str, Any] = {
        "vacation_until": None if vacation is None else stamp(vacation[1], zone)
    }
    if clocks is None or snap["status"] != "active":
        return found
    held = clocks[seat]
    found["bank_ms"] = clock.remaining_ms(held, now_ms, calendar)
    why = clock.paused(now_ms, calendar) if held.since is not None else None
    if why == "weekend":
        found["paused"] = gettext("paused for the weekend")
    elif why == "agreed":
        found["paused"] = gettext("paused by agreement")
    elif why == "vacation" and vacation is not None:
        found["paused"] = gettext("on vacation until %(when)s", when=stamp(vacation[1], zone))
    return found


def clock_words(snap: Snapshot, now_ms: int) -> str:
    control = clock_record(snap)
    if not control:
        return gettext("No clock: each player takes as long as they like.")
    if control["kind"] == "bank":
        said = gettext(
            "a time bank of %(bank)s, +%(increment)s a move, at most %(most)s",
            bank=duration(control["initial_seconds"] * 1000),
            increment=duration(control["increment_seconds"] * 1000),
            most=duration(control["max_seconds"] * 1000),
        )
    else:
        said = gettext("%(time)s per move", time=duration(control["per_move_seconds"] * 1000))
    if control.get("weekends_off"):
        said = gettext(
            "%(clock)s; weekends off (each player's own Saturday and Sunday)", clock=said
        )
    said = said[0].upper() + said[1:]
    return gettext(
        "%(clock)s; a player who runs out of time: %(then)s.",
        clock=said,
        then=gettext(TIMEOUT_WORDS[control["on_timeout"]]),
    )


def log_pages(version: int, page_size: int = LOG_PAGE) -> int:
    return max(1, -(-version // page_size))


def happening(
    game: Game,
    seats: list[SeatRecord],
    event: Event,
    reader: int | None,
    deleted: Collection[str] = (),
) -> tuple[str, ...]:
    """What `reader` may read of one event, seats numbered from 1: a move whose every line is
    hidden from them (a choice made face down) still says that its player moved."""
    rendered = logview.render(game, seats, event, reader, first_seat=1, deleted=deleted)
    lines = tuple(line["text"] for line in rendered["lines"])
    if not lines and event["type"] == EventType.ACTION_TAKEN:
        lines = (gettext("%(who)s moved", who=logview.seat_name(seats[event["seat"]])),)
    return lines


def since_start(
    recent: Sequence[Event], seat: int | None, told_until: int | None = None
) -> tuple[int, str]:
    """(index, heading): where "since your last move" starts in `recent`: at the seat's last
    move (0 if it has not moved among them), or just after `told_until` when that is earlier
    (an email tells everything since the reader's last email)."""
    own = [
        i for i, e in enumerate(recent) if e["type"] == EventType.ACTION_TAKEN and e["seat"] == seat
    ]
    start, heading = (own[-1] if own else 0), SINCE_MOVE
    if told_until is not None:
        told = next((i for i, e in enumerate(recent) if e["version"] > told_until), len(recent))
        if told < start:
            start, heading = told, SINCE_EMAIL
    return start, heading


def since_last_move(
    game: Game,
    seats: list[SeatRecord],
    recent: Sequence[Event],
    seat: int | None,
    told_until: int | None = None,
    deleted: Collection[str] = (),
) -> tuple[str, tuple[str, ...]]:
    """(heading, lines): the lines of `recent` from the seat's last move on (all of them if it
    has not moved among them), as the seat reads them: the opponents' moves and what they
    caused, and what the seat's own move caused; from just after `told_until` instead when
    that is earlier (see `since_start`). Messages are told apart (`SeatTable.chat_since`)."""
    if seat is None:
        return SINCE_MOVE, ()
    start, heading = since_start(recent, seat, told_until)
    lines = [
        line
        for e in recent[start:]
        if e["type"] not in (EventType.GAME_CREATED, EventType.GAME_ENDED)
        and e["type"] not in talk.TALK_EVENTS
        for line in happening(game, seats, e, seat, deleted)
    ]
    if len(lines) > SINCE_LINES:
        earlier = len(lines) - SINCE_LINES
        lines = [
            ngettext(
                "... %(num)d earlier line in the game's log",
                "... %(num)d earlier lines in the game's log",
                earlier,
            ),
            *lines[-SINCE_LINES:],
        ]
    return heading, tuple(lines)


def _chat_since(
    chat: Sequence[talk.ChatLine],
    recent: Sequence[Event],
    seat: int | None,
    told_until: int | None,
) -> tuple[talk.ChatLine, ...]:
    """The messages of `chat` from where "since your last move" starts on."""
    if seat is None or not chat:
        return ()
    start, _ = since_start(recent, seat, told_until)
    if start >= len(recent):
        return ()
    return tuple(line for line in chat if line.number >= recent[start]["version"])


def happened_since(events: Sequence[Event], seat: int) -> tuple[parts.Happened, ...]:
    """The moves among `events`, each with the data of the log lines `seat` may read. The
    reader's own are there too: a move that ends a simultaneous choice reveals the others'
    (each title's `marks` leaves out what the reader did)."""
    happened = []
    for e in events:
        if e["type"] == EventType.ACTION_TAKEN:
            who, entries = e["seat"], e["entries"]
        elif e["type"] == EventType.PLAYER_RESIGNED:
            who, entries = e["seat"], e.get("entries", [])
        elif e["type"] == EventType.TURN_TIMED_OUT:
            who, entries = e["seat"], []
        else:
            continue
        read = (LogEntry.from_json(entry) for entry in entries)
        happened.append(parts.Happened(who, tuple(r.data for r in read if r.visible_to(seat))))
    return tuple(happened)


def _recent_window(snap: Snapshot, seat: int | None) -> tuple[int, int]:
    """(after, count): the recent events a table as `seat` reads, for "since your last move"
    (a spectator's table reads none)."""
    version = snap["version"]
    return (max(0, version - SINCE_WINDOW) if seat is not None else version), SINCE_WINDOW


class Tables:
    """Reads a game and builds a reader's table (two round trips: the snapshot, then the
    events for "since your last move" and the log's page)."""

    def __init__(
        self,
        games: GameStore,
        clock: Callable[[], float] = time.time,
        ratings: RatingStore | None = None,
        players: PlayerStore | None = None,
    ):
        """`players`: where the readers' blocks are read (without it, none are)."""
        self.games = games
        self.clock = clock
        self.ratings = ratings or RatingStore(games.r)
        self.players = players

    def load(self, game_id: str) -> Snapshot:
        snap = self.games.snapshot(game_id)
        if snap is None:
            raise game_not_found(game_id)
        return snap

    def for_player(
        self,
        game_id: str,
        player_id: str | None,
        zone: str | None = None,
        page: int | None = None,
        page_size: int = LOG_PAGE,
        language: str | None = None,
    ) -> SeatTable:
        """The table as the player sees it: from their seat, or as a spectator when they have
        none (or are not signed in). `page` of the log: the latest when None or out of range;
        its words in `language` (English when None)."""
        snap = self.load(game_id)
        invited = player_id is not None and invitation_of(snap, player_id) is not None
        return self._of(
            snap, seat_of(snap, player_id), zone, page, invited, page_size, language=language
        )

    def for_seat(
        self, game_id: str, seat: int | None, zone: str | None = None, language: str | None = None
    ) -> SeatTable:
        return self._of(self.load(game_id), seat, zone, language=language)

    def of(
        self,
        game: GameFacts,
        seat: int | None,
        zone: str | None = None,
        told_until: int | None = None,
        letter_lists: int | None = None,
        language: str | None = None,
        blocked: frozenset[str] | None = None,
        recent: Sequence[Event] | None = None,
    ) -> SeatTable:
        """The table of a game whose facts were read already (service/play/facts.py): what a
        notice tells its reader (see `build` for `told_until`, `letter_lists` and `language`;
        `blocked`: the reader's blocked players, when read already; `recent`: the game's
        recent events for the seat, when read already with `recent_read`)."""
        return self._of(
            game._snapshot,
            seat,
            zone,
            told_until=told_until,
            letter_lists=letter_lists,
            language=language,
            blocked=blocked,
            recent=recent,
        )

    def recent_read(self, game: GameFacts, seat: int | None) -> Read[list[Event]]:
        """The game's recent events that its table as `seat` shows (see `build`), as a read
        that store.reads.at_once may run with others; `of` takes them as `recent`."""
        return self.games.events_read(game.id, *_recent_window(game._snapshot, seat))

    def _of(
        self,
        snap: Snapshot,
        seat: int | None,
        zone: str | None = None,
        page: int | None = None,
        invited: bool = False,
        page_size: int = LOG_PAGE,
        told_until: int | None = None,
        letter_lists: int | None = None,
        language: str | None = None,
        blocked: frozenset[str] | None = None,
        recent: Sequence[Event] | None = None,
    ) -> SeatTable:
        """The table of a snapshot already read (see `build` for `told_until`, `letter_lists`
        and `language`; `blocked`: the reader's blocked players, read here when None;
        `recent`: its recent events, read here when None)."""
        pages = log_pages(snap["version"], page_size)
        page = page if page is not None and 1 <= page <= pages else pages
        wanted = [] if recent is not None else [(snap["id"], *_recent_window(snap, seat))]
        if letter_lists is None:  # a letter shows no page of the log
            wanted.append((snap["id"], (page - 1) * page_size, page_size))
        read = self.games.events_of(wanted)
        if recent is None:
            recent = read.pop(0)
        log_events = read[0] if read else []
        now_ms = int(self.clock() * 1000)
        ratings = None
        if snap["status"] == "finished" and snap.get("rated"):
            found = self.ratings.game_ratings(snap["id"])
            ratings = None if found is None else GameRatings.from_json(found)
        reader = snap["seats"][seat]["player_id"] if seat is not None else None
        if blocked is None:
            blocked = (
                frozenset(self.players.blocked(reader))
                if self.players is not None and reader is not None
                else frozenset()
            )
        return build(
            snap,
            seat,
            recent,
            log_events,
            page,
            now_ms,
            zone,
            invited,
            page_size,
            told_until,
            ratings,
            blocked,
            letter_lists,
            language,
        )
