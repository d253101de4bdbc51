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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from service.notify import chat_apps, digest, emails, push, tournament_letters, webhooks
from service.notify.reply_addresses import reply_address
from service.play import how_to_play
from service.play.facts import GameFacts, SeatFacts, read, read_many
from service.play.table import SINCE_EMAIL, SINCE_WINDOW, SeatLine, SeatTable, Tables
from service.secrets import ServerKeys
from service.settings import Settings
from service.timefmt import iso
from service.words import gettext, ngettext, speaking
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import Addressee, PlayerStore
from store.quota import AddressQuota
from store.reads import at_once
from store.record import Event, EventType, MessageSent
from store.tournaments import TournamentEventType, TournamentState, TournamentStore
from transports.mailer import Mail, Mailer

if TYPE_CHECKING:  # one_click plays moves through the games service; only its type is here
    from service.notify.one_click import TurnLinks

TURN_STARTED = "turn.started"
TURN_CONTINUES = "turn.continues"
"""A turn's next step (the player stream's name for a TURN_STARTED that goes on)."""
TURN_REMINDER = "turn.reminder"
GAME_FINISHED = "game.finished"
GAME_INVITED = "game.invited"
GAME_CANCELLED = "game.cancelled"
PROPOSAL_MADE = "proposal.made"
"""A proposal the seat is asked to answer (its version is the proposal's id)."""
PROPOSAL_CLOSED = "proposal.closed"
"""A proposal the seat made or was asked about is accepted, declined, withdrawn, lapsed or
void (its version is the ProposalClosed's); not told to the seat that closed it."""
CHAT_MESSAGE = "chat.message"
"""A message the seat may read (its version is the message's): a webhook at once, an email
once the table has been quiet a while (see `NotificationService._chat_email`)."""
INVITED_AT = 1
"""The version of every invitation: a game's seats are reserved by its GameCreated."""
NOTIFIED_KINDS: Final = ("player", "invited")
"""The seats whose person is told: those who hold them, and those they are reserved for."""
REMINDER_PERCENTS = (50, 90)
REMINDER_EARLY_MS = 3000
"""A reminder this early (or less) is sent: later, it waits for its time again."""


DEFAULT_PREFERENCES = {
    "email": True,
    "chat": True,
    "webhook": True,
    "push": True,
    "reminders": True,
    "replies_from_any_address": False,
    "digest_at": None,
}
CHANNELS: Final = ("email", "push", "webhook")
CHANNEL_WORDS: Final = {"email": "email", "push": "push message", "webhook": "webhook"}
"""What a delivery of each channel is called in the player's list of deliveries."""
EVENT_KINDS: Final = ("turn", "reminder", "invitation", "game_over", "chat")
"""The notices a player chooses channels for (`chat`: messages in a game's chat, where a
server has one)."""
KIND_OF: Final = {
    TURN_STARTED: "turn",
    TURN_REMINDER: "reminder",
    GAME_INVITED: "invitation",
    GAME_CANCELLED: "invitation",
    GAME_FINISHED: "game_over",
    CHAT_MESSAGE: "chat",
}


def preferences(profile: dict) -> dict[str, Any]:
    """How a player wants to be told and answered: their choices over the defaults (every
    channel on for every notice, as before there was a choice)."""
    given = profile.get("notifications") or {}
    events = given.get("events") or {}
    return {
        **DEFAULT_PREFERENCES,
        **{key: value for key, value in given.items() if key != "events"},
        "events": {
            kind: {**dict.fromkeys(CHANNELS, True), **(events.get(kind) or {})}
            for kind in EVENT_KINDS
        },
    }


