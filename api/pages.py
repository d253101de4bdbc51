"""Pages for people reached from an email, without signing in: a game's public page, the turn
page and the confirmation page of a one-click move link from a turn email, the page of an
invitation email's link to accept or refuse, and of a proposal email's link to accept or
decline (GET only shows them, so a mail scanner that
fetches a link changes nothing; the button POSTs). The link's
signed token is what lets its holder act, so these forms carry no CSRF token. They are drawn
in the web client's layout (its stylesheet and navigation), which has the pages of a
signed-in player, and in its language (web/i18n.py)."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, request
from flask_babel import gettext, lazy_gettext

from service.errors import ErrorCode, ServiceError
from web.blueprint import me
from web.blueprint import page as web_page
from web.i18n import reader_language

pages = Blueprint("pages", __name__)

STATUS_CODES = {
    "played": 200,
    "ready": 200,
    "used": 409,
    "stale": 409,
    "refused": 409,
    "expired": 410,
    "invalid": 404,
}
STATUS_WORDS = {
    "open": lazy_gettext("Waiting for players to take their seats"),
    "active": lazy_gettext("Under way"),
    "cancelled": lazy_gettext("Cancelled: an invited player declined"),
}


def _page(template: str, title: str, status: int = 200, **values):
    html, status, headers = web_page(template, title, status, **values)
    return html, status, {**headers, "X-Robots-Tag": "noindex"}


def _message(title: str, text: str, status: int, game_id: str | None = None):
    return _page(
        "one_click.html",
        title,
        status,
        message=text,
        game_url=f"/games/{game_id}" if game_id else None,
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
            game_id,
            None,
            page=int(wanted) if wanted.isdecimal() else None,
            page_size=LOG_PAGE,
            language=reader_language(),
        )
    except ServiceError as err:
        if err.error is not ErrorCode.GAME_NOT_FOUND:
            raise
        return _message(gettext("No such game"), gettext("There is no such game."), 404)
    log = table.log
    if wanted and str(log.page) != wanted:
        return _page(
            "one_click.html",
            gettext("No such page"),
            404,
            message=gettext(
                "This game's log has %(pages)d pages of %(size)d events.",
                pages=log.pages,
                size=LOG_PAGE,
            ),
            game_url=f"/play/{game_id}",
            game_link=gettext("The log's latest page"),
        )
    player = me()
    title = f"{table.title}: {table.players}" + (f" \u2014 {table.won}" if table.won else "")
    return _page(
        "public_game.html",
        title,
        t=table,
        state=f"{table.result}." if table.result else str(STATUS_WORDS.get(table.status, "")),
        seated=player is not None and any(s.player_id == player for s in table.seats),
    )


@pages.get("/m/<token>")
def confirm_move(token: str):
    state = _services().one_click.inspect(token, reader_language())
    if state.status == "ready":
        return _page(
            "one_click.html",
            gettext("Play this move?"),
            message=state.message,
            button=gettext("Play %(move)s", move=state.link.notation),
            game_url=_game_url(state),
        )
    return _result(state)


@pages.post("/m/<token>")
def play_move(token: str):
    return _result(_services().one_click.confirm(token, reader_language()))


def _result(state):
    title = gettext("Move played") if state.status == "played" else gettext("Move not played")
    return _page(
        "one_click.html",
        title,
        STATUS_CODES[state.status],
        message=state.message,
        game_url=_game_url(state),
    )


def _game_url(state) -> str | None:
    return f"/games/{state.game_id}" if state.game_id else None


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
    return _turn(_services().one_click.open_turn(token, reader_language()))


@pages.post("/t/<token>")
def play_turn(token: str):
    return _turn(_services().one_click.play_turn(token, request.form, reader_language()))


def _turn(page):
    table, link = page.table, page.link
    if table is None or link is None:
        return _message(gettext("Turn page"), page.message, TURN_STATUS_CODES[page.status])
    if page.status == "ready":
        title = gettext("Your turn in %(game)s", game=table.title)
    elif page.status == "played":
        title = gettext("Move played")
    else:
        title = gettext("%(game)s: no move made", game=table.title)
    return _page(
        "turn.html",
        title,
        TURN_STATUS_CODES[page.status],
        tab_title=gettext(
            "Your turn \u2014 %(game)s: %(players)s", game=table.title, players=table.players
        )
        if page.status == "ready"
        else None,
        message=page.message,
        played=page.status == "played",
        t=table,
        next_url=page.next_url,
        forms=table.forms if page.moves else (),
    )


ONE_CLICK_STATUS_CODES = {
    "ready": 200,
    "refused": 200,
    "declined": 200,
    "answered": 409,
    "failed": 409,
    "expired": 410,
    "invalid": 404,
}


# The words of a signed link's page, whole sentences for each kind of link: its question and
# button for each answer, and its title once answered or refused.
QUESTIONS = {
    ("invitation", "accept"): (
        lazy_gettext("Accept the invitation?"),
        lazy_gettext("Accept the invitation"),
    ),
    ("invitation", "refuse"): (
        lazy_gettext("Refuse the invitation?"),
        lazy_gettext("Refuse the invitation"),
    ),
    ("proposal", "accept"): (
        lazy_gettext("Accept the proposal?"),
        lazy_gettext("Accept the proposal"),
    ),
    ("proposal", "decline"): (
        lazy_gettext("Decline the proposal?"),
        lazy_gettext("Decline the proposal"),
    ),
}
OUTCOMES = {
    ("invitation", "refused"): lazy_gettext("Invitation refused"),
    ("invitation", "not answered"): lazy_gettext("Invitation not answered"),
    ("proposal", "declined"): lazy_gettext("Proposal declined"),
    ("proposal", "not answered"): lazy_gettext("Proposal not answered"),
}


@pages.get("/i/<token>")
def confirm_invitation(token: str):
    state = _services().one_click.inspect_invitation(token)
    return _one_click_question(state, "invitation", "refused")


@pages.post("/i/<token>")
def answer_invitation(token: str):
    """Accepted: on to the game's page, which a signed-in invited player sees from their seat."""
    state = _services().one_click.answer_invitation(token)
    return _one_click_answered(state, "invitation", "refused")


@pages.get("/p/<token>")
def confirm_proposal(token: str):
    state = _services().one_click.inspect_proposal(token)
    return _one_click_question(state, "proposal", "declined")


@pages.post("/p/<token>")
def answer_proposal(token: str):
    """Accepted: on to the game's page, which shows where the proposal stands."""
    state = _services().one_click.answer_proposal(token)
    return _one_click_answered(state, "proposal", "declined")


def _one_click_question(state, what: str, no_status: str):
    """A signed link's page (an invitation's, a proposal's): its question and one button, for
    the GET of a link (a mail scanner's too) answers nothing."""
    if state.status != "ready":
        return _one_click_result(state, what, no_status)
    question, button = QUESTIONS[what, state.answer]
    return _page(
        "one_click.html",
        str(question),
        message=state.message,
        button=str(button),
        danger=state.answer != "accept",
        game_url=f"/games/{state.game_id}",
        game_link=gettext("See the game first"),
    )


def _one_click_answered(state, what: str, no_status: str):
    if state.status == "accepted":
        flash(state.message)
        return redirect(f"/games/{state.game_id}", 303)
    return _one_click_result(state, what, no_status)


def _one_click_result(state, what: str, no_status: str):
    outcome = no_status if state.status == no_status else "not answered"
    title = str(OUTCOMES[what, outcome])
    return _message(title, state.message, ONE_CLICK_STATUS_CODES[state.status], state.game_id)
