"""How to play: the positions each title's how-to-play page shows (its opening, a turn with the
legal moves it offers, its end), reached by the engine itself from a recorded game.

Each lesson is a real game: a fixed seed and the moves its players made (recorded once from
the heuristic bots' game on that seed), replayed through `engine.match.move` as a player's
moves are, so a move that stopped being legal, or a change of the rules that leads the game
elsewhere, fails here (tests/service/test_how_to_play.py) instead of showing a wrong picture.
The pictures are the boards every page draws (service/play/boards), from the view of the
lesson's reader, seat 1 ("you"): nothing is shown that this player could not know.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine import registry
from engine.match import Match, active_seats, legal_actions, move, start
from service.play.boards import Html, html_board, scores_of
from service.play.move_words import said_to
from service.words import speaking

PAGES = "/how-to-play"
"""The how-to-play pages' address: PAGES + "/" + a title's name."""

LISTED_MOVES = 8
"""The most legal moves a page lists in words; the others are counted."""


def page_path(game: str) -> str:
    """The address of a title's how-to-play page, below the site's root."""
    return f"{PAGES}/{game}"


@dataclass(frozen=True)
class Lesson:
    """A recorded game: `record` is its moves in order, "Name: notation" separated by ";"
    (several seats may act at once in some titles: the order is the one played); the turn
    shown is the position after `turn_at` of them, when the reader (seat 1) is to move."""

    game: str
    names: tuple[str, ...]
    seed: bytes
    turn_at: int
    record: str

    def moves(self) -> list[tuple[int, str]]:
        """Each move as (seat, notation)."""
        found = []
        for step in self.record.split(";"):
            if step.strip():
                name, notation = step.split(":", 1)
                found.append((self.names.index(name.strip()), notation.strip()))
        return found


LESSONS = {
    lesson.game: lesson
    for lesson in (
        Lesson(
            "nautilus",
            ("Ada", "Bo"),
            b"turnpost: how to play nautilus a",
            13,
            (
                "Ada: keep fishbone; Ada: pass; Bo: submarine; Bo: submarine keep 12; Ada: place "
                "fishbone opp2; Bo: place 1 me1; Ada: place 2 opp3; Bo: place 14 me4; Ada: place 13 "
                "me5; Bo: place 6 opp4; Bo: move opp5 me5; Ada: place 5 me3; Bo: place 10 opp5; Ada: "
                "place 8 me2; Ada: move me5 me1; Bo: place 11 opp5; Bo: keep kraken; Bo: pass; Ada: "
                "pass; Bo: place kraken me3; Ada: place 2 opp1; Bo: place 3 opp2; Ada: place 13 me4; "
                "Bo: place 12 me5; Ada: place 4 me1; Bo: place 5 me2; Ada: place 6 opp4; Ada: move opp3 "
                "me3; Bo: place 8 opp5; Ada: place 10 opp3; Ada: keep harpoon; Ada: harpoon; Ada: "
                "harpoon give 3; Bo: eye; Ada: place 11 me3; Bo: place 13 me3; Ada: place 5 opp4; Bo: "
                "place 2 opp4; Ada: place 6 opp1; Bo: place 3 opp1; Ada: place 7 opp2; Ada: move opp3 "
                "opp5; Bo: place 4 opp2; Ada: place 8 opp3; Bo: place 9 opp5; Bo: keep eye; Bo: eye; "
                "Ada: pass; Bo: place 1 opp2; Ada: place 14 opp2; Bo: place 2 me3; Ada: place 13 me4; "
                "Bo: place 3 opp5; Ada: place 5 opp4; Bo: place 7 me5; Bo: move me2 me1; Ada: place 6 "
                "me1; Ada: move me2 opp2; Bo: place 9 opp3; Ada: place 10 me2; Ada: keep fishbone; Ada: "
                "pass; Bo: submarine; Bo: submarine keep 11; Ada: place fishbone opp2; Bo: place 14 "
                "me4; Ada: place 1 me4; Bo: place 13 me5; Ada: place 2 me1; Bo: place 4 opp5; Ada: "
                "place 5 opp1; Bo: place 6 opp2; Ada: place 10 me3; Bo: place 9 me3 "
            ),
        ),
        Lesson(
            "consonar",
            ("Ada", "Bo", "Cy"),
            b"turnpost: how to play consonar d",
            4,
            (
                "Bo: fleet b+4@b1; Bo: torpedo o2@o2; Cy: fleet p+4@p1; Cy: torpedo b3@b1; Ada: fleet "
                "g+6@g1; Ada: fleet g-1@g2; Ada: torpedo g3@g1; Bo: fleet p+2@p1; Bo: defuse p2; Cy: "
                "fleet y-1@y1; Cy: end; Ada: fleet b+6@b2; Ada: end; Bo: fleet o-1@o1; Bo: torpedo "
                "b1@b2; Cy: fleet b+2@g2; Cy: torpedo b2@p1; Ada: fleet b-3@r2; Ada: fleet p-1@p2; Ada: "
                "torpedo g1@g2; Bo: fleet b-1@p2; Bo: end; Cy: fleet r-1@r2; Cy: end; Ada: fleet "
                "p+6@p2; Ada: end; Bo: fleet o-5@o1; Bo: end; Cy: fleet g+2@o1; Cy: end; Ada: fleet "
                "o+4@o1; Ada: end; Bo: fleet y+2@y1; Bo: end; Cy: fleet g-3@y2; Cy: end; Ada: fleet "
                "o+2@o2; Ada: end; Bo: fleet o-3@o2; Bo: torpedo o1@o1; Cy: fleet r+6@r1; Cy: end; Ada: "
                "fleet g-5@r1; Ada: torpedo p1@p2; Bo: fleet o+6@o2; Bo: end; Cy: fleet p-5@y1; Cy: "
                "end; Ada: fleet y-5@y1; Ada: torpedo p3@o2; Bo: fleet g+4@r1; Bo: torpedo r3@r1; Cy: "
                "fleet b-5@r2; Cy: end; Ada: fleet r-5@r2; Ada: end; Bo: fleet p-3@r2; Bo: end; Cy: "
                "fleet p+6@r2; Cy: end; Ada: fleet r-1@r2; Ada: end; Bo: fleet b+2@r2; Bo: end; Cy: "
                "fleet b-1@y1; Cy: defuse y2; Ada: fleet b-3@r2; Ada: end; Bo: fleet o+2@r2; Bo: end; "
                "Cy: fleet g+6@r2; Cy: torpedo r1@r2; Ada: fleet r+2@y1; Ada: torpedo y3@y1; Bo: fleet "
                "o+4@y1; Bo: end; Cy: fleet p+4@y1; Cy: end; Ada: fleet r+4@y2; Ada: fleet o-1@y2; Ada: "
                "torpedo o3@y1; Bo: fleet y-1@y2; Bo: torpedo r2@y2 "
            ),
        ),
        Lesson(
            "buttons",
            ("Ada", "Bo"),
            b"turnpost: how to play buttons a",
            18,
            (
                "Ada: roll; Ada: place 5 6; Bo: skip; Bo: roll; Ada: skip; Bo: place 4 2; Ada: roll; "
                "Ada: place 3 6; Bo: place 3 3; Bo: roll; Ada: skip; Bo: place 2 2; Ada: roll; Ada: "
                "place 6 1; Bo: skip; Bo: roll; Bo: place 3 1; Ada: roll; Ada: place 2 1; Bo: roll; "
                "Ada: place 4 2; Bo: place 4 5; Ada: roll; Ada: place 4 5; Bo: roll; Bo: place 3 6; "
                "Ada: roll; Ada: place 1 6; Bo: skip; Bo: optout; Ada: roll; Ada: place 5 3; Ada: "
                "optout; Ada: star 1 6; Ada: star 3 6; Ada: star 5 6; Ada: star 5 3; Ada: star 2 1; Bo: "
                "star 2 2; Bo: star 4 2; Bo: star 4 5; Bo: roll; Ada: place 6 5; Bo: place 6 5; Ada: "
                "roll; Ada: place 5 2; Bo: place 5 3; Bo: roll; Ada: place 2 6; Bo: place 2 4; Ada: "
                "roll; Ada: place 5 4; Bo: roll; Ada: place 1 1; Bo: place 1 2; Ada: optout; Bo: "
                "optout; Ada: star 2 6; Ada: star 5 2; Ada: star 5 4; Bo: star 1 2; Bo: star 2 4; Bo: "
                "star 6 5; Ada: roll; Bo: skip; Bo: roll; Bo: place 6 2; Bo: roll; Bo: place 3 1; Bo: "
                "roll; Bo: place 2 5; Bo: roll; Bo: place 4 4; Bo: optout; Bo: star 2 5; Bo: star 4 4; "
                "Bo: star 6 2; Bo: roll; Bo: place 5 4; Ada: roll; Ada: place 6 6; Bo: roll; Ada: place "
                "5 1; Bo: place 5 1; Ada: roll; Ada: place 1 3; Bo: place 1 5; Bo: optout; Ada: roll; "
                "Ada: place 4 6; Ada: optout; Ada: star 4 6; Bo: star 1 5; Bo: star 5 4; Bo: star 5 1 "
            ),
        ),
        Lesson(
            "ninedomains",
            ("Ada", "Bo"),
            b"turnpost: how to play ninedomains c",
            4,
            (
                "Ada: play 4 3- 2; Bo: play 4 3- 2; Ada: play 1 1+ 3; Bo: play 1+ 3 0; Ada: play * 0 5; "
                "Bo: play 5 * 1 "
            ),
        ),
    )
}


@dataclass(frozen=True)
class Position:
    """One picture of a page: the board as the reader saw it after `played` moves, with the
    reader's legal moves in words (the first LISTED_MOVES of them, and how many more) and,
    at the end, the result."""

    kind: str  # "opening", "turn" or "end"
    played: int
    board: Html
    moves: tuple[str, ...]
    more_moves: int
    score: str | None
    outcome: dict[str, Any] | None


def replay(lesson: Lesson, count: int) -> Match:
    """The match after the lesson's first `count` moves, each played as a player's move is
    (engine.match.move: the seat may act, the move reads and is legal)."""
    game = registry.GAMES[lesson.game]
    match, _ = start(game, len(lesson.names), None, lesson.seed, 1)
    for version, (seat, notation) in enumerate(lesson.moves()[:count], start=1):
        match = move(
            game,
            match,
            seat,
            lesson.seed,
            expected_version=version,
            version=version,
            notation=notation,
        ).match
    return match


READER = 0  # the seat the pages show the game to ("you")


def position(lesson: Lesson, kind: str, count: int) -> Position:
    game = registry.GAMES[lesson.game]
    match = replay(lesson, count)
    version = count + 1
    view = {
        "game": lesson.game,
        "version": version,
        "seat": READER,
        "active_seats": sorted(active_seats(game, match)),
        **game.view(match["state"], READER),
    }
    names = list(lesson.names)
    legal = legal_actions(game, match, READER)
    seats = [{"kind": "player", "name": name} for name in names]
    words = said_to(game, view, seats, READER, legal[:LISTED_MOVES])
    return Position(
        kind,
        count,
        html_board(view, names, match["outcome"]),
        tuple(words),
        max(0, len(legal) - LISTED_MOVES),
        scores_of(view, names, match["outcome"]),
        match["outcome"],
    )


@cache
def positions(game: str, language: str | None = None) -> tuple[Position, Position, Position]:
    """The opening, the turn and the end of the title's lesson, their boards and moves in
    `language` (English when None)."""
    lesson = LESSONS[game]
    everything = len(lesson.moves())
    with speaking(language):
        return (
            position(lesson, "opening", 0),
            position(lesson, "turn", lesson.turn_at),
            position(lesson, "end", everything),
        )
