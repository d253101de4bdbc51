"""Board parts: the names the HTML boards give to what a move picks (a card in hand, a die, a
submarine, a column, a slot, a target), decided here once per title, so that the game page can
offer every legal move as clicks on the board, and mark on the board what changed since the
reader's last move.

A part is a short string, `kind:detail` (`hand:7`, `space:1:3`, `sub:r1`, `cell:0:3:5`), that a
board renders as a `data-part` attribute on the element that shows it. A move that picks nothing
on the board (roll the dice, pass, end the turn) picks a verb, `do:roll`, which the page offers
as a button beside the board. Each title's module (`<title>.py`) gives, all pure functions of
the seat's view (the same whitelisted view the boards are drawn from, so nothing a part names is
hidden from its reader):

- `picks(view, action)`: the parts that select a legal action, in the order a person picks
  them. For the legal actions of one position they are distinct, non-empty, and none is the
  beginning of another (tests/service/test_parts.py checks this over random positions), so a
  person's picks name one move exactly once they equal its sequence;
- `changes(view, action)`: the parts the action changes, for the preview before it is played;
- `label(view, part)`: the part in words, for screen readers and the picker's prompts (with
  `{seatN}` tokens for other seats, as the games' words have);
- `marks(view, happened)`: the parts that what happened since the reader's last move changed,
  from the log lines the reader may read (their data) and the view: the board marks them. The
  reader's own moves are among `happened`, since one that ends a simultaneous choice reveals
  the others' (Buttons' placements with the gold dice, The Nine Domains' cards); what the
  reader did is left out.

A title without a module here (a test game) has no parts: its moves stay in the forms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from service.play.parts import buttons, consonar, nautilus, ninedomains

VERB = "do:"
"""The prefix of a part that is no thing on the board: a move's verb, offered as a button."""

MODULES: dict[str, ModuleType] = {
    "buttons": buttons,
    "consonar": consonar,
    "nautilus": nautilus,
    "ninedomains": ninedomains,
}


@dataclass(frozen=True)
class Happened:
    """One event since the reader's last move, as the reader may read it."""

    seat: int | None
    """The seat that moved (the reader's own seat too)."""
    data: tuple[Mapping[str, Any], ...]
    """The data of the event's log lines the reader may read, in order (an empty mapping for a
    line without data)."""


def _module(view: Mapping[str, Any]) -> ModuleType | None:
    return MODULES.get(str(view.get("game", "")))


def picks(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    """The parts that select `action` (legal for the view's seat), in order; () when the title
    has no parts."""
    module = _module(view)
    return tuple(module.picks(view, action)) if module else ()


def changes(view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, ...]:
    """The parts `action` changes, for its preview."""
    module = _module(view)
    return tuple(module.changes(view, action)) if module else ()


def label(view: Mapping[str, Any], part: str) -> str:
    """`part` in words, as said to the view's seat (with `{seatN}` tokens for the others)."""
    module = _module(view)
    return module.label(view, part) if module else part


def marks(view: Mapping[str, Any], happened: Sequence[Happened]) -> frozenset[str]:
    """The parts of the board that `happened` changed, as the view shows them now."""
    module = _module(view)
    return frozenset(module.marks(view, happened)) if module and happened else frozenset()


def is_verb(part: str) -> bool:
    return part.startswith(VERB)
