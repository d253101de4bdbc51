"""Playing by email: a reply to a turn email is read, checked and played through the same
service as an API move, and the player gets an answer that says what happened.

The address the reply went to (move+TOKEN.VERSION@MAIL_DOMAIN) names the seat and the version
the email was written for; the token, not the From address, authorises the move, but the From
address must also be the player's own (unless the player allows replies from any address). A
message is processed once, by its Message-ID. The answer goes to the player's own address, and
only when its owner confirmed it (service.players.sign_in), never to the From, which is easily
forged: a message with an unknown token or from a foreign address is dropped without a word,
and a reply from another address that the player allowed is answered at their own (an answer
to the From would send our mail to whoever a forger named: backscatter). An address may send
at most MAIL_IN_PER_SENDER_PER_HOUR messages.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core import GameError
from service.by_mail.replies import Reply, parse_reply
from service.by_mail.verbs import notation_of
from service.errors import ServiceError
from service.notify import emails
from service.notify.notifications import preferences
from service.notify.reply_addresses import read_reply_address, reply_address
from service.play.games import GameService
from service.play.refusals import worded
from service.play.table import SeatTable, Tables
from service.play.talk import Talk
from service.secrets import ServerKeys
from service.settings import Settings
from service.words import gettext, said, speaking
from store.front_door import SenderQuota
from store.notifications import NotificationStore
from store.players import PlayerStore
from transports.mailer import Mailer


@dataclass(frozen=True)
class MailOutcome:
    status: str  # played | refused | ignored
    code: str  # a stable code: mail/played, move/stale_version, mail/unknown_token ...
    detail: str


class MailMoves:
    def __init__(
        self,
        games: GameService,
        players: PlayerStore,
        notes: NotificationStore,
        settings: Settings,
        mailer: Mailer,
        clock: Callable[[], float] = time.time,
        quota: SenderQuota | None = None,
        keys: ServerKeys | None = None,
        talk: Talk | None = None,
    ):
        self.games = games
        self.talk = talk or Talk(games, players)
        self.tables = Tables(games.games, clock, players=players)
        self.players = players
        self.notes = notes
        self.settings = settings
        self.keys = keys or ServerKeys(settings, notes)
        self.mailer = mailer
        self.clock = clock
        self.quota = quota or SenderQuota(players.r)

    def receive(self, raw: bytes, envelope_recipients: Sequence[str] = ()) -> MailOutcome:
        reply = parse_reply(raw)
        if reply.auto_submitted or not reply.sender:
            return MailOutcome("ignored", "mail/automatic", "an automatic message or no sender")
        if not self.quota.take(reply.sender, self.settings.mail_in_per_sender_per_hour):
            return MailOutcome(
                "ignored",
                "mail/rate_limited",
                "this address sent more messages than an hour allows",
            )
        found = self._address(reply, envelope_recipients)
        if found is None:
            return self._refuse(
                reply,
                "mail/unknown_token",
                "This address does not belong to any game here. Reply to the "
                "turn email itself, to the address it gives.",
            )
        once = (
            "inmail-"
            + hashlib.sha256((reply.message_id or raw.decode("latin-1")).encode()).hexdigest()
        )
        if not self.notes.claim(once):
            return MailOutcome("ignored", "mail/duplicate", "this message was already read")
        try:
            return self._play(reply, *found)
        except Exception:
            self.notes.release(once)
            raise

    def _address(self, reply: Reply, envelope: Sequence[str]) -> tuple[str, int] | None:
        if not self.settings.mail_domain:
            return None
        for address in [*envelope, *reply.recipients]:
            found = read_reply_address(address, self.settings.mail_domain)
            if found is not None:
                return found
        return None

    def _play(self, reply: Reply, token: str, version: int) -> MailOutcome:
        seat_of_token = self.notes.reply_token_seat(token)
        if seat_of_token is None:
            return self._refuse(
                reply,
                "mail/unknown_token",
                "This address does not belong to any game here. Reply to the "
                "turn email itself, to the address it gives.",
            )
        game_id, seat = seat_of_token
        table = self.tables.for_seat(game_id, seat)
        player_id = table.seats[seat].player_id
        if player_id is None:  # the seat was left before the game began, and is open again
            return self._refuse(
                reply,
                "mail/unknown_token",
                "This address belongs to a seat nobody holds any more: there is no move to "
                "play from it.",
            )
        profile = self.players.get(player_id) or {}
        own_address = (profile.get("email") or "").lower() == reply.sender
        answer_to = profile["email"] if self.players.email_confirmed(player_id, profile) else None
        if not (own_address or preferences(profile)["replies_from_any_address"]):
            return self._refuse(
                reply,
                "mail/wrong_sender",
                f"This reply came from {reply.sender}, which is not the "
                "address of the player this game emailed. Nothing was "
                "played. Reply from the address the turn email was sent to.",
            )
        with speaking(profile.get("language")) as language:
            return self._play_as(reply, version, table, player_id, profile, answer_to, language)

    def _play_as(
        self,
        reply: Reply,
        version: int,
        table: SeatTable,
        player_id: str,
        profile: dict,
        answer_to: str | None,
        language: str,
    ) -> MailOutcome:
        """Play the reply's steps (its words of a move read in the player's `language` too)
        and answer in that language."""
        game_id, seat = table.game_id, table.seat

        def answered(
            played: list[str], code: str, note: str, said: str | None = None
        ) -> MailOutcome:
            """The answer to the reply, with the seat's table as it stands now."""
            now = self.tables.for_seat(game_id, seat, language=language)
            return self._answer(reply, answer_to, now, profile, played, code, note, said)

        steps = table.steps_of([notation_of(table.game, language, x) for x in reply.move_lines])
        if not steps and reply.message is None:
            return answered(
                [],
                "mail/unreadable",
                gettext(
                    "No move was found in your reply: write the move on the first line, in the "
                    "game's notation (and a message after say:)."
                ),
            )
        said, problem = self._say(reply, table, game_id, player_id)
        if not steps:
            return answered([], "mail/said" if said else "chat/refused", problem or "", said)
        played: list[str] = []
        expected, note = version, problem
        for step in steps:
            try:
                answer = self.games.play(game_id, player_id, expected, notation=step)
            except (ServiceError, GameError) as err:
                if played and err.code == "move/malformed":
                    # words after the moves ("thanks!") end the reply; they are no error
                    note = gettext("Reading stopped at '%(step)s', which is not a move.", step=step)
                    break
                return answered(
                    played, err.code, _sentences(_explain(err, step, version), problem), said
                )
            played.append(answer["move"])
            expected = answer["version"]
            if seat not in answer["game"]["active_seats"]:
                rest = steps[len(played) :]
                if rest:
                    ended = gettext(
                        "Your turn ended there, so the rest was not played: %(rest)s.",
                        rest="; ".join(rest),
                    )
                    note = _sentences(ended, problem)
                break
        return answered(played, "mail/played", note, said)

    def _say(
        self, reply: Reply, table: SeatTable, game_id: str, player_id: str
    ) -> tuple[str | None, str]:
        """Send the reply's message, if it has one (before its moves, so that a last move does
        not close the table to it): (the message sent, or None; what went wrong, in words)."""
        if reply.message is None:
            return None, ""
        to = None
        if reply.message_to is not None:
            wanted = reply.message_to.casefold()
            found = [s.seat for s in table.seats if s.name.casefold() == wanted and not s.you]
            if len(found) != 1:
                others = ", ".join(s.name for s in table.seats if not s.you and s.player_id)
                return None, gettext(
                    "Your message was not sent: no other player here is called %(name)s (the "
                    "others: %(others)s).",
                    name=reply.message_to,
                    others=others,
                )
            to = found[0]
        try:
            self.talk.say(game_id, player_id, reply.message, to)
        except ServiceError as err:  # TooMany too
            return None, gettext("Your message was not sent: %(why)s.", why=said(err.message))
        return reply.message, ""

    # -- answers ---------------------------------------------------------------------------

    def _answer(
        self,
        reply: Reply,
        to: str | None,
        table: SeatTable,
        profile: dict,
        played: list[str],
        code: str,
        problem: str,
        said: str | None = None,
    ) -> MailOutcome:
        """Tell the seat's player what was played, what they said to the table and what was
        wrong, at their own confirmed address `to` (None: no answer); with their legal moves
        and a fresh reply address when it is still their turn (from the seat's table)."""
        title, game_id = table.title, table.game_id
        sections: list[tuple[str, Sequence[str | tuple[str, str]]] | emails.BoardSection] = []
        if played:
            sections.append((gettext("Played:"), played))
        if said is not None:
            sections.append((gettext("Said:"), [said]))
        reply_to = None
        mail_domain = self.settings.mail_domain  # set, or no reply would have reached here
        if table.your_turn and table.seat is not None and mail_domain:
            sections.append(
                emails.moves_section(gettext("Your legal moves now"), table.moves, table.forms)
            )
            reply_to = reply_address(
                self.keys.reply_token(game_id, table.seat), table.version, mail_domain
            )
        status = "played" if played else "said" if said is not None else "refused"
        named = {"title": title, "game": game_id}
        if not played and said is not None:
            lead = gettext(
                "Your message was sent to the players of %(title)s (game %(game)s).", **named
            )
            lead = f"{lead} {problem}"
        elif played and not problem:
            lead = gettext("Your move in %(title)s (game %(game)s) was played.", **named)
        elif played and code == "mail/played":
            lead = gettext("Your move in %(title)s (game %(game)s) was played.", **named)
            lead = f"{lead} {problem}"
        elif played:
            lead = gettext("Part of your reply was played in %(title)s (game %(game)s).", **named)
            lead = f"{lead} {problem}"
        else:
            lead = gettext("Nothing was played in %(title)s (game %(game)s).", **named)
            lead = f"{lead} {problem}"
        if reply_to:
            footer = gettext("To play, reply to this email with your move on the first line.")
        elif table.status == "active":
            footer = gettext("It is not your turn now: you will get an email when it is.")
        else:
            footer = gettext(
                "The game is over: %(url)s", url=f"{self.settings.public_url}/play/{game_id}"
            )
        letter = emails.Letter(
            subject=_re(reply.subject, f"[turnpost] {title}: {_outcome_words(played, said)}"),
            greeting=emails.hello(profile["name"]),
            lead=lead,
            sections=sections,
            footer=footer,
        )
        self._send(letter, reply, to, profile["name"], reply_to, code, game_id, table.version)
        return MailOutcome(status, code, problem or "played")

    def _refuse(self, reply: Reply, code: str, problem: str) -> MailOutcome:
        """No answer at all: the sender is not known to be a player of any game here."""
        return MailOutcome("refused", code, problem)

    def _send(
        self,
        letter: emails.Letter,
        reply: Reply,
        to: str | None,
        name: str,
        reply_to: str | None,
        code: str,
        game_id: str,
        version: int,
    ) -> None:
        if not to:  # the seat's player has no confirmed address: no answer
            return
        headers = {
            "X-Turnpost-Event": "mail.answer",
            "X-Turnpost-Code": code,
            "X-Turnpost-Game": game_id,
            "X-Turnpost-Version": str(version),
        }
        if reply.message_id:
            headers.update(
                {"In-Reply-To": f"<{reply.message_id}>", "References": f"<{reply.message_id}>"}
            )
        message = emails.layout(
            letter,
            name,
            to,
            self.settings.mail_from,
            f"answer-{hashlib.sha256((reply.message_id or letter.lead).encode()).hexdigest()[:16]}",
            reply_to,
            headers,
        )
        self.mailer.send(message)


