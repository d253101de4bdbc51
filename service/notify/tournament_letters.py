"""What a tournament's players are told when a round starts and when it ends: the email and
the webhook's body, from the tournament's state (public: nothing in it is secret) and the
reader's place in it. The notices themselves are service.notify.notifications'."""

from __future__ import annotations

from typing import Any

from engine import registry
from service.notify import emails
from service.tournaments.tournaments import table
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
        who = "you" if row.player == reader else names.get(row.player, row.player)
        lines.append(f"{row.place}. {who}: {_points(row.points)} ({_points(row.tiebreak)})")
    return lines


def letter(
    state: TournamentState, event: str, number: int, reader: dict, public_url: str
) -> emails.Letter:
    """The email of a round's start or end to `reader` (a profile with `id` and `name`)."""
    title = registry.GAMES[state["game"]].info.title
    kind = "round-robin" if state["format"] == "round_robin" else "Swiss"
    where = f"{state['name']} ({title}, {kind})"
    page = f"{public_url}/tournaments/{state['id']}"
    sections: list[tuple[str, list[str | tuple[str, str]]]] = []
    round_words = "" if state["format"] == "round_robin" else f"round {number} of {state['rounds']}"
    if event == ROUND_STARTED:
        games = your_games(state, number, reader["id"])
        found = round_of(state, number)
        subject = f"{state['name']}: " + (
            f"{round_words} has begun" if round_words else "it has begun"
        )
        lead = (
            f"The tournament {where} has begun: your games are waiting for you."
            if not round_words
            else f"In the tournament {where}, {round_words} has begun."
        )
        if games:
            sections.append(
                (
                    "Your games:" if len(games) > 1 else "Your game:",
                    [
                        (
                            f"against {g['opponent']['name']}"
                            + (" (you have the first seat)" if g["first_seat"] else ""),
                            f"{public_url}/games/{g['game_id']}",
                        )
                        for g in games
                    ],
                )
            )
        elif found and found["bye"] == reader["id"]:
            sections.append(("This round:", ["you have the bye: a point, without a game"]))
    else:
        over = state["status"] == "finished" and number == len(state["round_list"])
        subject = f"{state['name']}: " + (
            "the tournament is over" if over else f"{round_words} is over"
        )
        mine = next((r for r in table(state) if r.player == reader["id"]), None)
        place = (
            f" You are {_ordinal(mine.place)} with {_points(mine.points)} points." if mine else ""
        )
        lead = (
            f"The tournament {where} is over.{place}"
            if over
            else f"In the tournament {where}, {round_words} is over.{place} The next round's "
            "pairings follow in a moment."
        )
    sections.append(("Standings (points, tiebreak):", list(standing_lines(state, reader["id"]))))
    return emails.Letter(
        subject=f"[turnpost] {subject}",
        greeting=f"Hello {reader['name']},",
        lead=lead,
        sections=sections,
        links=[("See the tournament", page)],
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


def _points(value: float) -> str:
    whole = int(value)
    half = value - whole
    if half == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:g}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
