"""The event log as one reader may see it.

Every event is rendered by whitelist: the seed in GameCreated and the raw action of
ActionTaken are never shown (an action may be a secret choice); a seat sees its own move in
notation, and the log lines the game wrote for it.
"""

from __future__ import annotations

import re
from typing import Any

from engine.core import Game, LogEntry
from service.timefmt import iso
from store.record import Event, EventType, SeatRecord


def seat_name(seat_record: SeatRecord) -> str:
    if seat_record["kind"] == "open":
        return "an open seat"
    if seat_record["kind"] == "invited":
        return f"{seat_record['name']} (invited)"
    return seat_record["name"]


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


def lines(entries: list[dict], reader: int | None, seats: list[SeatRecord]) -> list[dict[str, Any]]:
    visible = (LogEntry.from_json(e) for e in entries)
    return [
        {"text": with_names(e.text, seats, reader), "data": e.data}
        for e in visible
        if e.visible_to(reader)
    ]


def render(
    game: Game, seats: list[SeatRecord], event: Event, reader: int | None, first_seat: int = 0
) -> dict[str, Any]:
    """One event as `reader` (None: a spectator) may read it. The lines name a seat by its
    number from `first_seat`: 0 as the API counts (its `seat` fields), 1 for people."""
    item: dict[str, Any] = {
        "version": event["version"],
        "type": event["type"],
        "at": iso(event["at"]),
        "lines": [],
    }
    if event["type"] == EventType.GAME_CREATED:
        item["lines"] = [
            {
                "text": f"a game of {game.info.title} was created; the seed's "
                f"commitment is {event['commitment']}",
                "data": {"commitment": event["commitment"], "options": event["options"]},
            }
        ]
    elif event["type"] == EventType.PLAYER_JOINED:
        item["seat"] = event["seat"]
        number = event["seat"] + first_seat
        item["lines"] = [{"text": f"{event['name']} took seat {number}", "data": {}}]
    elif event["type"] == EventType.INVITATION_DECLINED:
        item["seat"] = event["seat"]
        number = event["seat"] + first_seat
        item["lines"] = [
            {"text": f"{event['name']} declined the invitation to seat {number}", "data": {}}
        ]
    elif event["type"] == EventType.GAME_CANCELLED:
        item["lines"] = [
            {
                "text": "the game was cancelled: an invited player declined",
                "data": {"reason": event["reason"]},
            }
        ]
    elif event["type"] == EventType.GAME_STARTED:
        item["lines"] = lines(event["entries"], reader, seats)
    elif event["type"] == EventType.ACTION_TAKEN:
        item["seat"] = event["seat"]
        if reader is not None and reader == event["seat"]:
            item["move"] = game.format(event["action"])
        item["lines"] = lines(event["entries"], reader, seats)
    elif event["type"] == EventType.PLAYER_RESIGNED:
        item["seat"] = event["seat"]
        who = seat_name(seats[event["seat"]])
        item["lines"] = [{"text": f"{who} left the game ({event['reason']})", "data": {}}]
        item["lines"] += lines(event.get("entries", []), reader, seats)
    elif event["type"] == EventType.TURN_TIMED_OUT:
        item["seat"] = event["seat"]
        who = seat_name(seats[event["seat"]])
        text = f"{who} ran out of time ({event['policy']})"
        if event.get("reason") == "withdrawn":
            text = f"{who} has withdrawn from the tournament: the computer plays for them"
        item["lines"] = [{"text": text, "data": {}}]
    elif event["type"] == EventType.GAME_ENDED:
        winners = [seat_name(seats[s]) for s in event["outcome"]["winners"]]
        item["lines"] = [
            {
                "text": f"the game ended ({event['outcome']['reason']}); "
                f"won by {', '.join(winners) or 'nobody'}; the seed was "
                f"{event['seed']}",
                "data": {"outcome": event["outcome"], "seed": event["seed"]},
            }
        ]
    return item
