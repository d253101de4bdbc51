"""docs/clients.md stays true: its bot plays every title to the end against itself on a live
server, its code for watching a game works, and its table of error codes is the API's."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

from engine import registry
from service.errors import ErrorCode
from tests.e2e.server import Client

DOC = Path(__file__).resolve().parents[2] / "docs" / "clients.md"


def program(name: str) -> str:
    """The ```python block of the doc that starts with `# <name>.py`."""
    blocks = re.findall(r"```python\n(# (\w+)\.py.*?)```", DOC.read_text(), re.S)
    return next(code for code, file in blocks if file == name)


def token(client: Client) -> str:
    return client.headers["Authorization"].removeprefix("Bearer ")


def test_the_bot_plays_every_title_to_the_end(live_server, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(program("bot"))
    ada, bo = Client(live_server.url, "Ada"), Client(live_server.url, "Bo")
    bo.befriend(ada)
    game_ids = [
        ada.post("/v1/games", {"game": title, "seats": [ada.id, bo.id]}).json()["id"]
        for title in sorted(registry.GAMES)
    ]
    bots = [
        subprocess.Popen(
            [sys.executable, str(bot)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={
                **os.environ,
                "TURNPOST_URL": live_server.url,
                "TURNPOST_TOKEN": token(player),
                "TURNPOST_POLL_SECONDS": "0.2",
            },
        )
        for player in (ada, bo)
    ]
    try:
        printed = [b.communicate(timeout=300)[0] for b in bots]
    finally:
        for b in bots:
            b.kill()
    assert [b.returncode for b in bots] == [0, 0], printed
    assert all("played" in out for out in printed)
    for game_id in game_ids:
        assert ada.get(f"/v1/games/{game_id}").json()["status"] == "finished"


def test_the_watching_code_sees_each_move(live_server, tmp_path, monkeypatch):
    ada, bo = Client(live_server.url, "Ada"), Client(live_server.url, "Bo")
    monkeypatch.setenv("TURNPOST_URL", live_server.url)
    monkeypatch.setenv("TURNPOST_TOKEN", token(ada))
    source = tmp_path / "watch.py"
    source.write_text(program("watch"))
    spec = importlib.util.spec_from_file_location("watch", source)
    watch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(watch)

    bo.befriend(ada)  # Ada seats Bo directly
    game = ada.post("/v1/games", {"game": "nautilus", "seats": [ada.id, bo.id]}).json()
    view, etag = watch.poll_view(game["id"])
    assert view["version"] == 2 and etag == '"2"'
    assert watch.poll_view(game["id"], etag) == (None, etag)
    mover = [ada, bo][game["active_seats"][0]]
    move = mover.get(f"/v1/games/{game['id']}/legal-moves").json()["moves"][0]
    assert (
        mover.post(
            f"/v1/games/{game['id']}/moves", {"notation": move["notation"], "expected_version": 2}
        ).status_code
        == 201
    )
    view, etag = watch.poll_view(game["id"], etag)
    assert view["version"] == 3 and etag == '"3"'

    entries = watch.follow(game["id"])
    assert [next(entries)["version"] for _ in range(3)] == [1, 2, 3]
    entries.close()
    resumed = watch.follow(game["id"], last_event_id="2")
    assert next(resumed)["type"] == "ActionTaken"
    resumed.close()


def test_the_table_of_error_codes_is_the_apis():
    section = DOC.read_text().split("## Errors", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z_]+/[a-z_]+|not_found)`", section))
    table = {error.code for error in ErrorCode}
    assert table <= named, sorted(table - named)
    assert named <= table, sorted(named - table)
