"""The front page, signing up, signing in and out by emailed link, and the settings."""

from __future__ import annotations

import json
import time
from typing import Any

from flask import Response, abort, flash, redirect, request, session
from flask_babel import gettext, lazy_gettext, ngettext
from markupsafe import Markup
from marshmallow import ValidationError
from marshmallow.validate import Email

from engine import registry
from service.errors import ErrorCode, ServiceError
from service.play.boards import opening_html
from service.players.sessions import TOUCH_SECONDS, browser_of
from service.timefmt import time_zones

from . import session as web_session
from .blueprint import (
    NEXT,
    find_player,
    me,
    message,
    page,
    pages,
    remember_next,
    safe_next,
    services,
    signed_in,
    you,
)
from .i18n import browser_language, language_choices, reader_language, refusal, stamp
from .push import devices as push_devices

GAME_SUMMARIES = {
    "nautilus": lazy_gettext(
        "Two divers bid for five undersea domains, round after round. You lay your "
        "diver cards face down before the domains, then reveal them: the higher sum wins each "
        "column, and six special cards (the Kraken, the Anchor, the Eye...) turn the odds. The "
        "player who wins the most domains wins the game."
    ),
    "consonar": lazy_gettext(
        "Two to six captains hunt submarines on a ladder of depths. Play a fleet card "
        "to move a submarine up or down, or a torpedo card when its symbols line up with the "
        "fleet's arrows; the last nation with a submarine afloat wins."
    ),
    "buttons": lazy_gettext(
        "Two to four players roll dice and sew buttons onto a board of six rows and six "
        "columns. Keep rolling to add more, or stop while you are ahead: a roll with nowhere to "
        "go loses the round's buttons. Lines of five and full colours score stars."
    ),
    "ninedomains": lazy_gettext(
        "Two lords fight over nine domains in three rounds. Both lay one card before "
        "each of three domains at the same time, then reveal: the stronger side takes the "
        "domain. Gather all four elements to win at once, or the most victory points after the "
        "third round."
    ),
}
NAME_LENGTH = 64


@pages.get("/")
def home():
    games = [
        {
            "name": name,
            "title": game.info.title,
            "players": _player_count(game.info.min_players, game.info.max_players),
            "summary": GAME_SUMMARIES.get(name, ""),
            # built by the board renderer, escaped, in the page's language
            "picture": Markup(opening_html(name, reader_language())),
        }
        for name, game in sorted(registry.GAMES.items())
    ]
    return page("home.html", gettext("Board games by correspondence"), games=games)


def _player_count(low: int, high: int) -> str:
    if low == high:
        return ngettext("%(num)d player", "%(num)d players", low)
    return gettext("%(low)d to %(high)d players", low=low, high=high)


# -- signing up and in ---------------------------------------------------------------------


@pages.get("/sign-up")
def sign_up_form():
    remember_next()
    return page("sign_up.html", gettext("Sign up"), values={}, problems={})


@pages.post("/sign-up")
def sign_up():
    name = request.form.get("name", "").strip()
    email = request.form.get("email", "").strip()
    problems = {}
    if not name:
        problems["name"] = gettext("Write the name other players will see.")
    elif len(name) > NAME_LENGTH:
        problems["name"] = _too_long()
    try:
        Email()(email)
    except ValidationError:
        problems["email"] = gettext("Write an email address such as ada@example.org.")
    if problems:
        return page(
            "sign_up.html",
            gettext("Sign up"),
            422,
            values={"name": name, "email": email},
            problems=problems,
        )
    # which emails the address its confirmation; the player speaks the browser's language
    services().players.register(name, email, language=browser_language())
    return page("check_email.html", gettext("Check your email"), email=email, new=True)


def _too_long() -> str:
    return gettext("A name has at most %(num)d characters.", num=NAME_LENGTH)


@pages.get("/sign-in")
def sign_in_form():
    remember_next()
    if me() is not None:
        return redirect(safe_next(session.pop(NEXT, None)), 303)
    signed_out = request.args.get("why") == "signed-out"
    return page("sign_in.html", gettext("Sign in"), signed_out=signed_out, problem=None)


@pages.post("/sign-in")
def ask_sign_in_link():
    email = request.form.get("email", "").strip()
    try:
        services().sign_in.request_link(email)
    except ServiceError as err:
        if err.error is not ErrorCode.REQUEST_INVALID:
            raise
        return page(
            "sign_in.html",
            gettext("Sign in"),
            422,
            signed_out=False,
            problem=gettext("Write the email address you signed up with, such as ada@example.org."),
        )
    return page("check_email.html", gettext("Check your email"), email=email, new=False)


