"""The event log as one reader may see it.

Every event is rendered by whitelist: the seed in GameCreated and the raw action of
ActionTaken are never shown (an action may be a secret choice); a seat sees its own move in
notation, and the log lines the game wrote for it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from engine.core import Game, LogEntry
from service.languages import DEFAULT
from service.play import phrases
from service.timefmt import iso
from service.words import N_, gettext, language, ngettext
from store.record import Event, EventType, MessageSent, SeatRecord
from store.snapshot import Snapshot

DELETED_NAME = N_("a deleted player")
"""How a player who deleted their account is named in their games (a PlayerDeleted event):
kept so in English, said in the reader's language."""


def seat_name(seat_record: SeatRecord) -> str:
    if seat_record["kind"] == "open":
        return gettext("an open seat")
    name = gettext(DELETED_NAME) if seat_record["name"] == DELETED_NAME else seat_record["name"]
    if seat_record["kind"] == "invited":
        return gettext("%(name)s (invited)", name=name)
    return name


#: The verbs the games write after a seat, as said to that seat ("Ada plays" -> "you play").
#: Past tenses and modals read the same in every person ("you placed", "you cannot").
YOUR_VERB = {
    "anchors": "anchor",
    "busts": "bust",
    "defuses": "defuse",
    "does": "do",
    "draws": "draw",
    "earns": "earn",
    "ends": "end",
    "fires": "fire",
    "gives": "give",
    "has": "have",
    "holds": "hold",
    "is": "are",
    "keeps": "keep",
    "looks": "look",
    "moves": "move",
    "plays": "play",
    "puts": "put",
    "sets": "set",
    "shows": "show",
    "starts": "start",
    "swaps": "swap",
    "takes": "take",
    "uses": "use",
    "was": "were",
    "wins": "win",
}
#: What reads the same after "you" as after a name (past tenses, modals), and what the games
#: write to "you" already (private lines: "you lay face down ..."), besides YOUR_VERB.
SAME_VERB = frozenset(
    {
        "anchored",
        "cannot",
        "drew",
        "earned",
        "gave",
        "harpooned",
        "kept",
        "laid",
        "lay",
        "left",
        "let",
        "moved",
        "opted",
        "placed",
        "rolled",
        "took",
    }
)
_SUBJECT = re.compile(r"(^|: |; )\{seat(\d)\} (\w+)")
_AND_THEN = re.compile(r"(\byou \w+[^:;]*? and )(\w+)")


def with_names(text: str, seats: list[SeatRecord], reader: int | None = None) -> str:
    """A log line's seat tokens as names, and as "you" for the reader's own seat: one voice
    per reader ("you play first", "Bo gives a Diver to you", "your 3+ won by 4 or more")."""
    if reader is not None:
        text = in_your_voice(text, reader)
    for number, record in enumerate(seats):
        text = text.replace("{seat%d}" % number, seat_name(record))
    return text


def in_your_voice(text: str, reader: int) -> str:
    me = "{seat%d}" % reader

    def subject(match: re.Match[str]) -> str:
        before, seat, verb = match.groups()
        if int(seat) != reader:
            return match.group(0)
        return f"{before}you {YOUR_VERB.get(verb, verb)}"

    said_to_me = _SUBJECT.sub(subject, text)
    if said_to_me != text:  # the reader does it: "you use the Eye and look", "your cards"
        said_to_me = _AND_THEN.sub(
            lambda m: m.group(1) + YOUR_VERB.get(m.group(2), m.group(2)), said_to_me
        )
        said_to_me = re.sub(r"\btheir\b", "your", said_to_me)
    return said_to_me.replace(me + "'s", "your").replace(me, "you")


def game_words(game: str, text: str, seats: list[SeatRecord], reader: int | None = None) -> str:
    """One of `game`'s sentences (a log line, a move's description, with seat tokens) as
    `reader` reads it, in the language spoken now (service/play/phrases.py; English: the
    engine's own words, in the reader's voice)."""
    if language() != DEFAULT:
        found = phrases.say(game, text, [seat_name(r) for r in seats], reader)
        if found is not None:
            return found
    return with_names(text, seats, reader)


