"""Telling players it is their turn: which notices a commit calls for, and delivering one by
email or webhook when a worker runs it.

A notice is (event, game, seat, version). Delivery re-reads the game when it runs, so a notice
whose turn has already moved on (the player moved through the API meanwhile) is dropped as
`superseded` instead of telling the player something stale. Every delivery id is a function of
the notice and the channel; an email is claimed in Redis before it is sent, so a job that runs
twice sends once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from service.notify import emails, tournament_letters, webhooks
from service.notify.reply_addresses import reply_address
from service.play import history, logview
from service.play.table import SeatTable, Tables
from service.secrets import ServerKeys
from service.settings import Settings
from service.timefmt import iso
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import PlayerStore
from store.record import Event, EventType, SeatRecord
from store.snapshot import Snapshot
from store.tournaments import TournamentEventType, TournamentState, TournamentStore
from transports.mailer import Mailer

if TYPE_CHECKING:  # one_click plays moves through the games service; only its type is here
    from service.notify.one_click import TurnLinks

TURN_STARTED = "turn.started"
TURN_CONTINUES = "turn.continues"
"""A turn's next step (the player stream's name for a TURN_STARTED that goes on)."""
TURN_REMINDER = "turn.reminder"
GAME_FINISHED = "game.finished"
GAME_INVITED = "game.invited"
GAME_CANCELLED = "game.cancelled"
INVITED_AT = 1
"""The version of every invitation: a game's seats are reserved by its GameCreated."""
NOTIFIED_KINDS: Final = ("player", "invited")
"""The seats whose person is told: those who hold them, and those they are reserved for."""
REMINDER_PERCENTS = (50, 90)


DEFAULT_PREFERENCES = {
    "email": True,
    "webhook": True,
    "reminders": True,
    "replies_from_any_address": False,
}


def preferences(profile: dict) -> dict[str, bool]:
    """How a player wants to be told and answered: their choices over the defaults."""
    return {**DEFAULT_PREFERENCES, **(profile.get("notifications") or {})}


@dataclass(frozen=True)
class Notice:
    event: str
    game_id: str
    seat: int
    version: int  # the game's version the notice is about (for a reminder: the turn's start)
    tag: str = ""  # tells apart notices of one event and version (a reminder's percent)

    def delivery_id(self, channel: str) -> str:
        """Also the job id, so only letters, digits, '_' and '-' (RQ's rule)."""
        event = self.event.replace(".", "_")
        return f"{channel}-{self.game_id}-{self.seat}-{self.version}-{event}{self.tag}"


def notices(snapshot: Snapshot, first: int, last: int) -> list[Notice]:
    """The notices that the commit of versions `first`..`last` calls for and that still hold in
    `snapshot` (the game now, which may be later than the commit): every seated person when
    that commit ended the game; every person seated or invited when it cancelled the game; an
    invitation for each seat still reserved when the commit created the game; otherwise each
    person whose turn began with that commit (their legal moves changed then) and who may
    still act. Nothing about turns comes before the game starts, so an invited player gets no
    turn email before they accept."""
    game_id = snapshot["id"]
    people = [s for s, r in enumerate(snapshot["seats"]) if r["kind"] == "player"]
    if snapshot["status"] == "cancelled":
        told = [s for s, r in enumerate(snapshot["seats"]) if r["kind"] in NOTIFIED_KINDS]
        if first <= snapshot["version"] <= last:
            return [Notice(GAME_CANCELLED, game_id, s, snapshot["version"]) for s in told]
        return []
    if snapshot["status"] == "open":
        return [
            Notice(GAME_INVITED, game_id, s, INVITED_AT)
            for s, r in enumerate(snapshot["seats"])
            if r["kind"] == "invited" and first <= INVITED_AT <= last
        ]
    if snapshot["status"] == "finished":
        if first <= snapshot["version"] <= last:
            return [Notice(GAME_FINISHED, game_id, s, snapshot["version"]) for s in people]
        return []
    if snapshot["status"] != "active":
        return []
    since = history.match_of(snapshot)["seat_since"]
    return [
        Notice(TURN_STARTED, game_id, s, since[s])
        for s in people
        if s in snapshot["active_seats"] and first <= since[s] <= last
    ]


