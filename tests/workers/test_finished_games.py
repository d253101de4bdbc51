"""The worker's clock compacts a finished game's log once FINISHED_LOG_DAYS have passed."""

import time

import pytest

from store import keys


@pytest.mark.slow  # starts worker processes
def test_the_clock_compacts_a_finished_game(services, start_workers, redis_client):
    players, games = services
    me = players.register("Ada")["id"]
    game_id = games.create(me, "buttons", [me, "bot:random"])["id"]
    live = games.create(me, "buttons", [me, "bot:random"])["id"]
    start_workers(FINISHED_LOG_DAYS="0")
    games.resign(game_id, me)
    events = games.games.events(game_id)
    deadline = time.monotonic() + 30
    while redis_client.exists(keys.game_log(game_id)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not redis_client.exists(keys.game_log(game_id)), "the log was not compacted"
    assert games.games.events(game_id) == events
    assert games.summary(game_id)["status"] == "finished"
    assert redis_client.exists(keys.game_log(live)) and games.summary(live)["status"] == "active"