def _outcome_words(played: list[str], said: str | None) -> str:
    if played:
        return gettext("played")
    return gettext("message sent") if said is not None else gettext("not played")


def _re(subject: str, fallback: str) -> str:
    if not subject:
        return fallback
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _explain(err: ServiceError | GameError, step: str, version: int) -> str:
    code = err.code
    if isinstance(err, ServiceError) and code == "move/stale_version":
        return gettext(
            "Your reply answered the email for move %(version)s, and the game has moved on "
            "since (it is at move %(current)s), so '%(step)s' was not played. Here is where "
            "you stand now.",
            version=version,
            current=err.details["current_version"],
            step=step,
        )
    if code == "move/malformed":
        return gettext("'%(step)s' could not be read as a move: %(why)s", step=step, why=_why(err))
    if code == "move/illegal":
        return gettext("'%(step)s' is not a legal move now: %(why)s", step=step, why=_why(err))
    return gettext("'%(step)s' was not played: %(why)s", step=step, why=_why(err))


def _why(err: ServiceError | GameError) -> str:
    """The refusal's reason in the language spoken now: the engine's (worded with values or
    not: service/play/refusals.py) and the service's refusals of a move (the game busy, not
    started...: babel-service.cfg) are the service catalogue's."""
    return said(err.message if isinstance(err, ServiceError) else worded(err.message))


def _sentences(*sentences: str | None) -> str:
    """The sentences that say something, one after the other."""
    return " ".join(filter(None, sentences))
