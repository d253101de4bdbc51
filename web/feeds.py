"""A player's calendar of deadlines and feed of turns, at their secret addresses (for calendar
apps and feed readers, which cannot sign in), and making new addresses from the settings."""

from __future__ import annotations

from flask import abort, flash, redirect
from flask_babel import gettext, lazy_gettext

from .blueprint import pages, services, signed_in, you

NOT_FOUND = lazy_gettext(
    "No feed has this address: it was mistyped, or its player made new addresses."
)


def _player(token: str) -> str:
    player_id = services().feeds.player_of(token)
    if player_id is None:
        abort(404, str(NOT_FOUND))
    return player_id


@pages.get("/feeds/<token>/deadlines.ics")
def deadlines(token: str):
    body = services().feeds.calendar(_player(token))
    return body, 200, {"Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "no-store"}


@pages.get("/feeds/<token>/turns.atom")
def turns(token: str):
    body = services().feeds.atom(_player(token))
    return (
        body,
        200,
        {"Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "no-store"},
    )


@pages.post("/settings/feeds")
@signed_in
def new_feed_addresses():
    services().feeds.rotate(you())
    flash(gettext("Your calendar and feed have new addresses: the old ones no longer work."))
    return redirect("/settings#feeds", 303)
