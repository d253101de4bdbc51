"""A seat's legal moves in words, for the person who may make them: the game's `describe`,
which reads the seat's view only (so it cannot tell what the seat may not know), with the
other seats' tokens replaced by their public names as in the log (`logview.game_words`: the
reader's own seat, should a game name it, is "you"), in the language spoken now. The one place every surface takes a
move's words from: the API's legal moves and the seat's table (service.play.table), which the
game page, the turn page, the turn email and its links render."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Action, Game
from service.play import history
from service.play.logview import game_words
from store.snapshot import Snapshot


def said_to(
    game: Game, view: Any, seats: Sequence[Any], seat: int, actions: Sequence[Action]
) -> list[str]:
    """Each of `actions` (legal for `seat` now, whose view is `view`) in words, as said to
    that seat (`seats`: the game's seat records, for the names)."""
    words = (game.describe(view, action) for action in actions)
    return [game_words(game.info.name, text, list(seats), seat) for text in words]


def describe_moves(snap: Snapshot, seat: int, actions: list[Action]) -> list[str]:
    """Each of `actions` (legal for `seat` now) in words, from the game's snapshot."""
    game = history.game_of(snap)
    view = game.view(history.match_of(snap)["state"], seat)
    return said_to(game, view, snap["seats"], seat, actions)
