"""A tournament on a real 3-master Valkey cluster: its commits (its log, state, outbox entry
and start date: one script), its games created in their own buckets through the game service,
the lobby's and the players' lists, its events in the players' streams; carried out here by
the worker's consequences, every entry twice. And what the worker writes at a batch's end on a
cluster (each person's events, the reminders): a cluster's pipeline keeps its commands out of
`command_stack`, and they were dropped."""

import pytest

from service.assembly import assemble
from service.settings import Settings
from store import keys
from store.connection import connect
from store.embedded import EmbeddedCluster
from store.outbox import Entry, OutboxStore

CLOCK = {"per_move_seconds": 86400, "on_timeout": "forfeit"}


class Kept:
    def queue(self, deliveries):
        pass


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    found = EmbeddedCluster(tmp_path_factory.mktemp("cluster")).start()
    yield found
    found.stop()


def test_a_batchs_last_writes_reach_a_cluster(cluster):
    data = connect(cluster.url)
    services = assemble(data, Settings(), deliveries=Kept())
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo")["id"]
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(
        ada, "ninedomains", [ada, bo], time_control={"per_move_seconds": 3600}
    )["id"]
    snap = services.games.load(game_id)
    services.consequences.carry_out(Entry(0, "0-0", game_id, 1, snap["version"]))
    for player in (ada, bo):
        events = [f[b"event"] for _, f in data.xrange(keys.player_events(player))]
        assert events == [b"turn.started"], player
    scheduled = data.zrange(keys.schedule(keys.bucket_of(game_id)), 0, -1)
    reminders = [m for m in scheduled if b'"turn.reminder"' in m]
    assert len(reminders) == 2, scheduled  # Ada's, by email, at 50% and 90% of her clock


def test_a_round_robin_on_a_cluster(cluster):
    data = connect(cluster.url)
    services = assemble(data, Settings(), deliveries=Kept())
    outbox = OutboxStore(data)
    outbox.ensure_groups()

    def work():
        for _ in range(100):
            entries = outbox.read("test", 100, 5)
            if not entries:
                return
            for entry in entries:
                services.consequences.carry_out(entry)
                services.consequences.carry_out(entry)  # a worker killed before its ack
            outbox.done(entries)

    people = [services.players.register(f"P{i}")["id"] for i in range(3)]
    made = services.tournaments.create(people[0], "ninedomains", "round_robin", 3, CLOCK)
    assert [t["id"] for t in services.tournaments.open_list()] == [made["id"]]
    for p in people:
        services.tournaments.sign_up(made["id"], p)
    work()
    shown = services.tournaments.get(made["id"])
    games = [g["game_id"] for g in shown["pairings"][0]["games"]]
    assert shown["status"] == "running" and len(games) == 3
    assert len({keys.bucket_of(g) for g in [made["id"], *games]}) > 1, "spread over buckets"
    for game_id in games:
        summary = services.games.summary(game_id)
        services.games.resign(game_id, summary["seats"][1]["player_id"])
    work()
    shown = services.tournaments.get(made["id"])
    assert shown["status"] == "finished"
    assert [g["first_score"] for g in shown["pairings"][0]["games"]] == [1.0, 1.0, 1.0]
    assert sorted(r["points"] for r in shown["standings"]) == [1.0, 1.0, 1.0]
    for p in people:
        assert [t["id"] for t in services.tournaments.of_player(p)] == [made["id"]]
        events = [f[b"event"] for _, f in data.xrange(keys.player_events(p))]
        assert events.count(b"tournament.round_started") == 1
        assert events.count(b"tournament.round_ended") == 1
