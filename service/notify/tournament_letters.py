"""What a tournament's players are told when a round starts and when it ends: the email and
the webhook's body, from the tournament's state (public: nothing in it is secret) and the
reader's place in it. The notices themselves are service.notify.notifications'."""

from __future__ import annotations

from typing import Any

from engine import registry
from service.notify import emails
from service.tournaments.tournaments import points, table
from service.words import gettext, ngettext, pgettext
from store.tournaments import Round, TournamentState

ROUND_STARTED = "tournament.round_started"
ROUND_ENDED = "tournament.round_ended"
EVENTS = (ROUND_STARTED, ROUND_ENDED)
STANDINGS_SHOWN = 10


def round_of(state: TournamentState, number: int) -> Round | None:
    return next((r for r in state["round_list"] if r["round"] == number), None)


def your_games(state: TournamentState, number: int, player_id: str) -> list[dict[str, Any]]:
    """The reader's games of the round: the game, the opponent, the reader's seat."""
    found = round_of(state, number)
    names = {p["player_id"]: p["name"] for p in state["players"]}
    games = []
    for b in found["boards"] if found else []:
        if player_id in (b["first"], b["second"]):
            other = b["second"] if b["first"] == player_id else b["first"]
            games.append(
                {
                    "game_id": b["game_id"],
                    "opponent": {"player_id": other, "name": names.get(other, other)},
                    "first_seat": b["first"] == player_id,
                }
            )
    return games


def standing_lines(state: TournamentState, reader: str | None) -> list[str]:
    rows = table(state)
    names = {p["player_id"]: p["name"] for p in state["players"]}
    lines = []
    for row in rows[:STANDINGS_SHOWN]:
        who = (
            pgettext("the reader, in a tournament's standings", "you")
            if row.player == reader
            else names.get(row.player, row.player)
        )
        lines.append(f"{row.place}. {who}: {points(row.points)} ({points(row.tiebreak)})")
    return lines


def letter(
    state: TournamentState, event: str, number: int, reader: dict, public_url: str
) -> emails.Letter:
    """The email of a round's start or end to `reader` (a profile with `id` and `name`), in
    the language spoken (service.words.speaking)."""
    title = registry.GAMES[state["game"]].info.title
    swiss = state["format"] != "round_robin"
    where = gettext(
        "%(name)s (%(title)s, %(kind)s)",
        name=state["name"],
        title=title,
        kind=gettext("Swiss") if swiss else gettext("round-robin"),
    )
    counted = {"name": state["name"], "where": where, "number": number, "rounds": state["rounds"]}
    page = f"{public_url}/tournaments/{state['id']}"
    sections: list[tuple[str, list[str | tuple[str, str]]]] = []
    if event == ROUND_STARTED:
        games = your_games(state, number, reader["id"])
        found = round_of(state, number)
        if swiss:
            subject = gettext("%(name)s: round %(number)s of %(rounds)s has begun", **counted)
            lead = gettext(
                "In the tournament %(where)s, round %(number)s of %(rounds)s has begun.", **counted
            )
        else:
            subject = gettext("%(name)s: it has begun", **counted)
            lead = gettext(
                "The tournament %(where)s has begun: your games are waiting for you.", **counted
            )
        if games:
            sections.append(
                (
                    ngettext("Your game:", "Your games:", len(games)),
                    [
                        (
                            gettext(
                                "against %(name)s (you have the first seat)",
                                name=g["opponent"]["name"],
                            )
                            if g["first_seat"]
                            else gettext("against %(name)s", name=g["opponent"]["name"]),
                            f"{public_url}/games/{g['game_id']}",
                        )
                        for g in games
                    ],
                )
            )
        elif found and found["bye"] == reader["id"]:
            sections.append(
                (gettext("This round:"), [gettext("you have the bye: a point, without a game")])
            )
    else:
        over = not swiss or (state["status"] == "finished" and number == len(state["round_list"]))
        mine = next((r for r in table(state) if r.player == reader["id"]), None)
        said = []
        if over:
            subject = gettext("%(name)s: the tournament is over", **counted)
            said.append(gettext("The tournament %(where)s is over.", **counted))
        else:
            subject = gettext("%(name)s: round %(number)s of %(rounds)s is over", **counted)
            said.append(
                gettext(
                    "In the tournament %(where)s, round %(number)s of %(rounds)s is over.",
                    **counted,
                )
            )
        if mine:
            said.append(
                gettext(
                    "You are %(ordinal)s with %(points)s points.",
                    ordinal=_ordinal(mine.place),
                    points=points(mine.points),
                )
            )
        if not over:
            said.append(gettext("The next round's pairings follow in a moment."))
        lead = " ".join(said)
    sections.append(
        (gettext("Standings (points, tiebreak):"), list(standing_lines(state, reader["id"])))
    )
    return emails.Letter(
        subject=f"[turnpost] {subject}",
        greeting=emails.hello(reader["name"]),
        lead=lead,
        sections=sections,
        links=[(gettext("See the tournament"), page)],
    )


def payload(
    state: TournamentState, event: str, number: int, player_id: str, public_url: str
) -> dict[str, Any]:
    """The webhook's body (the fields: docs/notifications.md), after the common ones."""
    rows = table(state)
    mine = next((r for r in rows if r.player == player_id), None)
    found = round_of(state, number)
    return {
        "tournament_id": state["id"],
        "name": state["name"],
        "game": state["game"],
        "round": number,
        "status": state["status"],
        "games": your_games(state, number, player_id) if event == ROUND_STARTED else [],
        "bye": bool(found and found["bye"] == player_id),
        "place": mine.place if mine else None,
        "points": mine.points if mine else None,
        "links": {
            "tournament": f"{public_url}/v1/tournaments/{state['id']}",
            "page": f"{public_url}/tournaments/{state['id']}",
        },
    }


def _ordinal(n: int) -> str:
    """The place `n` as an ordinal in the language spoken ("2nd", "2-м", "2°")."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return pgettext(
        "a place in the standings: 1st, 2nd, 3rd, 11th",
        "%(place)s%(suffix)s",
        place=n,
        suffix=suffix,
    )
