"""Game data on a real 3-master Valkey cluster (the wheel's valkey-server, `--cluster-enabled
yes`), RQ's queue on a plain Valkey: two `turnpost serve --no-worker` processes and two
`turnpost worker` processes play every title, people against bots under clocks, with email
players; nothing is lost, doubled or stuck, and every list a player reads works."""

import os
import subprocess
import sys

import pytest

from engine import registry
from service.play.games import GameService
from service.ratings.ratings import Ratings
from service.settings import Settings
from store.connection import connect
from store.embedded import EmbeddedCluster, EmbeddedValkey
from store.games import GameStore
from store.players import PlayerStore
from store.ratings import RatingStore
from tests.addresses import confirm
from tests.checks import Mover, assert_each_timeout_once, assert_emails_once, wait_until_finished
from tests.e2e.server import Client, LiveServer

FAST = {
    "BOT_DELAY_SECONDS": "0",
    "EMAIL_DELAY_SECONDS": "0",
    "EMAIL_THROTTLE_SECONDS": "0",
    "VACATION_DAYS_A_YEAR": "0",  # a clock that runs out times out (no vacation day first)
}


@pytest.fixture
def cluster(tmp_path):
    found = EmbeddedCluster(tmp_path / "cluster").start()
    yield found
    found.stop()


@pytest.fixture
def queues(tmp_path):
    found = EmbeddedValkey(tmp_path / "queues", appendonly=False).start()
    yield found
    found.stop()


def test_every_title_on_a_cluster_with_two_apis_and_two_workers(cluster, queues, smtp):
    env = {"QUEUE_REDIS_URL": queues.url, "SMTP_URL": smtp.url, **FAST}
    servers = [LiveServer("--no-worker", redis_url=cluster.url, env=env) for _ in range(2)]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "worker"],
            env={**os.environ, "REDIS_URL": cluster.url, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    try:
        for server in servers:
            server.wait_ready()
        data = connect(cluster.url)
        service = GameService(GameStore(data), PlayerStore(data), min_move_seconds=1)
        people, game_ids, movers = {}, [], []
        for i, name in enumerate(sorted(registry.GAMES) * 2):
            address = f"p{i}@example.org"
            person = Client(servers[i % 2].url, f"P{i}", email=address)
            confirm(data, person.id)  # as its owner would, by the emailed link
            bots = ["bot:heuristic"] * (registry.GAMES[name].info.min_players - 1)
            clock = {"per_move_seconds": 2, "on_timeout": "auto"} if i % 2 else None
            game_id = service.create(  # rated: the ratings' scripts run on the cluster too
                person.id, name, [person.id, *bots], time_control=clock, rated=True
            )["id"]
            people[game_id] = address
            game_ids.append(game_id)
            if not clock:
                movers.append((person, game_id))
            listed = person.get("/v1/games").json()["games"]
            assert [g["id"] for g in listed] == [game_id]
        lobby_host = Client(servers[0].url, "Host")
        open_game = lobby_host.post(
            "/v1/games", {"game": "ninedomains", "seats": [lobby_host.id, None]}
        ).json()["id"]
        lobby = lobby_host.get("/v1/games?status=open").json()["games"]
        assert open_game in [g["id"] for g in lobby]
        by_server = [Mover(servers[k].url, movers[k::2]) for k in range(2)]
        for mover in by_server:
            mover.start()
        wait_until_finished(service, game_ids)
        for mover in by_server:
            mover.stop.set()
            mover.join(15)
        assert all(mover.acknowledged for mover in by_server)
        for game_id in game_ids:
            assert_each_timeout_once(service, game_id)
            assert service.replay(game_id) == service.load(game_id)
        for person, _ in movers:
            answer = person.get("/v1/games?awaiting=me").json()
            assert answer.get("games") == [], answer
        assert_emails_once(smtp, people, game_ids)
        ratings = Ratings(RatingStore(data), Settings())
        for game_id in game_ids:  # recorded once: each player's one game, each bot's several
            changes = ratings.of_game(game_id).changes
            person = next(c for c in changes if not c.player.startswith("bot:"))
            assert person.after.games == 1
            record = ratings.of_player(person.player)
            assert record["record"][0]["rated_games"] == 1 == len(record["recent"])
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        for server in servers:
            server.stop()
