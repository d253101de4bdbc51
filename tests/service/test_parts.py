"""Board parts (service/play/parts): at random positions of every title, every legal move of
every seat that may act is picked on the board by its own sequence of parts, none the beginning
of another, each part drawn on that seat's board (or a verb the page offers as a button), and
in words; and the marks of what changed since a seat's last move are parts of its board."""

from __future__ import annotations

import random
import re
from itertools import pairwise

import pytest

from engine import match as runner
from engine import registry
from service.play import boards, parts
from tests.engine.random_positions import random_positions
from tests.service.boards_positions import NAMES, TITLES
from tests.service.test_table import game_record, seat_table

POSITIONS = 80
MARKED_GAMES = {"ninedomains": 3}  # the others' games are long: one each
PART = re.compile(r'data-part="([^"]*)"')


def view_of(name: str, match: dict, seat: int | None, version: int = 1) -> dict:
    game = registry.GAMES[name]
    return {
        "game": name,
        "version": version,
        "seat": seat,
        "active_seats": sorted(runner.active_seats(game, match)),
        **game.view(match["state"], seat),
    }


def drawn_parts(name: str, view: dict, seats: int) -> list[str]:
    html = boards.html_board(view, NAMES[:seats], None)
    return [p.replace("&amp;", "&") for p in PART.findall(html)]


def check_sequences(sequences: list[tuple[str, ...]], where: str) -> None:
    """Non-empty, distinct, and none the beginning of another: picks name one move."""
    assert all(sequences), f"{where}: a move picks nothing"
    assert len(set(sequences)) == len(sequences), f"{where}: two moves pick the same parts"
    ordered = sorted(sequences)
    for before, after in pairwise(ordered):
        assert after[: len(before)] != before, f"{where}: {before} begins {after}"


@pytest.mark.parametrize("name", sorted(TITLES))
@pytest.mark.slow
def test_every_legal_move_is_picked_by_parts_of_the_seats_own_board(name):
    game = registry.GAMES[name]
    rnd = random.Random(f"parts {name}")
    moves = 0
    for match, seats in random_positions(game, rnd, POSITIONS):
        for seat in sorted(runner.active_seats(game, match)):
            view = view_of(name, match, seat)
            legal = game.legal_actions(match["state"], seat)
            sequences = [parts.picks(view, a) for a in legal]
            where = f"{name} seat {seat} in phase {view.get('phase')}"
            check_sequences(sequences, where)
            on_board = set(drawn_parts(name, view, seats))
            for action, sequence in zip(legal, sequences):
                for part in sequence + parts.changes(view, action):
                    assert parts.is_verb(part) or part in on_board, f"{where}: {part} not drawn"
                    words = parts.label(view, part)
                    assert words and words != part, f"{where}: {part} has no words"
            moves += len(legal)
    assert moves > POSITIONS


@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_part_drawn_is_named_once(name):
    """A board draws each part once (the page finds it by its name), for every viewer."""
    game = registry.GAMES[name]
    rnd = random.Random(f"drawn {name}")
    for match, seats in random_positions(game, rnd, 40):
        for seat in [*range(seats), None]:
            drawn = drawn_parts(name, view_of(name, match, seat), seats)
            assert len(drawn) == len(set(drawn)), sorted(p for p in drawn if drawn.count(p) > 1)


@pytest.mark.slow  # every position of whole games, for every seat
@pytest.mark.parametrize("name", sorted(TITLES))
def test_what_changed_since_a_seats_last_move_is_marked_on_its_board(name):
    """Along seeded games, each seat's table marks parts of its own board, as the class
    `changed`, and after another seat's move something is marked in most positions."""
    marked_after_others = positions_after_others = 0
    for i in range(MARKED_GAMES.get(name, 1)):
        n, positions = game_record(name, i)
        for match, events in positions[1:]:
            mover = events[-1]["seat"]
            for seat in range(n):
                told = seat_table(name, match, events, seat)
                drawn = set(PART.findall(told.board_html or ""))
                assert told.marks <= drawn, f"{name}: {told.marks - drawn} marked, not drawn"
                assert told.board_html.count('class="changed"') == len(told.marks)
                if seat != mover:
                    positions_after_others += 1
                    marked_after_others += bool(told.marks)
    assert marked_after_others > positions_after_others / 2, (
        f"{name}: marks in {marked_after_others} of {positions_after_others} positions"
    )


def test_nautilus_marks_the_space_the_other_placed_on():
    _, positions = game_record("nautilus", 0)
    match, events = next(
        (m, e)
        for m, e in positions
        if e[-1]["type"] == "ActionTaken" and e[-1]["action"]["type"] == "place"
    )
    mover, action = events[-1]["seat"], events[-1]["action"]
    reader = 1 - mover
    side = mover if action["side"] == "me" else reader
    told = seat_table("nautilus", match, events, reader)
    assert f"space:{side}:{action['col']}" in told.marks
    assert any("placed" in line for line in told.since)
    own = seat_table("nautilus", match, events, mover)
    assert not own.marks, "the mover's own move is not news to the mover"


def test_a_spectator_and_a_game_without_parts_have_no_marks_nor_picks():
    _, positions = game_record("buttons", 0)
    match, events = positions[5]
    spectator = seat_table("buttons", match, events, None)
    assert spectator.marks == frozenset() and 'class="changed"' not in spectator.board_html
    assert parts.picks({"game": "unknown"}, {"type": "x"}) == ()


@pytest.mark.slow  # over a second: not in make test-fast
def test_buttons_marks_the_others_gold_dice_buttons_told_with_the_readers_own_choice():
    """The placements on a roll are told when the last player decides: when that is the
    reader, the others' buttons are news to the reader all the same."""
    found = 0
    for i in range(3):
        _, positions = game_record("buttons", i)
        for match, events in positions:
            last = events[-1]
            if last["type"] != "ActionTaken":
                continue
            reader = last["seat"]
            placed = [
                e["data"]
                for e in last["entries"]
                if "row" in e["data"] and e["data"]["seat"] != reader
            ]
            board = match["state"]["boards"]
            told = seat_table("buttons", match, events, reader)
            for data in placed:
                cell = (data["row"] - 1) * 6 + data["col"] - 1
                if board[data["seat"]][cell] == "o":  # still there (the round goes on)
                    assert f"cell:{data['seat']}:{data['row']}:{data['col']}" in told.marks
                    found += 1
            own = [e["data"] for e in last["entries"] if e["data"].get("seat") == reader]
            assert not any(
                f"cell:{reader}:{d['row']}:{d['col']}" in told.marks for d in own if "row" in d
            )
    assert found
