"""Pages for people, outside the JSON API: a game's public page, and the confirmation page of
a one-click move link (GET only shows it, so a mail scanner that fetches the link plays
nothing; the button POSTs)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template_string
from markupsafe import Markup

from service.errors import NotFound
from service.logview import render
from service.games import summarize
from service import history

pages = Blueprint("pages", __name__)

LAYOUT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} · turnpost</title>
<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em}
button{font-size:1.2em;padding:.4em 1.2em}pre{white-space:pre-wrap}</style></head>
<body><h1>{{ title }}</h1>{{ body }}</body></html>"""

GAME_PAGE = """<p>Game {{ s.id }} · {{ s.status }} · move {{ s.version }}</p>
<ul>{% for seat in s.seats %}<li>{{ seat.name or "an open seat" }}
{% if seat.seat in s.active_seats %} (to move{% if seat.deadline %}, by {{ seat.deadline }}{% endif %})
{% endif %}</li>{% endfor %}</ul>
{% if s.outcome %}<p>Over: {{ s.outcome.reason }}.</p>{% endif %}
<h2>What everyone has seen</h2><ol>{% for line in lines %}<li>{{ line }}</li>{% endfor %}</ol>
<p>Players see their own hand and moves through the API
(<a href="/docs">docs</a>) or in their turn emails.</p>"""

CONFIRM_PAGE = """<p>{{ message }}</p>
<form method="post"><button type="submit">Play {{ notation }}</button></form>
<p><a href="{{ game_url }}">See the game</a></p>"""

RESULT_PAGE = """<p>{{ message }}</p>{% if game_url %}<p><a href="{{ game_url }}">See the game</a></p>{% endif %}"""

STATUS_CODES = {"played": 200, "ready": 200, "used": 409, "stale": 409, "refused": 409,
                "expired": 410, "invalid": 404}


def _page(title: str, body: str, status: int = 200, **values):
    inner = Markup(render_template_string(body, **values))   # already escaped
    return render_template_string(LAYOUT, title=title, body=inner), status, {
        "Cache-Control": "no-store", "X-Robots-Tag": "noindex"}


def _services():
    return current_app.extensions["turnpost"]["services"]


@pages.get("/play/<game_id>")
def game_page(game_id: str):
    games = _services().games
    try:
        snap = games.load(game_id)
    except NotFound:
        return _page("No such game", RESULT_PAGE, 404, message="There is no such game.",
                     game_url=None)
    game = history.game_of(snap)
    events = games.games.events(game_id, after=max(0, snap["version"] - 50))
    lines = [line["text"] for e in events
             for line in render(game, snap["seats"], e, None)["lines"]]
    return _page(game.info.title, GAME_PAGE, s=summarize(snap), lines=lines)


@pages.get("/m/<token>")
def confirm_move(token: str):
    state = _services().one_click.inspect(token)
    if state.status == "ready":
        return _page("Play this move?", CONFIRM_PAGE, message=state.message,
                     notation=state.link.notation, game_url=_game_url(state))
    return _result(state)


@pages.post("/m/<token>")
def play_move(token: str):
    return _result(_services().one_click.confirm(token))


def _result(state):
    title = "Move played" if state.status == "played" else "Move not played"
    return _page(title, RESULT_PAGE, STATUS_CODES[state.status], message=state.message,
                 game_url=_game_url(state))


def _game_url(state) -> str | None:
    return f"/play/{state.game_id}" if state.game_id else None
