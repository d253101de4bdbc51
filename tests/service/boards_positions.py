"""Positions of the four games for the board tests: seeded games, snapshots built from them
as the service stores them, and for every game a change of what a seat may not know (the
perturbations the engine's no-leak tests use, reused here)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from engine import match as runner
from engine import registry
from tests.engine import conformance
from tests.engine.conformance.buttons import perturb as buttons_perturb
from tests.engine.conformance.consonar import options_of as consonar_options
from tests.engine.conformance.consonar import perturb as consonar_perturb
from tests.engine.conformance.consonar import random_player as consonar_player
from tests.engine.conformance.nautilus import perturb as nautilus_perturb
from tests.engine.conformance.ninedomains import perturb as ninedomains_perturb

# Hostile and awkward names: markup, quotes, wide characters, a control character, length.
NAMES = [
    '<img src=x onerror="alert(1)">',
    'Bø & "Kim" 東京タワー',
    "Carol\nNew line",
    "Dmitri Ivanovich Karamazov the Younger",
    "Eve",
    "Fay",
]


def both_sides(perturb):
    """A spectator knows neither seat's secrets: change both."""

    def change(g, rng):
        return perturb(perturb(g, 0, rng), 1, rng)

    return change


def every_seat(perturb):
    """For games whose perturbation changes every seat but the one given: give none."""
    return lambda g, rng: perturb(g, -1, rng)


def buttons_player(view, legal, rng, seat):
    """A random player that opts out three times in four when it may, so that games stay
    short enough to draw thousands of positions (every kind of position still comes up)."""
    if {"type": "optout"} in legal and rng.below(4):
        return {"type": "optout"}
    return rng.choice(legal)


@dataclass(frozen=True)
class Title:
    name: str
    players: tuple[int, ...]  # player counts, used in turn
    options: Callable[[int], dict | None]
    perturb: Callable  # (state, seat, rng) -> state
    perturb_spectator: Callable  # (state, rng) -> state
    chooser: Callable | None = None  # conformance.play's chooser


TITLES = {
    "nautilus": Title(
        "nautilus",
        (2,),
        lambda i: [None, {"hidden_domains": True}][i % 2],
        nautilus_perturb,
        both_sides(nautilus_perturb),
    ),
    "consonar": Title(
        "consonar",
        (2, 3, 4, 5, 6),
        consonar_options,
        consonar_perturb,
        every_seat(consonar_perturb),
        consonar_player,
    ),
    "buttons": Title(
        "buttons",
        (2, 3, 4),
        lambda i: None,
        buttons_perturb,
        every_seat(buttons_perturb),
        buttons_player,
    ),
    "ninedomains": Title(
        "ninedomains",
        (2,),
        lambda i: [None, {"specials": "per_round"}][i % 2],
        ninedomains_perturb,
        both_sides(ninedomains_perturb),
    ),
}


def positions(title: Title, i: int, seed: bytes) -> tuple[int, list[dict]]:
    """(players, every match of one seeded game from the start to the end)."""
    game = registry.GAMES[title.name]
    n = title.players[i % len(title.players)]
    options = title.options(i)
    start, _ = runner.start(game, n, options, seed, 1)
    matches = [start]
    conformance.play(
        game,
        n,
        options,
        seed,
        chooser=title.chooser,
        on_step=lambda before, seat, action, after, entries: matches.append(after),
    )
    return n, matches


def snapshot(name: str, match: dict, version: int, names=NAMES) -> dict:
    """The parts of a stored snapshot a board is drawn from."""
    game = registry.GAMES[name]
    return {
        "id": "g_board",
        "game": name,
        "version": version,
        "seats": [
            {"kind": "player", "player_id": f"p_{s}", "name": names[s]}
            for s in range(match["seats"])
        ],
        "active_seats": sorted(runner.active_seats(game, match)),
        "match": match,
    }


def perturbed(title: Title, match: dict, seat: int | None, rng) -> dict:
    """A copy of `match` in which what `seat` may not know is different."""
    changed = json.loads(json.dumps(match))
    if seat is None:
        changed["state"] = title.perturb_spectator(changed["state"], rng)
    else:
        changed["state"] = title.perturb(changed["state"], seat, rng)
    return changed
