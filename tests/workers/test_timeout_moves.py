"""Under `on_timeout: auto` the computer's move for a seat whose clock ran out is a consequence
of the TurnTimedOut commit, carried out from the outbox (service/consequences.py): it is never
lost, nor made twice, however its append races. The worker's steps are taken here, in this
process (workers/process.py), on the test Valkey, with the append of that move made to lose
its race: another commit lands first at every attempt, or the connection drops before or
after the append was applied."""

import time

import pytest
import redis

from service.play.commit import APPEND_ATTEMPTS
from service.play.talk import Talk, TalkLimits
from store.outbox import OutboxStore
from store.players import PlayerStore
from workers import process as worker_process
from workers.process import WorkerProcess

LEASE_SECONDS = 0.3


@pytest.fixture
def worker(valkey, monkeypatch):
    monkeypatch.setattr(worker_process, "OUTBOX_BLOCK_MS", 50)  # an empty outbox answers soon
    process = WorkerProcess(
        {
            "REDIS_URL": valkey.url,
            "BOT_DELAY_SECONDS": "0",
            "VACATION_DAYS_A_YEAR": "0",
            "OUTBOX_LEASE_SECONDS": str(LEASE_SECONDS),
        }
    )
    process.outbox.ensure_groups()
    yield process
    process.stop.set()


def timed_out_game(services, worker):
    """Ada and Bo in Nautilus, one second a move, `auto`; the first to move let their clock
    run out, and the clock recorded it. The commits before were carried out."""
    players, games = services
    ada, bo = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(bo, [ada])
    clock = {"per_move_seconds": 1, "on_timeout": "auto"}
    game_id = games.create(ada, "nautilus", [ada, bo], time_control=clock)["id"]
    drain(worker)
    [seat] = games.load(game_id)["active_seats"]
    time.sleep(1.1)
    assert worker.clock_step()
    assert not worker.clock_step()  # nothing more due: the outbox's turn
    assert games.games.events(game_id)[-1]["type"] == "TurnTimedOut"
    return game_id, seat, [ada, bo]


def drain(worker):
    while worker.outbox_step():
        pass


def computer_moves(commit):
    return any(e["type"] == "ActionTaken" for e in commit.events)


def moves_after_the_timeout(games, game_id, seat):
    events = games.games.events(game_id)
    [timeout] = [e["version"] for e in events if e["type"] == "TurnTimedOut"]
    return [
        e["version"]
        for e in events
        if e["version"] > timeout and e["type"] == "ActionTaken" and e["seat"] == seat
    ]


@pytest.mark.slow
def test_the_computers_move_comes_when_every_attempt_of_it_is_made_stale(services, worker):
    """Bo writes to the table just before each of the move's appends, as many times as the
    commit loop tries (APPEND_ATTEMPTS): the TurnTimedOut entry gives up; each message's
    entry asks again, and the move is made once."""
    _, games = services
    game_id, seat, (_, bo) = timed_out_game(services, worker)
    talk = Talk(games, PlayerStore(games.games.r), TalkLimits(1000, 1000))
    store = worker.consequences.games.commits.games
    append, raced = store.append, []

    def stale_first(commit):
        if computer_moves(commit) and len(raced) < APPEND_ATTEMPTS:
            raced.append(talk.say(game_id, bo, f"still there? {len(raced)}"))
        return append(commit)

    store.append = stale_first
    drain(worker)
    assert len(raced) == APPEND_ATTEMPTS
    events = games.games.events(game_id)
    messages = [e["version"] for e in events if e["type"] == "MessageSent"]
    [moved] = moves_after_the_timeout(games, game_id, seat)
    assert moved > max(messages), "made by a later commit's entry"
    assert seat not in games.load(game_id)["timed_out"]
    assert OutboxStore(games.games.r).backlog()["waiting"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("applied", [False, True], ids=["before_the_append", "after_the_append"])
def test_the_computers_move_comes_once_when_the_connection_drops(services, worker, applied):
    """The connection drops while the move is appended, before or after the append was applied:
    the TurnTimedOut entry is not acknowledged; once its lease ran out it is taken again, and
    the move is made, once."""
    _, games = services
    game_id, seat, _ = timed_out_game(services, worker)
    store = worker.consequences.games.commits.games
    append, dropped = store.append, []

    def drops(commit):
        if computer_moves(commit) and not dropped:
            dropped.append(commit)
            if applied:
                append(commit)
            raise redis.ConnectionError("the connection dropped")
        return append(commit)

    store.append = drops
    with pytest.raises(redis.ConnectionError):
        worker.outbox_step()
    backlog = OutboxStore(games.games.r).backlog()
    assert backlog["pending"] == 1, "the TurnTimedOut entry: read, not acknowledged"
    assert backlog["waiting"] == 1 + applied  # the move's own entry, if it was applied
    assert len(moves_after_the_timeout(games, game_id, seat)) == int(applied)
    time.sleep(LEASE_SECONDS * 1.5)
    drain(worker)
    assert len(moves_after_the_timeout(games, game_id, seat)) == 1
    assert seat not in games.load(game_id)["timed_out"]
    assert OutboxStore(games.games.r).backlog()["waiting"] == 0
