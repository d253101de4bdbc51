"""The contract between a game and the platform.

A game is a stateless object (a module-level instance of a class) that satisfies `Game`. Its
state `g` is plain JSON data (dicts, lists, str, int, float, bool, None), so it can be stored,
copied and compared as it is. An action is a JSON object with a "type" key; the canonical form
of an action is exactly what `legal_actions` returns, and `parse(format(a)) == a` for every one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .rng import Rng as Rng

Action = dict[str, Any]
State = dict[str, Any]
View = dict[str, Any]
Options = dict[str, Any]


class GameError(Exception):
    """A move the platform refuses. `code` is stable; the message is for a player to read.
    The class says what is wrong: the action cannot be read (MalformedAction, InvalidOptions)
    or the rules refuse it now (the others); the service's table of errors gives each code its
    HTTP status."""

    code = "move/invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MalformedAction(GameError):
    """The action cannot be read: unknown type, bad notation, a field of the wrong shape."""

    code = "move/malformed"


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow now."""

    code = "move/illegal"


class AlreadyLeft(IllegalAction):
    """The seat has resigned or timed out of the game already."""

    code = "game/already_resigned"


class NotYourTurn(GameError):
    """The seat may not act now."""

    code = "move/not_your_turn"


class GameOver(GameError):
    """The game has ended; nothing more can be played."""

    code = "move/game_over"


class InvalidOptions(GameError):
    """A game option or player count the rules do not allow."""

    code = "game/invalid_options"


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's history.

    `to` is the set of seats that may read it; None means everyone, spectators included.
    `but` are seats that do not read a public entry because a private one told them the same
    thing in full ("you drew r+2 b-1" rather than also "Ada draws 2 Fleet cards").
    `text` names seats with the tokens {seat0} .. {seat5}, which the service replaces with the
    players' names. `data` holds structured facts for clients (same visibility as the text).
    """

    text: str
    to: frozenset[int] | None = None
    data: dict[str, Any] = field(default_factory=dict)
    but: frozenset[int] = frozenset()

    def visible_to(self, seat: int | None) -> bool:
        if self.to is None:
            return seat not in self.but
        return seat is not None and seat in self.to

    def to_json(self) -> dict[str, Any]:
        entry = {
            "text": self.text,
            "to": None if self.to is None else sorted(self.to),
            "data": self.data,
        }
        if self.but:
            entry["but"] = sorted(self.but)
        return entry

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LogEntry:
        to = d.get("to")
        return cls(
            d["text"],
            None if to is None else frozenset(to),
            d.get("data") or {},
            frozenset(d.get("but", ())),
        )


class Log:
    """What `setup` and `apply` write to. Every move of a card is an entry for those who saw it."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def public(self, text: str, *, but: Iterable[int] = (), **data: Any) -> None:
        """An entry everyone may read, except the seats `but`, whom a private entry tells the
        same in full."""
        self.entries.append(LogEntry(text, None, data, frozenset(but)))

    def private(self, seats: int | Iterable[int], text: str, **data: Any) -> None:
        """An entry only `seats` (an int or an iterable of ints) may read."""
        to = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
        self.entries.append(LogEntry(text, to, data))


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `scores` is one number per seat (None where a game has no scores)."""

    winners: tuple[int, ...]
    scores: tuple[float, ...] | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": None if self.scores is None else list(self.scores),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its default, the allowed values (None: any of `kind`), a description."""

    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    kind: type = str

    def to_json(self) -> dict[str, Any]:
        return {
            "default": self.default,
            "description": self.description,
            "choices": None if self.choices is None else list(self.choices),
            "type": {str: "string", int: "integer", bool: "boolean"}.get(self.kind, "string"),
        }


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    options: dict[str, OptionSpec]
    notation: tuple[str, ...]  # help lines: one per action type, with an example
    field_words: Mapping[str, str] = field(default_factory=dict)
    """What people call an action's fields (`key`, or `key.i` for a list's i-th value), for
    forms built from the legal actions (the turn page); a field not named keeps its key."""


