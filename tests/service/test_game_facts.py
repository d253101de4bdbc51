"""A game's facts (service/play/facts.py), which consequences and notices read instead of the
snapshot, hold only what anyone at the table may know: over every step of the recorded games,
they are the same whatever the game's hidden state and seed, and never show the seed."""

import copy

import pytest

from service.play import history
from service.play.facts import GameFacts
from store.record import read_event
from tests.service.recorded_games import load


@pytest.mark.slow
def test_a_games_facts_know_nothing_hidden():
    steps = 0
    for recorded in load():
        events = [read_event(dict(event)) for event in recorded["events"]]
        for snap in history.replay_steps(events):
            facts = GameFacts.of(snap)
            hidden = copy.deepcopy(snap)
            hidden["secret_seed"] = "another seed"
            if hidden["match"] is not None:
                hidden["match"]["state"] = {"another": "state"}
                hidden["match"]["counter"] = -1
            assert GameFacts.of(hidden) == facts  # every field but the snapshot compared
            assert snap["secret_seed"] not in repr(facts)
            steps += 1
    assert steps > 500