TOURNAMENT_ROUND_STARTED = tournament_letters.ROUND_STARTED
TOURNAMENT_ROUND_ENDED = tournament_letters.ROUND_ENDED


def tournament_notices(state: TournamentState, events: list[dict]) -> list[Notice]:
    """The notices a tournament's commit (its `events`) calls for: when a round starts (its
    games are created), each of its players, the one with the bye too; when a round ends, every
    player still playing. A notice's `game_id` is the tournament's id, its `seat` the player's
    place in the tournament's list, its `version` the round."""
    found = []
    index = {p["player_id"]: i for i, p in enumerate(state["players"])}
    for event in events:
        number = event.get("round", 0)
        if event["type"] == TournamentEventType.ROUND_STARTED:
            paired = tournament_letters.round_of(state, number)
            if paired is None:
                continue
            told = [p for b in paired["boards"] for p in (b["first"], b["second"])]
            told += [paired["bye"]] if paired["bye"] else []
            found += [
                Notice(TOURNAMENT_ROUND_STARTED, state["id"], index[p], number)
                for p in dict.fromkeys(told)
                if p in index
            ]
        elif event["type"] == TournamentEventType.ROUND_ENDED:
            found += [
                Notice(TOURNAMENT_ROUND_ENDED, state["id"], i, number)
                for i, p in enumerate(state["players"])
                if not p.get("withdrawn")
            ]
    return found


def goes_on(snap: Snapshot, notice: Notice, began: Event | None) -> bool:
    """Whether the turn of `notice` continues one: the event that began it (`began`, at the
    notice's version) is the seat's own step, and the seat alone may act."""
    return (
        began is not None
        and began["type"] == EventType.ACTION_TAKEN
        and began["seat"] == notice.seat
        and snap["active_seats"] == [notice.seat]
    )


