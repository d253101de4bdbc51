"""Pages for people, outside the JSON API: a game's public page, the turn page and the
confirmation page of a one-click move link from a turn email (GET only shows them, so a mail
scanner that fetches a link changes nothing; the button POSTs). The web client (web/) has the
pages of a signed-in player."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template_string, request
from markupsafe import Markup

from service.errors import ErrorCode, ServiceError
from service.play import boards, composer, history
from service.play.games import summarize
from service.play.logview import render, seat_name
from store.record import Event, EventType, Snapshot

pages = Blueprint("pages", __name__)

LAYOUT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} · turnpost</title>
<style>body{font-family:sans-serif;max-width:46em;margin:2em auto;padding:0 1em}
button{font-size:1.2em;padding:.4em 1.2em}pre{white-space:pre-wrap}
.log li{margin:.2em 0}.log .v{color:#5b6775;font-size:.85em}
nav.pages a,nav.pages span{margin-right:1em}</style></head>
<body><h1>{{ title }}</h1>{{ body }}</body></html>"""

GAME_PAGE = """{% if result %}<p><strong>{{ result }}</strong></p>{% endif %}
<p>Game {{ s.id }} · {{ s.status }} · move {{ s.version }}</p>
<ul>{% for seat in s.seats %}<li>{{ seat.name or "an open seat" }}
{% if seat.kind == "invited" %} (invited){% endif %}
{% if seat.seat in s.active_seats %} (to move{% if seat.deadline %}, by {{ seat.deadline }}{% endif %})
{% endif %}</li>{% endfor %}</ul>
{% if score %}<p>Score: {{ score }}</p>{% endif %}
{% if board %}<h2>The table, as a spectator sees it</h2>{{ board }}
{% elif s.status == "cancelled" %}<p>The game was cancelled: an invited player declined.</p>
{% else %}<p>The game starts when every seat is taken.</p>{% endif %}
<h2 id="log">What everyone has seen</h2>
{{ pager }}
<ol class="log" start="{{ first }}">{% for item in items %}<li value="{{ item.version }}">
{% for line in item.lines %}{{ line }}{% if not loop.last %}<br>{% endif %}{% endfor %}</li>
{% endfor %}</ol>
{{ pager }}
<p>Players see their own hand and moves in their turn emails, or through the API
(<a href="/docs">docs</a>).</p>"""

PAGER = """<nav class="pages">{% if page > 1 %}<a href="?page=1#log">first</a>
<a href="?page={{ page - 1 }}#log" rel="prev">&laquo; earlier</a>{% endif %}
<span>events {{ first }} to {{ last }} of {{ total }} (page {{ page }} of {{ pages }})</span>
{% if page < pages %}<a href="?page={{ page + 1 }}#log" rel="next">later &raquo;</a>
<a href="?page={{ pages }}#log">latest</a>{% endif %}</nav>"""

CONFIRM_PAGE = """<p>{{ message }}</p>
<form method="post"><button type="submit">Play {{ notation }}</button></form>
<p><a href="{{ game_url }}">See the game</a></p>"""

RESULT_PAGE = """<p>{{ message }}</p>{% if game_url %}<p><a href="{{ game_url }}">See the game</a></p>{% endif %}"""

STATUS_CODES = {
    "played": 200,
    "ready": 200,
    "used": 409,
    "stale": 409,
    "refused": 409,
    "expired": 410,
    "invalid": 404,
}


