"""Scripts called in a pipeline on a real Valkey: one round trip, and safe when the server has
lost its script cache (a restart, SCRIPT FLUSH)."""

from store import keys
from store.games import Appended, Commit, GameStore, Stale, run_pipeline
from store.players import PlayerStore


def script_exists_calls(client) -> int:
    return client.info("commandstats").get("cmdstat_script|exists", {}).get("calls", 0)


def commit(game_id, expected, n):
    return Commit(
        game_id, expected, [{"type": "ActionTaken", "n": i} for i in range(n)], {"v": expected + n}
    )


def test_a_commit_and_a_list_update_ask_the_server_nothing_before_their_scripts(redis_client):
    store, players = GameStore(redis_client), PlayerStore(redis_client)
    store.append(commit("g1", 0, 1))  # the scripts are in the server's cache now
    asked = script_exists_calls(redis_client)
    assert store.append(commit("g1", 1, 1)) == Appended(2)
    assert store.append_many([commit("g2", 0, 1), commit("g3", 0, 2)]) == [Appended(1), Appended(2)]
    pipe = redis_client.pipeline(transaction=False)
    players.project("p1", "g1", 2, 1000, 5000, pipe=pipe)
    store.lobby_entry("g1", 2, None, pipe)
    assert run_pipeline(pipe) == [1, 1]
    assert script_exists_calls(redis_client) == asked


def test_scripts_the_server_lost_are_loaded_again_and_every_command_runs_once(redis_client):
    store, players = GameStore(redis_client), PlayerStore(redis_client)
    store.append(commit("g1", 0, 1))
    redis_client.script_flush()
    assert store.append(commit("g1", 1, 2)) == Appended(3)
    assert [e["n"] for e in store.events("g1")] == [0, 0, 1]

    redis_client.script_flush()
    pipe = redis_client.pipeline(transaction=False)
    pipe.incr("plain")
    players.project("p1", "g1", 3, 1000, 5000, pipe=pipe)
    pipe.incr("plain")
    assert run_pipeline(pipe) == [1, 1, 2]
    assert redis_client.get("plain") == b"2"
    assert redis_client.zscore(keys.player_inbox("p1"), "g1") == 5000

    redis_client.script_flush()
    assert store.append_many([commit("g1", 3, 1), commit("g1", 3, 1)]) == [Appended(4), Stale(4)]
    assert len(store.events("g1")) == 4


def test_an_error_in_a_pipeline_is_raised_after_every_command_ran(redis_client):
    pipe = redis_client.pipeline(transaction=False)
    pipe.set("text", "a")
    pipe.incr("text")
    pipe.set("after", "b")
    try:
        run_pipeline(pipe)
    except Exception as err:
        assert "not an integer" in str(err)
    else:
        raise AssertionError("the error was not raised")
    assert redis_client.get("after") == b"b"
