"""What a commit causes, and carrying it out.

A commit is one atomic fact in Redis: the events, the snapshot, the game's deadlines and an
outbox entry saying the commit's consequences are due (store/append.lua). Nothing that
happens next is decided in the request. A worker reads the entry and asks `due_after_commit`,
a pure function of the game's facts now (service/play/facts.py), the commit's versions, the
players' contacts, the settings and the time, what is due; `Consequences.carry_out` does it
and only then is the entry acknowledged. Every step is idempotent (lists are version-guarded,
deliveries have deterministic ids and emails are claimed before sending, a bot or the computer
moves only if the game is still where it was), so an entry carried out twice, or late, has its
effect once.

The outbox consumer reads entries in batches: `begin` reads and writes what a batch's entries
share at once, `carry_out` does each entry, `finish` writes what waited for the batch's end.

The clock's side: `Consequences.run_due` carries out the schedule's items that came due
(deadlines, reminders, delayed notices, delayed bot moves, sign-in emails), batched.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.matchmaking.matchmaking import Matchmaking
from service.notify import digest
from service.notify.notifications import (
    NOTIFIED_KINDS,
    REMINDER_PERCENTS,
    TOURNAMENT_ROUND_STARTED,
    TURN_CONTINUES,
    TURN_REMINDER,
    TURN_STARTED,
    Notice,
    goes_on,
    message_notices,
    notices,
    preferences,
    proposal_notices,
    tournament_notices,
)
from service.play.facts import GameFacts, keep_lists, read, read_many
from service.play.games import GameService
from service.play.talk import Talk
from service.players.sign_in import SignIn
from service.players.vacations import VacationService
from service.ratings.ratings import Ratings
from service.settings import Settings
from service.tournaments.tournaments import TournamentService
from store import tallies
from store.games import GameStore, run_pipeline
from store.notifications import NotificationStore
from store.outbox import Entry, OutboxStore
from store.players import PlayerStore
from store.push import PushStore
from store.reads import Read, at_once
from store.record import Event
from store.schedule import ScheduleStore
from store.tallies import WorkerTallies
from store.tournaments import TournamentEventType, TournamentState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Delivery:
    """One notice to send on one channel ("email", "webhook" or "push"); `attempt` counts the
    deliveries of this notice on this channel (a throttled or failed one is tried again)."""

    channel: str
    notice: Notice
    attempt: int = 1

    @property
    def job_id(self) -> str:
        base = self.notice.delivery_id(self.channel)
        return base if self.attempt == 1 else f"{base}-try{self.attempt}"

    def item(self) -> dict[str, Any]:
        """As the schedule keeps it."""
        n = self.notice
        return {
            "kind": "notify",
            "channel": self.channel,
            "event": n.event,
            "game": n.game_id,
            "seat": n.seat,
            "version": n.version,
            "tag": n.tag,
            "attempt": self.attempt,
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> Delivery:
        return cls(
            item["channel"],
            Notice(item["event"], item["game"], item["seat"], item["version"], item["tag"]),
            item["attempt"],
        )


@dataclass(frozen=True)
class Contact:
    """How a seated person can be told (read from their profile when the entry is handled)."""

    email: bool = False
    webhook: bool = False
    push: bool = False
    """Has a device with Web Push on (service.notify.push)."""
    suspended: bool = False
    """An operator suspended the player (service/players/moderation.py)."""


@dataclass(frozen=True)
class Due:
    """What a commit calls for, as `due_after_commit` decides it."""

    deliveries: list[tuple[int, Delivery]] = field(default_factory=list)
    """(when, in epoch ms, what): a notice to queue, at once when the time is now or past."""
    bot_seats: list[int] = field(default_factory=list)
    """Bot seats that move now."""
    wake_at: int | None = None
    """When the bot seats may move, if not yet (the clock wakes the game then)."""
    replacements: list[int] = field(default_factory=list)
    """Seats whose clock ran out under `on_timeout: auto`: the computer moves for them now."""
    suspended: list[str] = field(default_factory=list)
    """Suspended players whose seat is owed its timeout policy: it applies now."""


def due_after_commit(
    game: GameFacts,
    first: int,
    last: int,
    contacts: dict[int, Contact],
    settings: Settings,
    now_ms: int,
) -> Due:
    """What the commit of versions first..last calls for, given the game as it is now.

    - A notice for each person whose turn began with the commit, for everyone when it ended
      the game, for each invited person when it created the game, for everyone seated or
      invited when it cancelled the game (service.notify.notifications.notices), on each channel the
      person can be reached by;
      a turn email waits `email_delay_seconds` (a quick move makes it moot), and a running
      clock adds reminders at 50% and 90% of it.
    - A move for every bot seat that may act, `bot_delay_seconds` after the game last moved.
    - The computer's move for every seat whose clock ran out under `on_timeout: auto`.
    - The timeout policy, now, for every seat of a suspended player that is owed it
      (service.play.games.suspension_due: their turn began, or the game has no clock).
    Only what still holds now is asked for: a turn that moved on since the commit is left to
    the later commit's own entry."""
    deliveries: list[tuple[int, Delivery]] = []
    for notice in notices(game, first, last):
        contact = contacts.get(notice.seat, Contact())
        email_at = now_ms
        if notice.event == TURN_STARTED:
            email_at += int(settings.email_delay_seconds * 1000)
        if contact.email:
            deliveries.append((email_at, Delivery("email", notice)))
        if contact.webhook:
            deliveries.append((now_ms, Delivery("webhook", notice)))
        if contact.push:
            push_at = now_ms
            if notice.event == TURN_STARTED:
                push_at += int(settings.push_delay_seconds * 1000)
            deliveries.append((push_at, Delivery("push", notice)))
        deadline = game.seats[notice.seat].deadline
        if notice.event == TURN_STARTED and deadline is not None:
            deliveries += _reminders(game, notice, deadline, contact)
    if game.status != "active":
        return Due(deliveries)
    bots = [s for s in game.active_seats if game.seats[s].kind == "bot"]
    bots_from = game.updated_at + int(settings.bot_delay_seconds * 1000)
    on_time = now_ms >= bots_from
    return Due(
        deliveries=deliveries,
        bot_seats=bots if on_time else [],
        wake_at=None if on_time or not bots else bots_from,
        replacements=list(game.timed_out) if game.on_timeout == "auto" else [],
        suspended=[
            str(game.seats[seat].player_id)
            for seat, contact in sorted(contacts.items())
            if contact.suspended and game.suspension_due(seat)
        ],
    )


