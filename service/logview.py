"""The event log as one reader may see it.

Every event is rendered by whitelist: the seed in GameCreated and the raw action of
ActionTaken are never shown (an action may be a secret choice); a seat sees its own move in
notation, and the log lines the game wrote for it.
"""
from __future__ import annotations

from typing import Any

from engine.core import Game, LogEntry

from .timefmt import iso


def seat_name(seat_record: dict) -> str:
    if seat_record["kind"] == "open":
        return "an open seat"
    if seat_record["kind"] == "invited":
        return f"{seat_record['name']} (invited)"
    return seat_record["name"]


def with_names(text: str, seats: list[dict]) -> str:
    for number, record in enumerate(seats):
        text = text.replace("{seat%d}" % number, seat_name(record))
    return text


def lines(entries: list[dict], reader: int | None, seats: list[dict]) -> list[dict[str, Any]]:
    visible = (LogEntry.from_json(e) for e in entries)
    return [{"text": with_names(e.text, seats), "data": e.data}
            for e in visible if e.visible_to(reader)]


def render(game: Game, seats: list[dict], event: dict, reader: int | None) -> dict[str, Any]:
    kind = event["type"]
    item: dict[str, Any] = {"version": event["version"], "type": kind, "at": iso(event["at"]),
                            "lines": []}
    if kind == "GameCreated":
        item["lines"] = [{"text": f"a game of {game.info.title} was created; the seed's "
                                  f"commitment is {event['commitment']}",
                          "data": {"commitment": event["commitment"], "options": event["options"]}}]
    elif kind == "PlayerJoined":
        item["seat"] = event["seat"]
        item["lines"] = [{"text": f"{event['name']} took seat {event['seat']}", "data": {}}]
    elif kind == "InvitationDeclined":
        item["seat"] = event["seat"]
        item["lines"] = [{"text": f"{event['name']} declined the invitation to seat "
                                  f"{event['seat']}", "data": {}}]
    elif kind == "GameCancelled":
        item["lines"] = [{"text": "the game was cancelled: an invited player declined",
                          "data": {"reason": event["reason"]}}]
    elif kind in ("GameStarted", "ActionTaken", "PlayerResigned"):
        if "seat" in event:
            item["seat"] = event["seat"]
        if kind == "ActionTaken" and reader is not None and reader == event["seat"]:
            item["move"] = game.format(event["action"])
        if kind == "PlayerResigned":
            who = seat_name(seats[event["seat"]])
            item["lines"].append({"text": f"{who} left the game ({event['reason']})", "data": {}})
        item["lines"] += lines(event.get("entries", []), reader, seats)
    elif kind == "TurnTimedOut":
        item["seat"] = event["seat"]
        item["lines"] = [{"text": f"{seat_name(seats[event['seat']])} ran out of time "
                                  f"({event['policy']})", "data": {}}]
    elif kind == "GameEnded":
        winners = [seat_name(seats[s]) for s in event["outcome"]["winners"]]
        item["lines"] = [{"text": f"the game ended ({event['outcome']['reason']}); "
                                  f"won by {', '.join(winners) or 'nobody'}; the seed was "
                                  f"{event['seed']}",
                          "data": {"outcome": event["outcome"], "seed": event["seed"]}}]
    return item
