"""tools/snapshot_reads.py: what it counts as reading a game's raw snapshot outside
service/play, and that nothing outside service/play does (issue 31: every surface renders a
seat's table; consequences and notices read a game's facts)."""

import importlib.util
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "snapshot_reads.py"
spec = importlib.util.spec_from_file_location("snapshot_reads", TOOL)
assert spec is not None and spec.loader is not None
snapshot_reads = importlib.util.module_from_spec(spec)
spec.loader.exec_module(snapshot_reads)


@pytest.mark.parametrize(
    "source",
    [
        'snap["status"]',
        'self.page.snap["seats"]',
        'snapshot.get("secret_seed")',
        'game._snapshot["match"]',  # a game's facts opened to their snapshot
        'game._snapshot.get("match")',
        "play(game._snapshot)",  # handed on whole
        "self.games.snapshot(game_id)",  # fetched from the store
        "games.snapshots(ids)",
        "self.games.load(game_id)",  # GameService.load answers the snapshot
    ],
)
def test_a_read_of_the_raw_snapshot_is_counted(source):
    assert snapshot_reads.count(source) == (1, 0)


@pytest.mark.parametrize(
    "source",
    ["history.reminder_at(game, 0, 50)", "lists.write(store, players, [])", "runner.move(g)"],
)
def test_a_call_of_plays_internals_is_counted(source):
    assert snapshot_reads.count(source) == (0, 1)


@pytest.mark.parametrize(
    "source",
    [
        "game.status",
        "game.seats[0].player_id",
        'summary["status"]',  # a public answer's field, not the snapshot's
        "read(self.games, game_id)",
        "table.action_from(fields)",
        'profile.get("email")',
        "examples.load()",
    ],
)
def test_the_read_models_are_not_counted(source):
    assert snapshot_reads.count(source) == (0, 0)


@pytest.mark.slow
def test_nothing_outside_play_reads_a_snapshot_or_calls_its_internals():
    assert snapshot_reads.totals() == ([], 0, 0)