# A bot sees only what its seat may know: the seat's view and its legal actions.
Bot = Callable[[View, list[Action], Rng], Action]


class Game(Protocol):
    """Every method the runner (engine.match) calls. Those after `format` have defaults here,
    which a game gets by naming `Game` as its base class; it defines one where it knows better
    (GameModule gives each phase its own)."""

    info: GameInfo

    bots: dict[str, Bot]
    """At least "random" and "heuristic"; engine.registry gives a game its bots when it
    registers the title."""

    def setup(self, n: int, options: dict[str, Any], rng: Rng, log: Log) -> State: ...

    def active_seats(self, g: State) -> frozenset[int]: ...

    def legal_actions(self, g: State, seat: int) -> list[Action]: ...

    def apply(self, g: State, seat: int, action: Action, rng: Rng, log: Log) -> State:
        """Apply a legal action. May mutate and return `g`: the runner passes a private copy."""
        ...

    def outcome(self, g: State) -> Outcome | None: ...

    def view(self, g: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see, built by whitelist."""
        ...

    def parse(self, text: str) -> Action:
        """Notation to action; raises MalformedAction with a helpful message."""
        ...

    def format(self, action: Action) -> str: ...

    def describe(self, view: View, action: Action) -> str:
        """A legal action in words, said to the seat that may make it, from that seat's `view`
        alone, so that it cannot tell what the seat may not know ("Place your 4 on {seat1}'s
        side, column 4"): the mover is "you", the others are named with the tokens {seat0} ..
        {seat5}, as in the log. No two legal actions of a position read the same."""
        ...

    def is_legal(self, g: State, seat: int, action: Action) -> bool:
        """Whether `action` is among `seat`'s legal actions (exactly `action in legal_actions`);
        a game where the list is costly to build answers without building it."""
        return action in self.legal_actions(g, seat)

    def notated_legal_actions(self, g: State, seat: int) -> list[tuple[str, Action]]:
        """The legal actions, each with its notation: exactly `(format(a), a)` for each."""
        return [(self.format(a), a) for a in self.legal_actions(g, seat)]

    def choice_key(self, g: State, seat: int) -> Any:
        """What decides an active seat's legal list: two positions with equal keys have equal
        lists, and unequal keys unequal lists (the runner's digest of a seat's situation)."""
        return self.legal_actions(g, seat)

    def remove_seat(self, g: State, seat: int, log: Log) -> State | None:
        """The state after `seat` left a game of two or more others, or None where the game
        cannot go on without it (then the seats still playing share the win)."""
        return None

    def reveals_nothing(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Whether `seat`'s `action`, which turned `before` into `after`, showed no seat
        anything hidden but the move itself (the card it played, its own choice): no card
        drawn or turned up, no hidden choice revealed. The runner adds that no random number
        was drawn (engine.match.can_take_back). A game that does not say is never taken back."""
        return False

    def split_turn(self, text: str) -> list[str]:
        """A line that may hold several steps of one turn -> each step's notation."""
        return [step.strip() for step in text.split(";") if step.strip()]

    def continues_turn(self, g: State, seat: int) -> bool:
        """Whether `seat`, which may act in `g`, is in the middle of a turn of its own: its next
        action is a later step of a turn it began (Con Sonar!'s next Fleet card), not a turn of
        its own anew. The clock credits a bank's increment once a turn (service.play.clock)."""
        return False


def validate_options(info: GameInfo, options: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check every option against its spec; unknown options are refused."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(info.options))
    if unknown:
        raise InvalidOptions(
            f"{info.title} has no option {', '.join(unknown)}; "
            f"its options are: {', '.join(sorted(info.options)) or 'none'}"
        )
    full = {}
    for name, spec in info.options.items():
        value = options.get(name, spec.default)
        if spec.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidOptions(f"option {name} must be a whole number")
        if spec.kind is bool and not isinstance(value, bool):
            raise InvalidOptions(f"option {name} must be true or false")
        if spec.kind is str and not isinstance(value, str):
            raise InvalidOptions(f"option {name} must be text")
        if spec.choices is not None and value not in spec.choices:
            allowed = ", ".join(str(c) for c in spec.choices)
            raise InvalidOptions(f"option {name} cannot be {value!r}; choose one of: {allowed}")
        full[name] = value
    return full


# ---------------------------------------------------------------------------------------------
# The skeleton every game module follows (docs/adding-a-game.md): phases and the GAME object
# ---------------------------------------------------------------------------------------------

# Every action handler takes the same arguments, so that one table can dispatch them all; it
# changes `g` in place. A handler that draws no random number simply leaves `rng` alone.
Handler = Callable[[State, int, Action, Rng, Log], None]


def nobody(g: State) -> frozenset[int]:
    """The active seats of a phase in which nobody acts (the game is over)."""
    return frozenset()


def no_actions(g: State, seat: int) -> list[Action]:
    """The legal actions of a phase in which nobody acts."""
    return []


@dataclass(frozen=True)
class Phase:
    """One phase of a game: the seats that act in it, what they may do, and the handler of each
    action type they may do it with. `legal` is only asked for a seat of `active`.

    `is_legal`, where listing every legal action is costly (The Nine Domains' 504 ways to lay
    three cards), answers whether one action is among them without building the list; it must
    answer exactly `action in legal(g, seat)` (tests/engine/test_is_legal.py checks it).

    `choice_key`, likewise optional, names the little part of the state that decides a seat's
    legal list in this phase (The Nine Domains' commit: the seat's hand), so that the runner
    can tell whether a seat's choice changed without listing it: two positions of the phase
    with equal keys must have equal lists, and unequal keys unequal lists
    (tests/engine/test_choice_key.py checks both).

    `continues`, optional, says whether an active seat of the phase is in the middle of a
    turn of its own (`Game.continues_turn`; without it, none is).

    `notated`, optional too, lists the legal actions each with its notation where formatting
    them one by one is costly (the legal moves' answer at The Nine Domains' opening formats
    504): it must answer exactly `[(format(a), a) for a in legal(g, seat)]`
    (tests/engine/test_notated.py checks it)."""

    active: Callable[[State], frozenset[int]]
    legal: Callable[[State, int], list[Action]]
    handlers: Mapping[str, Handler] = field(default_factory=dict)
    is_legal: Callable[[State, int, Action], bool] | None = None
    choice_key: Callable[[State, int], Any] | None = None
    notated: Callable[[State, int], list[tuple[str, Action]]] | None = None
    continues: Callable[[State, int], bool] | None = None


OVER = Phase(nobody, no_actions)


class GameModule(Game):
    """The `GAME` object of a game module: the module's rule functions under the names of the
    `Game` protocol, so that a game module defines functions and data only. A `remove_seat`,
    `split_turn` or `reveals_nothing` that the module does not give is the protocol's default.

    `phase_of(g)` names the phase `g` is in, a key of `phases`. `apply` dispatches on the
    action's type alone (the runner has checked that it is legal), so an action type that two
    phases allow must have the same handler in both.
    """

    bots: dict[str, Bot]
    """The game's bots, `BOTS` of `engine.bots.<name>`, which engine.registry gives it when it
    registers the title: a bots module reads its rules module, so the rules module cannot
    import it (a game object that was not registered has no `bots`)."""

    def __init__(
        self,
        info: GameInfo,
        *,
        setup: Callable[[int, Options, Rng, Log], State],
        phase_of: Callable[[State], str],
        phases: Mapping[str, Phase],
        outcome: Callable[[State], Outcome | None],
        view: Callable[[State, int | None], View],
        parse: Callable[[str], Action],
        format: Callable[[Action], str],
        describe: Callable[[View, Action], str],
        remove_seat: Callable[[State, int, Log], State] | None = None,
        split_turn: Callable[[str], list[str]] | None = None,
        reveals_nothing: Callable[[State, int, Action, State], bool] | None = None,
    ) -> None:
        self.info = info
        self.phase_of = phase_of
        self.phases = dict(phases)
        self._setup, self._outcome, self._view = setup, outcome, view
        self._parse, self._format, self._describe = parse, format, describe
        self._remove_seat, self._split_turn = remove_seat, split_turn
        self._reveals_nothing = reveals_nothing
        self.handlers: dict[str, Handler] = {}
        for phase in self.phases.values():
            for kind, handler in phase.handlers.items():
                if self.handlers.setdefault(kind, handler) is not handler:
                    raise ValueError(f"{info.name}: two handlers for the action type {kind!r}")

    def setup(self, n: int, options: dict[str, Any], rng: Rng, log: Log) -> State:
        return self._setup(n, options, rng, log)

    def outcome(self, g: State) -> Outcome | None:
        return self._outcome(g)

    def view(self, g: State, seat: int | None) -> View:
        return self._view(g, seat)

    def parse(self, text: str) -> Action:
        return self._parse(text)

    def format(self, action: Action) -> str:
        return self._format(action)

    def describe(self, view: View, action: Action) -> str:
        return self._describe(view, action)

    def active_seats(self, g: State) -> frozenset[int]:
        return self.phases[self.phase_of(g)].active(g)

    def legal_actions(self, g: State, seat: int) -> list[Action]:
        if seat not in self.active_seats(g):
            return []
        return self.phases[self.phase_of(g)].legal(g, seat)

    def is_legal(self, g: State, seat: int, action: Action) -> bool:
        if seat not in self.active_seats(g):
            return False
        phase = self.phases[self.phase_of(g)]
        if phase.is_legal is not None:
            return phase.is_legal(g, seat, action)
        return action in phase.legal(g, seat)

    def notated_legal_actions(self, g: State, seat: int) -> list[tuple[str, Action]]:
        """`legal_actions`, each with its notation: (format(action), action)."""
        if seat not in self.active_seats(g):
            return []
        phase = self.phases[self.phase_of(g)]
        if phase.notated is not None:
            return phase.notated(g, seat)
        return [(self.format(a), a) for a in phase.legal(g, seat)]

    def choice_key(self, g: State, seat: int) -> Any:
        """What decides `seat`'s legal list (for an active seat): the phase's `choice_key`
        with the phase's name, or else the list itself."""
        name = self.phase_of(g)
        phase = self.phases[name]
        if phase.choice_key is not None:
            return [name, phase.choice_key(g, seat)]
        return phase.legal(g, seat)

    def apply(self, g: State, seat: int, action: Action, rng: Rng, log: Log) -> State:
        self.handlers[action["type"]](g, seat, action, rng, log)
        return g

    def remove_seat(self, g: State, seat: int, log: Log) -> State | None:
        if self._remove_seat is None:
            return super().remove_seat(g, seat, log)
        return self._remove_seat(g, seat, log)

    def split_turn(self, text: str) -> list[str]:
        if self._split_turn is None:
            return super().split_turn(text)
        return self._split_turn(text)

    def reveals_nothing(self, before: State, seat: int, action: Action, after: State) -> bool:
        if self._reveals_nothing is None:
            return super().reveals_nothing(before, seat, action, after)
        return self._reveals_nothing(before, seat, action, after)

    def continues_turn(self, g: State, seat: int) -> bool:
        continues = self.phases[self.phase_of(g)].continues
        return continues is not None and continues(g, seat)


def best_scores(scores: tuple[float, ...], playing: Iterable[int], reason: str) -> Outcome:
    """The outcome in which the seats still playing with the highest score share the win."""
    playing = list(playing)
    best = max(scores[s] for s in playing)
    return Outcome(tuple(s for s in playing if scores[s] == best), scores, reason)