def lines(
    entries: list[dict], reader: int | None, seats: list[SeatRecord], game: str = ""
) -> list[dict[str, Any]]:
    visible = (LogEntry.from_json(e) for e in entries)
    return [
        {"text": game_words(game, e.text, seats, reader), "data": e.data}
        for e in visible
        if e.visible_to(reader)
    ]


def readable(
    event: Event,
    reader: int | None,
    muted: frozenset[int] = frozenset(),
    hidden: frozenset[int] = frozenset(),
) -> bool:
    """Whether `reader` (a seat; None: a spectator) may read `event` at all. Every event but a
    message (service/play/talk.py), which only the seats it names may, and none written by a
    seat the reader `muted` (a player they blocked) nor one an operator hid (`hidden`, their
    versions); that a message was hidden is read by its readers. The log, its pages and its
    streams leave out, for a reader, what they may not read (so the versions they see may
    skip)."""
    if event["type"] == EventType.MESSAGE_SENT:
        return (
            reader is not None
            and reader in event["to"]
            and event["seat"] not in muted
            and event["version"] not in hidden
        )
    if event["type"] == EventType.MESSAGE_HIDDEN:
        return reader is not None and reader in event["to"]
    return True


def unseen(
    snap: Snapshot, blocked: set[str] | frozenset[str]
) -> tuple[frozenset[int], frozenset[int]]:
    """(muted, hidden) for `readable`: the seats held by players the reader `blocked`, and the
    messages an operator hid."""
    muted = frozenset(
        s
        for s, r in enumerate(snap["seats"])
        if r["player_id"] is not None and r["player_id"] in blocked
    )
    return muted, frozenset(snap.get("hidden_messages", []))


def recipient(event: MessageSent) -> int | None:
    """The other player a private message is for (None: the whole table)."""
    if not event["private"]:
        return None
    return next((s for s in event["to"] if s != event["seat"]), event["seat"])


def said(event: MessageSent, seats: list[SeatRecord], reader: int | None) -> str:
    """A message in one line of the log, as `reader` (one of its readers) reads it: "Ada to
    the table: ...", "you to Bo privately: ..."; the text as it was written."""
    to = recipient(event)
    who = gettext("you") if event["seat"] == reader else seat_name(seats[event["seat"]])
    if to is None:
        return gettext("%(who)s to the table: %(text)s", who=who, text=event["text"])
    whom = gettext("you") if to == reader else seat_name(seats[to])
    return gettext(
        "%(who)s to %(whom)s privately: %(text)s", who=who, whom=whom, text=event["text"]
    )


REASONS = {
    "resigned": N_("resigned"),
    "suspended": N_("suspended"),
    "forfeit": N_("forfeit"),
    "withdrawn": N_("withdrawn"),
    "auto": N_("auto"),
    "a shared result, agreed by the players": N_("a shared result, agreed by the players"),
    "aborted by the players: no result": N_("aborted by the players: no result"),
}
"""Why a seat left or a game ended, as the service records it (the games' own reasons are
their phrasebooks')."""


def reason_words(game: str, reason: str) -> str:
    """Why a game ended, in the language spoken now."""
    if reason in REASONS:
        return gettext(REASONS[reason])
    if language() != DEFAULT:
        return phrases.say(game, reason, [], None) or reason
    return reason


PROPOSAL_EVENTS = frozenset(
    {EventType.PROPOSAL_MADE, EventType.PROPOSAL_ANSWERED, EventType.PROPOSAL_CLOSED}
)


def _asks(kind: str, mine: bool, days: int | None = None) -> str:
    """What a proposal asks, after "propose to" ("take back your last move"; a pause says its
    days when it is made)."""
    if kind == "takeback":
        return gettext("take back your last move") if mine else gettext("take back their last move")
    if kind == "pause":
        if days is None:
            return gettext("pause the clocks")
        return ngettext(
            "pause the clocks for %(num)d day", "pause the clocks for %(num)d days", days
        )
    if kind == "draw":
        return gettext("end the game with a shared result")
    return gettext("abort the game")


def _done(kind: str, mine: bool, proposer: str) -> str:
    """What an accepted proposal did, as a sentence of its own."""
    if kind == "takeback":
        if mine:
            return gettext("Your last move is taken back")
        return gettext("%(who)s's last move is taken back", who=proposer)
    if kind == "pause":
        return gettext("The clocks are paused")
    if kind == "draw":
        return gettext("The game ends with a result shared by the players still in it")
    return gettext("The game is aborted, with no result")