class NotificationService:
    def __init__(
        self,
        games: GameStore,
        players: PlayerStore,
        notes: NotificationStore,
        settings: Settings,
        mailer: Mailer,
        clock: Callable[[], float] = time.time,
        one_click: Callable[[SeatTable, list[str]], TurnLinks] | None = None,
        keys: ServerKeys | None = None,
        tournaments: TournamentStore | None = None,
    ):
        """`one_click(table, moves)` gives a turn email's links: its turn page and,
        for a short list, a one-click link per move (service.notify.one_click)."""
        self.one_click = one_click
        self.tournaments = tournaments
        """Where a tournament's notices read it (None: they are dropped as "gone")."""
        self.keys = keys or ServerKeys(settings, notes)
        self.games = games
        self.players = players
        self.notes = notes
        self.settings = settings
        self.mailer = mailer
        self.clock = clock
        self.tables = Tables(games, clock)

    # -- email -------------------------------------------------------------------------------

    def email(self, notice: Notice, fallback: bool = False) -> tuple[str, float]:
        """Send the notice by email. Returns (outcome, seconds): outcome is "sent", "deferred"
        (the throttle window is open for `seconds` more: ask again then), or a reason nothing
        was sent ("off", "superseded", "duplicate", "gone", or "throttled": an invitation
        from a player who had one emailed to this person within INVITATION_EMAIL_SECONDS).
        A `fallback` email stands in for a failed webhook: it ignores the email preference
        and the throttle."""
        if notice.event in tournament_letters.EVENTS:
            return self._tournament_email(notice, fallback)
        snap = self.games.snapshot(notice.game_id)
        if snap is None:
            return "gone", 0
        player_id = _person(snap["seats"][notice.seat])
        profile = self.players.get(player_id) if player_id else None
        if player_id is None or not profile or not profile.get("email"):
            return "off", 0
        prefs = preferences(profile)
        wanted = prefs["reminders"] if notice.event == TURN_REMINDER else prefs["email"]
        if not (wanted or fallback):
            return "off", 0
        delivery_id = notice.delivery_id("email")
        if not _still_current(snap, notice):
            self._record(
                player_id,
                notice,
                "email",
                delivery_id,
                "superseded",
                f"{_moved_on(notice)} before the email went",
            )
            return "superseded", 0
        # the steps of one turn are not throttled against each other: "your turn goes on"
        # comes at once
        continues = notice.event == TURN_STARTED and self._goes_on(snap, notice)
        if notice.event == TURN_STARTED and not fallback and not continues:
            wait = self.notes.throttle(
                player_id, notice.game_id, self.settings.email_throttle_seconds
            )
            if wait:
                return "deferred", wait
        inviter = snap["created_by"]  # every game with an invitation records who created it
        if (
            notice.event == GAME_INVITED
            and inviter is not None
            and not self.notes.take_invitation_window(
                player_id,
                inviter,
                delivery_id,
                self.settings.invitation_email_seconds,
            )
        ):
            self._record(
                player_id,
                notice,
                "email",
                delivery_id,
                "throttled",
                "another invitation from the same player was emailed within "
                f"{self.settings.invitation_email_seconds:g} s; this one is listed "
                "in GET /v1/games?invited=me",
            )
            return "throttled", 0
        message = self._letter(snap, notice, player_id, profile, delivery_id, continues)
        # claimed only once the letter is written: nothing between the claim and the send
        # touches Redis, so a Redis failure cannot leave a claimed email unsent
        if not self.notes.claim(delivery_id):
            return "duplicate", 0
        try:
            self.mailer.send(message)
        except Exception as err:
            self.notes.release(delivery_id)
            self._record(
                player_id,
                notice,
                "email",
                delivery_id,
                "failed",
                f"{type(err).__name__}: {err}",
            )
            raise
        self._record(
            player_id,
            notice,
            "email",
            delivery_id,
            "fallback" if fallback else "sent",
            f"to {profile['email']}",
        )
        if notice.event != GAME_INVITED:
            self.notes.emailed(player_id, snap["id"], snap["version"])
        return "sent", 0

    def _letter(
        self,
        snap: Snapshot,
        notice: Notice,
        player_id: str,
        profile: dict,
        delivery_id: str,
        continues: bool,
    ):
        """The email for the notice; `continues`: a turn that goes on (see _goes_on)."""
        if notice.event in (GAME_INVITED, GAME_CANCELLED):
            return self._invitation_letter(snap, notice, profile, delivery_id)
        told_until = self.notes.last_emailed(player_id, snap["id"])
        return self._turn_letter(
            self.tables.of(snap, notice.seat, profile.get("time_zone"), told_until=told_until),
            notice,
            profile,
            delivery_id,
            continues,
        )

    def _turn_letter(
        self, table: SeatTable, notice: Notice, profile: dict, delivery_id: str, continues: bool
    ):
        """A turn, a reminder or the end of a game, told from the reader's table alone."""
        title, game_id, you = table.title, table.game_id, table.you
        if you is None:
            raise ValueError("a turn email is for a seat")
        others = [s.name for s in table.seats if not s.you]
        against = f" against {', '.join(others)}" if others else ""
        links = [("See the game", f"{self.settings.public_url}/play/{game_id}")]
        sections: list[tuple[str, Sequence[str | tuple[str, str]]] | emails.BoardSection] = []
        if table.since:
            sections.append((f"{table.since_heading}:", table.since))
        if table.board_text is not None and table.board_html is not None:
            sections.append(
                emails.BoardSection(
                    "The game as you see it (with your hand):", table.board_text, table.board_html
                )
            )
        reply_to = None
        if notice.event == GAME_FINISHED:
            result = _result_words(table)
            subject = f"{title} with {', '.join(others)}: the game is over, {result}"
            lead = f"The game of {title}{against} (game {game_id}) is over: {result}."
            if table.rating_lines:
                sections.insert(0, ("Ratings:", table.rating_lines))
        else:
            when = (
                "There is no clock on this game."
                if you.deadline is None
                else f"Your deadline: {you.deadline}. "
                + (
                    "After it the computer plays for you."
                    if table.on_timeout == "auto"
                    else "After it you forfeit the game."
                )
            )
            round_ = (table.view or {}).get("round")
            asked = f"round {round_}: your move" if round_ is not None else "your move"
            with_whom = f"{title} with {', '.join(others)}" if others else title
            if notice.event == TURN_REMINDER:
                subject = f"{with_whom}: reminder, {asked} ({game_id})"
                lead = f"It is still your turn in {title}{against}. {when}"
            elif continues:
                subject = f"{with_whom}: your turn goes on ({game_id})"
                lead = (
                    f"Your turn in {title}{against} (game {game_id}) goes on: your "
                    f"last step is played, the next is yours. {when}"
                )
            else:
                subject = f"{with_whom}: {asked} ({game_id})"
                lead = f"It is your turn in {title}{against} (game {game_id}). {when}"
            notations = [m.notation for m in table.moves]
            turn_links = self.one_click(table, notations) if self.one_click is not None else None
            sections.append(
                emails.moves_section(
                    "Your legal moves",
                    table.moves,
                    table.forms,
                    turn_links.moves if turn_links else None,
                )
            )
            if table.notation_help:
                sections.append(("How a move is written:", table.notation_help))
            if turn_links is not None:
                links = [
                    (
                        "Open your turn page: see the table and choose your move",
                        turn_links.turn_page,
                    ),
                    *links,
                ]
            if self.settings.mail_domain:
                reply_to = reply_address(
                    self.keys.reply_token(game_id, you.seat),
                    table.version,
                    self.settings.mail_domain,
                )
        footer = (
            "To play, reply to this email with your move on the first line (several "
            "steps of one turn: one per line)."
            if reply_to
            else ""
        )
        letter = emails.Letter(
            subject=f"[turnpost] {subject}",
            greeting=f"Hello {profile['name']},",
            lead=lead,
            sections=sections,
            links=links,
            footer=footer,
        )
        return emails.layout(
            letter,
            profile["name"],
            profile["email"],
            self.settings.mail_from,
            delivery_id,
            reply_to,
            {
                "X-Turnpost-Game": game_id,
                "X-Turnpost-Version": str(table.version),
                "X-Turnpost-Event": notice.event,
            },
        )

    def _invitation_letter(self, snap: Snapshot, notice: Notice, profile: dict, delivery_id: str):
        """An invitation, or the news that a game was cancelled: names, the game's title and
        its settings only (the game has not started: there is no hand to show)."""
        game = history.game_of(snap)
        creator = _creator(self.players, snap) or {"name": "a player"}
        others = [
            logview.seat_name(r)
            for s, r in enumerate(snap["seats"])
            if s != notice.seat and r["player_id"] != snap["created_by"]
        ]
        if notice.event == GAME_INVITED:
            letter = emails.invitation(
                reader=profile["name"],
                title=game.info.title,
                game_id=snap["id"],
                inviter=creator["name"],
                others=others,
                time_control=snap["time_control"],
                cancel_if_declined=snap["if_declined"] == "cancel",
                api_url=f"{self.settings.public_url}/v1/games/{snap['id']}",
                page_url=f"{self.settings.public_url}/play/{snap['id']}",
            )
        else:
            refused = [d["name"] for d in snap.get("declined", [])]
            letter = emails.cancellation(
                reader=profile["name"],
                title=game.info.title,
                game_id=snap["id"],
                inviter=None
                if snap["created_by"] == snap["seats"][notice.seat]["player_id"]
                else creator["name"],
                declined_by=refused[-1] if refused else "an invited player",
            )
        return emails.layout(
            letter,
            profile["name"],
            profile["email"],
            self.settings.mail_from,
            delivery_id,
            None,
            {
                "X-Turnpost-Game": snap["id"],
                "X-Turnpost-Version": str(snap["version"]),
                "X-Turnpost-Event": notice.event,
            },
        )

    def _goes_on(self, snap: Snapshot, notice: Notice) -> bool:
        """Whether this turn notice continues a turn: the seat's own step began it and the
        seat alone may act (a multi-step turn, such as Con Sonar!'s fleet move then torpedo,
        delay or end). A step that ends a round in which others act too (The Nine Domains'
        last card laid) starts a new turn instead."""
        if notice.event not in (TURN_STARTED, TURN_REMINDER) or notice.version < 1:
            return False
        began = self.games.events(snap["id"], after=notice.version - 1, count=1)
        return goes_on(snap, notice, began[0] if began else None)

    # -- webhooks ------------------------------------------------------------------------------

    def webhook(self, notice: Notice, attempt: int = 1) -> tuple[str, float]:
        """POST the notice to the player's webhook. Returns (outcome, seconds): "sent";
        "retry" after `seconds`; "busy" (the player has WEBHOOK_IN_FLIGHT_PER_PLAYER
        deliveries under way: ask again after `seconds`, the attempt not used); "failed"
        (attempts used up: the webhook is marked failing and the player gets the email
        instead); or "off" / "superseded" / "gone".

        A receiver that leaves a delivery unanswered past the timeout is not called again for
        WEBHOOK_SLOW_SECONDS: meanwhile its attempts fail at once, so that it holds no worker
        and delays no one else's notices, only its owner's."""
        delivery_id = notice.delivery_id("webhook")
        snap, state = None, None
        if notice.event in tournament_letters.EVENTS:
            state = self.tournaments.state(notice.game_id) if self.tournaments else None
            if state is None or notice.seat >= len(state["players"]):
                return "gone", 0
            player_id: str | None = state["players"][notice.seat]["player_id"]
        else:
            snap = self.games.snapshot(notice.game_id)
            if snap is None:
                return "gone", 0
            player_id = _person(snap["seats"][notice.seat])
        profile = self.players.get(player_id) if player_id else None
        if player_id is None or not profile or not profile.get("webhook_url"):
            return "off", 0
        prefs = preferences(profile)
        if not prefs["webhook"] or (notice.event == TURN_REMINDER and not prefs["reminders"]):
            return "off", 0
        stored = self.notes.webhook_secret(player_id)
        if stored is None:
            return "off", 0
        if snap is not None and not _still_current(snap, notice):
            self._record(
                player_id,
                notice,
                "webhook",
                delivery_id,
                "superseded",
                f"{_moved_on(notice)} before the webhook went",
            )
            return "superseded", 0
        timeout = self.settings.webhook_timeout_seconds
        if self.notes.webhook_slow(player_id):
            result = webhooks.PostResult(None, webhooks.NOT_ANSWERING)
        elif not self.notes.take_webhook_slot(
            player_id,
            delivery_id,
            int(self.clock() * 1000),
            int(4 * timeout * 1000),
            self.settings.webhook_in_flight_per_player,
        ):
            return "busy", timeout
        else:
            try:
                result = webhooks.post(
                    profile["webhook_url"],
                    self.keys.unseal(stored),
                    notice.event,
                    delivery_id,
                    self._body(snap, state, notice, delivery_id),
                    int(self.clock()),
                    timeout,
                    self.settings.webhook_urls,
                )
            finally:
                self.notes.give_webhook_slot(player_id, delivery_id)
            if result.timed_out:
                self.notes.mark_webhook_slow(player_id, self.settings.webhook_slow_seconds)
        if result.ok:
            self.notes.set_webhook_failing(player_id, False)
            self._record(player_id, notice, "webhook", delivery_id, "sent", result.detail, attempt)
            return "sent", 0
        already_failing = self.notes.webhook_failing(player_id)
        if attempt < self.settings.webhook_attempts and not already_failing:
            delay = self.settings.webhook_retry_seconds * 2 ** (attempt - 1)
            self._record(
                player_id,
                notice,
                "webhook",
                delivery_id,
                "retrying",
                f"{result.detail}; next attempt in {delay:g} s",
                attempt,
            )
            return "retry", delay
        self.notes.set_webhook_failing(player_id, True)
        self._record(
            player_id,
            notice,
            "webhook",
            delivery_id,
            "failed",
            f"{result.detail}; the webhook is marked failing",
            attempt,
        )
        self.email(notice, fallback=True)
        return "failed", 0

    def _body(
        self,
        snap: Snapshot | None,
        state: TournamentState | None,
        notice: Notice,
        delivery_id: str,
    ) -> dict[str, Any]:
        """A webhook's body: a game's notice's (from its snapshot) or a tournament's."""
        if snap is not None:
            return self._payload(snap, notice, delivery_id)
        if state is None:
            raise ValueError(f"{notice} names neither a game nor a tournament")
        return self._tournament_payload(state, notice, delivery_id)

    def _tournament_payload(
        self, state: TournamentState, notice: Notice, delivery_id: str
    ) -> dict[str, Any]:
        player_id = state["players"][notice.seat]["player_id"]
        return {
            "event": notice.event,
            "delivery_id": delivery_id,
            **tournament_letters.payload(
                state, notice.event, notice.version, player_id, self.settings.public_url
            ),
            "sent_at": iso(int(self.clock() * 1000)),
        }

    def _tournament_email(self, notice: Notice, fallback: bool) -> tuple[str, float]:
        """A round's start or end, by email: never throttled (one a round), never stale (the
        round began or ended whatever happened since)."""
        state = self.tournaments.state(notice.game_id) if self.tournaments else None
        if state is None or notice.seat >= len(state["players"]):
            return "gone", 0
        player_id = state["players"][notice.seat]["player_id"]
        profile = self.players.get(player_id)
        if not profile or not profile.get("email"):
            return "off", 0
        if not (preferences(profile)["email"] or fallback):
            return "off", 0
        delivery_id = notice.delivery_id("email")
        message = emails.layout(
            tournament_letters.letter(
                state,
                notice.event,
                notice.version,
                {"id": player_id, "name": profile["name"]},
                self.settings.public_url,
            ),
            profile["name"],
            profile["email"],
            self.settings.mail_from,
            delivery_id,
            None,
            {
                "X-Turnpost-Tournament": state["id"],
                "X-Turnpost-Round": str(notice.version),
                "X-Turnpost-Event": notice.event,
            },
        )
        if not self.notes.claim(delivery_id):
            return "duplicate", 0
        try:
            self.mailer.send(message)
        except Exception as err:
            self.notes.release(delivery_id)
            self._record(
                player_id, notice, "email", delivery_id, "failed", f"{type(err).__name__}: {err}"
            )
            raise
        self._record(
            player_id,
            notice,
            "email",
            delivery_id,
            "fallback" if fallback else "sent",
            f"to {profile['email']}",
        )
        return "sent", 0

    def _payload(self, snap: Snapshot, notice: Notice, delivery_id: str) -> dict[str, Any]:
        base = f"{self.settings.public_url}/v1/games/{snap['id']}"
        if notice.event in (GAME_INVITED, GAME_CANCELLED):
            creator = _creator(self.players, snap) or {"name": None}
            payload: dict[str, Any] = {
                "event": notice.event,
                "delivery_id": delivery_id,
                "game_id": snap["id"],
                "game": snap["game"],
                "version": snap["version"],
                "seat": notice.seat,
                "status": snap["status"],
                "invited_by": {"id": snap["created_by"], "name": creator["name"]},
                "sent_at": iso(int(self.clock() * 1000)),
                "links": {"game": base},
            }
            if notice.event == GAME_INVITED:
                payload["if_declined"] = snap["if_declined"]
                payload["links"] |= {"join": f"{base}/join", "decline": f"{base}/decline"}
            return payload
        continues = notice.event == TURN_STARTED and self._goes_on(snap, notice)
        return self._turn_payload(
            self.tables.of(snap, notice.seat),
            TURN_CONTINUES if continues else notice.event,  # a multi-step turn goes on
            delivery_id,
        )

    def _turn_payload(self, table: SeatTable, event: str, delivery_id: str) -> dict[str, Any]:
        """A turn's or a finished game's webhook body, from the seat's table (the field names
        are the clients': docs/notifications.md)."""
        base = f"{self.settings.public_url}/v1/games/{table.game_id}"
        payload: dict[str, Any] = {
            "event": event,
            "delivery_id": delivery_id,
            "game_id": table.game_id,
            "game": table.game,
            "version": table.version,
            "seat": table.seat,
            "status": table.status,
            "active_seats": list(table.active_seats),
            "deadline": table.you.deadline_at if table.you else None,
            "sent_at": iso(int(self.clock() * 1000)),
            "links": {"game": base, "view": f"{base}/view", "legal_moves": f"{base}/legal-moves"},
        }
        if event == GAME_FINISHED:
            payload["outcome"] = dict(table.outcome or {})
            payload["ratings"] = (
                [c.shown() for c in table.ratings.changes] if table.ratings else None
            )
        return payload

    # -- the delivery log ------------------------------------------------------------------------

    def _record(
        self,
        player_id: str,
        notice: Notice,
        channel: str,
        delivery_id: str,
        status: str,
        detail: str,
        attempt: int = 1,
    ) -> None:
        self.notes.record(
            player_id,
            {
                "id": delivery_id,
                "at": iso(int(self.clock() * 1000)),
                "channel": channel,
                "event": notice.event,
                "game_id": notice.game_id,
                "version": notice.version,
                "status": status,
                "attempt": attempt,
                "detail": detail,
            },
        )


