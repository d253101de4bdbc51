"""Matchmaking in the web client: the lobby's "play a rated game against someone near my
rating" form (web/templates/lobby.html), and stopping the wait."""

from __future__ import annotations

from flask import flash, redirect, request
from flask_babel import gettext

from engine import registry

from .blueprint import pages, services, signed_in, you


@pages.post("/matchmaking")
@signed_in
def ask_for_a_match():
    title = request.form.get("game", "")
    wait = request.form.get("bot_after", "")
    if title not in registry.GAMES or not (wait == "" or wait.isdecimal()):
        flash(gettext("Choose a game and how long to wait."))
        return redirect("/lobby#matchmaking", 303)
    found, made = services().matchmaking.ask(you(), title, int(wait) if wait else None)
    flash(
        gettext(
            "Looking for an opponent near your rating (%(rating)s) at %(title)s.",
            rating=found["rating"],
            title=found["title"],
        )
        if made
        else gettext("You are already looking for an opponent at %(title)s.", title=found["title"])
    )
    return redirect("/lobby#matchmaking", 303)


@pages.post("/matchmaking/<title>/cancel")
@signed_in
def stop_waiting(title: str):
    services().matchmaking.cancel(you(), title)
    flash(gettext("You stopped looking for an opponent."))
    return redirect("/lobby#matchmaking", 303)
