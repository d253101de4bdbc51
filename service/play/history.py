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

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from engine import match as runner
from engine import registry
from engine.core import Game
from service.play import agreements, clock
from service.play.logview import DELETED_NAME
from service.timefmt import iso
from store.record import Event, EventType, SeatCalendar, TimeControl
from store.snapshot import Snapshot


def game_of(snapshot: Snapshot) -> Game:
    return registry.GAMES[snapshot["game"]]


def deleted_players(snap: Snapshot) -> list[str]:
    return snap.get("deleted_players", [])


def seat_view(snap: Snapshot, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may see of a started game: the game's own view, built by
    whitelist, in the envelope every client gets (`game`, `version`, `seat`, `active_seats`)."""
    return {
        "game": snap["game"],
        "version": snap["version"],
        "seat": seat,
        "active_seats": snap["active_seats"],
        "clocks": [seat_clock(snap, s) for s in range(len(snap["seats"]))]
        if snap.get("time_control") is not None
        else None,
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
            "rated": event.get("rated", False),
            "calendars": list(event.get("calendars") or [None] * len(event["seats"])),
            "clocks": None,
            "version": 0,
            "updated_at": event["at"],
        }
        if event.get("tournament"):  # only a tournament's game has the key
            snap["tournament"] = event["tournament"]
    elif snapshot is None:
        raise ValueError(f"a game's log starts with GameCreated, not {event['type']}")
    else:
        snap = {**snapshot, "seats": [s.copy() for s in snapshot["seats"]]}
        snap["calendars"] = list(calendars_of(snapshot))
    calendars_before = list(snap["calendars"])
    game = registry.GAMES[snap["game"]]
    version = event["version"]
    seed = bytes.fromhex(snap["secret_seed"])

    if event["type"] == EventType.PLAYER_JOINED:
        snap["seats"][event["seat"]] = {
            "kind": "player",
            "player_id": event["player_id"],
            "name": event["name"],
        }
        snap["calendars"][event["seat"]] = event.get("calendar")
    elif event["type"] == EventType.CALENDAR_SET:
        # the time since the seat's clock was last charged is charged under the new
        # vacations (a vacation never starts before it is taken, and one cut short ends when
        # its player came back), in the time zone it ran in
        seat = event["seat"]
        held = calendars_before[seat]
        calendars_before[seat] = {
            "zone": held["zone"] if held else None,
            "vacations": event["calendar"]["vacations"],
            "v": held["v"] if held else 0,
        }
        snap["calendars"][seat] = event["calendar"]
    elif event["type"] == EventType.INVITATION_DECLINED:
        snap["seats"][event["seat"]] = {"kind": "open", "player_id": None, "name": None}
        snap["calendars"][event["seat"]] = None
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
        snap["calendars"][event["seat"]] = None
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
    elif event["type"] == EventType.PLAYER_DELETED:
        if snap["status"] in ("finished", "cancelled"):
            snap.setdefault("closed_version", snap["version"])
        gone = event["player_id"]
        snap["deleted_players"] = [*deleted_players(snap), gone]
        for record in snap["seats"]:
            if record["player_id"] == gone:
                record["name"] = DELETED_NAME
        snap["declined"] = [
            {**d, "name": DELETED_NAME} if d["player_id"] == gone else d for d in snap["declined"]
        ]
    snap["version"] = version
    snap["updated_at"] = event["at"]
    agreements.note(snap, event, None if snapshot is None else snapshot["match"])
    if snap["match"] is not None:
        snap["active_seats"] = sorted(runner.active_seats(game, snap["match"]))
        snap["timed_out"] = _timed_out(snap, event)
        _clocks(snap, snapshot, calendars_before, event)
    return snap


def _timed_out(snap: Snapshot, event: Event) -> list[int]:
    """The seats whose clock ran out and whose turn has not moved on since: under
    `on_timeout: auto` the computer owes each of them a move (see service.consequences)."""
    since = match_of(snap)["seat_since"]
    seats = set(snap["timed_out"])
    if event["type"] == EventType.TURN_TIMED_OUT:
        seats.add(event["seat"])
    return sorted(s for s in seats if s in snap["active_seats"] and since[s] != snap["version"])


def _clocks(snap: Snapshot, before: Snapshot | None, calendars_before: list, event: Event) -> None:
    """Each seat's clock and deadline after `event` (service.play.clock.step): a clock runs
    while its seat may act in an active game and has not timed out."""
    control_record = snap["time_control"]
    seats = len(snap["seats"])
    if control_record is None:
        snap["clocks"] = None
        snap["deadlines"] = [None] * seats
        return
    control = clock.Control.of(control_record)
    previous = clocks_of(before) if before is not None else None
    if previous is None:
        previous = [clock.SeatClock(control.start_ms) for _ in range(seats)]
    running = snap["status"] == "active"
    active = [s for s in snap["active_seats"] if running and s not in snap["timed_out"]]
    since = match_of(snap)["seat_since"]
    version = snap["version"]
    mover = event["seat"] if event["type"] == EventType.ACTION_TAKEN else None
    game = game_of(snap)
    mid_turn = [s for s in active if runner.continues_turn(game, match_of(snap), s)]
    pauses = agreements.pauses(snap)
    after = [clock.calendar_of(c, control.weekends_off, pauses) for c in snap["calendars"]]
    clocks = clock.step(
        control,
        previous,
        [clock.calendar_of(c, control.weekends_off, pauses) for c in calendars_before],
        after,
        active,
        [s for s in range(seats) if since[s] == version],
        mover,
        event["at"],
        mid_turn,
    )
    snap["clocks"] = [c.to_json() for c in clocks]
    snap["deadlines"] = [clock.deadline(c, cal) for c, cal in zip(clocks, after)]


def clocks_of(snap: Snapshot) -> list[clock.SeatClock] | None:
    """The seats' clocks of a started game with a time control (None otherwise). A snapshot
    stored before clocks were kept has its deadlines only: each running clock is read as one
    that started at the snapshot's last event with the time left to its deadline."""
    if snap.get("time_control") is None or snap["match"] is None:
        return None
    found = snap.get("clocks")
    if found is not None:
        return [clock.SeatClock.from_json(c) for c in found]
    control = clock.Control.of(clock_of(snap))
    at = snap["updated_at"]
    return [
        clock.SeatClock(control.start_ms)
        if d is None
        else clock.SeatClock(max(0, d - at), at, control.per_move_ms or None)
        for d in snap["deadlines"]
    ]


def calendars_of(snap: Snapshot) -> list[SeatCalendar | None]:
    """What the game recorded of each seat's calendar (a snapshot stored before calendars
    were kept: none)."""
    found: list[SeatCalendar | None] = snap.get("calendars") or [None] * len(snap["seats"])
    return found


def seat_calendar(snap: Snapshot, seat: int) -> clock.Calendar:
    """The calendar the seat's clock runs under."""
    control = snap["time_control"]
    weekends = bool(control and control.get("weekends_off"))
    return clock.calendar_of(calendars_of(snap)[seat], weekends, agreements.pauses(snap))


def replay(events: Iterable[Event]) -> Snapshot:
    last = deque(replay_steps(events), maxlen=1)
    if not last:
        raise ValueError("an empty log is no game")
    return last[0]


def replay_steps(events: Iterable[Event]) -> Iterator[Snapshot]:
    """The snapshot after each event of a log, in turn (what `replay` ends with)."""
    snap: Snapshot | None = None
    before_last_move = None  # the match before the last move: what a takeback restores
    for event in events:
        if event["type"] == EventType.ACTION_TAKEN and snap is not None:
            before_last_move = snap["match"]
        snap = fold(snap, event, agreements.taken_back(event, before_last_move))
        yield snap


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


def seat_clock(snap: Snapshot, seat: int, now_ms: int | None = None) -> dict[str, Any] | None:
    """A seat's clock as clients read it (None in a game without a clock, or before its
    start): the bank (whole seconds) when it last started to run or was charged, since when it
    runs (None: stopped), its deadline, and the seat's vacation now or next, as the game
    recorded it; with `now_ms`, also what the bank holds then and why it is paused."""
    clocks = clocks_of(snap)
    if clocks is None:
        return None
    calendar = seat_calendar(snap, seat)
    held = clocks[seat]
    ahead = [v for v in sorted(calendar.vacations) if v[1] > (now_ms or snap["updated_at"])]
    vacation = clock.vacation_at(ahead[0][0], calendar) if ahead else None
    found: dict[str, Any] = {
        "bank_seconds": held.bank // 1000,
        "since": iso(held.since),
        "deadline": iso(snap["deadlines"][seat]) if held.since is not None else None,
        "vacation": None
        if vacation is None
        else {"starts_at": iso(vacation[0]), "ends_at": iso(vacation[1])},
    }
    if now_ms is not None:
        found["left_seconds"] = clock.remaining_ms(held, now_ms, calendar) // 1000
        found["paused"] = clock.paused(now_ms, calendar) if held.since is not None else None
    return found


def reminder_at(snap: Snapshot, seat: int, percent: int) -> int | None:
    """When the seat's reminder at `percent` of its turn's time is due (None while its clock
    does not run): it moves with the seat's weekends and vacations."""
    clocks = clocks_of(snap)
    if clocks is None or seat in snap["timed_out"]:
        return None
    return clock.reminder_at(clocks[seat], percent, seat_calendar(snap, seat))
