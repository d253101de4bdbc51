"""Snapshots are read by orjson (store.games.read_snapshot) and written by orjson (store.games._json;
Python's json before 2026-11-28, and for what orjson refuses): what is written must read as it was,
and orjson and json must read every snapshot alike, to the type of each number. Checked on every
snapshot of the recorded games (each event folded in turn, every title and every kind of event),
written both ways, and on what only Python's json reads or writes."""

import json
import math

import pytest

from service.play import history
from store.games import _json, read_snapshot
from store.record import read_event
from tests.service.recorded_games import load


def exactly(value) -> str:
    """A form in which 1 and 1.0, or True and 1, differ."""
    return json.dumps(value, sort_keys=True)


@pytest.mark.slow
def test_every_recorded_snapshot_reads_as_json_reads_it():
    read = 0
    for game in load():
        events = [read_event(dict(event)) for event in game["events"]]
        for snap in history.replay_steps(events):
            written = _json(snap)
            assert exactly(read_snapshot(written)) == exactly(snap)
            for raw in (written, json.dumps(snap, separators=(",", ":")).encode()):
                assert exactly(read_snapshot(raw)) == exactly(json.loads(raw))
            read += 1
    assert read > 500


def test_what_only_python_json_reads_is_read_by_it():
    """NaN and infinities, as an older tree's json wrote them (no commit holds one: see _json)."""
    for snap in ({"x": math.nan}, {"x": math.inf}, {"name": "a\ud800b"}):
        raw = json.dumps(snap, separators=(",", ":")).encode()
        assert exactly(read_snapshot(raw)) == exactly(snap)


def test_what_orjson_refuses_to_write_is_written_by_json_and_read_back():
    """(An integer beyond 64 bits reads back as a float: see read_snapshot.)"""
    for snap in ({"name": "a\ud800b"}, {"n": 2**70}, {"by_seat": {0: "x", 1: "y"}}):
        raw = _json(snap)
        assert isinstance(raw, str)  # json's, as before
        assert raw == json.dumps(snap, separators=(",", ":"))
    assert exactly(read_snapshot(_json({"name": "a\ud800b"}).encode())) == '{"name": "a\\ud800b"}'


def test_text_is_written_as_utf8_and_read_back_as_the_same_text():
    snap = {"name": "Zoë ⚓ Ясна", "seats": [{"player_id": "p-1", "name": "Ada"}]}
    raw = _json(snap)
    assert "Zoë ⚓ Ясна".encode() in raw
    assert read_snapshot(raw) == snap == json.loads(raw)