def _moved_on(notice: Notice) -> str:
    return "the invitation was answered" if notice.event == GAME_INVITED else "the turn moved on"


def _creator(players: PlayerStore, snap: Snapshot) -> dict | None:
    """The profile of the player who created the game (a game recorded before `created_by`
    was has none)."""
    return players.get(snap["created_by"]) if snap["created_by"] else None


def _person(record: SeatRecord) -> str | None:
    """The player told of this seat: who holds it, or who is invited to it."""
    return record["player_id"] if record["kind"] in NOTIFIED_KINDS else None


def _still_current(snap: Snapshot, notice: Notice) -> bool:
    """A turn notice still holds while the seat may act and its turn has not moved on; an
    invitation while the seat is still reserved (not yet joined or declined)."""
    if notice.event in (GAME_FINISHED, GAME_CANCELLED):
        return True
    if notice.event == GAME_INVITED:
        return snap["status"] == "open" and snap["seats"][notice.seat]["kind"] == "invited"
    return (
        snap["status"] == "active"
        and notice.seat in snap["active_seats"]
        and history.match_of(snap)["seat_since"][notice.seat] == notice.version
    )


def _result_words(table: SeatTable) -> str:
    """ "you won (scores: Ada 3, Bo 2)", from the reader's table of a finished game."""
    outcome = table.outcome or {}
    winners = list(outcome.get("winners") or [])
    names = {s.seat: s.name for s in table.seats}
    if table.seat in winners and len(winners) == 1:
        result = "you won"
    elif table.seat in winners:
        result = (
            f"you shared the win with {', '.join(names[s] for s in winners if s != table.seat)}"
        )
    elif winners:
        result = f"{' and '.join(names[s] for s in winners)} won"
    else:
        result = "nobody won"
    if outcome.get("scores"):
        scores = ", ".join(f"{s.name} {outcome['scores'][s.seat]:g}" for s in table.seats)
        result += f" (scores: {scores})"
    return result
