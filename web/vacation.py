"""The settings page's vacation: taking one ahead, coming back early, and the days left
(service/players/vacations.py, as POST and DELETE /v1/players/me/vacation do)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import flash, redirect, request
from flask_babel import gettext, ngettext

from service.errors import ServiceError

from .blueprint import me, pages, services, signed_in, you
from .i18n import refusal, stamp


@pages.app_context_processor
def vacation_context() -> dict[str, Any]:
    """`vacation()` for the settings page: the signed-in player's vacations in words."""
    return {"vacation": _state}


def _state() -> dict[str, Any] | None:
    player, vacations = me(), services().vacations
    if player is None or vacations is None:
        return None
    state = vacations.state(player)
    return {
        **state,
        "words": [_words(v) for v in state["vacations"]],
        "until": None
        if state["on_vacation_until"] is None
        else stamp(_ms(state["on_vacation_until"])),
    }


def _words(vacation: dict[str, Any]) -> str:
    """A vacation in words, its dates in the reader's language and time zone (the player's:
    the one the vacation's days are counted in)."""
    values = {
        "start": stamp(_ms(vacation["starts_at"])),
        "end": stamp(_ms(vacation["ends_at"])),
    }
    if vacation["automatic"]:
        return ngettext(
            "a day used when a clock ran out: from %(start)s to %(end)s (%(num)d day)",
            "a day used when a clock ran out: from %(start)s to %(end)s (%(num)d days)",
            vacation["days"],
            **values,
        )
    return ngettext(
        "from %(start)s to %(end)s (%(num)d day)",
        "from %(start)s to %(end)s (%(num)d days)",
        vacation["days"],
        **values,
    )


def _ms(iso_time: str) -> int:
    return int(datetime.fromisoformat(iso_time.replace("Z", "+00:00")).timestamp() * 1000)


@pages.post("/settings/vacation")
@signed_in
def take_vacation():
    vacations = services().vacations
    if vacations is None:
        return redirect("/settings#vacation", 303)
    try:
        state = vacations.take(you(), request.form.get("from", ""), request.form.get("to", ""))
    except ServiceError as err:
        flash(gettext("No vacation taken: %(why)s.", why=refusal(err.message)))
        return redirect("/settings#vacation", 303)
    flash(
        ngettext(
            "Your vacation is taken: your clocks stand still then. %(num)d vacation day is "
            "left this year.",
            "Your vacation is taken: your clocks stand still then. %(num)d vacation days are "
            "left this year.",
            state["left_days"],
        )
    )
    return redirect("/settings#vacation", 303)


@pages.post("/settings/vacation/end")
@signed_in
def end_vacation():
    vacations = services().vacations
    if vacations is not None:
        vacations.end(you())
    flash(gettext("Welcome back: your clocks run again."))
    return redirect("/settings#vacation", 303)