CLOSED_WORDS = {
    "withdrawn": (
        N_("you withdraw the proposal to %(asks)s"),
        N_("%(who)s withdraws the proposal to %(asks)s"),
    ),
    "lapsed": (
        N_("Your proposal to %(asks)s lapsed unanswered"),
        N_("%(who)s's proposal to %(asks)s lapsed unanswered"),
    ),
    "void": (
        N_("Your proposal to %(asks)s is void: the game moved on"),
        N_("%(who)s's proposal to %(asks)s is void: the game moved on"),
    ),
}
"""How a proposal withdrawn, lapsed or void is told: in its proposer's own voice, and as the
others read it (the proposer as %(who)s)."""


def proposal_line(event: Event, seats: list[SeatRecord], reader: int | None) -> str:
    """A proposal's event in one line, in the reader's voice and language ("you propose to
    take back your last move"; "Bo accepts: Ada's last move is taken back")."""

    def who(seat: int | None) -> str:
        return gettext("the clock") if seat is None else seat_name(seats[seat])

    def said(seat: int | None, yours: str, theirs: str, **params: Any) -> str:
        """`yours` when the reader did it, else `theirs` with the doer as %(who)s."""
        if seat is not None and seat == reader:
            return gettext(yours, **params)
        return gettext(theirs, who=who(seat), **params)

    if event["type"] == EventType.PROPOSAL_MADE:
        proposer = event["seat"]
        asks = _asks(event["kind"], proposer == reader, event.get("days", 0))
        return said(
            proposer, N_("you propose to %(asks)s"), N_("%(who)s proposes to %(asks)s"), asks=asks
        )
    if event["type"] == EventType.PROPOSAL_ANSWERED:
        return said(
            event["seat"],
            N_("you accept the proposal; others still to answer"),
            N_("%(who)s accepts the proposal; others still to answer"),
        )
    if event["type"] != EventType.PROPOSAL_CLOSED:
        return ""
    proposer, kind = event["proposer"], event["kind"]
    mine = proposer == reader
    asked = _asks(kind, mine)
    if event["result"] == "accepted":
        done = _done(kind, mine, who(proposer))
        return said(
            event["by"], N_("you accept: %(done)s"), N_("%(who)s accepts: %(done)s"), done=done
        )
    if event["result"] == "declined":
        proposal = (
            gettext("your proposal to %(asks)s", asks=asked)
            if mine
            else gettext("%(who)s's proposal to %(asks)s", who=who(proposer), asks=asked)
        )
        return said(
            event["by"],
            N_("you decline %(proposal)s"),
            N_("%(who)s declines %(proposal)s"),
            proposal=proposal,
        )
    yours, theirs = CLOSED_WORDS[event["result"]]
    return said(proposer, yours, theirs, asks=asked)


