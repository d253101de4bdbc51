"""A finished game's result, as the ratings and the players' records take it: who sat where,
each seat's place, whether the game was rated. service.play makes it from the snapshot
(service.play.results); nothing here reads a game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResultSeat:
    seat: int
    player: str
    """The player's id, or `bot:<name>` for a bot (a bot is rated as a player of its own)."""
    name: str
    person: bool
    place: int
    """1 is first; tied seats share a place."""


@dataclass(frozen=True)
class Result:
    game_id: str
    game: str
    """The title's name (`nautilus`)."""
    at: int
    """When the game ended (epoch ms)."""
    rated: bool
    seats: tuple[ResultSeat, ...]

    @property
    def winners(self) -> list[int]:
        return [s.seat for s in self.seats if s.place == 1]
