"""Table talk: the players' messages, part of the game's record (a MessageSent event in its log,
replayed, paged and streamed with the rest).

A message is plain text on one line, at most MAX_CHARS characters, to the whole table or, in a
game of three seats or more, to one other player. Its event names the seats that may read it
(`to`, the writer's included) and every surface shows it to those seats only: a spectator
reads no message, and a private message is for its two players alone. That rule is the log's
(`logview.readable`), so the log, its pages and streams, and the list of messages agree.
Messages are written while the game is on; a finished game's stay readable to its players.

The text is checked here, whatever surface it came from (the API, the web page, a reply by
email): control characters, line breaks, lone surrogates and the characters that change the
direction of the text around them are refused, so that a message cannot break a line of an
email or turn the writing of the page around it. Surfaces escape it as any other text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import match as runner
from service.errors import ErrorCode, ServiceError, TooMany, Words
from service.play import agreements, history, logview
from service.play.commit import Draft
from service.play.games import GameService, seat_of, seated, void_moot_proposals
from service.timefmt import iso, stamp
from store.players import PlayerStore
from store.record import Event, EventType, MessageSent, SeatRecord
from store.snapshot import OpenProposal, Snapshot

MAX_CHARS = 500
"""A message's length at most, in characters (code points), once trimmed."""
TALK_EVENTS = frozenset({EventType.MESSAGE_SENT})
"""The events of table talk: they change nothing on the board."""
_REFUSED = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_NAMES = {
    "\r": Words("a line break (CR)"),
    "\n": Words("a line break (LF)"),
    "\t": Words("a tab"),
    "\x00": Words("a NUL character"),
    "\u2028": Words("a line separator"),
    "\u2029": Words("a paragraph separator"),
}
SCAN_EVENTS = 1000
"""Events read at most for one page of messages (a page then ends early, with `next`)."""


def check_text(text: Any) -> str:
    """The message as it is kept: trimmed, in Unicode's composed form (NFC); ServiceError
    chat/invalid, saying what is wrong, for anything but plain text of 1 to MAX_CHARS
    characters on one line."""
    if not isinstance(text, str):
        raise ServiceError(ErrorCode.CHAT_INVALID, "a message is text")
    text = unicodedata.normalize("NFC", text.strip())
    if not text:
        raise ServiceError(ErrorCode.CHAT_INVALID, "the message is empty")
    found = _REFUSED.search(text)
    if found:
        char = found.group()
        what = _NAMES.get(char) or (
            Words("a lone surrogate")
            if "\ud800" <= char <= "\udfff"
            else Words("a control character")
            if unicodedata.category(char) == "Cc"
            else Words("a character that changes the direction of the text")
        )
        raise ServiceError(
            ErrorCode.CHAT_INVALID,
            Words(
                "the message contains %(what)s (%(code)s): a message is plain text on one line",
                what=what,
                code=f"U+{ord(char):04X}",
            ),
        )
    if len(text) > MAX_CHARS:
        raise ServiceError(
            ErrorCode.CHAT_INVALID,
            Words(
                "a message has at most %(most)s characters; this one has %(count)s",
                most=MAX_CHARS,
                count=len(text),
            ),
        )
    return text


def message_json(event: MessageSent, seats: Sequence[SeatRecord]) -> dict[str, Any]:
    """A message as the API gives it to a seat that may read it."""
    return {
        "version": event["version"],
        "at": iso(event["at"]),
        "seat": event["seat"],
        "name": logview.seat_name(seats[event["seat"]]),
        "text": event["text"],
        "private": event["private"],
        "to": logview.recipient(event),
    }


def told_of_messages(snap: Snapshot, events: Sequence[Event]) -> list[tuple[int, int]]:
    """(seat, version) of each message among `events` for each person who may read it but did
    not write it (a spectator never reads one; a private message is for one other player)."""
    return [
        (seat, event["version"])
        for event in events
        if event["type"] == EventType.MESSAGE_SENT
        for seat in event["to"]
        if seat != event["seat"] and snap["seats"][seat]["kind"] == "player"
    ]


def told_of_proposals(snap: Snapshot, events: Sequence[Event]) -> list[tuple[str, int, int]]:
    """("made" or "closed", seat, version) of the proposals among `events`: each player asked
    to answer a new one; the proposer and those asked, but the seat that closed it, of its
    end."""
    found = []
    for event in events:
        if event["type"] == EventType.PROPOSAL_MADE:
            kind, seats = "made", event["waiting"]
        elif event["type"] == EventType.PROPOSAL_CLOSED:
            kind = "closed"
            seats = [s for s in [event["proposer"], *event["asked"]] if s != event["by"]]
        else:
            continue
        found += [
            (kind, s, event["version"]) for s in seats if snap["seats"][s]["kind"] == "player"
        ]
    return found


