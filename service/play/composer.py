"""A move composed with plain form controls, built from the legal actions alone (no game
knows about forms): one form per action type, one drop-down per field of that type (a field
that holds a list, such as The Nine Domains' three cards, one per position), each offering the
values that field takes among the legal actions. The submitted choices make an action, which
is played only if it is one of the legal ones, so a form can never make an illegal move: a
combination that is not allowed is answered with a message. The pages that show the forms start
every drop-down on an empty prompt and require a choice, so that no move is played that the
player did not choose; an empty value reads as no choice.

Values travel as JSON text, so a number stays a number and `null` stays null."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.words import gettext

Action = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    name: str  # the form field's name
    label: str
    options: tuple[tuple[str, str], ...]  # (value as JSON, what the player reads)


@dataclass(frozen=True)
class Form:
    action_type: str
    choices: tuple[Choice, ...]
    count: int  # how many legal actions of this type


def forms(legal: list[Action], words: Mapping[str, str] | None = None) -> list[Form]:
    """The forms for these legal actions, in the order their types first appear; `words`
    names the fields as the game's players do (GameInfo.field_words)."""
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    return [
        Form(kind, _choices(actions, words or {}), len(actions))
        for kind, actions in by_type.items()
    ]


def _choices(actions: list[Action], words: Mapping[str, str]) -> tuple[Choice, ...]:
    choices = []
    for key in (k for k in actions[0] if k != "type"):
        value = actions[0][key]
        if isinstance(value, list):
            for i in range(len(value)):
                name = f"{key}.{i}"
                label = words.get(name, f"{_words(key)} {i + 1}")
                choices.append(_choice(name, label, [a[key][i] for a in actions]))
        else:
            choices.append(_choice(key, words.get(key, _words(key)), [a[key] for a in actions]))
    return tuple(choices)


_PLAIN = frozenset({str, int, bool, type(None)})
"""Values equal with the same type only when their JSON is the same."""


def _choice(name: str, label: str, values: list[Any]) -> Choice:
    """A field's options, each once, in the order of the legal moves: its JSON and its words.
    When every value is plain, those met before are passed over (by dict.fromkeys, in C)
    without writing their JSON again: a field of a hundred moves has a handful of values."""
    distinct = (
        [value for _, value in dict.fromkeys(zip(map(type, values), values))]
        if all(type(value) in _PLAIN for value in values)
        else values
    )
    seen: dict[str, str] = {}
    for value in distinct:
        seen.setdefault(json.dumps(value), gettext("none") if value is None else str(value))
    return Choice(name, label, tuple(seen.items()))


def _words(key: str) -> str:
    return key.replace("_", " ")


def notation_lines(notation: Sequence[str], kinds: Iterable[str]) -> list[str]:
    """A game's notation help lines (GameInfo.notation: each starts with its action type)
    for these kinds of move, in the game's order."""
    wanted = set(kinds)
    return [line for line in notation if line.split(" ", 1)[0].split(":", 1)[0] in wanted]


def action_from(fields: Mapping[str, str], legal: list[Action]) -> Action | None:
    """The legal action the submitted fields describe; None when they describe none (a
    combination that is not allowed, or fields that were tampered with)."""
    kind = fields.get("type")
    for action in legal:
        if action["type"] == kind and _matches(action, fields):
            return action
    return None


def _matches(action: Action, fields: Mapping[str, str]) -> bool:
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, list):
            wanted = [_read(fields.get(f"{key}.{i}")) for i in range(len(value))]
            if wanted != value:
                return False
        elif _read(fields.get(key)) != value:
            return False
    return True


_MISSING = object()


def _read(raw: str | None) -> Any:
    if raw is None:
        return _MISSING
    try:
        return json.loads(raw)
    except ValueError:
        return _MISSING