def due_for_messages(
    game: GameFacts,
    events: Iterable[Event],
    contacts: dict[int, Contact],
    settings: Settings,
    now_ms: int,
) -> list[tuple[int, Delivery]]:
    """What the messages and proposals among a commit's `events` call for: for each reader of
    a message but its writer, a webhook at once and an email `chat_email_delay_seconds` after
    the message (a later message, or the reader's own move or message, makes it moot: the email
    gathers the messages not told yet, at most one an hour: service.notify.notifications); for
    each player asked to answer a proposal, and each told of its end, a webhook at once and an
    email after `email_delay_seconds`, as a turn's."""
    delay = int(settings.chat_email_delay_seconds * 1000)
    found: list[tuple[int, Delivery]] = []
    for notice in message_notices(game, events):
        contact = contacts.get(notice.seat, Contact())
        if contact.webhook:
            found.append((now_ms, Delivery("webhook", notice)))
        if contact.email:
            found.append(
                (
                    max(now_ms, _written_at(events, notice.version) + delay),
                    Delivery("email", notice),
                )
            )
    for notice in proposal_notices(game, events):
        contact = contacts.get(notice.seat, Contact())
        if contact.webhook:
            found.append((now_ms, Delivery("webhook", notice)))
        if contact.email:
            email_at = now_ms + int(settings.email_delay_seconds * 1000)
            found.append((email_at, Delivery("email", notice)))
    return found


def _written_at(events: Iterable[Event], version: int) -> int:
    return next(e["at"] for e in events if e["version"] == version)


