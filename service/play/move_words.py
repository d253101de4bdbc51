"""A seat's legal moves in words, for the person who may make them: the game's `describe`,
which reads the seat's view only (so it cannot tell what the seat may not know), with the
other seats' tokens replaced by their public names as in the log (`logview.with_names`: the
reader's own seat, should a game name it, is "you"). The one place every surface takes a
move's words from: the API's legal moves, the game page's buttons and the turn email's links."""

from __future__ import annotations

from engine.core import Action
from service.play import history
from service.play.logview import with_names
from store.record import Snapshot


def describe_moves(snap: Snapshot, seat: int, actions: list[Action]) -> list[str]:
    """Each of `actions` (legal for `seat` now) in words, as said to that seat."""
    game = history.game_of(snap)
    view = game.view(history.match_of(snap)["state"], seat)
    seats = snap["seats"]
    words = (game.describe(view, action) for action in actions)
    return [with_names(text, seats, seat) if "{" in text else text for text in words]


def describe_move(snap: Snapshot, seat: int, action: Action) -> str:
    """One legal move of `seat` in words."""
    return describe_moves(snap, seat, [action])[0]
