"""Snapshots are read by orjson (store.games.read_snapshot) and written by Python's json: the two
must read every snapshot alike, to the type of each number. Checked on every snapshot of the
recorded games (each event folded in turn, every title and every kind of event), and on
what only Python's json reads."""

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
            raw = _json(snap).encode()
            assert exactly(read_snapshot(raw)) == exactly(json.loads(raw))
            read += 1
    assert read > 500


def test_what_only_python_json_reads_is_read_by_it():
    for snap in ({"x": math.nan}, {"x": math.inf}, {"name": "a\ud800b"}):
        raw = _json(snap).encode()
        assert exactly(read_snapshot(raw)) == exactly(snap)