def _reminders(
    game: GameFacts, turn: Notice, deadline: int, contact: Contact
) -> list[tuple[int, Delivery]]:
    """The turn's reminders at REMINDER_PERCENTS of the time the seat had when it began (its
    bank, or the time per move), weekends off and vacations left out; a reminder that comes
    due after a vacation moved it waits again (NotificationService.reminder_wait)."""
    found = []
    for percent in REMINDER_PERCENTS:
        at = game.reminder_at(turn.seat, percent)
        if at is None or at >= deadline:
            continue
        notice = Notice(TURN_REMINDER, turn.game_id, turn.seat, turn.version, f"-{percent}")
        found += [
            (at, Delivery(channel, notice))
            for channel, wanted in (
                ("email", contact.email),
                ("webhook", contact.webhook),
                ("push", contact.push),
            )
            if wanted
        ]
    return found


@dataclass
class Batch:
    """What the entries of one outbox read share (Consequences.begin, .finish)."""

    games: dict[str, GameFacts | None]
    """By game, what it is now (service/play/facts.py); a game a move of the batch changed is
    dropped (read again when needed)."""
    contacts: dict[str, dict[int, Contact]]
    """By game, then seat."""
    began: dict[tuple[str, int], dict[int, Event]]
    """Each entry's events by version, by (game, first version)."""
    writes: Any
    """A pipeline of the writes that wait for the batch's end."""
    counts: Counter[str] = field(default_factory=Counter)
    """What the batch counted for the metrics (store.tallies), written with `writes`."""
    windows: dict[str, dict[int, int]] = field(default_factory=dict)
    """By game, then seat: how long (ms) its person's window for the game's turn emails
    stays taken (service.notify: one turn email per player and game per
    EMAIL_THROTTLE_SECONDS); a seat whose window is free is left out."""

    def count(self, name: str, **labels: str) -> None:
        self.counts[tallies.field(name, labels)] += 1


class Deliveries(Protocol):
    """The port through which notices are handed to the job runner (RQ, in workers/)."""

    def queue(self, deliveries: list[Delivery]) -> None:
        """Queue these deliveries now; queueing one twice runs it again, never in parallel
        with itself (its id is its job id)."""
        ...