def message_for(
    snap: Snapshot, seat: int, event: Event | None, blocked: set[str] | frozenset[str]
) -> MessageSent | None:
    """`event` if it is a message `seat` may read (not one of its own, nor of a player it
    blocked, nor one an operator hid), else None."""
    if event is None or event["type"] != EventType.MESSAGE_SENT or event["seat"] == seat:
        return None
    return event if logview.readable(event, seat, *logview.unseen(snap, blocked)) else None


def reader_of(snap: Snapshot, seat: int) -> str | None:
    """The player at `seat` (None for a bot or an open seat)."""
    return snap["seats"][seat]["player_id"]


def message_payload(snap: Snapshot, event: MessageSent) -> dict[str, Any]:
    """A message's webhook body's own part: the game's title, version and status, and the
    message as the API gives it."""
    return {
        "game": snap["game"],
        "version": snap["version"],
        "status": snap["status"],
        "message": message_json(event, snap["seats"]),
    }


def proposal_payload(snap: Snapshot, event: Event) -> dict[str, Any] | None:
    """A proposal's webhook body's own part (None if `event` is no proposal's start or end)."""
    if event["type"] == EventType.PROPOSAL_MADE:
        proposal = {
            "id": event["version"],
            "kind": event["kind"],
            "seat": event["seat"],
            "status": "open",
            "by": None,
        }
    elif event["type"] == EventType.PROPOSAL_CLOSED:
        proposal = {
            "id": event["proposal"],
            "kind": event["kind"],
            "seat": event["proposer"],
            "status": event["result"],
            "by": event["by"],
        }
    else:
        return None
    words = logview.proposal_line(event, snap["seats"], None)
    return {
        "game": snap["game"],
        "version": snap["version"],
        "status": snap["status"],
        "proposal": {**proposal, "words": words},
    }


def proposal_words(snap: Snapshot, event: Event, seat: int) -> str:
    """A proposal's event as `seat` reads it in the log."""
    return logview.proposal_line(event, snap["seats"], seat)


def still_asked(snap: Snapshot, proposal: int, seat: int) -> bool:
    """Whether the proposal is open and `seat` still to answer it."""
    found = agreements.find(snap, proposal)
    return found is not None and seat in found["waiting"]


@dataclass(frozen=True)
class ChatLine:
    """A message as a person reads it on a page or in an email."""

    number: int
    """Its version in the game's log."""
    when: str
    """When it was written, in words in the reader's time zone."""
    who: str
    """ "you", or the writer's name."""
    to: str | None
    """For a private message, "you" or the other player's name; None for the whole table."""
    text: str
    yours: bool

    @property
    def heading(self) -> str:
        """ "Ada, to you privately" / "you, to the table"."""
        whom = "the table" if self.to is None else f"{self.to} privately"
        return f"{self.who}, to {whom}"

    def __str__(self) -> str:
        return f"{self.heading} ({self.when}): {self.text}"


def chat_lines(
    events: Sequence[Event],
    seats: Sequence[SeatRecord],
    reader: int | None,
    zone: str | None,
    muted: frozenset[int] = frozenset(),
    hidden: frozenset[int] = frozenset(),
) -> tuple[ChatLine, ...]:
    """The messages among `events` that `reader` may read, oldest first (not those of the
    seats they `muted`, nor those `hidden`: logview.readable)."""
    if reader is None:
        return ()
    lines = []
    for event in events:
        if event["type"] != EventType.MESSAGE_SENT or not logview.readable(
            event, reader, muted, hidden
        ):
            continue
        to = logview.recipient(event)
        lines.append(
            ChatLine(
                number=event["version"],
                when=stamp(event["at"], zone),
                who="you" if event["seat"] == reader else logview.seat_name(seats[event["seat"]]),
                to=None if to is None else "you" if to == reader else logview.seat_name(seats[to]),
                text=event["text"],
                yours=event["seat"] == reader,
            )
        )
    return tuple(lines)


# -- the use cases ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TalkLimits:
    """How much one player may write, across all their games (messages and proposals), and
    how long a proposal waits for its answers."""

    per_minute: int = 10
    per_hour: int = 120
    proposal_hours: float = 48.0