def _link_not_valid():
    return message(
        gettext("Sign-in link not valid"),
        gettext(
            "This sign-in link is not valid: it was used already, it expired, or it was not "
            "copied whole. Ask for a new one on the sign-in page."
        ),
        404,
        ("/sign-in", gettext("Sign in")),
    )


@pages.get("/sign-in/<link>")
def sign_in_link(link: str):
    """The page of an emailed link: opening it changes nothing (mail scanners fetch links);
    its button signs in."""
    player_id = services().sign_in.link_player(link)
    if player_id is None:
        return _link_not_valid()
    profile = services().players.profile(player_id)
    return page(
        "sign_in_link.html",
        gettext("Sign in"),
        name=profile["name"],
        confirms=profile["email"] if not profile["email_confirmed"] else None,
    )


@pages.post("/sign-in/<link>")
def follow_sign_in_link(link: str):
    player_id = services().sign_in.redeem_link(link)
    if player_id is None:
        return _link_not_valid()
    after = safe_next(session.get(NEXT))
    web_session.sign_in(services(), player_id)
    name = services().players.profile(player_id)["name"]
    flash(gettext("You are signed in as %(name)s.", name=name))
    return redirect(after, 303)


@pages.post("/sign-out")
def sign_out():
    """Sign this browser out (its session ends: a copy of its cookie is refused too)."""
    web_session.sign_out(services())
    flash(gettext("You are signed out."))
    return redirect("/", 303)


# -- settings ------------------------------------------------------------------------------

NOTIFICATIONS = [
    ("email", lazy_gettext("Email me when it is my turn and when a game ends")),
    (
        "chat",
        lazy_gettext(
            "Email me the players' messages (when the table is quiet, at most one an hour)"
        ),
    ),
    ("reminders", lazy_gettext("Remind me at half and nine tenths of a clock")),
    ("webhook", lazy_gettext("Send my webhook the same news (for programs, or a chat channel)")),
    ("push", lazy_gettext("Send the same news to my devices with notifications on (below)")),
    (
        "replies_from_any_address",
        lazy_gettext("Take a reply with a move from any address, not only mine"),
    ),
]


def _sessions(player: str) -> list[dict[str, Any]]:
    """The player's web sessions as the settings show them."""
    now = int(time.time() * 1000)
    return [
        {
            "id": found["id"],
            "browser": browser_of(found["agent"]),
            "agent": found["agent"],
            "signed_in": stamp(found["signed_in"]),
            "seen": _seen(now - found["seen"]),
            "current": found["current"],
        }
        for found in services().sessions.list(player, web_session.current_session())
    ]


