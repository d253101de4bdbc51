"""The snapshot: a game as of its last event, folded from its log (store.record's events).

It holds everything, the secret seed included, so it stays in `service/play` (which folds it
and builds each reader's table from it, service/play/table.py) and the store: an import-linter
contract in pyproject.toml forbids importing this module anywhere else. A surface renders a
seat's table, never the snapshot.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from store.record import SeatRecord, TimeControl, TournamentLink


class Snapshot(TypedDict):
    """A game as of its last event: `service.play.history.fold` is the only code that makes
    one. Server-side: summaries and views are built from it by whitelist."""

    id: str
    game: str
    rules_version: int
    options: dict[str, Any]
    time_control: TimeControl | None
    commitment: str
    seats: list[SeatRecord]
    status: Literal["open", "active", "finished", "cancelled"]
    match: dict[str, Any] | None
    """The engine's match (engine.match): state, counter, outcome, seat_since; None until the
    game starts."""
    deadlines: list[int | None]
    active_seats: list[int]
    timed_out: list[int]
    created_at: int
    secret_seed: str
    revealed_seed: str | None
    created_by: str | None
    if_declined: str
    declined: list[dict[str, Any]]
    rated: NotRequired[bool]
    """Whether the game counts for the players' ratings (absent: created before ratings, not
    rated)."""
    tournament: NotRequired[TournamentLink | None]
    """The tournament the game is a part of (absent or None: none)."""
    version: int
    updated_at: int
