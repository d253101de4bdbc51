"""Events and the fold that turns them into the snapshot.

The snapshot is a pure function of the event log: `fold` is the only code that changes it, both
when a use-case commits new events and when the log is replayed from GameCreated. The live path
passes the match the engine already computed (so a move is applied once); a replay recomputes
it from the recorded action and the seed in GameCreated. The fold also records the seats that
may act (`active_seats`), so summaries, inboxes and the workers never ask the engine again.

The snapshot holds the seed (`secret_seed`) so that a move costs one read; it is server-side
data and never leaves the server as it is: summaries and views are built from it by whitelist.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine import match as runner
from engine import registry
from engine.core import Game
from service.play import agreements
from store.record import Event, EventType, TimeControl
from store.snapshot import Snapshot


def game_of(snapshot: Snapshot) -> Game:
    return registry.GAMES[snapshot["game"]]


def seat_view(snap: Snapshot, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may see of a started game: the game's own view, built by
    whitelist, in the envelope every client gets (`game`, `version`, `seat`, `active_seats`)."""
    return {
        "game": snap["game"],
        "version": snap["version"],
        "seat": seat,
        "active_seats": snap["active_seats"],
        **game_of(snap).view(match_of(snap)["state"], seat),
    }


def fold(snapshot: Snapshot | None, event: Event, computed: dict | None = None) -> Snapshot:
    """The snapshot after `event` (which carries its version). Does not mutate its input."""
    if event["type"] == EventType.GAME_CREATED:
        snap: Snapshot = {
            "id": event["game_id"],
            "game": event["game"],
            "rules_version": event["rules_version"],
            "options": event["options"],
            "time_control": event["time_control"],
            "commitment": event["commitment"],
            "seats": event["seats"],
            "status": "open",
            "match": None,
            "deadlines": [None] * len(event["seats"]),
            "active_seats": [],
            "timed_out": [],
            "created_at": event["at"],
            "secret_seed": event["seed"],
            "revealed_seed": None,
            "created_by": event.get("created_by"),
            "if_declined": event.get("if_declined", "cancel"),
            "declined": [],
            "version": 0,
            "updated_at": event["at"],
        }
    elif snapshot is None:
        raise ValueError(f"a game's log starts with GameCreated, not {event['type']}")
    else:
        snap = {**snapshot, "seats": [s.copy() for s in snapshot["seats"]]}
    game = registry.GAMES[snap["game"]]
    version = event["version"]
    seed = bytes.fromhex(snap["secret_seed"])

    if event["type"] == EventType.PLAYER_JOINED:
        snap["seats"][event["seat"]] = {
            "kind": "player",
            "player_id": event["player_id"],
            "name": event["name"],
        }
    elif event["type"] == EventType.INVITATION_DECLINED:
        snap["seats"][event["seat"]] = {"kind": "open", "player_id": None, "name": None}
        snap["declined"] = [
            *snap["declined"],
            {"seat": event["seat"], "player_id": event["player_id"], "name": event["name"]},
        ]
    elif event["type"] == EventType.GAME_CANCELLED:
        snap["status"] = "cancelled"
    elif event["type"] == EventType.GAME_STARTED:
        snap["status"] = "active"
        snap["match"] = (
            computed
            or runner.start(game, len(snap["seats"]), snap["options"], seed, version, True)[0]
        )
    elif event["type"] == EventType.ACTION_TAKEN:
        snap["match"] = (
            computed
            or runner.act(game, match_of(snap), event["seat"], event["action"], seed, version)[0]
        )
    elif event["type"] == EventType.PLAYER_RESIGNED and snap["match"] is None:
        snap["seats"][event["seat"]] = {"kind": "open", "player_id": None, "name": None}
    elif event["type"] == EventType.PLAYER_RESIGNED:
        snap["match"] = (
            computed
            or runner.resign(game, match_of(snap), event["seat"], version, event["reason"])[0]
        )
    elif event["type"] == EventType.GAME_ENDED:
        snap["status"] = "finished"
        snap["revealed_seed"] = event["seed"]
    elif event["type"] in agreements.EVENTS:
        agreements.fold(snap, event, computed)
    elif event["type"] == EventType.MESSAGE_HIDDEN:
        snap["hidden_messages"] = [*snap.get("hidden_messages", []), event["message"]]
    snap["version"] = version
    snap["updated_at"] = event["at"]
    agreements.note(snap, event, None if snapshot is None else snapshot["match"])
    if snap["match"] is not None:
        snap["active_seats"] = sorted(runner.active_seats(game, snap["match"]))
        snap["deadlines"] = _deadlines(snap, event["at"])
        snap["timed_out"] = _timed_out(snap, event)
    return snap


def _timed_out(snap: Snapshot, event: Event) -> list[int]:
    """The seats whose clock ran out and whose turn has not moved on since: under
    `on_timeout: auto` the computer owes each of them a move (see service.consequences)."""
    since = match_of(snap)["seat_since"]
    seats = set(snap["timed_out"])
    if event["type"] == EventType.TURN_TIMED_OUT:
        seats.add(event["seat"])
    return sorted(s for s in seats if s in snap["active_seats"] and since[s] != snap["version"])


def _deadlines(snap: Snapshot, at_ms: int) -> list[int | None]:
    """Each active seat's deadline: its clock starts when its situation last changed."""
    control = snap["time_control"]
    m = match_of(snap)
    active = snap["active_seats"]
    at_ms = max(at_ms, agreements.paused_until(snap))  # a turn begun in a pause counts after it
    result: list[int | None] = []
    for seat, previous in enumerate(snap["deadlines"]):
        if control is None or seat not in active:
            result.append(None)
        elif m["seat_since"][seat] == snap["version"] or previous is None:
            result.append(at_ms + control["per_move_seconds"] * 1000)
        else:
            result.append(previous)
    return result


def folds(events: Iterable[Event]) -> Iterator[Snapshot]:
    """The snapshot after each event of a log, in turn, as a replay folds them: it keeps the
    match before the last move, which an accepted takeback restores (service/play/agreements.py)."""
    snap: Snapshot | None = None
    before_last_move = None
    for event in events:
        if event["type"] == EventType.ACTION_TAKEN and snap is not None:
            before_last_move = snap["match"]
        snap = fold(snap, event, agreements.taken_back(event, before_last_move))
        yield snap


def replay(events: Iterable[Event]) -> Snapshot:
    last: Snapshot | None = None
    for last in folds(events):  # noqa: B007 (the last one is the game now)
        continue
    if last is None:
        raise ValueError("an empty log is no game")
    return last


def clock_of(snap: Snapshot) -> TimeControl:
    """The time control of a game that has one (asking for that of one without is a bug)."""
    if snap["time_control"] is None:
        raise ValueError(f"game {snap['id']} has no clock")
    return snap["time_control"]


def match_of(snap: Snapshot) -> dict[str, Any]:
    """The match of a game that has started (asking for that of one that has not is a bug)."""
    if snap["match"] is None:
        raise ValueError(f"game {snap['id']} has not started")
    return snap["match"]
