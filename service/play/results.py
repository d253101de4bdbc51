"""A finished game's result for the ratings and the players' records (service.ratings), read
from its snapshot: who sat where and each seat's place (service.ratings.model.places: the
winners, the others by score, then those who resigned or forfeited, the first to leave last)."""

from __future__ import annotations

from service.play import history
from service.ratings.model import places
from service.ratings.results import Result, ResultSeat
from store.snapshot import Snapshot


def result_of(snap: Snapshot) -> Result | None:
    """The result of a finished game (None for any other: a cancelled game never counts)."""
    if snap["status"] != "finished" or snap["match"] is None:
        return None
    match = history.match_of(snap)
    outcome = match["outcome"]
    if outcome is None:
        return None
    found = places(len(snap["seats"]), outcome["winners"], outcome["scores"], match["resigned"])
    seats = []
    for seat, record in enumerate(snap["seats"]):
        if record["kind"] == "player":
            seats.append(ResultSeat(seat, record["player_id"], record["name"], True, found[seat]))
        elif record["kind"] == "bot":
            seats.append(ResultSeat(seat, record["name"], record["name"], False, found[seat]))
        else:  # a finished game has every seat taken
            raise ValueError(f"game {snap['id']}: seat {seat} is {record['kind']}")
    return Result(
        snap["id"], snap["game"], snap["updated_at"], snap.get("rated", False), tuple(seats)
    )
