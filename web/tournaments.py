"""Tournaments in the web client: a tournament's page (its standings, live, and each round's
games), signing up and withdrawing, and a new tournament's form. The lobby lists those taking
sign-ups (web/play.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import flash, redirect, request
from flask_babel import gettext, lazy_gettext, ngettext

from engine import registry
from service.errors import ServiceError
from service.tournaments.tournaments import FORMATS, SIZES, default_rounds
from service.tournaments.tournaments import points as points_words
from service.words import speaking
from store.tournaments import TournamentEventType

from .blueprint import me, page, pages, services, signed_in, you
from .i18n import reader_language, refusal
from .play import CLOCK_WORDS, PER_MOVE_CLOCKS, TIMEOUT_WORDS, tournament_line

FORMAT_WORDS = {
    "round_robin": lazy_gettext("Round-robin: everyone plays everyone once, all the games at once"),
    "swiss": lazy_gettext("Swiss: rounds in which players with the same points meet, never twice"),
}
STREAM_EVENTS = " ".join(sorted(TournamentEventType))


def points(value: float) -> str:
    """2.5 as "2½", 0.25 as "0,25" in a Russian or Italian page."""
    with speaking(reader_language()):
        return points_words(value)


pages.add_app_template_filter(points, "points")


@pages.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str):
    reader = me()
    shown = services().tournaments.get(tournament_id, reader)
    t = tournament_line(shown)
    current = shown["pairings"][-1] if shown["pairings"] else None
    yours = []
    if reader and current:
        yours = [
            g
            for g in current["games"]
            if reader in (g["first"]["player_id"], g["second"]["player_id"])
        ]
    return page(
        "tournament.html",
        shown["name"],
        t=t,
        reader=reader,
        deleted=services().tournaments.deleted_players(tournament_id),
        yours=yours,
        your_bye=bool(reader and current and (current["bye"] or {}).get("player_id") == reader),
        stream=f"/v1/tournaments/{tournament_id}/stream"
        if reader and shown["status"] in ("signup", "running")
        else None,
        stream_events=STREAM_EVENTS,
        tiebreak="Sonneborn-Berger" if shown["tiebreak"] == "sonneborn_berger" else "Buchholz",
    )


@pages.post("/tournaments/<tournament_id>/signup")
@signed_in
def tournament_sign_up(tournament_id: str):
    shown = services().tournaments.sign_up(tournament_id, you())
    full = shown["signed_up"] >= shown["size"] and shown["start_at"] is None
    flash(
        gettext("You are signed up. The tournament is full: its games begin in a moment.")
        if full
        else gettext("You are signed up.")
    )
    return redirect(f"/tournaments/{tournament_id}", 303)


@pages.get("/tournaments/<tournament_id>/withdraw")
@signed_in
def tournament_withdraw_form(tournament_id: str):
    shown = services().tournaments.get(tournament_id, you())
    return page("withdraw.html", gettext("Leave the tournament?"), t=shown)


@pages.post("/tournaments/<tournament_id>/withdraw")
@signed_in
def tournament_withdraw(tournament_id: str):
    shown = services().tournaments.leave(tournament_id, you())
    flash(
        gettext("You left the tournament.")
        if shown["status"] == "signup"
        else gettext(
            "You withdrew from the tournament: your games still being played are resolved."
        )
    )
    return redirect(f"/tournaments/{tournament_id}", 303)


@pages.get("/tournaments/new")
@signed_in
def new_tournament_form():
    return _form({}, {})


def _form(values: dict, problems: dict, status: int = 200):
    return page(
        "new_tournament.html",
        gettext("New tournament"),
        status,
        games=[
            (n, g.info.title)
            for n, g in sorted(registry.GAMES.items())
            if g.info.min_players <= 2 <= g.info.max_players
        ],
        formats=FORMAT_WORDS,
        sizes=SIZES,
        clocks=[(seconds, CLOCK_WORDS[key]) for seconds, key in PER_MOVE_CLOCKS],
        timeouts=TIMEOUT_WORDS,
        values=values,
        problems=problems,
    )


@pages.post("/tournaments/new")
@signed_in
def create_tournament():
    form = request.form
    problems: dict[str, str] = {}
    game = form.get("game", "")
    if game not in registry.GAMES:
        problems["game"] = gettext("Choose the game.")
    format = form.get("format", "")
    if format not in FORMATS:
        problems["format"] = gettext("Choose round-robin or Swiss.")
    size_text = form.get("size", "").strip()
    size = int(size_text) if size_text.isdecimal() else 0
    fewest, most = SIZES.get(format, (3, 64))
    if not fewest <= size <= most:
        problems["size"] = gettext(
            "Write a number of players from %(low)d to %(high)d.", low=fewest, high=most
        )
    rounds_text = form.get("rounds", "").strip()
    rounds = int(rounds_text) if rounds_text.isdecimal() else None
    if format == "swiss" and rounds_text and rounds is None:
        problems["rounds"] = gettext("Write a number of rounds, or leave it empty.")
    clock = form.get("clock", "")
    start_at = None
    if form.get("start") == "date":
        start_at = _date(form.get("start_at", ""))
        if start_at is None:
            problems["start_at"] = gettext("Write the date and time it starts (UTC).")
    if problems:
        return _form(dict(form), problems, 422)
    try:
        made = services().tournaments.create(
            you(),
            game,
            format,
            size,
            {
                "per_move_seconds": int(clock) if clock.isdecimal() else 0,
                "on_timeout": form.get("on_timeout", "forfeit"),
            },
            name=form.get("name", ""),
            rated=form.get("rated", "yes") == "yes",
            rounds=rounds if format == "swiss" else None,
            start_at=start_at,
        )
    except ServiceError as err:
        return _form(
            dict(form), {"form": gettext("Not created: %(why)s.", why=refusal(err.message))}, 422
        )
    flash(gettext("The tournament is created: sign up to play in it, and tell your friends."))
    return redirect(f"/tournaments/{made['id']}", 303)


def _date(text: str) -> int | None:
    """A date and time from the form's field (read as UTC), in epoch ms."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp() * 1000)


def default_rounds_words() -> str:
    return ", ".join(
        ngettext(
            "%(players)d players: %(num)d round",
            "%(players)d players: %(num)d rounds",
            default_rounds(n),
            players=n,
        )
        for n in (8, 16, 32, 64)
    )


pages.add_app_template_global(default_rounds_words, "default_rounds_words")
