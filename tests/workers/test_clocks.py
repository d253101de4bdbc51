"""Issue 33's clocks with real `turnpost worker` processes on the test Valkey, seconds for days:
a time bank that runs out, and the policy that fires once."""

import pytest

from tests.workers.test_bots_and_timers import event_types, wait_for


def two_players(services):
    players, games = services
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    return players, games, a, b


def bank(initial, increment, most, policy):
    return {
        "kind": "bank",
        "initial_seconds": initial,
        "increment_seconds": increment,
        "max_seconds": most,
        "on_timeout": policy,
    }


@pytest.mark.slow
def test_a_bank_runs_out_and_forfeit_fires_once(services, start_workers):
    _, games, a, b = two_players(services)
    start_workers(2, VACATION_DAYS_A_YEAR="0")  # two clocks: the deadline is still met once
    game_id = games.create(a, "nautilus", [a, b], time_control=bank(2, 1, 3, "forfeit"))["id"]
    final = wait_for(lambda: (s := games.summary(game_id))["status"] == "finished" and s, 30)
    first = final["outcome"]["winners"]
    assert final["outcome"]["reason"] == "forfeit" and len(first) == 1
    types = event_types(games, game_id)
    assert types.count("TurnTimedOut") == 1 and types.count("PlayerResigned") == 1
    assert types[-3:] == ["TurnTimedOut", "PlayerResigned", "GameEnded"]
    assert games.replay(game_id) == games.load(game_id)


@pytest.mark.slow
def test_a_bank_kept_by_moving_and_auto_plays_once_for_the_absent(services, start_workers):
    """Ada moves at once every time and keeps her bank (with its increments, up to the cap);
    Bo is away: his bank of 2 s runs out once, the computer moves for him once, and from then
    on his turns have the 1 s of increment his (computer's) moves earned."""
    _, games, a, b = two_players(services)
    start_workers(VACATION_DAYS_A_YEAR="0")
    game_id = games.create(a, "nautilus", [a, b], time_control=bank(2, 1, 3, "auto"))["id"]

    def after_bo_timed_out():
        events = games.games.events(game_id)
        return any(e["type"] == "TurnTimedOut" for e in events) and events

    for _ in range(200):
        summary = games.summary(game_id)
        if summary["status"] != "active" or after_bo_timed_out():
            break
        if 0 in summary["active_seats"]:
            legal = games.legal_moves(game_id, a)
            games.play(game_id, a, legal["version"], action=legal["moves"][0]["action"])
    events = wait_for(
        lambda: (e := after_bo_timed_out()) and e[-1]["type"] == "ActionTaken" and e, 30
    )
    timed = [e for e in events if e["type"] == "TurnTimedOut"]
    assert {e["seat"] for e in timed} == {1}
    assert events[timed[0]["version"]]["seat"] == 1  # the computer's move, right after
    ada = games.summary(game_id)["seats"][0]["clock"]
    assert 2 <= ada["bank_seconds"] <= 3  # her bank: what she did not use, plus increments
