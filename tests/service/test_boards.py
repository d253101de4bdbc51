"""The boards (service/play/boards): golden files of recorded positions (and of one with every
part marked, in Russian or Italian), hostile names that stay text, and every position of 200
seeded games per title drawn for every seat and a spectator with nothing hidden in them.

Regenerate the golden files after an intended change of a board:
    UPDATE_GOLDEN_BOARDS=1 .venv/bin/python -m pytest tests/service/test_boards.py -k golden
and read the diff before committing it. A change meant to draw the same boards (a faster way to
draw them) leaves every golden file as it is; `python -m bench.boards --digest --before TREE`
compares many more boards with another tree's.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine.rng import Rng
from service.play.boards import _parts, html_board, seat_boards
from service.play.boards.common import TEXT_WIDTH, width
from service.words import speaking
from tests.engine import conformance
from tests.service.boards_positions import NAMES, TITLES, perturbed, positions, snapshot

GOLDEN = Path(__file__).parent / "golden_boards"
RANDOM_GAMES = 100  # every position of each: some thousands a title
RANDOM_PARTS = 4
GOLDEN_SEEDS = {"nautilus": 11, "consonar": 12, "buttons": 13, "ninedomains": 14}
GOLDEN_PLAYERS = {"nautilus": 0, "consonar": 1, "buttons": 1, "ninedomains": 0}  # index
GOLDEN_MIDDLE = {"nautilus": 0.6, "consonar": 0.5, "buttons": 0.5, "ninedomains": 0.5}
MAIL_SAFE_TAGS = {"table", "tr", "td", "th", "div", "span", "p", "strong"}
MAIL_SAFE_ATTRIBUTES = {
    "colspan",
    "style",
    "role",
    "cellpadding",
    "cellspacing",
    "border",
    "bgcolor",
    "width",
    "title",
    "data-part",  # the parts a move picks on the game page (service/play/parts)
    "class",  # `changed`: a part marked as changed since the reader's last move
    "data-new",  # the badge of such a part ("new", in the reader's language)
}


class Markup(HTMLParser):
    """The tags, attributes and text of an HTML board, as a mail client would read them."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}

    def handle_data(self, data):
        self.text.append(data)


def viewers(n: int) -> list[int | None]:
    return [*range(n), None]


def check_board(text: str, html: str) -> None:
    """What every board must be: short text lines, mail-safe HTML, no name unescaped."""
    assert text.endswith("\n")
    for line in text.splitlines():
        assert width(line) <= TEXT_WIDTH, f"a text line is too wide: {line!r}"
    markup = Markup(html)
    assert markup.tags <= MAIL_SAFE_TAGS, markup.tags - MAIL_SAFE_TAGS
    assert markup.attributes <= MAIL_SAFE_ATTRIBUTES, markup.attributes - MAIL_SAFE_ATTRIBUTES
    assert "\n" not in html.strip()
    assert "Carol\nNew" not in text


def golden_positions(name: str):
    title = TITLES[name]
    n, matches = positions(title, GOLDEN_PLAYERS[name], conformance.seed_of(GOLDEN_SEEDS[name]))
    chosen = {
        "start": 0,
        "middle": int(len(matches) * GOLDEN_MIDDLE[name]),
        "end": len(matches) - 1,
    }
    return n, {label: (index + 1, matches[index]) for label, index in chosen.items()}


@pytest.mark.parametrize("name", sorted(TITLES))
def test_golden_boards(name):
    n, chosen = golden_positions(name)
    folder = GOLDEN / name
    update = os.environ.get("UPDATE_GOLDEN_BOARDS") == "1"
    for label, (version, match) in chosen.items():
        for seat in viewers(n):
            text, html = seat_boards(snapshot(name, match, version), seat)
            check_board(text, html)
            who = "spectator" if seat is None else f"seat{seat}"
            for suffix, content in (("txt", text), ("html", html + "\n")):
                path = folder / f"{label}-{who}.{suffix}"
                if update:
                    folder.mkdir(parents=True, exist_ok=True)
                    path.write_text(content, encoding="utf-8")
                assert path.exists(), f"no golden board {path.name}: see this module's docstring"
                assert path.read_text(encoding="utf-8") == content, (
                    f"{name}/{path.name} differs from the golden board"
                )


def every_part(html: str) -> frozenset[str]:
    """The board parts an HTML board names."""
    return frozenset(re.findall(r'data-part="([^"]*)"', html))


MARKED_LANGUAGE = {"nautilus": "it", "consonar": "ru", "buttons": "it", "ninedomains": "ru"}


