"""Pages for people, outside the JSON API: a game's public page, the turn page and the
confirmation page of a one-click move link from a turn email (GET only shows them, so a mail
scanner that fetches a link changes nothing; the button POSTs). The web client (web/) has the
pages of a signed-in player."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template_string, request
from markupsafe import Markup

from service.errors import ErrorCode, ServiceError

pages = Blueprint("pages", __name__)

LAYOUT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} · turnpost</title>
<link rel="stylesheet" href="/assets/pages.css"></head>
<body><h1>{{ title }}</h1>{{ body }}</body></html>"""

GAME_PAGE = """{% if t.result %}<p><strong>{{ t.result }}.</strong></p>{% endif %}
<p>Game {{ t.game_id }} · {{ t.status }} · move {{ t.version }}</p>
<ul>{% for seat in t.seats %}<li>{{ seat.name }}
{% if seat.to_move %} (to move{% if seat.deadline %}, by {{ seat.deadline }}{% endif %})
{% endif %}</li>{% endfor %}</ul>
{% if t.score %}<p>Score: {{ t.score }}</p>{% endif %}
{% if t.proposals %}<h2>Proposals</h2><ul>{% for p in t.proposals %}<li>{{ p.words }}; waiting
for {{ p.waiting | join(", ") }} (it lapses {{ p.deadline }})</li>{% endfor %}</ul>{% endif %}
{% if t.board_html %}<h2>The table, as a spectator sees it</h2>{{ t.board_html | safe }}
{% elif t.status == "cancelled" %}<p>The game was cancelled: an invited player declined.</p>
{% else %}<p>The game starts when every seat is taken.</p>{% endif %}
<h2 id="log">What everyone has seen</h2>
{{ pager }}
<ol class="log" start="{{ t.log.first }}">{% for item in t.log.entries %}<li value="{{ item.number }}">
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
    """A game as anyone may see it: the spectator's table (the result, the score, the board),
    and the whole public log in pages of LOG_PAGE events (the latest page unless ?page=N)."""
    wanted = request.args.get("page", "")
    try:
        table = _services().tables.for_player(
            game_id, None, page=int(wanted) if wanted.isdigit() else None, page_size=LOG_PAGE
        )
    except ServiceError as err:
        if err.error is not ErrorCode.GAME_NOT_FOUND:
            raise
        return _page(
            "No such game", RESULT_PAGE, 404, message="There is no such game.", game_url=None
        )
    log = table.log
    if wanted and str(log.page) != wanted:
        return _page(
            "No such page",
            RESULT_PAGE,
            404,
            message=f"This game's log has {log.pages} pages of {LOG_PAGE} events.",
            game_url=f"/play/{game_id}",
        )
    pager = Markup(
        render_template_string(
            PAGER, page=log.page, pages=log.pages, first=log.first, last=log.last, total=log.total
        )
    )
    title = f"{table.title}: {table.players}" + (f" \u2014 {table.won}" if table.won else "")
    return _page(title, GAME_PAGE, t=table, pager=pager)


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
{% if t.since %}<h2>Since your last move</h2><ul class="log">{% for line in t.since %}<li>{{ line }}</li>
{% endfor %}</ul>{% endif %}
{% if t.proposals %}<h2>Proposals</h2><ul>{% for p in t.proposals %}<li>{{ p.words }}; waiting
for {{ p.waiting | join(", ") }} (it lapses {{ p.deadline }}){% if p.asked %}: answer on
<a href="/games/{{ t.game_id }}#proposals">the game's page</a>{% endif %}</li>{% endfor %}</ul>{% endif %}
{% if t.chat %}<h2>Table talk</h2><ul class="log">{% for m in t.chat %}<li>{{ m.heading }}, {{ m.when }}:
<bdi>{{ m.text }}</bdi></li>{% endfor %}</ul>
<p>Write to the table on <a href="/games/{{ t.game_id }}#chat">the game's page</a>, or in
your reply to a turn email.</p>{% endif %}
{% if next_url %}<p><a href="{{ next_url }}"><strong>Your turn goes on: choose your next
step</strong></a></p>{% endif %}
{% if t.board_html %}<h2>The table as you see it</h2>{{ t.board_html | safe }}{% endif %}
{% if forms %}<h2>Your move</h2>
<p>Choose below, then press Play: only one of your legal moves can be played.</p>
{% for f in forms %}<form method="post"><fieldset><legend>{{ t.legend(f.action_type) }}
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
    table, link = page.table, page.link
    if table is None or link is None:
        return _page(
            "Turn page",
            RESULT_PAGE,
            TURN_STATUS_CODES[page.status],
            message=page.message,
            game_url=None,
        )
    title = {"ready": f"Your turn in {table.title}", "played": "Move played"}.get(
        page.status, f"{table.title}: no move made"
    )
    return _page(
        title,
        TURN_PAGE,
        TURN_STATUS_CODES[page.status],
        message=page.message,
        t=table,
        next_url=page.next_url,
        forms=table.forms if page.moves else (),
        game_url=f"/play/{table.game_id}",
    )