class Consequences:
    """Carries out outbox entries and due schedule items (run by `turnpost worker`)."""

    def __init__(
        self,
        games: GameService,
        game_store: GameStore,
        players: PlayerStore,
        schedule: ScheduleStore,
        outbox: OutboxStore,
        deliveries: Deliveries,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        sign_in: SignIn | None = None,
        tallies: WorkerTallies | None = None,
        ratings: Ratings | None = None,
        talk: Talk | None = None,
        push: PushStore | None = None,
        vacations: VacationService | None = None,
        tournaments: TournamentService | None = None,
        matchmaking: Matchmaking | None = None,
        notes: NotificationStore | None = None,
    ):
        self.push = push
        """Whose devices have Web Push on; None: nobody's are asked."""
        self.vacations = vacations
        """Copies a player's changed calendar to their games (a `calendar` item)."""
        self.games = games
        self.game_store = game_store
        self.players = players
        self.schedule = schedule
        self.outbox = outbox
        self.deliveries = deliveries
        self.settings = settings
        self.clock = clock
        self.sign_in = sign_in
        self.tallies = tallies
        """Counts for the operator's metrics (store.tallies); None: nothing is counted."""
        self.ratings = ratings
        """Records finished games (ratings, players' records); None: nothing is recorded."""
        self.talk = talk
        """Where proposals lapse at their deadlines (service/play/talk.py)."""
        self.tournaments = tournaments
        """Runs tournaments (their entries, their games' results); None: nothing is run."""
        self.matchmaking = matchmaking
        """Pairs those who asked for a rated game; None: nobody is paired."""
        self.notes = notes
        """Where the players' windows for turn emails are read; None: a turn email is queued
        without looking (its job then puts off one whose window is taken)."""

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # -- the outbox ------------------------------------------------------------------------

    def begin(self, entries: list[Entry]) -> Batch:
        """What a batch of entries shares, read and written together: their games' facts
        (one read), the games' lists (one round trip), then the entries' events with the
        seated people's contacts and their windows for turn emails (one read). Raises if that
        could not be done: then every entry stays pending."""
        entries = [entry for entry in entries if entry.kind == "game"]  # a tournament reads its own
        game_ids = list(dict.fromkeys(entry.game_id for entry in entries))
        games = dict(zip(game_ids, read_many(self.game_store, game_ids)))
        found = [game for game in games.values() if game is not None]
        keep_lists(self.game_store, self.players, found)
        commits = [  # a wake names no events of its own
            (e.game_id, e.first - 1, e.version - e.first + 1)
            for e in entries
            if e.first <= e.version
        ]
        people = [
            (game.id, seat.seat, seat.player_id)
            for game in found
            for seat in game.seats
            if seat.kind in NOTIFIED_KINDS and seat.player_id is not None
        ]
        player_ids = list(dict.fromkeys(player_id for _, _, player_id in people))
        reads: list[Read[Any]] = [self.game_store.events_read(*each) for each in commits]
        reads.append(self.players.profiles_read(player_ids))
        if self.push is not None:
            reads.append(self.push.counts_read(player_ids))
        notes = self.notes if self.settings.email_throttle_seconds > 0 else None
        if notes is not None:
            reads.append(notes.windows_read([(p, g) for g, _, p in people]))
        read_now = list(at_once(self.game_store.r, *reads))
        began = {
            (game_id, after + 1): {event["version"]: event for event in events}
            for (game_id, after, _), events in zip(commits, read_now)
        }
        after_events = read_now[len(commits) :]
        profiles = dict(zip(player_ids, after_events.pop(0)))
        devices = dict(zip(player_ids, after_events.pop(0))) if self.push is not None else {}
        windows: dict[str, dict[int, int]] = {}
        for (game_id, seat, _), left in zip(people, after_events.pop(0) if notes else []):
            if left:
                windows.setdefault(game_id, {})[seat] = left
        writes = self.game_store.r.pipeline(transaction=False)
        contacts = _contacts(found, people, profiles, devices)
        return Batch(games, contacts, began, writes, windows=windows)

    def finish(self, batch: Batch) -> None:
        """The batch's writes that waited for its end (each person's events, the later
        deliveries), in one round trip. Raises if they could not be written: then every entry
        stays pending. (`len`, not the pipeline's `command_stack`: a cluster's pipeline keeps
        its commands elsewhere, and its `command_stack` stays empty.)"""
        if self.tallies is not None:
            self.tallies.add(batch.counts, batch.writes)
        if len(batch.writes):
            run_pipeline(batch.writes)

    def carry_out(self, entry: Entry, batch: Batch | None = None) -> None:
        """Everything the commit named by `entry` calls for (with what `begin` read for its
        batch, if given). Raises if any of it could not be done: the entry then stays
        pending and is carried out again."""
        if batch is None:
            alone = self.begin([entry])
            self.carry_out(entry, alone)
            self.finish(alone)
            return
        if entry.kind == "tournament":
            self._carry_out_tournament(entry, batch)
            return
        if entry.kind == "seek":
            if self.matchmaking is not None:
                self._matched(self.matchmaking.pair(entry.game_id, entry.player), batch.writes)
            return
        game = batch.games.get(entry.game_id)
        if entry.game_id not in batch.games:  # a move of this batch changed the game
            game = read(self.game_store, entry.game_id)
            if game is not None:
                keep_lists(self.game_store, self.players, [game])
        if game is None:
            return
        due = due_after_commit(
            game,
            entry.first,
            entry.version,
            batch.contacts.get(game.id, {}),
            self.settings,
            self.now_ms(),
        )
        ended = game.status == "finished" and entry.version == game.version
        if ended:
            self._record_result(game)  # before the end's notices, which show the ratings
        self.send(self._after_the_window(game, entry, batch, due.deliveries), batch.writes)
        events = list(batch.began.get((entry.game_id, entry.first), {}).values())
        contacts = batch.contacts.get(entry.game_id, {})
        self.send(
            due_for_messages(game, events, contacts, self.settings, self.now_ms()), batch.writes
        )
        self._tell_players(game, entry, batch)
        if due.wake_at is not None:
            self.schedule.add(
                game.id,
                due.wake_at,
                {"kind": "wake", "game": game.id, "version": game.version},
                batch.writes,
            )
        for seat in due.bot_seats:
            if self.games.bot_move(game.id, seat, game.version):
                batch.count("turnpost_computer_moves_total", game=game.game, why="bot")
                batch.games.pop(game.id, None)
        for seat in due.replacements:
            if self.games.play_for_timed_out(game.id, seat):
                batch.count("turnpost_computer_moves_total", game=game.game, why="timeout")
                batch.games.pop(game.id, None)
        for player_id in due.suspended:
            if self.games.apply_timeout_policy(game.id, player_id):
                batch.games.pop(game.id, None)
        if self._withdrawn_turns(game):
            batch.games.pop(entry.game_id, None)
        if ended:
            batch.count("turnpost_games_finished_total", game=game.game)
            self.schedule.add(
                game.id,
                self.now_ms() + int(self.settings.finished_log_days * 86_400_000),
                {"kind": "compact", "game": game.id},
                batch.writes,
            )

    def _after_the_window(
        self, game: GameFacts, entry: Entry, batch: Batch, deliveries: list[tuple[int, Delivery]]
    ) -> list[tuple[int, Delivery]]:
        """`deliveries`, a turn email whose reader's window for the game is taken (one turn
        email per player and game per EMAIL_THROTTLE_SECONDS, service.notify) put off until
        the window frees: queued now, its job would only put it off (`deferred`, counted as
        such here) and run again then, where the email is decided as ever. The next step of
        a turn that goes on is not held back (its email comes at once), nor is any other
        notice or channel."""
        windows = batch.windows.get(game.id)
        if not windows:
            return deliveries
        began = batch.began.get((entry.game_id, entry.first), {})
        now = self.now_ms()
        found = []
        for at, delivery in deliveries:
            notice = delivery.notice
            left = windows.get(notice.seat, 0)
            if (
                left
                and delivery.channel == "email"
                and notice.event == TURN_STARTED
                and not goes_on(game, notice, began.get(notice.version))
                and at < now + left
            ):
                at = now + left
                batch.count("turnpost_deliveries_total", channel="email", outcome="deferred")
            found.append((at, delivery))
        return found

    def _record_result(self, game: GameFacts) -> None:
        """The finished game in its players' ratings (if rated) and records: once, however
        often the entry that ended it is carried out (service.ratings.ratings.Ratings.record)."""
        result = game.result()
        if self.ratings is not None and result is not None:
            self.ratings.record(result)
        in_tournament = game.tournament_result()
        if self.tournaments is not None and in_tournament is not None:
            self.tournaments.record_game(in_tournament)

    def _withdrawn_turns(self, game: GameFacts) -> bool:
        """In a tournament's game under `on_timeout: auto`, the turn of a player who left the
        tournament is timed out at once (the computer then plays it, as the consequence of
        that commit): so their game goes on to its end without waiting for their clock.
        Whether a turn was timed out."""
        tournament = game.tournament_under_auto()
        if self.tournaments is None or tournament is None:
            return False
        gone = self.tournaments.withdrawn(tournament)
        timed_out = False
        for seat in game.active_seats:
            player_id = game.seats[seat].player_id
            if player_id in gone and seat not in game.timed_out:
                timed_out |= self.games.withdraw_seat(game.id, player_id)
        return timed_out

    def _matched(self, request: dict[str, Any] | None, pipe) -> None:
        """Tell a player matched by matchmaking (and their opponent) on their stream of
        events, once: their game is created (its turn notices follow from its own commit)."""
        if not request or request["status"] != "matched":
            return
        opponent = request["opponent"]
        people = [request["player_id"]] + (
            [opponent["player_id"]] if opponent.get("player_id") else []
        )
        for player_id in people:
            self.players.add_event(
                player_id,
                f"stream-{request['game_id']}-matched",
                {
                    "event": "matchmaking.matched",
                    "game_id": request["game_id"],
                    "game": request["game"],
                },
                pipe=pipe,
            )

    def _carry_out_tournament(self, entry: Entry, batch: Batch) -> None:
        """What a tournament's commit calls for: what is due on it now (its start, a round's
        games, the games of players who left: TournamentService.advance), and the notices of
        its events (a round started, a round ended) by email, webhook and each player's stream
        of events. Each once, however often the entry is carried out."""
        if self.tournaments is None:
            return
        state = self.tournaments.advance(entry.game_id)
        if state is None:
            return
        events = self.tournaments.events(entry.game_id, entry.first, entry.version)
        for event in events:
            if event["type"] == TournamentEventType.LEFT:  # the request's write may have failed
                self.tournaments.store.forget_player(
                    event["player_id"], state["id"], event["version"]
                )
        found = tournament_notices(state, events)
        if not found:
            return
        people = [state["players"][n.seat]["player_id"] for n in found]
        profiles = dict(zip(people, self.players.get_many(people)))
        now = self.now_ms()
        deliveries: list[tuple[int, Delivery]] = []
        for notice, player_id in zip(found, people):
            profile = profiles.get(player_id) or {}
            for channel, wanted in (
                ("email", profile.get("email")),
                ("webhook", profile.get("webhook_url")),
            ):
                if wanted:
                    deliveries.append((now, Delivery(channel, notice)))
            self.players.add_event(
                player_id,
                notice.delivery_id("stream"),
                {
                    "event": notice.event,
                    "tournament_id": state["id"],
                    "game": state["game"],
                    "round": notice.version,
                    **(
                        {"games": " ".join(_round_games(state, notice.version, player_id))}
                        if notice.event == TOURNAMENT_ROUND_STARTED
                        else {}
                    ),
                },
                pipe=batch.writes,
            )
        self.send(deliveries, batch.writes)

    def _tell_players(self, game: GameFacts, entry: Entry, batch: Batch) -> None:
        """Each person's stream of events (GET /v1/players/me/stream): the notices this commit
        calls for, a turn that goes on named `turn.continues`. Once each, however often the
        entry is carried out."""
        began = batch.began.get((entry.game_id, entry.first), {})
        found = (
            notices(game, entry.first, entry.version)
            + message_notices(game, began.values())
            + proposal_notices(game, began.values())
        )
        for notice in found:
            player_id = game.seats[notice.seat].player_id
            if not player_id or player_id in game.deleted_players:
                continue
            kind = notice.event
            if kind == TURN_STARTED and goes_on(game, notice, began.get(notice.version)):
                kind = TURN_CONTINUES
            self.players.add_event(
                player_id,
                notice.delivery_id("stream"),
                {
                    "event": kind,
                    "game_id": game.id,
                    "game": game.game,
                    "version": notice.version,
                    "seat": notice.seat,
                },
                pipe=batch.writes,
            )

    def send(self, deliveries: list[tuple[int, Delivery]], pipe) -> None:
        """Queue what is due now; schedule the rest (on the pipeline `pipe`)."""
        now = self.now_ms()
        self.deliveries.queue([d for at, d in deliveries if at <= now])
        self.schedule.add_many(
            [(d.notice.game_id, at, d.item()) for at, d in deliveries if at > now], pipe
        )

    # -- the clock ---------------------------------------------------------------------------

    def run_due(self, taken: list[tuple[int, dict[str, Any]]]) -> None:
        """Carry out schedule items that came due (leased by ScheduleStore.take_due), then end
        their leases. Raises if something could not be done: the lease then runs out and a
        clock takes the items again."""
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for _, item in taken:
            by_kind.setdefault(item["kind"], []).append(item)
        timeouts = by_kind.get("timeout", [])
        if timeouts:
            verdicts = self.games.expire_turns(
                [(i["game"], i["seat"], i["since"]) for i in timeouts]
            )
            for item, verdict in zip(timeouts, verdicts):
                if verdict == "early":  # this clock runs ahead of the one that set the deadline
                    game = read(self.game_store, item["game"])
                    deadline = game.seats[item["seat"]].deadline if game is not None else None
                    if deadline is not None:
                        self.schedule.add(item["game"], deadline, item)
        self.deliveries.queue([Delivery.from_item(i) for i in by_kind.get("notify", [])])
        for item in by_kind.get("wake", []):
            self.outbox.add(item["game"], item["version"])
        for item in by_kind.get("lapse", []):  # a proposal unanswered at its deadline
            if self.talk is not None and self.talk.lapse(item["game"], item["proposal"]) == "early":
                game = read(self.game_store, item["game"])
                lapses = game.proposal_deadline(item["proposal"]) if game else None
                if lapses is not None:
                    self.schedule.add(item["game"], lapses, item)
        for item in by_kind.get("tournament", []):  # its start date: the worker looks at it
            self.outbox.add(item["tournament"], 0, kind="tournament")
        if self.matchmaking is not None:
            for item in by_kind.get("seek", []):  # a wait for a person is over: a bot's game
                found = self.matchmaking.bot_due(item["game"], item["player"], item["at"])
                self._matched(found, None)
        for item in by_kind.get("compact", []):  # a finished game's log, kept in less memory
            self.game_store.compact(item["game"])
        self._digests(by_kind.get("digest", []))
        if self.vacations is not None:
            for player_id in dict.fromkeys(i["player"] for i in by_kind.get("calendar", [])):
                self.vacations.copy_to_games(player_id)
        if self.sign_in is not None:
            for item in by_kind.get("sign_in", []):
                self._count(
                    "turnpost_deliveries_total",
                    channel="sign_in",
                    outcome=self.sign_in.send_due(item),
                )
        self.schedule.done(taken)

    def _digests(self, due: list[dict[str, Any]]) -> None:
        """Queue each day's digest that came due, and schedule the next day's; an item whose
        player changed the time of day (or turned the digest off) is dropped: the new time has
        its own item."""
        profiles = self.players.get_many([i["player"] for i in due])
        for item, profile in zip(due, profiles):
            prefs = preferences(profile or {})
            if not profile or prefs["digest_at"] != item["at"]:
                continue
            day = digest.day_of(item["due"])
            self.deliveries.queue(
                [Delivery("digest", Notice(digest.DIGEST, item["player"], 0, day))]
            )
            after = max(item["due"], self.now_ms())
            upcoming = digest.next_due(
                after, item["at"], profile.get("time_zone"), self.settings.digest_day_seconds
            )
            self.schedule.add(
                item["player"], upcoming, digest.item(item["player"], item["at"], upcoming)
            )

    def _count(self, name: str, **labels: str) -> None:
        if self.tallies is not None:
            self.tallies.count(name, **labels)

    def later(self, delivery: Delivery, seconds: float) -> None:
        """Deliver again after `seconds` (a throttled email, a webhook's next attempt)."""
        self.schedule.add(
            delivery.notice.game_id, self.now_ms() + int(seconds * 1000), delivery.item()
        )


def _contacts(
    games: list[GameFacts],
    people: list[tuple[str, int, str]],
    profiles: dict[str, dict[str, Any] | None],
    devices: dict[str, int],
) -> dict[str, dict[int, Contact]]:
    """Each game's seated people (game, seat, player) by seat, as they can be told, from
    their profiles and their counts of Web Push devices."""
    found: dict[str, dict[int, Contact]] = {game.id: {} for game in games}
    for game_id, seat, player_id in people:
        profile = profiles[player_id]
        if profile:
            found[game_id][seat] = Contact(
                bool(profile.get("email")),
                bool(profile.get("webhook_url")),
                bool(devices.get(player_id)),
                bool(profile.get("suspended")),
            )
    return found


def _round_games(state: TournamentState, number: int, player_id: str) -> list[str]:
    """The player's games of a tournament's round (their ids)."""
    for found in state["round_list"]:
        if found["round"] == number:
            return [b["game_id"] for b in found["boards"] if player_id in (b["first"], b["second"])]
    return []
