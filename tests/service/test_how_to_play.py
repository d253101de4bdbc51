"""The how-to-play pages' positions: each lesson replays through the engine, move by move as a
player's moves are checked, to the positions the pages draw."""

import dataclasses

import pytest

from engine import registry
from engine.core import GameError
from engine.match import active_seats
from service.play.how_to_play import LESSONS, READER, positions, replay

TITLES = sorted(registry.GAMES)


def test_every_title_has_a_lesson():
    assert sorted(LESSONS) == TITLES


@pytest.mark.parametrize("title", TITLES)
def test_the_lesson_replays_to_an_opening_a_turn_of_the_reader_and_an_end(title):
    lesson = LESSONS[title]
    game = registry.GAMES[title]
    moves = lesson.moves()
    assert 0 < lesson.turn_at < len(moves)
    turn = replay(lesson, lesson.turn_at)
    assert turn["outcome"] is None and READER in active_seats(game, turn)
    assert moves[lesson.turn_at][0] == READER  # the reader's next move is the one recorded
    before_the_end = replay(lesson, len(moves) - 1)
    assert before_the_end["outcome"] is None  # the record's last move ends the game
    end = replay(lesson, len(moves))
    assert end["outcome"] is not None

    opening, shown, last = positions(title)
    assert (opening.played, shown.played, last.played) == (0, lesson.turn_at, len(moves))
    assert shown.moves and last.outcome == end["outcome"] and last.moves == ()
    assert shown.more_moves + len(shown.moves) == len(game.legal_actions(turn["state"], READER))
    assert all(p.board.startswith("<") and "(you)" in p.board for p in (opening, shown, last))


@pytest.mark.parametrize("title", TITLES)
def test_a_move_changed_in_the_record_is_refused(title):
    """Not a picture of any position: a move that is not legal where the record plays it."""
    lesson = LESSONS[title]
    seat, notation = lesson.moves()[lesson.turn_at]
    name = lesson.names[seat]
    step = f"{name}: {notation};"
    assert step in lesson.record
    wrong = dataclasses.replace(lesson, record=lesson.record.replace(step, f"{name}: resign;", 1))
    with pytest.raises(GameError):
        replay(wrong, lesson.turn_at + 1)
