"""How to play: a page per title for a person who has never played it (issue 38): the goal,
a turn in a few steps, the end and the scoring, each beside a picture of a real game at that
point (service/play/how_to_play replays it through the engine; the board renderer draws it
from one player's view), and the options a new game offers, in plain words. The words are
the templates' (templates/how_to_play/<title>.html), whole sentences, ready for translation."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext
from markupsafe import Markup

from engine import registry
from service.play.how_to_play import LESSONS, PAGES, READER, page_path, positions

from .blueprint import page, pages
from .i18n import reader_language


@pages.get(PAGES)
def how_to_play_index():
    return page(
        "how_to_play_index.html",
        gettext("How to play"),
        games=[(page_path(name), game.info.title) for name, game in sorted(registry.GAMES.items())],
    )


@pages.get(f"{PAGES}/<game>")
def how_to_play(game: str):
    if game not in registry.GAMES or game not in LESSONS:
        abort(404)
    info = registry.GAMES[game].info
    lesson = LESSONS[game]
    opening, turn, end = positions(game, reader_language())
    return page(
        f"how_to_play/{game}.html",
        gettext("How to play %(title)s", title=info.title),
        game=game,
        info=info,
        you=lesson.names[READER],
        others=[n for seat, n in enumerate(lesson.names) if seat != READER],
        pictures={
            p.kind: {"position": p, "board": Markup(p.board)}  # drawn and escaped by the renderer
            for p in (opening, turn, end)
        },
        options={key: spec.default for key, spec in info.options.items()},
    )