def merged(prefs: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`prefs` with `changes` (a PATCH's: only what changes, events and channels included)."""
    events = changes.get("events") or {}
    return {
        **prefs,
        **{key: value for key, value in changes.items() if key != "events"},
        "events": {
            kind: {**prefs["events"][kind], **(events.get(kind) or {})} for kind in EVENT_KINDS
        },
    }


def wanted(prefs: dict[str, Any], event: str, channel: str) -> bool:
    """Whether the player wants notices of `event` on `channel`: that channel is on, the
    notice's kind is on for it, and a reminder only while reminders are on (a reminder's email
    asks `reminders` alone, as it always did)."""
    kind = KIND_OF.get(event, "turn")
    if not prefs["events"][kind][channel]:
        return False
    if kind == "reminder":
        return prefs["reminders"] and (channel == "email" or prefs[channel])
    return bool(prefs[channel])


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


def notices(game: GameFacts, first: int, last: int) -> list[Notice]:
    """The notices that the commit of versions `first`..`last` calls for and that still hold in
    `game` (the game now, which may be later than the commit): every seated person when
    that commit ended the game; every person seated or invited when it cancelled the game; an
    invitation for each seat still reserved when the commit created the game; otherwise each
    person whose turn began with that commit (their legal moves changed then) and who may
    still act. Nothing about turns comes before the game starts, so an invited player gets no
    turn email before they accept."""
    people = [s.seat for s in game.seats if s.kind == "player"]
    closed = game.closed_version
    if game.status == "cancelled" and game.started:
        return []  # aborted by its players: the proposal's end tells them (proposal_notices)
    if game.status == "cancelled":
        told = [s.seat for s in game.seats if s.kind in NOTIFIED_KINDS]
        if first <= closed <= last:
            return [Notice(GAME_CANCELLED, game.id, s, closed) for s in told]
        return []
    if game.status == "open":
        return [
            Notice(GAME_INVITED, game.id, s.seat, INVITED_AT)
            for s in game.seats
            if s.kind == "invited" and first <= INVITED_AT <= last
        ]
    if game.status == "finished":
        if first <= closed <= last:
            return [Notice(GAME_FINISHED, game.id, s, closed) for s in people]
        return []
    if game.status != "active":
        return []
    since = game.seat_since
    return [
        Notice(TURN_STARTED, game.id, s, since[s])
        for s in people
        if s in game.active_seats and first <= since[s] <= last
    ]


def proposal_notices(game: GameFacts, events: Iterable[Event]) -> list[Notice]:
    """The notices of the proposals among a commit's `events` (talk.told_of_proposals)."""
    kinds = {"made": PROPOSAL_MADE, "closed": PROPOSAL_CLOSED}
    return [
        Notice(kinds[kind], game.id, seat, version)
        for kind, seat, version in game.told_of_proposals(list(events))
    ]


def message_notices(game: GameFacts, events: Iterable[Event]) -> list[Notice]:
    """A notice of each message among `events` for each person who may read it but did not
    write it (talk.told_of_messages)."""
    return [
        Notice(CHAT_MESSAGE, game.id, seat, version)
        for seat, version in game.told_of_messages(list(events))
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


def goes_on(game: GameFacts, notice: Notice, began: Event | None) -> bool:
    """Whether the turn of `notice` continues one: the event that began it (`began`, at the
    notice's version) is the seat's own step, and the seat alone may act."""
    return (
        began is not None
        and began["type"] == EventType.ACTION_TAKEN
        and began["seat"] == notice.seat
        and game.active_seats == (notice.seat,)
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
        push_devices: push.PushDevices | None = None,
        invitation_links: Callable[[str, int], tuple[str, str]] | None = None,
        proposal_links: Callable[[str, int, int, int], tuple[str, str]] | None = None,
        quota: AddressQuota | None = None,
        tournaments: TournamentStore | None = None,
    ):
        """`one_click(table, moves)` gives a turn email's links: its turn page and,
        for a short list, a one-click link per move; `invitation_links(game, seat)` an
        invitation email's links to accept and to refuse, and `proposal_links(game, seat,
        proposal, deadline_ms)` a proposal email's to accept and to decline
        (service.notify.one_click);
        `push_devices` the players' browsers, for Web Push (service.notify.push)."""
        self.push_devices = push_devices
        self.quota = quota or AddressQuota(players.r, clock)
        self.one_click = one_click
        self.invitation_links = invitation_links
        self.proposal_links = proposal_links
        self.tournaments = tournaments
        """Where a tournament's notices read it (None: they are dropped as "gone")."""
        self.keys = keys or ServerKeys(settings, notes)
        self.games = games
        self.players = players
        self.notes = notes
        self.settings = settings
        self.mailer = mailer
        self.clock = clock
        self.tables = Tables(games, clock, players=players)

    # -- email -------------------------------------------------------------------------------

    def email(
        self,
        notice: Notice,
        fallback: bool = False,
        holder: Claimant | None = None,
        attempt: int = 1,
    ) -> tuple[str, float]:
        """Send the notice by email. Returns (outcome, seconds): outcome is "sent", "deferred"
        (the throttle window is open for `seconds` more: ask again then), "retry" (the mail
        server was away or refused it: attempt again after `seconds`, see `_send_failed`),
        "failed" (given up), or a reason nothing was sent ("off", "superseded", "duplicate",
        "gone", "unconfirmed": the player's
        address was not confirmed by its owner, or "throttled": an invitation from a player
        who had one emailed to this person within INVITATION_EMAIL_SECONDS, or past the
        INVITATIONS_PER_ADDRESS_PER_HOUR of the address). A `fallback` email stands in for a
        failed webhook: it ignores the email preference and the throttle, never the
        confirmation; so does its retry (`_stands_in`). `holder`: the job's run that claims it (see NotificationStore.claim),
        the same when the run tries again after Redis was away; it remembers that it sent the
        email, so that a try after the send only records it."""
        if notice.event in tournament_letters.EVENTS:
            return self._tournament_email(notice, fallback, attempt)
        game = read(self.games, notice.game_id)
        if game is None:
            return "gone", 0
        player_id = _person(game.seats[notice.seat])
        if player_id is None:
            return "off", 0
        # the reader and the game's recent events (for the letter's table, and whether the
        # turn goes on) in one round trip
        addressee, recent = at_once(
            self.games.r,
            self.players.addressee_read(player_id, game.id),
            self.tables.recent_read(game, notice.seat),
        )
        profile = addressee.profile
        if not profile or not profile.get("email"):
            return "off", 0
        prefs = preferences(profile)
        if not addressee.confirmed:  # nothing but the letter
            return self._record(
                player_id,
                notice,
                "email",
                notice.delivery_id("email"),
                "unconfirmed",
                f"not sent: {profile['email']} is not confirmed; follow the link of the letter "
                "emailed to it (POST /v1/sign-in sends another)",
            )
        if notice.event == CHAT_MESSAGE:
            return self._chat_email(game, notice, player_id, profile, attempt)
        if notice.event in (PROPOSAL_MADE, PROPOSAL_CLOSED):
            return self._proposal_email(game, notice, player_id, profile, attempt)
        if not (wanted(prefs, notice.event, "email") or fallback):
            if not self._stands_in(player_id, attempt):
                return "off", 0
            fallback = True
        if notice.event == TURN_STARTED and prefs["digest_at"] and not fallback:
            return "digest", 0  # the day's digest lists the game
        delivery_id = notice.delivery_id("email")
        if not _still_current(game, notice):
            return self._superseded(player_id, notice, "email", delivery_id)
        wait = self.reminder_wait(game, notice)
        if wait:
            return "deferred", wait
        # the steps of one turn are not throttled against each other: "your turn goes on"
        # comes at once
        continues = notice.event == TURN_STARTED and self._goes_on(game, notice, recent)
        windowed = notice.event == TURN_STARTED and not fallback and not continues
        if windowed:
            wait = self.notes.throttle(
                player_id, notice.game_id, self.settings.email_throttle_seconds
            )
            if wait:
                return "deferred", wait
        inviter = game.created_by  # every game with an invitation records who created it
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
            return self._invitation_throttled(
                player_id,
                notice,
                "another invitation from the same player was emailed within "
                f"{self.settings.invitation_email_seconds:g} s",
            )
        if _invitation_news(game, notice):
            wait = self.quota.take(
                "invitations",
                profile["email"],
                self.settings.invitations_per_address_per_hour,
                3600,
                member=delivery_id,
            )
            if wait:
                return self._invitation_throttled(
                    player_id,
                    notice,
                    f"{self.settings.invitations_per_address_per_hour} invitations were emailed "
                    "to this address within the hour",
                )
        message = self._letter(game, notice, addressee, delivery_id, continues, recent)
        # claimed only once the letter is written: nothing between the claim and the send
        # touches Redis, so a Redis failure cannot leave a claimed email unsent
        if holder is not None and holder.sent:
            pass  # sent by this run, whose record was not written: Redis went away after
        elif not self.notes.claim(delivery_id, holder.id if holder else ""):
            return "duplicate", 0
        try:
            if holder is None or not holder.sent:
                self.mailer.send(message)
            if holder is not None:
                holder.sent = True
        except Exception as err:
            if windowed:  # the retry may go as soon as the mail server is back
                self.notes.free_window(player_id, notice.game_id)
            return self._send_failed(player_id, notice, delivery_id, err, attempt)
        self._record(
            player_id,
            notice,
            "email",
            delivery_id,
            "fallback" if fallback else "sent",
            f"to {profile['email']}",
            emailed=None if notice.event == GAME_INVITED else game.version,
        )
        return "sent", 0

    def _invitation_throttled(self, player_id: str, notice: Notice, why: str) -> tuple[str, float]:
        """An invitation's email not sent (`why`): the invitation is still listed for the
        player to find."""
        detail = f"{why}; this one is listed in GET /v1/games?invited=me"
        return self._record(
            player_id, notice, "email", notice.delivery_id("email"), "throttled", detail
        )

    def _letter(
        self,
        game: GameFacts,
        notice: Notice,
        addressee: Addressee,
        delivery_id: str,
        continues: bool,
        recent: list[Event],
    ):
        """The email for the notice, in the reader's language; `continues`: a turn that goes
        on (see _goes_on); `recent`: the game's recent events for the reader's seat
        (Tables.recent_read)."""
        profile = addressee.profile or {}
        with speaking(profile.get("language")) as language:
            if notice.event in (GAME_INVITED, GAME_CANCELLED):
                return self._invitation_letter(game, notice, profile, delivery_id)
            return self._turn_letter(
                self.tables.of(
                    game,
                    notice.seat,
                    profile.get("time_zone"),
                    told_until=addressee.last_emailed,
                    blocked=addressee.blocked,
                    letter_lists=emails.listed_moves(self.settings.one_click_max_moves),
                    language=language,
                    recent=recent,
                ),
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
        others = ", ".join(s.name for s in table.seats if not s.you)
        links = [
            (gettext("See the game"), f"{self.settings.public_url}/games/{game_id}"),
            (
                gettext("How to play %(title)s", title=title),
                self.settings.public_url + how_to_play.page_path(table.game),
            ),
        ]
        sections: list[tuple[str, Sequence[str | tuple[str, str]]] | emails.BoardSection] = []
        if table.since:
            sections.append((f"{table.since_heading}:", table.since))
        if table.chat_since:
            sections.append(_messages_section(table))
        if table.proposals:
            sections.append(
                (
                    gettext("Proposals (answer on the game's page):"),
                    [
                        gettext(
                            "%(proposal)s; waiting for %(names)s (it lapses %(deadline)s)",
                            proposal=p.words,
                            names=", ".join(p.waiting),
                            deadline=p.deadline,
                        )
                        for p in table.proposals
                    ],
                )
            )
        if table.board_text is not None and table.board_html is not None:
            sections.append(
                emails.BoardSection(
                    gettext("The game as you see it (with your hand):"),
                    table.board_text,
                    table.board_html,
                )
            )
        reply_to = None
        said = {"title": title, "others": others, "game": game_id}
        if notice.event == GAME_FINISHED:
            result = _result_words(table)
            subject = gettext(
                "%(title)s with %(others)s: the game is over, %(result)s", result=result, **said
            )
            lead = (
                gettext(
                    "The game of %(title)s against %(others)s (game %(game)s) is over: %(result)s.",
                    result=result,
                    **said,
                )
                if others
                else gettext(
                    "The game of %(title)s (game %(game)s) is over: %(result)s.",
                    result=result,
                    **said,
                )
            )
            if table.rating_lines:
                sections.insert(0, (gettext("Ratings:"), table.rating_lines))
        else:
            when = " ".join(_clock_words(table, you))
            round_ = (table.view or {}).get("round")
            asked = (
                gettext("round %(round)s: your move", round=round_)
                if round_ is not None
                else gettext("your move")
            )
            with_whom = gettext("%(title)s with %(others)s", **said) if others else title
            if notice.event == TURN_REMINDER:
                subject = gettext(
                    "%(with_whom)s: reminder, %(asked)s (%(game)s)",
                    with_whom=with_whom,
                    asked=asked,
                    game=game_id,
                )
                lead = (
                    gettext("It is still your turn in %(title)s against %(others)s.", **said)
                    if others
                    else gettext("It is still your turn in %(title)s.", **said)
                )
            elif continues:
                subject = gettext(
                    "%(with_whom)s: your turn goes on (%(game)s)", with_whom=with_whom, game=game_id
                )
                lead = (
                    gettext(
                        "Your turn in %(title)s against %(others)s (game %(game)s) goes on: "
                        "your last step is played, the next is yours.",
                        **said,
                    )
                    if others
                    else gettext(
                        "Your turn in %(title)s (game %(game)s) goes on: your last step is "
                        "played, the next is yours.",
                        **said,
                    )
                )
            else:
                subject = gettext(
                    "%(with_whom)s: %(asked)s (%(game)s)",
                    with_whom=with_whom,
                    asked=asked,
                    game=game_id,
                )
                lead = (
                    gettext(
                        "It is your turn in %(title)s against %(others)s (game %(game)s).", **said
                    )
                    if others
                    else gettext("It is your turn in %(title)s (game %(game)s).", **said)
                )
            lead = f"{lead} {when}"
            notations = [m.notation for m in table.moves]
            turn_links = self.one_click(table, notations) if self.one_click is not None else None
            sections.append(
                emails.moves_section(
                    gettext("Your legal moves"),
                    table.moves,
                    table.forms,
                    turn_links.moves if turn_links else None,
                )
            )
            if table.notation_help:
                sections.append((gettext("How a move is written:"), table.notation_help))
            if turn_links is not None:
                links = [
                    (
                        gettext("Open your turn page: see the table and choose your move"),
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
            gettext(
                "To play, reply to this email with your move on the first line (several "
                "steps of one turn: one per line); to write to the table too, add a line "
                "that starts with say: and your message."
            )
            if reply_to
            else ""
        )
        letter = emails.Letter(
            subject=f"[turnpost] {subject}",
            greeting=emails.hello(profile["name"]),
            lead=lead,
            sections=sections,
            links=links,
            footer=footer,
        )
        return self._game_mail(
            letter, profile, delivery_id, game_id, table.version, notice.event, reply_to
        )

    def _invitation_letter(self, game: GameFacts, notice: Notice, profile: dict, delivery_id: str):
        """An invitation, or the news that a game was cancelled: names, the game's title and
        its settings only (the game has not started: there is no hand to show)."""
        creator = _creator(self.players, game) or {"name": "a player"}
        others = _others(game, notice.seat)
        if notice.event == GAME_INVITED:
            letter = emails.invitation(
                reader=profile["name"],
                title=game.title,
                game_id=game.id,
                inviter=creator["name"],
                others=others,
                time_control=game.time_control,
                cancel_if_declined=game.if_declined == "cancel",
                api_url=f"{self.settings.public_url}/v1/games/{game.id}",
                game_url=f"{self.settings.public_url}/games/{game.id}",
                answer_links=self.invitation_links(game.id, notice.seat)
                if self.invitation_links is not None
                else None,
                settings_url=f"{self.settings.public_url}/settings#friends",
            )
        else:
            letter = emails.cancellation(
                reader=profile["name"],
                title=game.title,
                game_id=game.id,
                inviter=None
                if game.created_by == game.seats[notice.seat].player_id
                else creator["name"],
                declined_by=game.refused[-1] if game.refused else "an invited player",
            )
        return self._game_mail(letter, profile, delivery_id, game.id, game.version, notice.event)

    def reminder_wait(self, game: GameFacts, notice: Notice) -> float:
        """Seconds until a reminder is due, when a weekend, a vacation or a pause the table
        agreed to moved it after it was scheduled (0: it is due). Every channel asks it."""
        if notice.event != TURN_REMINDER or not notice.tag.lstrip("-").isdecimal():
            return 0
        due = game.reminder_at(notice.seat, int(notice.tag.lstrip("-")))
        now = self.clock() * 1000
        # a job may run a little before its time (RQ's schedules are in whole seconds)
        return 0 if due is None or due <= now + REMINDER_EARLY_MS else (due - now) / 1000

    def _goes_on(self, game: GameFacts, notice: Notice, recent: Sequence[Event] = ()) -> bool:
        """Whether this turn notice continues a turn: the seat's own step began it and the
        seat alone may act (a multi-step turn, such as Con Sonar!'s fleet move then torpedo,
        delay or end). A step that ends a round in which others act too (The Nine Domains'
        last card laid) starts a new turn instead. The event that began it is read unless it
        is among `recent` (the game's latest events, read already)."""
        if notice.event not in (TURN_STARTED, TURN_REMINDER) or notice.version < 1:
            return False
        began = [e for e in recent if e["version"] == notice.version] or self.games.events(
            game.id, after=notice.version - 1, count=1
        )
        return goes_on(game, notice, began[0] if began else None)

    # -- webhooks ------------------------------------------------------------------------------

    def webhook(self, notice: Notice, attempt: int = 1) -> tuple[str, float]:
        """POST the notice to the player's webhook. Returns (outcome, seconds): "sent";
        "retry" after `seconds`; "busy" (the player has WEBHOOK_IN_FLIGHT_PER_PLAYER
        deliveries under way: ask again after `seconds`, the attempt not used); "failed"
        (attempts used up: the webhook is marked failing and the player gets the email
        instead; `seconds` > 0 when that email's send failed: its second attempt is due
        then); or "off" / "superseded" / "gone".

        A receiver that leaves a delivery unanswered past the timeout is not called again for
        WEBHOOK_SLOW_SECONDS: meanwhile its attempts fail at once, so that it holds no worker
        and delays no one else's notices, only its owner's."""
        delivery_id = notice.delivery_id("webhook")
        game, state = None, None
        if notice.event in tournament_letters.EVENTS:
            state = self.tournaments.state(notice.game_id) if self.tournaments else None
            if state is None or notice.seat >= len(state["players"]):
                return "gone", 0
            player_id: str | None = state["players"][notice.seat]["player_id"]
        else:
            game = read(self.games, notice.game_id)
            if game is None:
                return "gone", 0
            player_id = _person(game.seats[notice.seat])
        profile = self.players.get(player_id) if player_id else None
        if player_id is None or not profile or not profile.get("webhook_url"):
            return "off", 0
        if not wanted(preferences(profile), notice.event, "webhook"):
            return "off", 0
        kind = profile.get("webhook_kind") or "signed"
        stored = self.notes.webhook_secret(player_id)
        if stored is None and kind == "signed":
            return "off", 0
        if game is None and kind != "signed":
            return "off", 0  # a tournament's notices go to signed webhooks only
        if notice.event == CHAT_MESSAGE and game is not None:
            message = self._message(game, notice)
            if message is None:
                return "gone", 0  # hidden since, or its writer blocked by this player
            held = (
                None
                if kind == "signed"
                else self._chat_line_held(game, notice, message, player_id, delivery_id)
            )
            if held is not None:
                return held
        if game is not None and not _still_current(game, notice):
            return self._superseded(player_id, notice, "webhook", delivery_id)
        wait = self.reminder_wait(game, notice) if game is not None else 0
        if wait:
            return "busy", wait
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
                if stored is not None and kind == "signed":
                    result = webhooks.post(
                        profile["webhook_url"],
                        self.keys.unseal(stored),
                        notice.event,
                        delivery_id,
                        self._body(game, state, notice, delivery_id),
                        int(self.clock()),
                        timeout,
                        self.settings.webhook_urls,
                    )
                elif game is not None:  # a chat app's incoming webhook: one line of what
                    # everyone may know
                    result = chat_apps.post(
                        profile["webhook_url"],
                        self._chat_body(kind, game, notice, profile),
                        timeout,
                        self.settings.webhook_urls,
                    )
            finally:
                self.notes.give_webhook_slot(player_id, delivery_id)
            if result.timed_out:
                self.notes.mark_webhook_slow(player_id, self.settings.webhook_slow_seconds)
        if result.ok:
            self.notes.set_webhook_failing(player_id, False)
            return self._record(
                player_id, notice, "webhook", delivery_id, "sent", result.detail, attempt
            )
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
        if notice.event != CHAT_MESSAGE:  # messages have emails of their own (gathered)
            outcome, wait = self.email(notice, fallback=True)
            if outcome == "retry":
                return "failed", wait
        return "failed", 0

    def _body(
        self,
        game: GameFacts | None,
        state: TournamentState | None,
        notice: Notice,
        delivery_id: str,
    ) -> dict[str, Any]:
        """A webhook's body: a game's notice's (from its facts) or a tournament's."""
        if game is not None:
            return self._payload(game, notice, delivery_id)
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

    def _tournament_email(self, notice: Notice, fallback: bool, attempt: int) -> tuple[str, float]:
        """A round's start or end, by email, in the reader's language: never throttled (one a
        round), never stale (the round began or ended whatever happened since)."""
        state = self.tournaments.state(notice.game_id) if self.tournaments else None
        if state is None or notice.seat >= len(state["players"]):
            return "gone", 0
        player_id = state["players"][notice.seat]["player_id"]
        profile = self.players.get(player_id)
        if not profile or not profile.get("email"):
            return "off", 0
        if not self.players.email_confirmed(player_id, profile):  # nothing but the letter
            return "unconfirmed", 0
        if not (preferences(profile)["email"] or fallback):
            if not self._stands_in(player_id, attempt):
                return "off", 0
            fallback = True
        delivery_id = notice.delivery_id("email")
        with speaking(profile.get("language")):
            message = self._layout(
                tournament_letters.letter(
                    state,
                    notice.event,
                    notice.version,
                    {"id": player_id, "name": profile["name"]},
                    self.settings.public_url,
                ),
                profile,
                delivery_id,
                None,
                {
                    "X-Turnpost-Tournament": state["id"],
                    "X-Turnpost-Round": str(notice.version),
                    "X-Turnpost-Event": notice.event,
                },
            )
        return self._send_once(
            player_id,
            notice,
            delivery_id,
            message,
            profile,
            attempt,
            "fallback" if fallback else "sent",
        )

    def _payload(self, game: GameFacts, notice: Notice, delivery_id: str) -> dict[str, Any]:
        base = f"{self.settings.public_url}/v1/games/{game.id}"
        if notice.event == CHAT_MESSAGE:
            return self._chat_payload(game, notice, delivery_id)
        if notice.event in (PROPOSAL_MADE, PROPOSAL_CLOSED):
            return self._proposal_payload(game, notice, delivery_id)
        if notice.event in (GAME_INVITED, GAME_CANCELLED):
            creator = _creator(self.players, game) or {"name": None}
            payload: dict[str, Any] = {
                "event": notice.event,
                "delivery_id": delivery_id,
                "game_id": game.id,
                "game": game.game,
                "version": game.version,
                "seat": notice.seat,
                "status": game.status,
                "invited_by": {"id": game.created_by, "name": creator["name"]},
                "sent_at": iso(int(self.clock() * 1000)),
                "links": {"game": base},
            }
            if notice.event == GAME_INVITED:
                payload["if_declined"] = game.if_declined
                payload["links"] |= {"join": f"{base}/join", "decline": f"{base}/decline"}
            return payload
        continues = notice.event == TURN_STARTED and self._goes_on(game, notice)
        return self._turn_payload(
            self.tables.of(game, notice.seat),
            TURN_CONTINUES if continues else notice.event,  # a multi-step turn goes on
            delivery_id,
        )

    def _chat_body(self, kind: str, game: GameFacts, notice: Notice, profile: dict) -> dict:
        """A chat app's line for the notice (service.notify.chat_apps), from a spectator's table:
        a channel may be read by others than the player."""
        url = f"{self.settings.public_url}/play/{game.id}"
        if notice.event in (GAME_INVITED, GAME_CANCELLED):
            creator = _creator(self.players, game) or {"name": "a player"}
            words = chat_apps.invitation_words(
                notice.event, profile["name"], game.title, creator["name"]
            )
            return chat_apps.body(kind, words, (), url, game.id)
        spectator = self.tables.of(game, None, profile.get("time_zone"))
        if notice.event == CHAT_MESSAGE:
            return chat_apps.body(
                kind, chat_apps.message_words(spectator, notice.seat), (), url, game.id
            )
        continues = notice.event == TURN_STARTED and self._goes_on(game, notice)
        words, last = chat_apps.turn_words(notice.event, spectator, notice.seat, continues)
        return chat_apps.body(kind, words, last, url, game.id)

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
            "bank_seconds": table.you.bank_ms // 1000
            if table.you and table.you.bank_ms is not None
            else None,
            "on_vacation": [
                {"seat": s.seat, "until": s.vacation_until} for s in table.seats if s.vacation_until
            ],
            "sent_at": iso(int(self.clock() * 1000)),
            "links": {"game": base, "view": f"{base}/view", "legal_moves": f"{base}/legal-moves"},
        }
        if event == GAME_FINISHED:
            payload["outcome"] = dict(table.outcome or {})
            payload["ratings"] = (
                [c.shown() for c in table.ratings.changes] if table.ratings else None
            )
        return payload

    # -- messages (service/play/talk.py) --------------------------------------------------------

    def _message(self, game: GameFacts, notice: Notice) -> MessageSent | None:
        """The message a chat notice is about, if its seat may read it (and did not write it,
        nor blocked its writer; and no operator hid it)."""
        found = self.games.events(notice.game_id, after=notice.version - 1, count=1)
        return game.message_for(
            notice.seat, found[0] if found else None, self._blocked(game, notice.seat)
        )

    def _blocked(self, game: GameFacts, seat: int) -> set[str]:
        player_id = game.seats[seat].player_id
        return self.players.blocked(player_id) if player_id else set()

    def _chat_email(
        self, game: GameFacts, notice: Notice, player_id: str, profile: dict, attempt: int
    ) -> tuple[str, float]:
        """An email of the messages the player has not been told yet, sent once the table has
        been quiet CHAT_EMAIL_DELAY_SECONDS: a later message to them supersedes this notice
        (its own gathers this one), as does the player's own move or message since (they are
        at the table), or an email since that told them (a turn email lists the messages
        since the reader's last move). At most one an hour per game and player
        (CHAT_EMAIL_EVERY_SECONDS): one that comes sooner waits for the window."""
        prefs = preferences(profile)
        if not (prefs["chat"] and wanted(prefs, CHAT_MESSAGE, "email")):
            return "off", 0
        if self._message(game, notice) is None:
            return "gone", 0
        delivery_id = notice.delivery_id("email")
        game_id = notice.game_id
        told = self.notes.last_emailed(player_id, game_id)
        newer = self._newer(game, notice)
        if newer is not None or (told is not None and told >= notice.version):
            why = (
                "you were told by email since"
                if newer is None
                else "a later message gathers it"
                if newer["type"] == EventType.MESSAGE_SENT and newer["seat"] != notice.seat
                else "you were at the table since"
            )
            return self._superseded(player_id, notice, "email", delivery_id, why)
        wait = self.notes.throttle(
            player_id, game_id, self.settings.chat_email_every_seconds, about="messages"
        )
        if wait:
            return "deferred", wait
        with speaking(profile.get("language")) as language:
            table = self.tables.of(
                game, notice.seat, profile.get("time_zone"), told_until=told, language=language
            )
            message = self._chat_letter(table, notice, profile, delivery_id)
        outcome = self._send_once(
            player_id,
            notice,
            delivery_id,
            message,
            profile,
            attempt,
            on_failure=lambda: self.notes.free_window(player_id, game_id, about="messages"),
        )
        if outcome[0] == "sent":
            self.notes.emailed(player_id, game_id, table.version)
        return outcome

    def _newer(self, game: GameFacts, notice: Notice, table_only: bool = False) -> Event | None:
        """What makes a chat notice moot, if anything came since: a later message its reader
        may read (to the table, with `table_only`), which gathers this one, or the reader's
        own message or move (they were at the table)."""
        later = self.games.events(notice.game_id, after=notice.version, count=SINCE_WINDOW)
        blocked = self._blocked(game, notice.seat)
        return next(
            (
                e
                for e in later
                if (
                    e["type"] == EventType.MESSAGE_SENT
                    and (
                        e["seat"] == notice.seat
                        or (
                            not (table_only and e["private"])
                            and game.message_for(notice.seat, e, blocked)
                        )
                    )
                )
                or (e["type"] == EventType.ACTION_TAKEN and e["seat"] == notice.seat)
            ),
            None,
        )

    def _chat_line_held(
        self,
        game: GameFacts,
        notice: Notice,
        message: MessageSent,
        player_id: str,
        delivery_id: str,
    ) -> tuple[str, float] | None:
        """Why a chat app's line about a message does not go now, if it does not: a chat app's
        channel is read by people, so the messages are told as the chat email tells them, once
        the table has been quiet CHAT_EMAIL_DELAY_SECONDS ("busy" until then), a later message
        gathering this one ("superseded", as the reader's own message or move since), at most
        one line an hour per game and player (CHAT_EMAIL_EVERY_SECONDS: "busy" until the
        window frees). A private message is not told at all ("off"): the channel may be read
        by others than the player."""
        if message["private"]:
            return "off", 0
        if self._newer(game, notice, table_only=True) is not None:
            return self._superseded(
                player_id,
                notice,
                "webhook",
                delivery_id,
                "a later message gathers it, or you were at the table since",
            )
        quiet = message["at"] / 1000 + self.settings.chat_email_delay_seconds - self.clock()
        if quiet > 0:
            return "busy", quiet
        wait = self.notes.take_chat_line_window(
            player_id, notice.game_id, delivery_id, self.settings.chat_email_every_seconds
        )
        return ("busy", wait) if wait else None

    def _chat_letter(self, table: SeatTable, notice: Notice, profile: dict, delivery_id: str):
        """The players' latest messages, told from the reader's table alone; replying with
        `say:` answers the table (docs/play-by-email.md)."""
        others = ", ".join(s.name for s in table.seats if not s.you)
        count = len([line for line in table.chat_since if not line.yours])
        reply_to = None
        if self.settings.mail_domain and table.seat is not None:
            reply_to = reply_address(
                self.keys.reply_token(table.game_id, table.seat),
                table.version,
                self.settings.mail_domain,
            )
        hourly = gettext(
            "You get at most one such email an hour for a game; turn them off in your "
            "settings (chat)."
        )
        letter = emails.Letter(
            subject="[turnpost] "
            + ngettext(
                "%(title)s with %(others)s: %(num)d new message (%(game)s)",
                "%(title)s with %(others)s: %(num)d new messages (%(game)s)",
                count,
                title=table.title,
                others=others,
                game=table.game_id,
            ),
            greeting=emails.hello(profile["name"]),
            lead=gettext(
                "The players of %(title)s (game %(game)s) wrote to you.",
                title=table.title,
                game=table.game_id,
            ),
            sections=[_messages_section(table)],
            links=[
                (
                    gettext("See the game and answer"),
                    f"{self.settings.public_url}/games/{table.game_id}",
                )
            ],
            footer=(
                gettext(
                    "To answer the table, reply to this email with say: and your message (say "
                    "to a name: for them alone)."
                )
                if reply_to
                else ""
            )
            + f" {hourly}",
        )
        return self._game_mail(
            letter, profile, delivery_id, table.game_id, table.version, CHAT_MESSAGE, reply_to
        )

    def _chat_payload(self, game: GameFacts, notice: Notice, delivery_id: str) -> dict[str, Any]:
        """A message's webhook body: the message as its reader may read it."""
        event = self._message(game, notice)
        if event is None:
            raise ValueError(f"no message for seat {notice.seat} at version {notice.version}")
        base = f"{self.settings.public_url}/v1/games/{notice.game_id}"
        return {
            "event": CHAT_MESSAGE,
            "delivery_id": delivery_id,
            "game_id": notice.game_id,
            "seat": notice.seat,
            **game.message_payload(event),
            "sent_at": iso(int(self.clock() * 1000)),
            "links": {"game": base, "chat": f"{base}/chat?after={notice.version - 1}"},
        }

    # -- proposals (service/play/agreements.py) ----------------------------------------------

    def _proposal_event(self, notice: Notice) -> Event | None:
        found = self.games.events(notice.game_id, after=notice.version - 1, count=1)
        event = found[0] if found else None
        wanted = (
            EventType.PROPOSAL_MADE if notice.event == PROPOSAL_MADE else EventType.PROPOSAL_CLOSED
        )
        return event if event is not None and event["type"] == wanted else None

    def _proposal_email(
        self, game: GameFacts, notice: Notice, player_id: str, profile: dict, attempt: int
    ) -> tuple[str, float]:
        """A proposal to answer, or the end of one, told from the reader's table (its open
        proposals and its log line); a proposal answered before the email went is moot."""
        if not preferences(profile)["email"]:
            return "off", 0
        event = self._proposal_event(notice)
        if event is None:
            return "gone", 0
        delivery_id = notice.delivery_id("email")
        if notice.event == PROPOSAL_MADE and not _still_asked(game, notice):
            return self._superseded(
                player_id, notice, "email", delivery_id, "answered before the email"
            )
        with speaking(profile.get("language")) as language:
            message = self._proposal_letter(game, notice, event, profile, delivery_id, language)
        return self._send_once(player_id, notice, delivery_id, message, profile, attempt)

    def _proposal_letter(
        self,
        game: GameFacts,
        notice: Notice,
        event: Event,
        profile: dict,
        delivery_id: str,
        language: str,
    ) -> Mail:
        """A proposal's letter, in the reader's `language`."""
        table = self.tables.of(game, notice.seat, profile.get("time_zone"), language=language)
        named = {
            "title": table.title,
            "others": ", ".join(s.name for s in table.seats if not s.you),
            "game": table.game_id,
            "proposal": game.proposal_words(event, notice.seat),
        }
        page = f"{self.settings.public_url}/games/{table.game_id}"
        links = [(gettext("See the game"), page)]
        if notice.event == PROPOSAL_MADE:
            open_ = next((p for p in table.proposals if p.id == notice.version), None)
            subject = gettext("%(title)s with %(others)s: a proposal to answer", **named)
            lead = (
                gettext(
                    "In %(title)s (game %(game)s), %(proposal)s. Accept or decline it here or "
                    "on the game's page; unanswered, it lapses %(deadline)s.",
                    deadline=open_.deadline,
                    **named,
                )
                if open_
                else gettext(
                    "In %(title)s (game %(game)s), %(proposal)s. Accept or decline it here or "
                    "on the game's page.",
                    **named,
                )
            )
            lapses = game.proposal_deadline(notice.version)
            if self.proposal_links is not None and lapses is not None:
                accept, decline = self.proposal_links(
                    table.game_id, notice.seat, notice.version, lapses
                )
                links = [
                    (gettext("Accept the proposal"), accept),
                    (gettext("Decline it"), decline),
                    *links,
                ]
        else:
            subject = gettext("%(title)s with %(others)s: a proposal is closed", **named)
            lead = gettext("In %(title)s (game %(game)s): %(proposal)s.", **named)
        letter = emails.Letter(
            subject=f"[turnpost] {subject} ({table.game_id})",
            greeting=emails.hello(profile["name"]),
            lead=lead,
            links=links,
        )
        return self._game_mail(
            letter, profile, delivery_id, table.game_id, table.version, notice.event
        )

    def _proposal_payload(
        self, game: GameFacts, notice: Notice, delivery_id: str
    ) -> dict[str, Any]:
        """A proposal's webhook body: which proposal, of what kind, and where it stands."""
        event = self._proposal_event(notice)
        found = None if event is None else game.proposal_payload(event)
        if found is None:
            raise ValueError(f"no proposal event at version {notice.version}")
        base = f"{self.settings.public_url}/v1/games/{notice.game_id}"
        return {
            "event": notice.event,
            "delivery_id": delivery_id,
            "game_id": notice.game_id,
            "seat": notice.seat,
            **found,
            "sent_at": iso(int(self.clock() * 1000)),
            "links": {"game": base, "proposals": f"{base}/proposals"},
        }

    # -- the daily digest -------------------------------------------------------------------------

    def digest(self, player_id: str, day: int) -> str:
        """Email the player's digest of `day` (service.notify.digest): every game waiting for
        them, the nearest deadline first. "sent", "empty" (no game waits), "off" (no address,
        or the digest was turned off), "unconfirmed" (the address is not confirmed yet) or
        "duplicate" (that day's digest went already)."""
        profile = self.players.get(player_id)
        if not profile or not profile.get("email") or not preferences(profile)["digest_at"]:
            return "off"
        if not self.players.email_confirmed(player_id, profile):  # nothing but the letter
            return "unconfirmed"
        waiting = self.players.inbox(player_id, digest.MAX_GAMES + 1000)
        with speaking(profile.get("language")) as language:
            told = self._digest_message(player_id, profile, day, waiting, language)
        if told is None:
            return "empty"
        tables, message = told

        delivery_id = f"email-{player_id}-{day}-{digest.DIGEST}"
        if not self.notes.claim(delivery_id):
            return "duplicate"
        try:
            self.mailer.send(message)
        except Exception:
            self.notes.release(delivery_id)
            raise
        self.notes.record(
            player_id,
            {
                "id": delivery_id,
                "at": iso(int(self.clock() * 1000)),
                "channel": "email",
                "event": digest.DIGEST,
                "game_id": tables[0].game_id,
                "version": tables[0].version,
                "status": "sent",
                "attempt": 1,
                "detail": f"to {profile['email']}: {len(tables)} games",
            },
        )
        return "sent"

    def _digest_message(
        self, player_id: str, profile: dict, day: int, waiting: list[str], language: str
    ) -> tuple[list[SeatTable], Mail] | None:
        """The digest's tables and its letter, in the reader's `language` (None: no game
        waits)."""
        listed = waiting[: digest.MAX_GAMES]
        tables = []
        for game in read_many(self.games, listed):
            seat = game.seat_of(player_id) if game is not None else None
            if game is None or seat is None or seat not in game.active_seats:
                continue
            tables.append(self.tables.of(game, seat, profile.get("time_zone"), language=language))
        if not tables:
            return None

        def links(table: SeatTable) -> tuple[str, dict[str, str]] | None:
            if self.one_click is None:
                return None
            found = self.one_click(table, [m.notation for m in table.moves])
            return found.turn_page, found.moves

        letter = digest.letter(
            profile["name"],
            tables,
            max(0, len(waiting) - len(listed)),
            links,
            self.settings.public_url,
        )
        return tables, self._layout(
            letter,
            profile,
            f"email-{player_id}-{day}-{digest.DIGEST}",
            None,
            {"X-Turnpost-Event": digest.DIGEST, "X-Turnpost-Games": str(len(tables))},
        )

    # -- web push ------------------------------------------------------------------------------

    def push(self, notice: Notice, attempt: int = 1) -> tuple[str, float]:
        """Send the notice to each of the player's devices (service.notify.push). Returns
        (outcome, seconds): "sent"; "retry" after `seconds` (a push service answered 429 or
        5xx, or nothing: those devices are tried again, after the service's Retry-After or
        PUSH_RETRY_SECONDS doubling); "deferred" (a reminder that a weekend, a vacation or
        an agreed pause moved: ask again after `seconds`); "failed" (no device took it); or
        "off" / "superseded" / "gone". A device that had this delivery is never sent it
        again."""
        if self.push_devices is None:
            return "off", 0
        game = read(self.games, notice.game_id)
        if game is None:
            return "gone", 0
        player_id = _person(game.seats[notice.seat])
        profile = self.players.get(player_id) if player_id else None
        if player_id is None or not profile:
            return "off", 0
        if not wanted(preferences(profile), notice.event, "push"):
            return "off", 0
        delivery_id = notice.delivery_id("push")
        if not _still_current(game, notice):
            return self._superseded(player_id, notice, "push", delivery_id, attempt=attempt)
        wait = self.reminder_wait(game, notice)
        if wait:
            return "deferred", wait
        message = self._push_message(game, notice, profile)
        devices = self.push_devices.send(player_id, delivery_id, message, game.id)
        again = [d for d in devices if d.outcome == "retry"]
        delay = 0.0
        if again and attempt < self.settings.push_attempts:
            backoff = self.settings.push_retry_seconds * 2 ** (attempt - 1)
            asked = max((d.result.retry_after or 0) for d in again if d.result is not None)
            delay = min(max(backoff, asked), 3600)
        for device in devices:
            status, detail = _device_record(device, delay)
            if status:
                self._record(player_id, notice, "push", delivery_id, status, detail, attempt)
        if delay:
            return "retry", delay
        if not devices:
            return "off", 0
        return ("sent" if any(d.outcome == "sent" for d in devices) else "failed"), 0

    def _push_message(self, game: GameFacts, notice: Notice, profile: dict) -> dict[str, Any]:
        """The message's JSON: what the notification shows, in the reader's language, and the
        page it opens, from the reader's table (or, for an invitation, names and the game's
        title)."""
        with speaking(profile.get("language")) as language:
            return self._push_said(game, notice, profile, language)

    def _push_said(
        self, game: GameFacts, notice: Notice, profile: dict, language: str
    ) -> dict[str, Any]:
        url = f"{self.settings.public_url}/play/{game.id}"
        event, version = notice.event, game.version
        if notice.event in (GAME_INVITED, GAME_CANCELLED):
            creator = _creator(self.players, game) or {"name": gettext("a player")}
            shown = push.invitation_message(
                notice.event,
                game.title,
                creator["name"],
                _others(game, notice.seat),
                game.refused[-1] if game.refused else None,
                url,
            )
        else:
            table = self.tables.of(game, notice.seat, profile.get("time_zone"), language=language)
            continues = notice.event == TURN_STARTED and self._goes_on(game, notice)
            event = TURN_CONTINUES if continues else notice.event
            version = table.version
            result = _result_words(table) if notice.event == GAME_FINISHED else ""
            shown = push.turn_message(table, notice.event, continues, url, result)
        return {
            **shown,
            "event": event,
            "game_id": game.id,
            "version": version,
            "tag": game.id,
        }

    # -- the delivery log ------------------------------------------------------------------------

    def _stands_in(self, player_id: str, attempt: int) -> bool:
        """Whether an email the player does not want is a retry of one that stood in for
        their failed webhook (`fallback`): a webhook still failing says so."""
        return attempt > 1 and self.notes.webhook_failing(player_id)

    def _send_once(
        self,
        player_id: str,
        notice: Notice,
        delivery_id: str,
        message: Mail,
        profile: dict,
        attempt: int,
        recorded: str = "sent",
        on_failure: Callable[[], None] | None = None,
    ) -> tuple[str, float]:
        """Send an email of a delivery at most once (its claim first), recording it; a failed
        send is retried or given up (_send_failed), after `on_failure`."""
        if not self.notes.claim(delivery_id):
            return "duplicate", 0
        try:
            self.mailer.send(message)
        except Exception as err:
            if on_failure is not None:
                on_failure()
            return self._send_failed(player_id, notice, delivery_id, err, attempt)
        self._record(player_id, notice, "email", delivery_id, recorded, f"to {profile['email']}")
        return "sent", 0

    def _send_failed(
        self, player_id: str, notice: Notice, delivery_id: str, err: Exception, attempt: int
    ) -> tuple[str, float]:
        """An email whose send failed (the mail server away, refusing, silent past its
        timeout): its claim given back, and ("retry", seconds) after EMAIL_RETRY_SECONDS,
        doubling at each attempt, until EMAIL_ATTEMPTS are used; then ("failed", 0), given
        up. The player's deliveries say which, and why."""
        self.notes.release(delivery_id)
        reason = f"{type(err).__name__}: {err}"
        if attempt < self.settings.email_attempts:
            delay = self.settings.email_retry_seconds * 2 ** (attempt - 1)
            detail = f"{reason}; next attempt in {delay:g} s"
            self._record(player_id, notice, "email", delivery_id, "retrying", detail, attempt)
            return "retry", delay
        detail = f"{reason}; given up after {attempt} attempts"
        return self._record(player_id, notice, "email", delivery_id, "failed", detail, attempt)

    def _layout(
        self,
        letter: emails.Letter,
        profile: dict,
        delivery_id: str,
        reply_to: str | None,
        headers: dict[str, str],
    ) -> Mail:
        """The letter as a message to the player of `profile`, from MAIL_FROM."""
        return emails.layout(
            letter,
            profile["name"],
            profile["email"],
            self.settings.mail_from,
            delivery_id,
            reply_to,
            headers,
        )

    def _game_mail(
        self,
        letter: emails.Letter,
        profile: dict,
        delivery_id: str,
        game_id: str,
        version: int,
        event: str,
        reply_to: str | None = None,
    ) -> Mail:
        """A letter about a game, with headers naming the game, its version and the event,
        for the reader's mail filters."""
        headers = {
            "X-Turnpost-Game": game_id,
            "X-Turnpost-Version": str(version),
            "X-Turnpost-Event": event,
        }
        return self._layout(letter, profile, delivery_id, reply_to, headers)

    def _superseded(
        self,
        player_id: str,
        notice: Notice,
        channel: str,
        delivery_id: str,
        detail: str | None = None,
        attempt: int = 1,
    ) -> tuple[str, float]:
        """Record that the delivery is not sent because the game moved on (`detail` says how;
        by default, that the notice's moment passed before it went), and answer "superseded"."""
        if detail is None:
            detail = f"{_moved_on(notice)} before the {CHANNEL_WORDS[channel]} went"
        return self._record(player_id, notice, channel, delivery_id, "superseded", detail, attempt)

    def _record(
        self,
        player_id: str,
        notice: Notice,
        channel: str,
        delivery_id: str,
        status: str,
        detail: str,
        attempt: int = 1,
        emailed: int | None = None,
    ) -> tuple[str, float]:
        """Record a delivery in the player's list, and answer its status with nothing to wait
        for; `emailed`: the version of the game an email was written at, kept for the next
        one's "since" (in the same round trip)."""
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
            emailed=None if emailed is None else (notice.game_id, emailed),
        )
        return status, 0


def _messages_section(table: SeatTable) -> tuple[str, list[str]]:
    """The messages since the reader's last move (or email), one a line, as they were written
    (an email's text part is plain text; its HTML part escapes them; no link is made)."""
    heading = (
        gettext("Messages since your last email:")
        if table.since_heading == gettext(SINCE_EMAIL)
        else gettext("Messages since your last move:")
    )
    return heading, [str(line) for line in table.chat_since]


def _others(game: GameFacts, seat: int) -> list[str]:
    """The names an invitation lists beside the reader's and its creator's."""
    return [s.name for s in game.seats if s.seat != seat and s.player_id != game.created_by]


def _device_record(device: push.DeviceResult, delay: float) -> tuple[str | None, str]:
    """(status, detail) of one device's send for the delivery log; no status for a device
    that had the delivery before."""
    name = device.subscription["device"]
    answer = device.result.detail if device.result is not None else ""
    if device.outcome == "sent":
        return "sent", f"to {name}"
    if device.outcome == "retry":
        if delay:
            return "retrying", f"to {name}: {answer}; next attempt in {delay:g} s"
        return "failed", f"to {name}: {answer}; no attempt left"
    if device.outcome == "gone":
        return "failed", (
            f"to {name}: the push service no longer knows this device ({answer}); "
            "it is removed from your devices"
        )
    if device.outcome == "stale":
        return "failed", (
            f"to {name}: it was turned on with the server's previous key; it is removed "
            "(open your settings on it to turn notifications on again)"
        )
    if device.outcome == "refused":
        return "failed", f"to {name}: {answer}"
    return None, ""


@dataclass
class Claimant:
    """One run of a delivery job, which may try a delivery several times while Redis is away:
    its id goes into the delivery's claim, and it remembers whether it sent the email."""

    id: str
    sent: bool = False


def _moved_on(notice: Notice) -> str:
    return "the invitation was answered" if notice.event == GAME_INVITED else "the turn moved on"


def _creator(players: PlayerStore, game: GameFacts) -> dict | None:
    """The profile of the player who created the game (a game recorded before `created_by`
    was has none)."""
    return players.get(game.created_by) if game.created_by else None


def _invitation_news(game: GameFacts, notice: Notice) -> bool:
    """An invitation, or the cancellation of a game the person was only invited to: what
    anyone can make a player's address receive, so what each address gets only so much of."""
    if notice.event == GAME_INVITED:
        return True
    return notice.event == GAME_CANCELLED and game.seats[notice.seat].kind == "invited"


def _person(seat: SeatFacts) -> str | None:
    """The player told of this seat: who holds it, or who is invited to it."""
    return seat.player_id if seat.kind in NOTIFIED_KINDS else None


def _still_current(game: GameFacts, notice: Notice) -> bool:
    """A turn notice still holds while the seat may act and its turn has not moved on; an
    invitation while the seat is still reserved (not yet joined or declined)."""
    if notice.event in (GAME_FINISHED, GAME_CANCELLED, CHAT_MESSAGE, PROPOSAL_CLOSED):
        return True
    if notice.event == PROPOSAL_MADE:
        return _still_asked(game, notice)
    if notice.event == GAME_INVITED:
        return game.status == "open" and game.seats[notice.seat].kind == "invited"
    return (
        game.status == "active"
        and notice.seat in game.active_seats
        and game.seat_since[notice.seat] == notice.version
    )


def _still_asked(game: GameFacts, notice: Notice) -> bool:
    """A proposal's notice holds while it is open and the seat still to answer it."""
    return game.still_asked(notice.version, notice.seat)


def _result_words(table: SeatTable) -> str:
    """ "you won (scores: Ada 3, Bo 2)", from the reader's table of a finished game."""
    outcome = table.outcome or {}
    winners = list(outcome.get("winners") or [])
    names = {s.seat: s.name for s in table.seats}
    if table.seat in winners and len(winners) == 1:
        result = gettext("you won")
    elif table.seat in winners:
        result = gettext(
            "you shared the win with %(names)s",
            names=", ".join(names[s] for s in winners if s != table.seat),
        )
    elif winners:
        together = names[winners[0]]
        for seat in winners[1:]:
            together = gettext("%(one)s and %(other)s", one=together, other=names[seat])
        result = gettext("%(names)s won", names=together)
    else:
        result = gettext("nobody won")
    if outcome.get("scores"):
        scores = ", ".join(f"{s.name} {outcome['scores'][s.seat]:g}" for s in table.seats)
        result = gettext("%(result)s (scores: %(scores)s)", result=result, scores=scores)
    return result


def _clock_words(table: SeatTable, you: SeatLine) -> list[str]:
    """The reader's clock in a turn email, sentence by sentence: their deadline, their time,
    a pause, what happens after it, and who is on vacation."""
    if you.deadline is None:
        said = [gettext("There is no clock on this game.")]
    else:
        said = [gettext("Your deadline: %(deadline)s.", deadline=you.deadline)]
        said += _time_left(table, you)
        if you.paused:
            said.append(gettext("Your clock is %(paused)s.", paused=you.paused))
        said.append(
            gettext("After it the computer plays for you.")
            if table.on_timeout == "auto"
            else gettext("After it you forfeit the game.")
        )
    said += [
        gettext("%(name)s is on vacation until %(date)s.", name=s.name, date=s.vacation_until)
        for s in table.seats
        if not s.you and s.vacation_until
    ]
    return said


def _time_left(table: SeatTable, you: SeatLine) -> list[str]:
    """The reader's time in a turn email: what their bank holds, or under a clock per move
    what is left for this move (a clock per move has no bank to speak of)."""
    if you.bank is None:
        return []
    if table.clock_kind == "bank":
        return [gettext("Your bank holds %(bank)s.", bank=you.bank)]
    return [gettext("You have %(bank)s to move.", bank=you.bank)]
