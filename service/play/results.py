"""A finished game's result for the ratings and the players' records (service.ratings), read
from its snapshot: who sat where and each seat's place (service.ratings.model.places: the
winners, the others by score, then those who resigned or forfeited, the first to leave last)."""

from __future__ import annotations

from dataclasses import dataclass

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
    gone = history.deleted_players(snap)  # rated still, but with no record of theirs to keep
    for seat, record in enumerate(snap["seats"]):
        if record["kind"] == "player":
            person = record["player_id"] not in gone
            seats.append(ResultSeat(seat, record["player_id"], record["name"], person, found[seat]))
        elif record["kind"] == "bot":
            seats.append(ResultSeat(seat, record["name"], record["name"], False, found[seat]))
        else:  # a finished game has every seat taken
            raise ValueError(f"game {snap['id']}: seat {seat} is {record['kind']}")
    return Result(
        snap["id"], snap["game"], snap["updated_at"], snap.get("rated", False), tuple(seats)
    )


@dataclass(frozen=True)
class TournamentGameResult:
    """A finished tournament game, as its tournament records it (service.tournaments)."""

    tournament_id: str
    round: int
    game_id: str
    first_score: float
    """The first seat's score: 1 for a win, 1/2 for a draw (a shared first place), 0 for a
    loss; the second seat has 1 minus it."""
    lost_on_time: str | None
    """The player who forfeited the game by running out of time, if one did."""


def tournament_result_of(snap: Snapshot) -> TournamentGameResult | None:
    """The result of a finished game of a tournament (None for any other game)."""
    link = snap.get("tournament")
    result = result_of(snap)
    if not link or result is None or len(result.seats) != 2:
        return None
    first, second = sorted(result.seats, key=lambda s: s.seat)
    score = 1.0 if first.place < second.place else 0.0 if first.place > second.place else 0.5
    lost_on_time = None
    outcome = history.match_of(snap)["outcome"] or {}
    if outcome.get("reason") == "forfeit":
        left = [s for s in history.match_of(snap)["resigned"] if s in (0, 1)]
        lost_on_time = result.seats[left[0]].player if left else None
    return TournamentGameResult(link["id"], link["round"], snap["id"], score, lost_on_time)


def tournament_under_auto(snap: Snapshot) -> str | None:
    """The tournament of a game still being played whose clock is `auto` (whose withdrawn
    players' turns the computer plays), if it is one."""
    link = snap.get("tournament")
    control = snap["time_control"]
    if not link or snap["status"] != "active" or not control or control["on_timeout"] != "auto":
        return None
    return link["id"]
