"""A tournament's events and the fold that turns them into its state (store.tournaments'
TournamentState): the only code that changes a state, when a decision commits events and when
the log is replayed. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.play.logview import DELETED_NAME
from store.tournaments import Round, TournamentEventType, TournamentState

T = TournamentEventType


def fold(state: TournamentState | None, event: dict[str, Any]) -> TournamentState:
    """The state after `event` (which carries its version and time). Does not mutate `state`."""
    kind = event["type"]
    if kind == T.CREATED:
        new: TournamentState = {
            "id": event["tournament_id"],
            "version": 0,
            "game": event["game"],
            "name": event["name"],
            "options": event["options"],
            "time_control": event["time_control"],
            "rated": event["rated"],
            "format": event["format"],
            "size": event["size"],
            "rounds": event["rounds"],
            "start_at": event["start_at"],
            "created_by": event["created_by"],
            "created_at": event["at"],
            "updated_at": event["at"],
            "status": "signup",
            "players": [],
            "round_list": [],
            "cancelled_because": None,
        }
    elif state is None:
        raise ValueError(f"a tournament's log starts with {T.CREATED}, not {kind}")
    else:
        new = {
            **state,
            "players": [dict(p) for p in state["players"]],  # type: ignore[misc]
            "round_list": [
                {**r, "boards": [dict(b) for b in r["boards"]]}  # type: ignore[misc]
                for r in state["round_list"]
            ],
        }
    if kind == T.SIGNED_UP:
        new["players"].append({"player_id": event["player_id"], "name": event["name"]})
    elif kind == T.LEFT:
        new["players"] = [p for p in new["players"] if p["player_id"] != event["player_id"]]
    elif kind == T.STARTED:
        new["status"] = "running"
        new["rounds"] = event["rounds"]
        new["players"] = [
            {
                "player_id": p["player_id"],
                "name": p["name"],
                "rating": p["rating"],
                "withdrawn": None,
            }
            for p in event["players"]
        ]
    elif kind == T.ROUND_PAIRED:
        paired: Round = {
            "round": event["round"],
            "boards": [
                {"game_id": b["game_id"], "first": b["first"], "second": b["second"], "score": None}
                for b in event["boards"]
            ],
            "bye": event["bye"],
            "started": False,
            "ended": False,
        }
        new["round_list"].append(paired)
    elif kind == T.ROUND_STARTED:
        _round(new, event["round"])["started"] = True
    elif kind == T.GAME_RECORDED:
        for board in _round(new, event["round"])["boards"]:
            if board["game_id"] == event["game_id"]:
                board["score"] = event["score"]
    elif kind == T.WITHDREW:
        for p in new["players"]:
            if p["player_id"] == event["player_id"]:
                p["withdrawn"] = event["reason"]
    elif kind == T.ROUND_ENDED:
        _round(new, event["round"])["ended"] = True
    elif kind == T.ENDED:
        new["status"] = "finished"
    elif kind == T.CANCELLED:
        new["status"] = "cancelled"
        new["cancelled_because"] = event["reason"]
    elif kind == T.PLAYER_DELETED:
        new["deleted_players"] = [*new.get("deleted_players", []), event["player_id"]]
        for p in new["players"]:
            if p["player_id"] == event["player_id"]:
                p["name"] = DELETED_NAME
    new["version"] = event["version"]
    new["updated_at"] = event["at"]
    return new


def as_read(event: dict[str, Any], state: TournamentState) -> dict[str, Any]:
    """An event of the log as it is shown now: a player who deleted their account since is
    named "a deleted player" in it (as in the state)."""
    gone = state.get("deleted_players", [])
    if not gone:
        return event
    if event["type"] == T.SIGNED_UP and event["player_id"] in gone:
        return {**event, "name": DELETED_NAME}
    if event["type"] == T.STARTED:
        players = [
            {**p, "name": DELETED_NAME} if p["player_id"] in gone else p for p in event["players"]
        ]
        return {**event, "players": players}
    return event


def _round(state: TournamentState, number: int) -> Round:
    for found in state["round_list"]:
        if found["round"] == number:
            return found
    raise ValueError(f"tournament {state['id']} has no round {number}")


def replay(events: Iterable[dict[str, Any]]) -> TournamentState:
    state: TournamentState | None = None
    for event in events:
        state = fold(state, event)
    if state is None:
        raise ValueError("an empty log is no tournament")
    return state
