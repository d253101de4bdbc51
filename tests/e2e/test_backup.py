"""Backups that restore: `turnpost backup` taken from a live server mid-play (a game of every
title in progress, some finished), `turnpost restore` into a fresh Valkey, and a server on it
plays on: moves accepted, the worker delivers, every game's log replays to its snapshot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from engine import registry
from service.play.history import replay
from store import keys
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.games import GameStore
from tests.e2e.server import Client, LiveServer
from tests.peers import SmtpInbox

FAST = {"EMAIL_DELAY_SECONDS": "0", "EMAIL_THROTTLE_SECONDS": "0", "BOT_DELAY_SECONDS": "0"}


def turnpost(redis_url: str | None, *args: str) -> subprocess.CompletedProcess:
    """The command run as an operator runs it: on REDIS_URL, or (None) on the embedded
    server's folder."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    return subprocess.run(
        [sys.executable, "-m", "turnpost.cli", *args],
        env={**env, "REDIS_URL": redis_url} if redis_url else env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def first_move(player: Client, game_id: str) -> None:
    legal = player.get(f"/v1/games/{game_id}/legal-moves").json()
    r = player.post(
        f"/v1/games/{game_id}/moves",
        {"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]},
    )
    assert r.status_code == 201, r.text


def active_seats(player: Client, game_id: str) -> list[int]:
    return player.get(f"/v1/games/{game_id}").json()["active_seats"]


def mover_of(game_id: str, people: list[Client]) -> Client:
    """The one of `people` whose turn it is."""
    return people[active_seats(people[0], game_id)[0]]


def test_a_backup_taken_mid_play_restores_into_a_fresh_valkey_that_plays_on(tmp_path):
    source = EmbeddedValkey(tmp_path / "source", appendonly=False).start()
    fresh = EmbeddedValkey(tmp_path / "fresh", appendonly=False).start()
    backup = tmp_path / "turnpost.backup"
    try:
        with SmtpInbox() as outgoing:
            env = {"SMTP_URL": outgoing.url, **FAST}
            server = LiveServer(redis_url=source.url, env=env).wait_ready()
            try:
                ada = Client(server.url, "Ada", "ada@example.org")
                bo = Client(server.url, "Bo", "bo@example.org")
                for person in (ada, bo):
                    person.confirm(outgoing)
                bo.befriend(ada)
                playing, finished = [], []
                for title in sorted(registry.GAMES):
                    for ends in (False, True):
                        r = ada.post("/v1/games", {"game": title, "seats": [ada.id, bo.id]})
                        assert r.status_code == 201, r.text
                        game_id = r.json()["id"]
                        for _ in range(2):
                            first_move(mover_of(game_id, [ada, bo]), game_id)
                        if ends:
                            assert bo.post(f"/v1/games/{game_id}/resign").status_code == 200
                            finished.append(game_id)
                        else:
                            playing.append(game_id)
                # taken while the server runs
                done = turnpost(source.url, "backup", str(backup))
                assert done.returncode == 0, done.stderr
                assert "keys" in done.stdout
            finally:
                server.stop()
        kept = GameStore(connect(source.url))
        before = {g: kept.snapshot(g) for g in playing + finished}
        source.stop()

        header, *records, trailer = backup.read_text().splitlines()
        assert json.loads(header)["format"] == "turnpost-backup"
        assert json.loads(trailer) == {"end": True, "keys": len(records)}
        assert all(json.loads(r)["key"].startswith(keys.PREFIX + ":") for r in records)

        restored = turnpost(fresh.url, "restore", str(backup))
        assert restored.returncode == 0, restored.stderr
        # a second restore into the same database is refused: it is no longer fresh
        again = turnpost(fresh.url, "restore", str(backup))
        assert again.returncode == 1 and "--replace" in again.stderr
        store = GameStore(connect(fresh.url))
        for game_id, snap in before.items():
            assert store.snapshot(game_id)["version"] >= snap["version"]
            assert replay(store.events(game_id)) == store.snapshot(game_id), game_id

        with SmtpInbox() as outgoing:
            server = LiveServer(redis_url=fresh.url, env={"SMTP_URL": outgoing.url, **FAST})
            server.wait_ready()
            try:
                for person in (ada, bo):
                    person.base = server.url  # the same tokens sign in on the restored data
                    assert person.get("/v1/players/me").json()["email_confirmed"] is True
                turned = []
                for game_id in playing:  # moves until a turn begins (a step may go on one)
                    for _ in range(12):
                        before_move = set(active_seats(ada, game_id))
                        first_move(mover_of(game_id, [ada, bo]), game_id)
                        if set(active_seats(ada, game_id)) - before_move:
                            turned.append(game_id)
                            break
                # the worker on the restored data delivers: a turn email wherever a turn began
                assert turned == playing
                for game_id in turned:
                    outgoing.wait_for(
                        lambda m, rcpt, g=game_id: (
                            m["X-Turnpost-Game"] == g and m["X-Turnpost-Event"].startswith("turn.")
                        ),
                        timeout=30,
                    )
                for game_id in finished:
                    page = ada.get(f"/v1/games/{game_id}")
                    assert page.json()["status"] == "finished"
            finally:
                server.stop()
        for game_id in playing + finished:
            assert replay(store.events(game_id)) == store.snapshot(game_id), game_id
    finally:
        source.stop()
        fresh.stop()


def test_the_embedded_servers_folder_backs_up_and_restores_and_a_cut_file_is_refused(tmp_path):
    """Without REDIS_URL the commands work on the embedded server's --data folder (refused
    while a server runs on it); every kind of key comes back with its time to live and a
    stream's consumer group; a file cut short restores nothing."""
    old, new = tmp_path / "old", tmp_path / "new"
    server = EmbeddedValkey(old).start()
    client = connect(server.url)
    client.set("tp:signin:abc", "p_1 h", ex=600)
    client.hset("tp:player:{p_1}", mapping={"name": "Ada"})
    client.zadd("tp:player:{p_1}:games", {"g_1": 5})
    client.xadd("tp:outbox:{b01}", {"game": "g_1", "version": "3"}, id="1-0")
    client.xgroup_create("tp:outbox:{b01}", keys.OUTBOX_GROUP, id="0")
    client.set("rq:not-ours", "x")
    refused = turnpost(None, "backup", str(tmp_path / "b"), "--data", str(old))
    assert refused.returncode != 0 and "REDIS_URL" in refused.stderr
    server.stop()

    done = turnpost(None, "backup", str(tmp_path / "b"), "--data", str(old))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["keys"] == 4
    whole = (tmp_path / "b").read_text().splitlines()
    (tmp_path / "cut").write_text("\n".join(whole[:-2]) + "\n")
    cut = turnpost(None, "restore", str(tmp_path / "cut"), "--data", str(new))
    assert cut.returncode == 1 and "cut short" in cut.stderr
    assert not new.exists()  # refused before anything was started or written

    done = turnpost(None, "restore", str(tmp_path / "b"), "--data", str(new))
    assert done.returncode == 0, done.stderr
    server = EmbeddedValkey(new).start()  # the restore is on disk (append-only file)
    try:
        client = connect(server.url)
        assert sorted(client.keys()) == sorted(
            [b"tp:signin:abc", b"tp:player:{p_1}", b"tp:player:{p_1}:games", b"tp:outbox:{b01}"]
        )
        assert 0 < client.ttl("tp:signin:abc") <= 600
        assert client.hgetall("tp:player:{p_1}") == {b"name": b"Ada"}
        assert client.xinfo_groups("tp:outbox:{b01}")[0]["name"] == keys.OUTBOX_GROUP.encode()
    finally:
        server.stop()
