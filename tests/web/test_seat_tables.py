"""The pages render a seat's table (service/play/table.py) and nothing else: no template is
given the game's snapshot (which holds the secret seed), and the game page opens with what
happened since the reader's last move. Flask's test client, a real Valkey."""

from __future__ import annotations

import dataclasses
import random
import re
from html import unescape

import pytest
from flask import template_rendered

from service.notify.notifications import TURN_STARTED, Notice
from tests.api.test_turn_pages import Forms
from tests.peers import text_of
from tests.web.conftest import Browser, sign_up
from tests.web.test_game_pages import MoveForms, a_move, new_game


@pytest.fixture
def friends(app, services, smtp):
    """Ada and Bo, signed in, Bo letting Ada seat him without an invitation."""
    ada, bo = Browser(app), Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    sign_up(bo, services, smtp, "Bo", "bo@example.org")
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})
    return ada, bo


@pytest.fixture
def contexts(app):
    """Every template rendered while the test runs, with what it was given."""
    seen: list[tuple[str, dict]] = []

    def record(sender, template, context, **extra):
        seen.append((template.name or "(a string)", dict(context)))

    template_rendered.connect(record, app)
    yield seen
    template_rendered.disconnect(record, app)


def values_in(value, depth=0):
    """A value and everything inside it: dicts, lists, tuples and dataclasses."""
    yield value
    if depth > 8:
        return
    if isinstance(value, dict):
        inner = list(value.values())
    elif isinstance(value, list | tuple | set | frozenset):
        inner = list(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        return
    for item in inner:
        yield from values_in(item, depth + 1)


def move_once(player, game_id, rnd):
    """Send moves from the player's page until one is played."""
    for _ in range(50):
        fields = a_move(player.text(f"/games/{game_id}"), rnd)
        assert fields is not None, "no move to make"
        if player.post(f"/games/{game_id}/move", fields).status_code == 303:
            return
    raise AssertionError("no legal move found")


def assert_no_snapshot_given(contexts, seed):
    given = [(name, v) for name, context in contexts for v in values_in(context)]
    for name, value in given:
        assert not (isinstance(value, dict) and "secret_seed" in value), f"{name} got the snapshot"
        assert value != seed, f"{name} got the seed"
    return {name for name, _ in given}


@pytest.mark.slow
def test_no_template_is_given_the_snapshot(friends, services, contexts):
    ada, bo = friends
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    rnd = random.Random(3)
    move_once(ada, game_id, rnd)
    move_once(bo, game_id, rnd)
    seed = services.games.load(game_id)["secret_seed"]
    for path in (f"/games/{game_id}", "/games", "/lobby", f"/play/{game_id}"):
        ada.get(path)
        bo.get(path)
    assert len(assert_no_snapshot_given(contexts, seed)) >= 4


def test_the_game_page_opens_with_what_happened_since_your_last_move(friends, services):
    ada, bo = friends
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    rnd = random.Random(5)
    move_once(ada, game_id, rnd)
    move_once(bo, game_id, rnd)  # the second card of the round: the cards are revealed
    page = ada.text(f"/games/{game_id}")  # as from My games: no ?since
    assert "Since your last move" in page
    since = page.split("Since your last move")[1].split("</section>")[0]
    assert "the cards are revealed" in since and "Bo" in since
    assert page.index("Since your last move") < page.index('aria-label="The board"')


def listed(html: str, after: str) -> list[str]:
    """The items of the first list after the heading `after`, as text."""
    block = html.split(after, 1)[1].split("</ul>", 1)[0]
    return [unescape(item).strip() for item in re.findall(r"<li>(.*?)</li>", block, re.S)]


def emailed_lines(text: str, heading: str) -> list[str]:
    block = text.replace("\r\n", "\n").split(heading + "\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()]


@pytest.mark.slow
def test_the_turn_email_turn_page_and_game_page_show_one_table(friends, services, smtp, contexts):
    """Bo moves, then Ada reads her turn three ways: the same "since your last move" lines
    and the same moves in each (and neither page's template is given the snapshot)."""
    ada, bo = friends
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    rnd = random.Random(9)
    move_once(ada, game_id, rnd)
    move_once(bo, game_id, rnd)
    while not services.tables.for_seat(game_id, 0).your_turn:
        move_once(bo, game_id, rnd)  # a battle's winner may swap or pass first
    table = services.tables.for_seat(game_id, 0)
    services.notifications.email(Notice(TURN_STARTED, game_id, 0, table.turn_since))
    message = smtp.wait_for(
        lambda m, rcpt: "ada@example.org" in rcpt and m["X-Turnpost-Event"] == TURN_STARTED
    )
    text = text_of(message)
    turn_url = re.search(r"http://turnpost\.test(/t/[A-Za-z0-9_.-]+)", text).group(1)
    turn_page = ada.text(turn_url)
    game_page = ada.text(f"/games/{game_id}")

    in_email = emailed_lines(text, "Since your last move:")
    assert in_email and "the cards are revealed" in " ".join(in_email)
    assert listed(turn_page, "Since your last move</h2>") == in_email
    assert listed(game_page, "Since your last move</h2>") == in_email
    assert list(table.since) == in_email

    def forms(html):
        return [(f["hidden"].get("type"), f["selects"]) for f in MoveForms(html).forms]

    def turn_forms(html):
        # the turn page's move forms post to the page itself (the navigation has a form too)
        return [
            (f["hidden"]["type"], f["selects"]) for f in Forms(html).forms if "type" in f["hidden"]
        ]

    assert turn_forms(turn_page) == forms(game_page) != []
    counts = re.findall(r"\((\d+) ways\)", game_page)
    assert sum(map(int, counts)) == len(table.moves)
    assert f"Your legal moves ({len(table.moves)}" in text
    assert_no_snapshot_given(contexts, services.games.load(game_id)["secret_seed"])
    assert any(context.get("t") == table for _, context in contexts), "the turn page's table"
