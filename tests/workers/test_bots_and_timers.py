"""Bots and turn timers with real RQ worker processes on the test Valkey."""

import time

import pytest

from engine import registry
from engine.rng import Rng
from service.assembly import assemble
from service.settings import Settings
from store.outbox import OutboxStore

TWO_PLAYER_GAMES = sorted(n for n, g in registry.GAMES.items() if g.info.min_players == 2)


def wait_for(predicate, timeout=60.0, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out waiting")


def event_types(games, game_id):
    return [e["type"] for e in games.games.events(game_id)]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_person_plays_a_whole_game_against_the_heuristic_bot(services, start_workers, name):
    players, games = services
    start_workers()
    me = players.register("Ada")["id"]
    game_id = games.create(me, name, [me, "bot:heuristic"])["id"]
    picker = Rng(b"person-vs-bot" + bytes(32))

    def my_turn_or_over():
        s = games.summary(game_id)
        return s if s["status"] == "finished" or 0 in s["active_seats"] else None

    for _ in range(3000):
        summary = wait_for(my_turn_or_over)
        if summary["status"] == "finished":
            break
        legal = games.legal_moves(game_id, me)
        games.play(game_id, me, legal["version"], action=picker.choice(legal["moves"])["action"])
    else:
        pytest.fail("the game did not end")
    assert summary["outcome"]["winners"]
    seats = {e.get("seat") for e in games.games.events(game_id) if e["type"] == "ActionTaken"}
    assert seats == {0, 1}, "both the person and the bot moved"


@pytest.mark.slow
def test_two_second_clock_with_auto_finishes_a_game_between_absent_players(services, start_workers):
    players, games = services
    start_workers()
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    game_id = games.create(
        a, "ninedomains", [a, b], time_control={"per_move_seconds": 2, "on_timeout": "auto"}
    )["id"]
    final = wait_for(
        lambda: (s := games.summary(game_id))["status"] == "finished" and s, timeout=120
    )
    assert final["outcome"]["reason"] != "forfeit"
    types = event_types(games, game_id)
    assert types.count("TurnTimedOut") == types.count("ActionTaken") >= 6


@pytest.mark.slow
def test_forfeit_policy_the_absent_seat_loses(services, start_workers):
    players, games = services
    start_workers()
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    game_id = games.create(
        a, "ninedomains", [a, b], time_control={"per_move_seconds": 2, "on_timeout": "forfeit"}
    )["id"]
    legal = games.legal_moves(game_id, a)
    games.play(game_id, a, legal["version"], action=legal["moves"][0]["action"])
    final = wait_for(
        lambda: (s := games.summary(game_id))["status"] == "finished" and s, timeout=30
    )
    assert final["outcome"]["winners"] == [0] and final["outcome"]["reason"] == "forfeit"
    assert event_types(games, game_id)[-3:] == ["TurnTimedOut", "PlayerResigned", "GameEnded"]


@pytest.mark.slow
def test_a_move_before_the_deadline_cancels_the_timeout(services, start_workers):
    players, games = services
    start_workers()
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    game_id = games.create(
        a, "nautilus", [a, b], time_control={"per_move_seconds": 3, "on_timeout": "auto"}
    )["id"]
    for _ in range(2):
        time.sleep(2)  # each move comes one second before its deadline
        s = games.summary(game_id)
        who = (a, b)[s["active_seats"][0]]
        legal = games.legal_moves(game_id, who)
        games.play(game_id, who, legal["version"], action=legal["moves"][0]["action"])
    time.sleep(2)  # both earlier deadlines have passed; the current one has not
    assert event_types(games, game_id).count("TurnTimedOut") == 0
    assert event_types(games, game_id).count("ActionTaken") == 2


@pytest.mark.slow
def test_two_workers_exactly_one_timeout_per_expired_turn(services, start_workers):
    players, games = services
    start_workers(2)
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    game_id = games.create(
        a, "nautilus", [a, b], time_control={"per_move_seconds": 1, "on_timeout": "auto"}
    )["id"]
    # the computer's move is the timeout's consequence: a commit of its own, right after
    events = wait_for(
        lambda: (
            (e := games.games.events(game_id))
            and e[-1]["type"] != "TurnTimedOut"
            and sum(x["type"] == "TurnTimedOut" for x in e) >= 4
            and e
        ),
        timeout=60,
    )
    timed = [e for e in events if e["type"] == "TurnTimedOut"]
    # each TurnTimedOut is followed by exactly that seat's move, never a second timeout
    for e in timed:
        following = events[e["version"]]
        assert following["type"] == "ActionTaken" and following["seat"] == e["seat"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert games.replay(game_id) == games.load(game_id)


@pytest.mark.slow
def test_a_suspended_players_turns_go_to_the_computer_as_they_come(
    services, start_workers, redis_client
):
    """Once suspended, Bo's seat under `auto` is timed out the moment each of his turns
    begins (the outbox's consequence of the commit that began it), not a
    day later when his clock would run out."""
    players, games = services
    start_workers()
    ada, bo, cy = (players.register(n)["id"] for n in ("Ada", "Bo", "Cy"))
    for friend in (bo, cy):
        players.set_friends(friend, [ada])
    game_id = games.create(
        ada,
        "consonar",
        [ada, bo, cy],
        time_control={"per_move_seconds": 86_400, "on_timeout": "auto"},
    )["id"]
    bo_to_move = 1 in games.summary(game_id)["active_seats"]
    suspended = assemble(redis_client, Settings()).moderation.suspend(bo, "x", operator="olga")
    assert suspended["games"] == ([game_id] if bo_to_move else [])
    picker = Rng(b"suspended" + bytes(32))

    def bo_played_twice():
        return (
            sum(e["type"] == "ActionTaken" and e["seat"] == 1 for e in games.games.events(game_id))
            >= 2
        )

    for _ in range(200):
        summary = wait_for(
            lambda: (
                (
                    (s := games.summary(game_id))["status"] == "finished"
                    or bo_played_twice()
                    or set(s["active_seats"]) & {0, 2}
                )
                and s
            ),
            timeout=20,
        )
        if summary["status"] == "finished" or bo_played_twice():
            break
        seat = next(s for s in summary["active_seats"] if s in (0, 2))
        who = (ada, bo, cy)[seat]
        legal = games.legal_moves(game_id, who)
        games.play(game_id, who, legal["version"], action=picker.choice(legal["moves"])["action"])

    def followed():
        """The log once every timeout in it has the event after it: the worker may have just
        timed Bo out again, its computer's move still to come."""
        log = games.games.events(game_id)
        last = [e["version"] for e in log if e["type"] == "TurnTimedOut"]
        return log if not last or last[-1] < len(log) else None

    events = wait_for(followed, timeout=20)
    timed = [e for e in events if e["type"] == "TurnTimedOut"]
    assert timed and {e["seat"] for e in timed} == {1}
    for e in timed:  # each followed by the computer's move for Bo
        assert (events[e["version"]]["type"], events[e["version"]]["seat"]) == ("ActionTaken", 1)
    assert games.replay(game_id) == games.load(game_id)


def test_the_same_timer_run_twice_applies_once(services):
    players, games = services
    clock = [time.time()]
    games.clock = lambda: clock[0]
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    game_id = games.create(
        a, "ninedomains", [a, b], time_control={"per_move_seconds": 60, "on_timeout": "auto"}
    )["id"]
    since = games.load(game_id)["version"]
    assert games.expire_turn(game_id, 0, since) == "early"
    clock[0] += 61
    assert games.expire_turn(game_id, 0, since) == "applied"
    assert games.expire_turn(game_id, 0, since) == "moot"  # late, twice: nothing more
    assert event_types(games, game_id).count("TurnTimedOut") == 1


@pytest.mark.parametrize(
    "policy, answers, timeouts",
    [("auto", ["applied", "applied"], 2), ("forfeit", ["applied", "moot"], 1)],
)
def test_seats_of_one_game_due_in_one_batch_time_out_in_one_commit(
    services, policy, answers, timeouts
):
    players, games = services
    clock = [time.time()]
    games.clock = lambda: clock[0]
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])  # seated without an invitation
    game_id = games.create(
        a, "ninedomains", [a, b], time_control={"per_move_seconds": 60, "on_timeout": policy}
    )["id"]
    since = games.load(game_id)["version"]
    outbox = OutboxStore(games.games.r)
    outbox.ensure_groups()
    clock[0] += 61
    assert games.expire_turns([(game_id, 0, since), (game_id, 1, since)]) == answers
    timed_out = [e for e in games.games.events(game_id) if e["type"] == "TurnTimedOut"]
    assert [e["seat"] for e in timed_out] == [0, 1][:timeouts]
    commits = [(e.first, e.version) for e in outbox.read("test", 100, 10) if e.game_id == game_id]
    assert commits == [(1, 2), (3, games.load(game_id)["version"])], "one commit for the batch"
    assert games.replay(game_id) == games.load(game_id)


@pytest.mark.slow  # over a second: not in make test-fast
def test_bot_expert_plays_its_moves_in_the_workers_within_its_time(services, start_workers):
    players, games = services
    start_workers(EXPERT_SECONDS="0.05")
    me = players.register("Ada")["id"]
    game_id = games.create(me, "ninedomains", [me, "bot:expert"])["id"]
    picker = Rng(b"person-vs-expert" + bytes(32))

    def my_turn_or_over():
        s = games.summary(game_id)
        return s if s["status"] == "finished" or 0 in s["active_seats"] else None

    for _ in range(100):
        summary = wait_for(my_turn_or_over)
        if summary["status"] == "finished":
            break
        legal = games.legal_moves(game_id, me)
        games.play(game_id, me, legal["version"], action=picker.choice(legal["moves"])["action"])
    seats = {e.get("seat") for e in games.games.events(game_id) if e["type"] == "ActionTaken"}
    assert summary["status"] == "finished" and seats == {0, 1}
