"""The leaderboards and the player pages: ratings per title with their history (an SVG drawn
on the server), the record of finished games, the latest games, and head-to-head against the
person reading."""

from __future__ import annotations

from flask import flash, redirect, request
from flask_babel import get_locale, gettext

from engine import registry
from service.errors import ServiceError

from .blueprint import me, page, pages, services, signed_in, you
from .charts import rating_chart
from .i18n import refusal

PER_PAGE = 50


@pages.app_template_filter("ordinal")
def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st in English; ORDINALS' forms in the
    other languages (a place: the Russian "1-e", the Italian "1º")."""
    locale = get_locale()
    if locale is not None and locale.language in ORDINALS:
        return ORDINALS[locale.language].format(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


ORDINALS = {"ru": "{}-е", "it": "{}º"}  # noqa: RUF001


@pages.get("/leaderboards")
def leaderboards():
    return page(
        "leaderboards.html",
        gettext("Leaderboards"),
        games=[(name, game.info.title) for name, game in sorted(registry.GAMES.items())],
    )


@pages.get("/leaderboards/<game>")
def leaderboard(game: str):
    wanted = request.args.get("page", "")
    number = int(wanted) if wanted.isdecimal() and 0 < int(wanted) <= 100_000 else 1
    board = services().ratings.leaderboard(game, number, PER_PAGE)
    return page(
        "leaderboard.html",
        gettext("Leaderboard: %(title)s", title=board["title"]),
        board=board,
        reader=me(),
    )


@pages.get("/players/<player_id>")
def player_page(player_id: str, status: int = 200, problem: str | None = None):
    profile = services().players.public_profile(player_id)
    reader = me()
    blocked = reader is not None and player_id in services().players.players.blocked(reader)
    record = services().ratings.of_player(player_id, reader)
    charts = {
        r["game"]: rating_chart(
            [p["rating"] for p in r["history"]],
            gettext("%(name)s's rating at %(title)s", name=profile["name"], title=r["title"]),
            1500 if r["games"] <= len(r["history"]) else None,  # the history from the start
        )
        for r in record["ratings"]
        if r["history"]
    }
    return page(
        "player.html",
        profile["name"],
        status,
        profile=profile,
        record=record,
        charts=charts,
        yours=reader == player_id,
        blocked=blocked,
        problem=problem,
    )


@pages.post("/players/<player_id>/block")
@signed_in
def block_player(player_id: str):
    """Block or unblock a player (their profile's button)."""
    player = you()
    blocked = services().players.players.blocked(player)
    wanted = blocked | {player_id} if request.form.get("block") == "yes" else blocked - {player_id}
    try:
        services().players.set_blocked(player, sorted(wanted))
    except ServiceError as err:
        return player_page(
            player_id, err.error.status, gettext("Not done: %(why)s.", why=refusal(err.message))
        )
    flash(gettext("Blocked.") if player_id in wanted else gettext("Unblocked."))
    return redirect(f"/players/{player_id}", 303)


@pages.post("/players/<player_id>/report")
@signed_in
def report_player(player_id: str):
    try:
        services().moderation.report(you(), request.form.get("reason", ""), player_id=player_id)
    except ServiceError as err:
        return player_page(
            player_id, err.error.status, gettext("Not sent: %(why)s.", why=refusal(err.message))
        )
    flash(gettext("Your report is sent to the moderators."))
    return redirect(f"/players/{player_id}", 303)