def _page(title: str, body: str, status: int = 200, **values):
    inner = Markup(render_template_string(body, **values))  # already escaped
    return (
        render_template_string(LAYOUT, title=title, body=inner),
        status,
        {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"},
    )


def _services():
    return current_app.extensions["turnpost"]["services"]


LOG_PAGE = 50  # events per page of a game's public log


@pages.get("/play/<game_id>")
def game_page(game_id: str):
    """A game as anyone may see it: the result, the score, the spectator's board, and the
    whole public log in pages of LOG_PAGE events (the latest page unless ?page=N)."""
    games = _services().games
    try:
        snap = games.load(game_id)
    except ServiceError as err:
        if err.error is not ErrorCode.GAME_NOT_FOUND:
            raise
        return _page(
            "No such game", RESULT_PAGE, 404, message="There is no such game.", game_url=None
        )
    game = history.game_of(snap)
    total = snap["version"]
    pages_count = max(1, -(-total // LOG_PAGE))
    wanted = request.args.get("page", str(pages_count))
    if not wanted.isdigit() or not 1 <= int(wanted) <= pages_count:
        return _page(
            "No such page",
            RESULT_PAGE,
            404,
            message=f"This game's log has {pages_count} pages of {LOG_PAGE} events.",
            game_url=f"/play/{game_id}",
        )
    page = int(wanted)
    events = games.games.events(game_id, after=(page - 1) * LOG_PAGE, count=LOG_PAGE)
    items = [{"version": e["version"], "lines": _public_lines(game, snap, e)} for e in events]
    first, last = (page - 1) * LOG_PAGE + 1, (page - 1) * LOG_PAGE + len(events)
    pager = Markup(
        render_template_string(
            PAGER, page=page, pages=pages_count, first=first, last=last, total=total
        )
    )
    started = snap["match"] is not None
    winners = _winners(snap)
    title = f"{game.info.title}: {_players(snap)}" + (f" \u2014 {winners}" if winners else "")
    result = f"Game over: {winners} ({snap['match']['outcome']['reason']})." if winners else None
    return _page(
        title,
        GAME_PAGE,
        s=summarize(snap),
        result=result,
        score=boards.score_line(snap, None) if started else None,
        board=Markup(boards.seat_html(snap, None)) if started else None,
        items=items,
        first=first,
        pager=pager,
    )


def _public_lines(game, snap: Snapshot, event: Event) -> list[str]:
    """What a spectator may read of one event; a move whose lines are all private (a choice
    made face down) still shows that its player moved."""
    lines = [line["text"] for line in render(game, snap["seats"], event, None)["lines"]]
    if not lines and event["type"] == EventType.ACTION_TAKEN:
        lines = [f"{seat_name(snap['seats'][event['seat']])} moved"]
    return lines


def _players(snap: Snapshot) -> str:
    return " vs ".join(seat_name(record) for record in snap["seats"])


def _winners(snap: Snapshot) -> str | None:
    """ "Ada won", "Ada, Bo share the win" once the game is over; else None."""
    outcome = snap["match"] and snap["match"]["outcome"]
    if not outcome:
        return None
    winners = [seat_name(snap["seats"][s]) for s in outcome["winners"]]
    return (
        f"{winners[0]} won"
        if len(winners) == 1
        else f"{', '.join(winners)} share the win"
        if winners
        else "nobody won"
    )


@pages.get("/m/<token>")
def confirm_move(token: str):
    state = _services().one_click.inspect(token)
    if state.status == "ready":
        return _page(
            "Play this move?",
            CONFIRM_PAGE,
            message=state.message,
            notation=state.link.notation,
            game_url=_game_url(state),
        )
    return _result(state)


@pages.post("/m/<token>")
def play_move(token: str):
    return _result(_services().one_click.confirm(token))


def _result(state):
    title = "Move played" if state.status == "played" else "Move not played"
    return _page(
        title,
        RESULT_PAGE,
        STATUS_CODES[state.status],
        message=state.message,
        game_url=_game_url(state),
    )


def _game_url(state) -> str | None:
    return f"/play/{state.game_id}" if state.game_id else None


TURN_PAGE = """{% if message %}<p><strong>{{ message }}</strong></p>{% endif %}
{% if caused %}<h2>What happened</h2><ul class="log">{% for line in caused %}<li>{{ line }}</li>
{% endfor %}</ul>{% endif %}
{% if next_url %}<p><a href="{{ next_url }}"><strong>Your turn goes on: choose your next
step</strong></a></p>{% endif %}
{% if board %}<h2>The table as you see it</h2>{{ board }}{% endif %}
{% if forms %}<h2>Your move</h2>
<p>Choose below, then press Play: only one of your legal moves can be played.</p>
{% for f in forms %}<form method="post"><fieldset><legend>{{ f.legend }}
{% if f.count > 1 %}({{ f.count }} ways){% endif %}</legend>
<input type="hidden" name="type" value="{{ f.action_type }}">
{% for c in f.choices %}<label>{{ c.label }} <select name="{{ c.name }}" required>
<option value="">choose…</option>{% for value, text in c.options %}<option value="{{ value }}">{{ text }}</option>{% endfor %}
</select></label> {% endfor %}<button type="submit">Play</button>
</fieldset></form>{% endfor %}{% endif %}
{% if game_url %}<p><a href="{{ game_url }}">The game's public page</a></p>{% endif %}"""

TURN_STATUS_CODES = {
    "ready": 200,
    "played": 200,
    "refused": 409,
    "stale": 409,
    "over": 410,
    "expired": 410,
    "invalid": 404,
}


@pages.get("/t/<token>")
def turn_page(token: str):
    return _turn(_services().one_click.open_turn(token))


@pages.post("/t/<token>")
def play_turn(token: str):
    return _turn(_services().one_click.play_turn(token, request.form))


def _turn(page):
    snap, link = page.snap, page.link
    if snap is None or link is None:
        return _page(
            "Turn page",
            RESULT_PAGE,
            TURN_STATUS_CODES[page.status],
            message=page.message,
            game_url=None,
        )
    game = history.game_of(snap)
    title = {"ready": f"Your turn in {game.info.title}", "played": "Move played"}.get(
        page.status, f"{game.info.title}: no move made"
    )
    board = Markup(boards.seat_html(snap, link.seat)) if snap["match"] is not None else None
    forms = [
        {
            "legend": _notation_of(game, form.action_type),
            "count": form.count,
            "action_type": form.action_type,
            "choices": form.choices,
        }
        for form in page.forms
    ]
    return _page(
        title,
        TURN_PAGE,
        TURN_STATUS_CODES[page.status],
        message=page.message,
        caused=page.caused,
        next_url=page.next_url,
        forms=forms,
        board=board,
        game_url=f"/play/{snap['id']}",
    )


def _notation_of(game, action_type: str) -> str:
    """The game's help line for this kind of move, or its type when it has none."""
    return next(iter(composer.notation_lines(game.info.notation, [action_type])), action_type)
