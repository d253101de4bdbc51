"""`turnpost backup` and `turnpost restore` on a real 3-master Valkey cluster: games played in
many buckets are read per hash tag (a transaction within one slot) and restored key by key,
into another cluster and into a plain Valkey, every game replaying to its snapshot."""

import io

from service.play.games import GameService
from service.play.history import replay
from service.players.accounts import PlayerService
from store import backup, keys
from store.connection import connect
from store.embedded import EmbeddedCluster, EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore


def test_a_clusters_games_back_up_and_restore_into_a_cluster_and_a_plain_valkey(tmp_path):
    source = EmbeddedCluster(tmp_path / "source").start()
    target = EmbeddedCluster(tmp_path / "target").start()
    plain = EmbeddedValkey(tmp_path / "plain", appendonly=False).start()
    try:
        client = connect(source.url)
        players = PlayerStore(client)
        ada = PlayerService(players).register("Ada")["id"]
        service = GameService(GameStore(client), players)
        games = [service.create(ada, "buttons", [ada, "bot:random"])["id"] for _ in range(12)]
        assert len({keys.bucket_of(g) for g in games}) > 3
        written = io.StringIO()
        count = backup.backup(client, written)
        lines = written.getvalue().splitlines(keepends=True)
        assert backup.check(lines) == count > 24
        for url in (target.url, plain.url):
            restored = connect(url)
            assert backup.restore(restored, lines) == count
            store = GameStore(restored)
            for game_id in games:
                assert store.snapshot(game_id) == GameStore(client).snapshot(game_id)
                assert replay(store.events(game_id)) == store.snapshot(game_id)
    finally:
        source.stop()
        target.stop()
        plain.stop()