def _seen(ago_ms: int) -> str:
    """When a session was last seen, roughly (it is written down every few minutes)."""
    minutes = ago_ms // 60000
    if minutes < TOUCH_SECONDS // 60:
        return ngettext(
            "within the last %(num)d minute",
            "within the last %(num)d minutes",
            TOUCH_SECONDS // 60,
        )
    if minutes < 120:
        return ngettext("about %(num)d minute ago", "about %(num)d minutes ago", minutes)
    if minutes < 48 * 60:
        return ngettext("about %(num)d hour ago", "about %(num)d hours ago", minutes // 60)
    return ngettext("about %(num)d day ago", "about %(num)d days ago", minutes // 1440)


NOTICE_CHOICES = [
    ("turn", lazy_gettext("My turn")),
    ("reminder", lazy_gettext("Reminders")),
    ("invitation", lazy_gettext("Invitations")),
    ("game_over", lazy_gettext("A game ends")),
    ("chat", lazy_gettext("Chat messages")),
]
CHANNEL_WORDS = [
    ("email", lazy_gettext("Email")),
    ("push", lazy_gettext("This device and my others")),
    ("webhook", lazy_gettext("Webhook")),
]


def _settings_page(status: int = 200, problem: str | None = None, shown: dict | None = None):
    player = you()
    profile = services().players.profile(player)
    return page(
        "settings.html",
        gettext("Settings"),
        status,
        profile=profile,
        notifications=[(key, text, profile["notifications"][key]) for key, text in NOTIFICATIONS],
        notices=NOTICE_CHOICES,
        digest_times=[f"{hour:02d}:00" for hour in range(24)],
        channels=CHANNEL_WORDS,
        zones=sorted(time_zones()),
        languages=language_choices(),
        friends=services().players.friends(player)["friends"],
        sessions=_sessions(player),
        push=push_devices(player),
        feeds=services().feeds.addresses(player),
        problem=problem,
        shown=shown,
    )


@pages.get("/settings")
@signed_in
def settings():
    return _settings_page()


@pages.post("/settings")
@signed_in
def save_settings():
    form = request.form
    changes: dict[str, Any] = {
        "name": form.get("name", "").strip(),
        "email": form.get("email", "").strip() or None,
        "webhook_url": form.get("webhook_url", "").strip() or None,
        "webhook_kind": form.get("webhook_kind") or "signed",
        "time_zone": form.get("time_zone") or None,
        "language": form.get("language") or None,
        "notifications": {
            **{key: f"notify.{key}" in form for key, _ in NOTIFICATIONS},
            "digest_at": form.get("digest_at") or None,
            "events": {
                kind: {c: f"notify.events.{kind}.{c}" in form for c, _ in CHANNEL_WORDS}
                for kind, _ in NOTICE_CHOICES
            },
        },
    }
    if changes["email"]:
        try:
            Email()(changes["email"])
        except ValidationError:
            return _settings_page(422, gettext("That is not an email address: nothing was saved."))
    if len(changes["name"]) > NAME_LENGTH:
        return _settings_page(422, _too_long())
    try:
        answer = services().players.update(you(), changes)
    except ServiceError as err:
        return _settings_page(
            err.error.status, gettext("Nothing was saved: %(why)s.", why=refusal(err.message))
        )
    if "webhook_secret" in answer:
        return _settings_page(shown={gettext("Your webhook secret"): answer["webhook_secret"]})
    flash(gettext("Your settings are saved."))
    if answer["email"] and not answer["email_confirmed"]:
        flash(
            gettext(
                "%(email)s is not confirmed yet: open the link emailed to it. Until then "
                "turnpost emails it nothing else.",
                email=answer["email"],
            )
        )
    return redirect("/settings", 303)


@pages.post("/settings/friends")
@signed_in
def save_friends():
    player = you()
    kept = [
        f["id"]
        for f in services().players.friends(player)["friends"]
        if f"remove.{f['id']}" not in request.form
    ]
    wanted = request.form.get("add", "").strip()
    if wanted:
        friend, problem = find_player(wanted)
        if friend is None or friend == player:
            return _settings_page(422, problem or gettext("You always take your own seat."))
        kept.append(friend)
    services().players.set_friends(player, kept)
    flash(gettext("Your friends are saved."))
    return redirect("/settings#friends", 303)


@pages.post("/settings/token")
@signed_in
def new_api_token():
    """A new API token ends every web session of the player; this browser, which asked,
    signs in again with a new one (a copy of its old cookie stays out)."""
    player = you()
    token = services().players.new_token(player)["token"]
    web_session.sign_in(services(), player)
    return _settings_page(shown={gettext("Your new API token"): token})


@pages.post("/settings/sign-out-everywhere")
@signed_in
def sign_out_everywhere():
    services().sessions.end_all(you())
    web_session.sign_out(services())
    flash(gettext("You are signed out everywhere: on every browser and device, this one too."))
    return redirect("/", 303)


@pages.get("/settings/export")
@signed_in
def export_my_data():
    """The same document as GET /v1/players/me/export, as a file to keep."""
    player = you()
    return Response(
        json.dumps(services().own_data.export(player), ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="turnpost-{player}.json"',
            "Cache-Control": "no-store",
        },
    )


@pages.get("/settings/delete")
@signed_in
def delete_account_form():
    return page("delete_account.html", gettext("Delete your account?"))


@pages.post("/settings/delete")
@signed_in
def delete_account():
    """The account goes (service/players/own_data.py); the browser, signed out with every
    other, lands on the home page."""
    player = you()
    services().own_data.delete(player, player)
    web_session.sign_out(services())
    flash(
        gettext(
            "Your account is deleted: your games name you “a deleted player”, and turnpost "
            "sends you nothing more."
        )
    )
    return redirect("/", 303)


@pages.post("/settings/sessions/<session_id>/sign-out")
@signed_in
def sign_out_session(session_id: str):
    if not services().sessions.end_one(you(), session_id):
        abort(404, gettext("you have no such session: it may have ended already"))
    flash(gettext("That session is signed out."))
    return redirect("/settings#sessions", 303)


@pages.post("/settings/webhook-secret")
@signed_in
def new_webhook_secret():
    secret = services().players.rotate_webhook_secret(you())["webhook_secret"]
    return _settings_page(shown={gettext("Your new webhook secret"): secret})
