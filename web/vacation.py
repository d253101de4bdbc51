"""The settings page's vacation: taking one ahead, coming back early, and the days left
(service/players/vacations.py, as POST and DELETE /v1/players/me/vacation do)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import flash, redirect, request

from service.errors import ServiceError
from service.timefmt import stamp

from .blueprint import me, pages, services, signed_in, you


@pages.app_context_processor
def vacation_context() -> dict[str, Any]:
    """`vacation()` for the settings page: the signed-in player's vacations in words."""
    return {"vacation": _state}


def _state() -> dict[str, Any] | None:
    player, vacations = me(), services().vacations
    if player is None or vacations is None:
        return None
    state = vacations.state(player)
    zone = state["time_zone"]
    return {
        **state,
        "words": [
            ("a day used when a clock ran out: " if v["automatic"] else "")
            + f"from {stamp(_ms(v['starts_at']), zone)} to {stamp(_ms(v['ends_at']), zone)}"
            + f" ({v['days']} day{'s' if v['days'] != 1 else ''})"
            for v in state["vacations"]
        ],
        "until": None
        if state["on_vacation_until"] is None
        else stamp(_ms(state["on_vacation_until"]), zone),
    }


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
        flash(f"No vacation taken: {err.message}.")
        return redirect("/settings#vacation", 303)
    flash(
        f"Your vacation is taken: your clocks stand still then. {state['left_days']} "
        "vacation days are left this year."
    )
    return redirect("/settings#vacation", 303)


@pages.post("/settings/vacation/end")
@signed_in
def end_vacation():
    vacations = services().vacations
    if vacations is not None:
        vacations.end(you())
    flash("Welcome back: your clocks run again.")
    return redirect("/settings#vacation", 303)
