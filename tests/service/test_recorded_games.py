"""Logs recorded by an earlier turnpost (tests/service/recorded_games.py) replay to the very
snapshots the server kept for them: a change to the record or to the fold that would read an
old game differently fails here."""

import copy

import pytest

from service.play import agreements, history
from store.record import EVENT_SCHEMA, EventType, read_event
from tests.service.recorded_games import load

pytestmark = pytest.mark.slow  # replays every recorded game

RECORDED = load()


EVENTS_ADDED_SINCE = {EventType.CALENDAR_SET.value, EventType.PLAYER_DELETED.value}
"""Kinds of event the recording is older than (issue 33's vacations, issue 37's deleted
accounts)."""
SNAPSHOT_ADDED_SINCE = {"calendars", "clocks", "agreements", "rated"}
"""Snapshot fields added since the recording (issue 33's clocks; what proposals keep of a
started game, service/play/agreements.py; whether a game is rated, service/ratings): a replay adds them, and never changes or drops
anything else; the deadlines they give are the very ones kept."""


def test_the_recording_covers_every_kind_of_event():
    kinds = {e["type"] for game in RECORDED for e in game["events"]}
    assert kinds == {kind.value for kind in EventType} - EVENTS_ADDED_SINCE
    assert all(e["schema"] == EVENT_SCHEMA for game in RECORDED for e in game["events"])


ADDED_SINCE = {"nautilus": {"last_round"}}
"""Fields a game's state has gained since the recording, for display only (the round just
played, kept in view): a replay may add these, and never change or drop anything else."""


@pytest.mark.parametrize("game", RECORDED, ids=[g["snapshot"]["id"] for g in RECORDED])
def test_a_recorded_log_replays_to_the_snapshot_that_was_kept(game):
    events = [read_event(dict(e)) for e in game["events"]]
    replayed, kept = history.replay(events), game["snapshot"]
    assert set(replayed) - set(kept) <= SNAPSHOT_ADDED_SINCE
    added = dict.fromkeys(SNAPSHOT_ADDED_SINCE)
    assert {**replayed, **added, "match": None} == {**kept, **added, "match": None}
    if kept["match"] is None:
        assert replayed["match"] is None
        return
    match, kept_match = replayed["match"], kept["match"]
    assert {**match, "state": None} == {**kept_match, "state": None}
    state, kept_state = match["state"], kept_match["state"]
    assert {k: state[k] for k in kept_state if k in state} == kept_state
    assert set(state) - set(kept_state) <= ADDED_SINCE.get(kept["game"], set())


def test_the_fold_leaves_the_snapshot_it_folds_on_as_it_was():
    """Every event of every recorded game (proposals, takebacks, pauses, timeouts included)
    folds on a snapshot that is the same before and after: the fold's copies of what it
    changes are its own."""
    for game in RECORDED:
        snap = None
        before_last_move = None
        for event in (read_event(dict(e)) for e in game["events"]):
            if event["type"] == EventType.ACTION_TAKEN and snap is not None:
                before_last_move = snap["match"]
            kept = copy.deepcopy(snap)
            after = history.fold(snap, event, agreements.taken_back(event, before_last_move))
            assert snap == kept, (game["snapshot"]["id"], event["version"], event["type"])
            snap = after