class Talk:
    """Writing and reading a game's messages, through the games' one commit loop."""

    def __init__(self, games: GameService, players: PlayerStore, limits: TalkLimits | None = None):
        self.games = games
        self.players = players
        self.limits = limits or TalkLimits()

    def check_rate(self, player_id: str) -> None:
        """Count one thing the player writes (a message, a proposal, an answer); TooMany
        (429, Retry-After) past their quota."""
        for seconds, most in ((60, self.limits.per_minute), (3600, self.limits.per_hour)):
            count, left = self.players.count_talk(player_id, seconds)
            if count > most:
                raise TooMany(
                    Words(
                        "you may write at most %(most)s messages and proposals in a minute; "
                        "wait %(left)s seconds",
                        most=most,
                        left=left,
                    )
                    if seconds == 60
                    else Words(
                        "you may write at most %(most)s messages and proposals in an hour; "
                        "wait %(left)s seconds",
                        most=most,
                        left=left,
                    ),
                    retry_after=left,
                )

    def say(self, game_id: str, player_id: str, text: Any, to: int | None = None) -> dict[str, Any]:
        """Write a message to the table, or privately to the player at seat `to`: the message
        as the writer reads it."""
        checked = check_text(text)
        self.check_rate(player_id)
        return self.games.commits.run(game_id, lambda draft: _say(draft, player_id, checked, to))

    def messages(
        self, game_id: str, player_id: str, after: int = 0, limit: int = 50
    ) -> dict[str, Any]:
        """The messages the player may read after version `after`, at most `limit`, oldest
        first; `read_to`: the last version looked at (the next page starts after it)."""
        snap = self.games.load(game_id)
        seat = seated(snap, player_id)
        muted, hidden = self.games.unseen(snap, player_id)
        found: list[dict[str, Any]] = []
        read_to = after
        while len(found) < limit and read_to < snap["version"]:
            events = self.games.games.events(game_id, after=read_to, count=SCAN_EVENTS)
            if not events:
                break
            for event in events:
                read_to = event["version"]
                if event["type"] == EventType.MESSAGE_SENT and logview.readable(
                    event, seat, muted, hidden
                ):
                    found.append(message_json(event, snap["seats"]))
                    if len(found) == limit:
                        break
            if read_to - after >= SCAN_EVENTS:
                break
        return {
            "version": snap["version"],
            "seat": seat,
            "messages": found,
            "read_to": read_to,
        }

    def hide(self, game_id: str, message: int, reason: str) -> str | None:
        """An operator hides a message from everyone: a MessageHidden event, read by the
        message's readers only (service/players/moderation.py). The writer's player id."""
        found = self.games.games.events(game_id, after=message - 1, count=1) if message > 0 else []
        event = found[0] if found else None
        if event is None or event["type"] != EventType.MESSAGE_SENT:
            raise ServiceError(
                ErrorCode.REPORT_INVALID,
                Words("%(game)s has no message %(message)s", game=game_id, message=message),
            )
        readers = list(event["to"])
        self.games.commits.run(game_id, lambda draft: _hide(draft, message, readers, reason))
        return reader_of(self.games.load(game_id), event["seat"])

    # -- proposals (service/play/agreements.py) --------------------------------------------

    def propose(
        self, game_id: str, player_id: str, kind: str, days: int | None = None
    ) -> dict[str, Any]:
        """Propose `kind` to the other players still in the game: the proposal as it stands
        (accepted at once when nobody is to be asked: the others are bots)."""
        self.check_rate(player_id)
        lapse_ms = int(self.limits.proposal_hours * 3_600_000)
        undo = self._undo(game_id) if kind == "takeback" else None
        return self.games.commits.run(
            game_id, lambda draft: _propose(draft, player_id, kind, days, lapse_ms, undo)
        )

    def answer(self, game_id: str, player_id: str, proposal: int, accept: bool) -> dict[str, Any]:
        """A yes or a no to a proposal the player is asked: the proposal as it now stands."""
        self.check_rate(player_id)
        undo = self._undo(game_id, proposal) if accept else None
        return self.games.commits.run(
            game_id, lambda draft: _answer(draft, player_id, proposal, accept, undo)
        )

    def withdraw(self, game_id: str, player_id: str, proposal: int) -> dict[str, Any]:
        """The proposer takes their proposal back."""
        return self.games.commits.run(game_id, lambda draft: _withdraw(draft, player_id, proposal))

    def lapse(self, game_id: str, proposal: int) -> str:
        """The clock's: the proposal lapses if it is still open at its deadline ("applied"),
        or "moot", or "early" (ask again at the deadline)."""
        return self.games.commits.run(game_id, lambda draft: _lapse(draft, proposal), quiet="moot")

    def proposals(self, game_id: str, player_id: str | None) -> dict[str, Any]:
        """The game's open proposals (public), and what the player may propose now."""
        snap = self.games.load(game_id)
        seat = seat_of(snap, player_id)
        return {
            "version": snap["version"],
            "seat": seat,
            "proposals": [proposal_json(p, snap) for p in agreements.open_proposals(snap)],
            "may_propose": []
            if seat is None
            else [k for k in agreements.KINDS if agreements.why_not(snap, seat, k, 1) is None],
        }

    def _undo(self, game_id: str, proposal: int | None = None) -> Undo | None:
        """For a takeback: the match before the game's last move, replayed from the log (the
        snapshot keeps only the match now). None when there is no takeback to carry out."""
        snap = self.games.load(game_id)
        found = agreements.of(snap)
        last = found["last_move"] if found else None
        if proposal is not None:
            open_ = agreements.find(snap, proposal)
            if open_ is None or open_["kind"] != "takeback":
                return None
        if last is None or not last["undoable"]:
            return None
        events = self.games.games.events(game_id, count=last["version"] - 1)
        return Undo(last["version"], history.match_of(history.replay(events)))