def render(
    game: Game,
    seats: list[SeatRecord],
    event: Event,
    reader: int | None,
    first_seat: int = 0,
    deleted: Collection[str] = (),
) -> dict[str, Any]:
    """One event as `reader` (None: a spectator) may read it. The lines name a seat by its
    number from `first_seat`: 0 as the API counts (its `seat` fields), 1 for people. The
    `deleted` players (the snapshot's) are not named, though their events hold their name."""
    item: dict[str, Any] = {
        "version": event["version"],
        "type": event["type"],
        "at": iso(event["at"]),
        "lines": [],
    }
    if event["type"] == EventType.GAME_CREATED:
        item["lines"] = [
            {
                "text": gettext(
                    "a game of %(title)s was created; the seed's commitment is %(commitment)s",
                    title=game.info.title,
                    commitment=event["commitment"],
                ),
                "data": {"commitment": event["commitment"], "options": event["options"]},
            }
        ]
    elif event["type"] == EventType.PLAYER_JOINED:
        item["seat"] = event["seat"]
        number = event["seat"] + first_seat
        who = gettext(DELETED_NAME) if event["player_id"] in deleted else event["name"]
        item["lines"] = [
            {"text": gettext("%(who)s took seat %(number)s", who=who, number=number), "data": {}}
        ]
    elif event["type"] == EventType.INVITATION_DECLINED:
        item["seat"] = event["seat"]
        number = event["seat"] + first_seat
        who = gettext(DELETED_NAME) if event["player_id"] in deleted else event["name"]
        text = gettext("%(who)s declined the invitation to seat %(number)s", who=who, number=number)
        item["lines"] = [{"text": text, "data": {}}]
    elif event["type"] == EventType.GAME_CANCELLED:
        item["lines"] = [
            {
                "text": gettext("the game was aborted by its players: no result")
                if event["reason"] == "aborted"
                else gettext("the game was cancelled: an invited player declined"),
                "data": {"reason": event["reason"]},
            }
        ]
    elif event["type"] == EventType.GAME_STARTED:
        item["lines"] = lines(event["entries"], reader, seats, game.info.name)
    elif event["type"] == EventType.ACTION_TAKEN:
        item["seat"] = event["seat"]
        if reader is not None and reader == event["seat"]:
            item["move"] = game.format(event["action"])
        item["lines"] = lines(event["entries"], reader, seats, game.info.name)
    elif event["type"] == EventType.PLAYER_RESIGNED:
        item["seat"] = event["seat"]
        who = seat_name(seats[event["seat"]])
        text = gettext(
            "%(who)s left the game (%(reason)s)",
            who=who,
            reason=reason_words(game.info.name, event["reason"]),
        )
        item["lines"] = [{"text": text, "data": {}}]
        item["lines"] += lines(event.get("entries", []), reader, seats, game.info.name)
    elif event["type"] == EventType.TURN_TIMED_OUT:
        item["seat"] = event["seat"]
        who = seat_name(seats[event["seat"]])
        text = gettext(
            "%(who)s ran out of time (%(policy)s)",
            who=who,
            policy=reason_words(game.info.name, event["policy"]),
        )
        if event.get("reason") == "withdrawn":
            text = gettext(
                "%(who)s has withdrawn from the tournament: the computer plays for them", who=who
            )
        item["lines"] = [{"text": text, "data": {}}]
    elif event["type"] == EventType.PLAYER_DELETED:
        item["lines"] = [{"text": gettext("a player deleted their account"), "data": {}}]
    elif event["type"] == EventType.MESSAGE_HIDDEN:  # for the message's readers only
        item["lines"] = [{"text": gettext("a message was hidden by the moderators"), "data": {}}]
    elif event["type"] == EventType.MESSAGE_SENT:  # for its readers only (`readable`)
        item["seat"] = event["seat"]
        item["message"] = {
            "text": event["text"],
            "private": event["private"],
            "to": recipient(event),
        }
        item["lines"] = [{"text": said(event, seats, reader), "data": {}}]
    elif event["type"] == EventType.PROPOSAL_MADE or event["type"] == EventType.PROPOSAL_ANSWERED:
        item["seat"] = event["seat"]
        item["lines"] = [{"text": proposal_line(event, seats, reader), "data": {}}]
    elif event["type"] == EventType.PROPOSAL_CLOSED:
        item["seat"] = event["proposer"]
        item["lines"] = [{"text": proposal_line(event, seats, reader), "data": {}}]
    elif event["type"] == EventType.CALENDAR_SET:
        item["seat"] = event["seat"]
        who = seat_name(seats[event["seat"]])
        spans = [
            {"starts_at": iso(a), "ends_at": iso(b)} for a, b in event["calendar"]["vacations"]
        ]
        dates = "; ".join(f"from {s['starts_at']} to {s['ends_at']}" for s in spans)
        item["lines"] = [
            {
                "text": f"{who}'s vacations: {dates}" if spans else f"{who} has no vacation ahead",
                "data": {"vacations": spans},
            }
        ]
    elif event["type"] == EventType.GAME_ENDED:
        winners = [seat_name(seats[s]) for s in event["outcome"]["winners"]]
        item["lines"] = [
            {
                "text": gettext(
                    "the game ended (%(reason)s); won by %(winners)s; the seed was %(seed)s",
                    reason=reason_words(game.info.name, event["outcome"]["reason"]),
                    winners=", ".join(winners) or gettext("nobody"),
                    seed=event["seed"],
                ),
                "data": {"outcome": event["outcome"], "seed": event["seed"]},
            }
        ]
    return item
