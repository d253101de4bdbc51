"""A seat's table (service/play/table.py): built from the seat's view only, so it holds nothing
that seat may not know, over random positions of every title; and what it tells people (seats
from 1, the log numbered without gaps, "since your last move")."""

from __future__ import annotations

import json

import pytest

from engine import match as runner
from engine import registry
from engine.core import LogEntry
from engine.rng import Rng
from service.play import table
from store.record import EventType
from tests.engine import conformance
from tests.service.boards_positions import NAMES, TITLES, perturbed, snapshot

pytestmark = pytest.mark.slow  # every position of whole games of every title

GAMES_PER_TITLE = 6
SEED = "5e" * 32
NOW = 1_800_000_000_000


def stored_snapshot(name: str, match: dict, version: int) -> dict:
    """A snapshot as the store keeps it, secret seed included."""
    return {
        **snapshot(name, match, version),
        "rules_version": 1,
        "options": {},
        "time_control": {"per_move_seconds": 86400, "on_timeout": "auto"},
        "commitment": "c0" * 32,
        "status": "finished" if match["outcome"] else "active",
        "deadlines": [
            NOW + 3_600_000 if s in runner.active_seats(registry.GAMES[name], match) else None
            for s in range(match["seats"])
        ],
        "timed_out": [],
        "created_at": NOW,
        "secret_seed": SEED,
        "revealed_seed": None,
        "created_by": "p_0",
        "if_declined": "cancel",
        "declined": [],
        "updated_at": NOW,
    }


def game_record(name: str, i: int):
    """(players, [(match, events so far)]) of one seeded game: every position with the log
    that led to it (GameStarted, then an ActionTaken per move)."""
    title = TITLES[name]
    game = registry.GAMES[name]
    seed = conformance.seed_of(30_000 + i)
    n = title.players[i % len(title.players)]
    options = title.options(i)
    start, entries = runner.start(game, n, options, seed, 1)
    events = [
        {
            "type": EventType.GAME_STARTED,
            "version": 1,
            "at": NOW,
            "entries": [e.to_json() for e in entries],
        }
    ]
    positions = [(start, list(events))]

    def step(before, seat, action, after, entries):
        events.append(
            {
                "type": EventType.ACTION_TAKEN,
                "version": len(events) + 1,
                "at": NOW,
                "seat": seat,
                "action": action,
                "entries": [e.to_json() for e in entries],
            }
        )
        positions.append((after, list(events)))

    conformance.play(game, n, options, seed, chooser=title.chooser, on_step=step)
    return n, positions


def hide_from(events: list[dict], seat: int | None) -> list[dict]:
    """The events with every log line `seat` may not read changed."""
    changed = json.loads(json.dumps(events))
    for event in changed:
        for entry in event.get("entries", []):
            if not LogEntry.from_json(entry).visible_to(seat):
                entry["text"] = "A SECRET LINE {seat0}"
                entry["data"] = {"secret": [1, 2, 3]}
    return changed


def seat_table(name, match, events, seat, version=None):
    version = version or len(events)
    snap = stored_snapshot(name, match, version)
    recent = events[-table.SINCE_WINDOW :]
    page = table.log_pages(version)
    log = [e for e in events if e["version"] > (page - 1) * table.LOG_PAGE]
    return table.build(snap, seat, recent, log, page, NOW, "Europe/Rome")


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_table_holds_nothing_its_seat_may_not_know(name):
    """At every position of seeded games, one viewer in turn (each seat and a spectator):
    its table is the same when what it may not know is changed (other hands, the deck, face-down
    choices, the log lines it may not read), and never holds the seed."""
    title = TITLES[name]
    shaker = Rng(b"tables" * 6)
    checked = moved = 0
    for i in range(GAMES_PER_TITLE):
        n, positions = game_record(name, i)
        viewers = [*range(n), None]
        for match, events in positions:
            seat = viewers[len(events) % len(viewers)]
            told = seat_table(name, match, events, seat)
            hidden = seat_table(
                name, perturbed(title, match, seat, shaker), hide_from(events, seat), seat
            )
            assert told == hidden, f"{name} game {i} v{len(events)}: seat {seat} sees a secret"
            assert SEED not in repr(told)
            assert "A SECRET LINE" not in repr(hidden)
            checked += 1
            moved += bool(told.moves)
    assert checked > GAMES_PER_TITLE * 5 and moved > 0


def test_the_checks_above_can_fail():
    """The perturbation changes what a table would show if it read the state or every line."""
    name = "ninedomains"
    _, positions = game_record(name, 0)
    match, events = positions[1]
    assert hide_from(events, 0) != events
    other_hand = match["state"]["hands"][1]
    changed = perturbed(TITLES[name], match, 0, Rng(b"x" * 32))
    assert changed["state"]["hands"][1] != other_hand