@dataclass(frozen=True)
class Undo:
    """The match before the move at `move` (what a takeback of it restores)."""

    move: int
    match: dict[str, Any]


def proposal_json(proposal: OpenProposal, snap: Snapshot, status: str = "open") -> dict[str, Any]:
    """A proposal as the API gives it (public: it holds nothing hidden)."""
    found: dict[str, Any] = {
        "id": proposal["id"],
        "kind": proposal["kind"],
        "seat": proposal["seat"],
        "name": logview.seat_name(snap["seats"][proposal["seat"]]),
        "words": agreements.in_words(dict(proposal)),
        "deadline": iso(proposal["deadline"]),
        "waiting": list(proposal["waiting"]),
        "accepted": list(proposal["accepted"]),
        "status": status,
    }
    if "move" in proposal:
        found["move"] = proposal["move"]
    if "days" in proposal:
        found["days"] = proposal["days"]
    return found


def _propose(
    draft: Draft,
    player_id: str,
    kind: str,
    days: int | None,
    lapse_ms: int,
    undo: Undo | None,
) -> dict[str, Any]:
    snap = draft.snap
    seat = seated(snap, player_id)
    why = agreements.why_not(snap, seat, kind, days)
    if why is not None:
        raise ServiceError(ErrorCode.PROPOSAL_NOT_ALLOWED, why)
    made: dict[str, Any] = {
        "type": EventType.PROPOSAL_MADE,
        "seat": seat,
        "kind": kind,
        "deadline": draft.now_ms + lapse_ms,
        "waiting": agreements.asked(snap, seat),
    }
    found = agreements.of(snap)
    if kind == "takeback" and found and found["last_move"]:
        made["move"] = found["last_move"]["version"]
    if kind == "pause":
        made["days"] = days
    draft.add(made)
    proposal = agreements.find(draft.snap, draft.snap["version"])
    assert proposal is not None
    if not proposal["waiting"]:  # nobody to ask (the others are bots): accepted at once
        return _close(draft, proposal, "accepted", seat, undo)
    return proposal_json(proposal, draft.snap)


def _asked(draft: Draft, player_id: str, proposal_id: int) -> tuple[int, OpenProposal]:
    snap = draft.snap
    seat = seated(snap, player_id)
    proposal = agreements.find(snap, proposal_id)
    if proposal is None:
        raise ServiceError(
            ErrorCode.PROPOSAL_NOT_FOUND,
            Words(
                "this game has no open proposal %(proposal)s (answered, withdrawn or lapsed)",
                proposal=proposal_id,
            ),
        )
    return seat, proposal


def _answer(
    draft: Draft, player_id: str, proposal_id: int, accept: bool, undo: Undo | None
) -> dict[str, Any]:
    seat, proposal = _asked(draft, player_id, proposal_id)
    if seat not in proposal["waiting"]:
        raise ServiceError(
            ErrorCode.PROPOSAL_NOT_ASKED,
            Words("you made this proposal: withdraw it instead")
            if seat == proposal["seat"]
            else Words("you have answered this proposal already")
            if seat in proposal["accepted"]
            else Words("you are not asked to answer this proposal"),
        )
    if not accept:
        return _close(draft, proposal, "declined", seat, undo)
    if len(proposal["waiting"]) > 1:
        draft.add({"type": EventType.PROPOSAL_ANSWERED, "proposal": proposal_id, "seat": seat})
        still = agreements.find(draft.snap, proposal_id)
        assert still is not None
        return proposal_json(still, draft.snap)
    return _close(draft, proposal, "accepted", seat, undo)


