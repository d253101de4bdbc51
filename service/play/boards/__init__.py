"""Boards: every game drawn for people, from one seat's view only.

`text_board` gives a monospace board (plain-text email, terminals, `text/plain` from the API);
`html_board` a picture of the table for HTML email and pages (inline styles only). Both take
the view a seat may see (`GameService.view`'s dict: the game's `view(state, seat)` with its
envelope), the seats' public names and, once the game is over, its public outcome. A renderer
never sees the game's state, so it can show nothing the seat may not know.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import registry
from engine.match import active_seats, start
from service.play.boards import buttons, consonar, generic, nautilus, ninedomains
from service.play.boards.common import Html
from service.play.boards.table import Table
from service.play.history import match_of, seat_view
from service.play.logview import seat_name
from service.words import speaking
from store.snapshot import Snapshot

RENDERERS = {
    "buttons": buttons,
    "consonar": consonar,
    "nautilus": nautilus,
    "ninedomains": ninedomains,
}

__all__ = [
    "Html",
    "Table",
    "html_board",
    "opening_html",
    "score_line",
    "scores_of",
    "seat_boards",
    "seat_html",
    "seat_text",
    "text_board",
]


def _renderer(view: dict[str, Any]):
    return RENDERERS.get(view.get("game", ""), generic)


def text_board(
    view: dict[str, Any], names: list[str], outcome: dict[str, Any] | None = None
) -> str:
    """The board as monospace text, lines of at most 72 columns, ending with a newline."""
    return _renderer(view).text(Table(view, names, outcome))


def html_board(
    view: dict[str, Any],
    names: list[str],
    outcome: dict[str, Any] | None = None,
    marks: frozenset[str] = frozenset(),
) -> Html:
    """The board as one HTML table with inline styles, safe to put into a page or an email.
    The parts a move may pick (service/play/parts) carry their names in `data-part`; those in
    `marks` are marked as changed since the reader's last move."""
    return _renderer(view).html(Table(view, names, outcome, marks))


def _parts(snap: Snapshot, seat: int | None) -> tuple[dict, list[str], dict | None]:
    """A started game's snapshot -> the seat's view, the seats' names, the outcome."""
    return (
        seat_view(snap, seat),
        [seat_name(record) for record in snap["seats"]],
        match_of(snap)["outcome"],
    )


def seat_text(snap: Snapshot, seat: int | None) -> str:
    """The text board of a started game's snapshot as `seat` (None: a spectator) sees it."""
    return text_board(*_parts(snap, seat))


def seat_html(snap: Snapshot, seat: int | None) -> Html:
    """The HTML board of a started game's snapshot as `seat` (None: a spectator) sees it."""
    return html_board(*_parts(snap, seat))


def seat_boards(snap: Snapshot, seat: int | None) -> tuple[str, Html]:
    """Both boards: the only way from a snapshot to a board goes through the seat's view."""
    parts = _parts(snap, seat)
    return text_board(*parts), html_board(*parts)


def score_line(snap: Snapshot, seat: int | None) -> str | None:
    """ "Ada 3 · Bo 2": the final scores once the game is over, else the score so far as the
    seat's view shows it (None where the game keeps no score)."""
    return scores_of(*_parts(snap, seat))


def scores_of(
    view: dict[str, Any], names: list[str], outcome: dict[str, Any] | None = None
) -> str | None:
    """`score_line` from a seat's view, the seats' names and the outcome."""
    table = Table(view, names, outcome)
    values = (
        outcome["scores"]
        if outcome and outcome.get("scores") is not None
        else _renderer(table.view).scores(table.view)
    )
    if values is None:
        return None
    return " \u00b7 ".join(
        f"{table.name(s)} {'?' if v is None else f'{v:g}'}" for s, v in enumerate(values)
    )


OPENING_SEED = b"turnpost: the front page's picture of each game"


@cache
def opening_html(game_name: str, language: str | None = None) -> Html:
    """The table at the start of a game between its fewest players, as a spectator sees it
    (always the same deal), for the front page's picture of the game, its words in `language`
    (English when None): drawn once per language."""
    game = registry.GAMES[game_name]
    players = game.info.min_players
    match, _ = start(game, players, None, OPENING_SEED, 1)
    view = {
        "game": game_name,
        "version": 1,
        "seat": None,
        "active_seats": sorted(active_seats(game, match)),
        **game.view(match["state"], None),
    }
    with speaking(language):
        return html_board(view, ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:players], None)
