"""The match runner: the only entry point the service calls.

A match is a game in play: the game's own state plus what the platform owns around it (the
generator's counter, the outcome, resignations, and for each seat the version since which its
situation is unchanged). A match is plain JSON, stored as the snapshot. The seed is not in it:
the service keeps the seed apart and passes it in, so a match can be shown to nobody by mistake.

A player's move is one call, `move`, which checks in this order: the game is over -> the move
was made on a version that is stale for the seat -> the seat may act -> the action is well
formed -> it is among the legal actions -> apply it on a copy. `act` is its last three steps,
for an action already well formed (a bot's, or one read back from the log).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from .core import (
    Action,
    AlreadyLeft,
    Game,
    GameError,
    GameOver,
    IllegalAction,
    InvalidOptions,
    Log,
    LogEntry,
    MalformedAction,
    NotYourTurn,
    Outcome,
    validate_options,
)
from .rng import Rng

Match = dict[str, Any]


class StaleMove(GameError):
    """The seat's situation changed since the version the move was made on."""

    code = "move/stale_version"

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the game has moved on to version {current_version}")
        self.current_version = current_version


class Moved(NamedTuple):
    """A move applied: the action as read, the match after it and its log entries."""

    action: Action
    match: Match
    entries: list[LogEntry]


def _copy(data: Match) -> Match:
    """A deep copy that also proves the data is plain JSON."""
    return json.loads(json.dumps(data))


def _digest(choice: Any) -> str:
    return hashlib.sha1(json.dumps(choice, sort_keys=True).encode()).hexdigest()


def start(
    game: Game,
    n: int,
    options: dict[str, Any] | None,
    seed: bytes,
    version: int,
    recorded: bool = False,
) -> tuple[Match, list[LogEntry]]:
    """Set the game up for `n` seats; `version` is the version of the GameStarted event.

    `recorded`: the options as a game's record holds them, checked and completed when it was
    created, and taken as they are: never completed with an option added since, so that a game
    keeps the rules it began with (a game module reads an option missing from such a record as
    the rule of before the option)."""
    info = game.info
    if not info.min_players <= n <= info.max_players:
        raise InvalidOptions(
            f"{info.title} is played by {info.min_players} to {info.max_players} players, not {n}"
        )
    options = dict(options or {}) if recorded else validate_options(info, options)
    rng = Rng(seed)
    log = Log()
    g = game.setup(n, options, rng, log)
    match = {
        "game": info.name,
        "seats": n,
        "options": options,
        "state": g,
        "rng_counter": rng.counter,
        "outcome": None,
        "resigned": [],
        "seat_since": [version] * n,
        "seat_digest": [""] * n,
    }
    _settle(game, match, version)
    return match, log.entries


def active_seats(game: Game, match: Match) -> frozenset[int]:
    if match["outcome"] is not None:
        return frozenset()
    return game.active_seats(match["state"])


def continues_turn(game: Game, match: Match, seat: int) -> bool:
    """Whether `seat` may act and is in the middle of a turn of its own (a later step of a
    multi-step turn is next): `Game.continues_turn`."""
    return seat in active_seats(game, match) and game.continues_turn(match["state"], seat)


def read_action(game: Game, notation: str | None = None, action: Action | None = None) -> Action:
    """The canonical action from either a notation line or a structured action."""
    if notation is not None:
        if not isinstance(notation, str) or not notation.strip():
            raise MalformedAction("the move is empty; write it in the game's notation")
        return game.parse(notation.strip())
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction('an action is an object with a "type"')
    try:
        text = game.format(action)
    except MalformedAction:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise MalformedAction(
            f"the action {action.get('type')!r} is missing a field or has a field of the wrong kind"
        ) from None
    return game.parse(text)


def split_steps(game: Game, text: str) -> list[str]:
    """A line that may hold several steps of one turn -> each step's notation (by default the
    steps are separated by ';')."""
    return game.split_turn(text)


def legal_actions(game: Game, match: Match, seat: int) -> list[Action]:
    if seat not in active_seats(game, match):
        return []
    return game.legal_actions(match["state"], seat)


def notated_legal_actions(game: Game, match: Match, seat: int) -> list[tuple[str, Action]]:
    """`legal_actions`, each with its notation: (game.format(action), action)."""
    if seat not in active_seats(game, match):
        return []
    return game.notated_legal_actions(match["state"], seat)


def _refuse_if_over(match: Match) -> None:
    if match["outcome"] is not None:
        raise GameOver("the game is over")


def _refuse_if_not_to_act(game: Game, match: Match, seat: int) -> None:
    if seat not in active_seats(game, match):
        raise NotYourTurn("it is not your turn: the game is waiting for another player")