def _withdraw(draft: Draft, player_id: str, proposal_id: int) -> dict[str, Any]:
    seat, proposal = _asked(draft, player_id, proposal_id)
    if seat != proposal["seat"]:
        raise ServiceError(
            ErrorCode.PROPOSAL_NOT_ASKED, "only the player who made a proposal withdraws it"
        )
    return _close(draft, proposal, "withdrawn", seat, None)


def _lapse(draft: Draft, proposal_id: int) -> str:
    proposal = agreements.find(draft.snap, proposal_id)
    if proposal is None or draft.snap["status"] != "active":
        return "moot"
    if proposal["deadline"] > draft.now_ms:
        return "early"
    _close(draft, proposal, "lapsed", None, None)
    return "applied"


def _close(
    draft: Draft,
    proposal: OpenProposal,
    result: str,
    by: int | None,
    undo: Undo | None,
) -> dict[str, Any]:
    """The proposal's ProposalClosed; an accepted one's effect with it (or void, when what it
    was about changed since), and the game's end that a shared result or an abort is."""
    snap = draft.snap
    if result == "accepted" and proposal["id"] in agreements.moot(snap):
        result = "void"
    computed = None
    if result == "accepted" and proposal["kind"] == "takeback":
        if undo is None or undo.move != proposal.get("move"):
            raise ServiceError(ErrorCode.GAME_BUSY, "the game changed: try again")
        computed = runner.take_back(undo.match, proposal["seat"], snap["version"] + 1)
    draft.add(
        {
            "type": EventType.PROPOSAL_CLOSED,
            "proposal": proposal["id"],
            "kind": proposal["kind"],
            "proposer": proposal["seat"],
            "result": result,
            "by": by,
            "asked": [*proposal["accepted"], *proposal["waiting"]],
        },
        computed,
    )
    if result == "accepted" and proposal["kind"] == "draw":
        draft.add(
            {
                "type": EventType.GAME_ENDED,
                "outcome": history.match_of(draft.snap)["outcome"],
                "seed": draft.snap["secret_seed"],
            }
        )
    elif result == "accepted" and proposal["kind"] == "abort":
        draft.add({"type": EventType.GAME_CANCELLED, "reason": "aborted"})
    if result == "accepted":
        void_moot_proposals(draft)  # the game's end voids the others
    return proposal_json(proposal, draft.snap, result)


def _say(draft: Draft, player_id: str, text: str, to: int | None) -> dict[str, Any]:
    snap = draft.snap
    seat = seated(snap, player_id)
    if snap["status"] != "active":
        raise ServiceError(
            ErrorCode.CHAT_CLOSED,
            Words("messages are written while the game is on; its messages stay readable")
            if snap["status"] == "finished"
            else Words("messages are written while the game is on"),
        )
    count = len(snap["seats"])
    if to is None:
        readers = list(range(count))
    else:
        if count < 3:
            raise ServiceError(
                ErrorCode.CHAT_BAD_RECIPIENT,
                "private messages are for games of three players or more: write to the table",
            )
        if not 0 <= to < count or to == seat or snap["seats"][to]["kind"] != "player":
            players = [
                s for s, r in enumerate(snap["seats"]) if r["kind"] == "player" and s != seat
            ]
            raise ServiceError(
                ErrorCode.CHAT_BAD_RECIPIENT,
                Words(
                    "seat %(seat)s is not another player of this game; the others are at seats "
                    "%(seats)s",
                    seat=to,
                    seats=", ".join(map(str, players)),
                )
                if players
                else Words(
                    "seat %(seat)s is not another player of this game; the others are at seats "
                    "none",
                    seat=to,
                ),
            )
        readers = sorted({seat, to})
    draft.add(
        {
            "type": EventType.MESSAGE_SENT,
            "seat": seat,
            "text": text,
            "to": readers,
            "private": to is not None,
        }
    )
    event = draft.events[-1]
    assert event["type"] == EventType.MESSAGE_SENT
    return message_json(event, snap["seats"])


def _hide(draft: Draft, message: int, readers: list[int], reason: str) -> None:
    if message in draft.snap.get("hidden_messages", []):
        return  # hidden already: nothing to write
    draft.add(
        {"type": EventType.MESSAGE_HIDDEN, "message": message, "to": readers, "reason": reason}
    )