def test_seats_from_1_the_log_without_gaps_and_since_your_last_move():
    name = "ninedomains"
    _, positions = game_record(name, 1)
    match, events = positions[4]
    spectator = seat_table(name, match, events, None)
    assert [s.number for s in spectator.seats] == [1, 2]
    assert [s.name for s in spectator.seats] == NAMES[:2]
    numbers = [h.number for h in spectator.log.entries]
    assert numbers == list(range(1, len(events) + 1))
    assert all(h.lines for h in spectator.log.entries), "every event says something"
    assert spectator.since == () and spectator.moves == ()
    last_mover = events[-1]["seat"]
    mine = seat_table(name, match, events, last_mover)
    assert mine.since, "the seat's own last move and what it caused"
    other = seat_table(name, match, events, 1 - last_mover)
    assert other.since and other.since != mine.since


def test_a_refused_seat_reads_refused():
    _, positions = game_record("nautilus", 0)
    match, _ = positions[0]
    snap = stored_snapshot("nautilus", match, 1)
    snap["seats"][1] = {"kind": "open", "player_id": None, "name": None}
    snap["declined"] = [{"seat": 1, "player_id": "p_9", "name": "Ben"}]
    assert table.seat_name(snap, 1) == "Ben (refused)"


def test_the_moves_of_the_seat_to_move_have_notation_action_and_description():
    name = "nautilus"
    _, positions = game_record(name, 2)
    match, events = positions[3]
    seat = sorted(runner.active_seats(registry.GAMES[name], match))[0]
    told = seat_table(name, match, events, seat)
    legal = runner.notated_legal_actions(registry.GAMES[name], match, seat)
    assert [(m.notation, dict(m.action)) for m in told.moves] == legal
    assert all(m.description for m in told.moves)
    assert told.forms and told.turn_since == match["seat_since"][seat]
    assert told.you is not None and told.you.deadline and "Europe/Rome" in told.you.deadline


def test_a_letters_table_has_the_same_moves_without_the_board_parts_a_page_picks():
    name = "ninedomains"
    _, positions = game_record(name, 2)
    match, events = positions[1]
    seat = sorted(runner.active_seats(registry.GAMES[name], match))[0]
    version = len(events)
    snap = stored_snapshot(name, match, version)
    recent, page = events[-table.SINCE_WINDOW :], table.log_pages(version)
    log = [e for e in events if e["version"] > (page - 1) * table.LOG_PAGE]
    page_table = table.build(snap, seat, recent, log, page, NOW)
    listing = len(page_table.moves)
    letter_table = table.build(snap, seat, recent, log, page, NOW, letter_lists=listing)
    summing_up = table.build(snap, seat, recent, log, page, NOW, letter_lists=listing - 1)
    assert page_table.moves and all(m.parts for m in page_table.moves)
    assert any(m.description != m.notation for m in page_table.moves)
    assert [(m.notation, m.description) for m in letter_table.moves] == [
        (m.notation, m.description) for m in page_table.moves
    ]
    # a letter that sums its moves up has the same moves, none of them put in words
    assert [(m.notation, m.description) for m in summing_up.moves] == [
        (m.notation, m.notation) for m in page_table.moves
    ]
    for letter in (letter_table, summing_up):
        assert not any(m.parts or m.changes for m in letter.moves)
        assert letter.part_labels == {}
        assert (letter.board_html, letter.forms, letter.since) == (
            page_table.board_html,
            page_table.forms,
            page_table.since,
        )
        assert page_table.log.entries and not letter.log.entries


def test_since_starts_at_the_last_email_when_that_came_first():
    name = "ninedomains"
    _, positions = game_record(name, 1)
    match, events = positions[6]
    seat = events[-1]["seat"]
    game = registry.GAMES[name]
    seats = stored_snapshot(name, match, len(events))["seats"]
    heading, from_move = table.since_last_move(game, seats, events, seat)
    assert heading == table.SINCE_MOVE
    heading, from_email = table.since_last_move(game, seats, events, seat, told_until=1)
    assert heading == table.SINCE_EMAIL and len(from_email) > len(from_move)
    assert from_email[-len(from_move) :] == from_move
    later = table.since_last_move(game, seats, events, seat, told_until=len(events))
    assert later == (table.SINCE_MOVE, from_move), "an email after the move changes nothing"


def test_the_log_numbers_seats_from_1_for_people():
    name = "nautilus"
    _, positions = game_record(name, 0)
    match, _ = positions[0]
    joined = {
        "type": EventType.PLAYER_JOINED,
        "version": 2,
        "at": NOW,
        "seat": 1,
        "player_id": "p_1",
        "name": "Bo",
    }
    declined = {**joined, "type": EventType.INVITATION_DECLINED, "version": 3}
    snap = stored_snapshot(name, match, 3)
    told = table.build(snap, None, [], [joined, declined], 1, NOW)
    lines = [line for h in told.log.entries for line in h.lines]
    assert lines == ["Bo took seat 2", "Bo declined the invitation to seat 2"]