def is_current(match: Match, seat: int, expected_version: int, version: int) -> bool:
    """Whether a move made on `expected_version` may still be applied at `version`.

    It may when nothing this seat could act on changed since: the other seats' moves of a
    simultaneous choice do not make this seat's choice stale.
    """
    return match["seat_since"][seat] <= expected_version <= version


def move(
    game: Game,
    match: Match,
    seat: int,
    seed: bytes,
    *,
    expected_version: int,
    version: int,
    notation: str | None = None,
    action: Action | None = None,
) -> Moved:
    """A seat's move as a player sends it (its `notation` or its `action`), made on
    `expected_version` of a game now at `version`: checked in the module's order, then applied
    (the event that records it will be `version + 1`)."""
    _refuse_if_over(match)
    if not is_current(match, seat, expected_version, version):
        raise StaleMove(version)
    _refuse_if_not_to_act(game, match, seat)
    chosen = read_action(game, notation, action)
    return Moved(chosen, *_apply_legal(game, match, seat, chosen, seed, version + 1))


def act(
    game: Game, match: Match, seat: int, action: Action, seed: bytes, version: int
) -> tuple[Match, list[LogEntry]]:
    """Apply a well-formed `action` for `seat`; `version` is the version of the event that will
    record it."""
    _refuse_if_over(match)
    _refuse_if_not_to_act(game, match, seat)
    return _apply_legal(game, match, seat, action, seed, version)


def _apply_legal(
    game: Game, match: Match, seat: int, action: Action, seed: bytes, version: int
) -> tuple[Match, list[LogEntry]]:
    if not game.is_legal(match["state"], seat, action):
        raise IllegalAction(f"{game.format(action)} is not allowed now")
    new = _copy(match)
    rng = Rng(seed, new["rng_counter"])
    log = Log()
    new["state"] = game.apply(new["state"], seat, action, rng, log)
    new["rng_counter"] = rng.counter
    result = game.outcome(new["state"])
    if result is not None:
        new["outcome"] = result.to_json()
    _settle(game, new, version)
    return new, log.entries


def resign(
    game: Game, match: Match, seat: int, version: int, reason: str = "resigned"
) -> tuple[Match, list[LogEntry]]:
    """The seat leaves. A game that can go on without it (its `remove_seat` answers a state)
    goes on; otherwise the game ends and the seats still playing share the win."""
    if match["outcome"] is not None:
        raise GameOver("the game is over")
    if seat in match["resigned"]:
        raise AlreadyLeft("you have already left this game")
    new = _copy(match)
    new["resigned"].append(seat)
    remaining = [s for s in range(new["seats"]) if s not in new["resigned"]]
    log = Log()
    without = game.remove_seat(new["state"], seat, log) if len(remaining) >= 2 else None
    if without is not None:
        new["state"] = without
        result = game.outcome(without)
        if result is not None:
            new["outcome"] = result.to_json()
    else:
        new["outcome"] = Outcome(tuple(remaining), None, reason).to_json()
    _settle(game, new, version)
    return new, log.entries


def can_take_back(game: Game, before: Match, seat: int, action: Action, after: Match) -> bool:
    """Whether `seat`'s `action`, which made `after` of `before`, may be taken back: the game
    goes on, no random number was drawn since (the generator's counter has not moved: no die
    rolled, no deck shuffled), and the game says the move showed no seat anything hidden but the
    move itself (Game.reveals_nothing: no card drawn or turned up, no hidden choice revealed)."""
    return (
        after["outcome"] is None
        and after["rng_counter"] == before["rng_counter"]
        and after["resigned"] == before["resigned"]
        and game.reveals_nothing(before["state"], seat, action, after["state"])
    )


def take_back(before: Match, seat: int, version: int) -> Match:
    """The match as it was before `seat`'s move (`before`), taken back at `version`: the seat's
    situation counts from the takeback (a move it made on an earlier version is stale, and its
    turn starts again), the other seats' as they were."""
    restored = _copy(before)
    restored["seat_since"][seat] = version
    return restored


def agree(match: Match, winners: list[int], reason: str) -> Match:
    """The match ended by its players' agreement: `winners` share the result (no scores)."""
    if match["outcome"] is not None:
        raise GameOver("the game is over")
    ended = _copy(match)
    ended["outcome"] = Outcome(tuple(winners), None, reason).to_json()
    return ended


def _settle(game: Game, match: Match, version: int) -> None:
    """Record, per seat, the version since which its legal actions are unchanged: the game is
    asked what decides a seat's list (`choice_key`, by default the list itself)."""
    active = active_seats(game, match)
    for seat in range(match["seats"]):
        digest = _digest(game.choice_key(match["state"], seat)) if seat in active else ""
        if digest != match["seat_digest"][seat]:
            match["seat_digest"][seat] = digest
            match["seat_since"][seat] = version