@pytest.mark.parametrize("name", sorted(TITLES))
def test_golden_boards_with_every_part_marked_in_another_language(name):
    """The middle position for seat 0 with every part on it marked as changed (a ring, the
    class, the words in the title, the badge), in Russian or Italian: drawn as the golden
    file says."""
    _, chosen = golden_positions(name)
    version, match = chosen["middle"]
    view, names, outcome = _parts(snapshot(name, match, version), 0)
    with speaking(MARKED_LANGUAGE[name]):
        parts = every_part(html_board(view, names, outcome))
        html = html_board(view, names, outcome, parts)
    check_board("\n", html)
    assert len(parts) >= 5 and html.count('class="changed"') == len(parts)
    path = GOLDEN / name / f"middle-seat0-marked-{MARKED_LANGUAGE[name]}.html"
    if os.environ.get("UPDATE_GOLDEN_BOARDS") == "1":
        path.write_text(html + "\n", encoding="utf-8")
    assert path.read_text(encoding="utf-8") == html + "\n", f"{name}/{path.name} differs"


@pytest.mark.parametrize("name", sorted(TITLES))
@pytest.mark.slow
def test_no_name_reaches_a_board_unescaped(name):
    """Every golden position, for every seat and a spectator, marked and not, in English and
    Russian: hostile names (markup, quotes, an ampersand, a newline) are text, never markup,
    and no attribute is broken open by a quote."""
    n, chosen = golden_positions(name)
    hostile = ["<script>x</script>", '"><b onclick=x>', "A & B 'C'", "<i>Di</i>", "Ed", "Fay"]
    shown = set()
    for version, match in chosen.values():
        for seat in viewers(n):
            view, names, outcome = _parts(snapshot(name, match, version, hostile), seat)
            for language in ("en", "ru"):
                with speaking(language):
                    plain = html_board(view, names, outcome)
                    for html in (plain, html_board(view, names, outcome, every_part(plain))):
                        markup = Markup(html)
                        assert markup.tags <= MAIL_SAFE_TAGS, markup.tags - MAIL_SAFE_TAGS
                        assert markup.attributes <= MAIL_SAFE_ATTRIBUTES
                        assert "<script" not in html and "<b " not in html and "<i>" not in html
                        text = "".join(markup.text)
                        shown |= {who for who in hostile[:n] if who in text}
    assert shown == set(hostile[:n]), shown  # each seat's name, whole, as text


def test_golden_positions_are_what_their_names_say():
    for name in TITLES:
        _, chosen = golden_positions(name)
        assert chosen["start"][1]["outcome"] is None and chosen["middle"][1]["outcome"] is None
        assert chosen["end"][1]["outcome"] is not None


def test_a_board_shows_the_readers_hand_and_not_the_others():
    _, chosen = golden_positions("ninedomains")
    version, match = chosen["start"]
    hands = match["state"]["hands"]
    text0, _html0 = seat_boards(snapshot("ninedomains", match, version), 0)
    spectator, _ = seat_boards(snapshot("ninedomains", match, version), None)
    assert "Your hand: " + " ".join(hands[0]) in text0
    assert "Your hand" not in spectator and "holds 9 cards" in spectator


def test_a_hostile_name_is_shown_as_text_never_as_markup():
    _, chosen = golden_positions("nautilus")
    version, match = chosen["middle"]
    _, html = seat_boards(snapshot("nautilus", match, version), 1)
    markup = Markup(html)
    assert "img" not in markup.tags and "onerror" not in markup.attributes
    assert any(NAMES[0][:15] in text for text in markup.text)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(RANDOM_PARTS))
@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_position_of_random_games_draws_for_every_seat_without_hidden_facts(name, part):
    """Every position of RANDOM_GAMES seeded games per title (in RANDOM_PARTS parts, so that
    `pytest -n` spreads them) is drawn for every seat and a spectator. At each position one of
    those viewers, in turn, also gets the boards of a copy of the game in which what it may not
    know is changed (other hands, deck order, face-down choices): they must be byte-identical."""
    title = TITLES[name]
    drawn = checked = 0
    per_part = RANDOM_GAMES // RANDOM_PARTS
    for i in range(part * per_part, (part + 1) * per_part):
        seed = conformance.seed_of(20_000 + i)
        shaker = Rng(b"boards:" + seed)
        n, matches = positions(title, i, seed)
        for version, match in enumerate(matches, start=1):
            snap = snapshot(name, match, version)
            drawn_now = {seat: seat_boards(snap, seat) for seat in viewers(n)}
            drawn += len(drawn_now)
            seat = viewers(n)[version % (n + 1)]
            boards = drawn_now[seat]
            other = seat_boards(
                snapshot(name, perturbed(title, match, seat, shaker), version), seat
            )
            assert boards == other, (
                f"{name} game {i}, version {version}: seat {seat}'s board shows a hidden fact"
            )
            checked += 1
        check_board(*boards)
    assert checked > per_part * 5 and drawn > checked


def test_the_perturbations_change_what_the_boards_hide():
    """Without this, the test above could pass by changing nothing."""
    for name, title in TITLES.items():
        n, matches = positions(title, 0, conformance.seed_of(7))
        changed = 0
        for match in matches[1:40]:
            for seat in viewers(n):
                changed += perturbed(title, match, seat, Rng(b"x" * 32))["state"] != match["state"]
        assert changed > 10, name
