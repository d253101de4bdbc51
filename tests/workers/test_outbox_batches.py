"""The worker process in this process (workers/process.py): the outbox consumer's batches
(Consequences.begin), whose entries share their reads and writes and come out as one by one
would, bots' moves included; and its stop."""

import threading
import time

import pytest
from redis.connection import Connection
from rq import Queue

from engine.rng import Rng
from store import keys
from store.outbox import OutboxStore
from tests.workers.conftest import friends_in_pairs
from workers import process as worker_process
from workers.process import WorkerProcess, _InProcessWorker
from workers.queue import QUEUE_NAME

GAMES = 20


@pytest.fixture
def worker(valkey, redis_client):
    """The worker's outbox consumer in this process: each step is one read of the outbox."""
    process = WorkerProcess(
        {"REDIS_URL": valkey.url, "BOT_DELAY_SECONDS": "0", "EMAIL_DELAY_SECONDS": "0"}
    )
    process.outbox.ensure_groups()
    yield process
    process.stop.set()


@pytest.fixture
def round_trips(monkeypatch):
    """Writes of a command or a pipeline to a Redis socket, each followed by its answers."""
    count = [0]
    send = Connection.send_packed_command

    def counted(self, command, check_health=True):
        count[0] += 1
        return send(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counted)
    return count


def pending(redis_client):
    return OutboxStore(redis_client).backlog()["waiting"]


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_batch_of_turns_shares_its_reads_and_its_email_jobs(
    services, worker, redis_client, round_trips
):
    players, games = services
    pairs = friends_in_pairs(players, worker, GAMES)
    Queue(QUEUE_NAME, connection=redis_client).empty()
    made = [games.create(p, "nautilus", [p, q]) for p, q in pairs]
    assert pending(redis_client) == GAMES
    round_trips[0] = 0
    assert worker.outbox_step()
    trips = round_trips[0]
    assert pending(redis_client) == 0
    jobs = Queue(QUEUE_NAME, connection=redis_client).jobs
    emailed = sorted(notice[1] for job in jobs for notice in job.args[0])
    assert len(jobs) == 1 and emailed == sorted(game["id"] for game in made)
    assert trips < GAMES, f"{trips} round trips for {GAMES} entries"  # 5 an entry, alone
    for game in made:
        player = game["seats"][game["active_seats"][0]]["player_id"]
        assert game["id"] in [g["id"] for g in games.list_games(player, awaiting=True)[0]]


@pytest.mark.slow
def test_entries_that_come_while_the_consumer_lingers_make_one_batch(
    services, worker, redis_client, monkeypatch
):
    """Under load the consumer would read each entry as it comes, a batch of one each (four
    round trips an entry). A lone entry is carried out at once; then the consumer waits
    OUTBOX_LINGER_SECONDS before it reads again, and what came meanwhile is one batch."""
    players, games = services
    me, friend = (players.register(name)["id"] for name in ("Ada", "Bo"))
    players.set_friends(friend, [me])
    while worker.outbox_step():  # what the sign-ups caused
        pass
    monkeypatch.setattr(worker_process, "OUTBOX_LINGER_SECONDS", 3.0)
    batches: list[int] = []
    begin = worker.consequences.begin

    def counted(entries):
        batches.append(len(entries))
        return begin(entries)

    monkeypatch.setattr(worker.consequences, "begin", counted)
    games.create(me, "nautilus", [me, friend])
    step = threading.Thread(target=worker.outbox_step)
    step.start()
    for _ in range(200):
        if batches:
            break
        step.join(0.02)
    assert batches == [1], "a lone entry is carried out at once"
    for _ in range(5):
        games.create(me, "nautilus", [me, friend])
    assert step.is_alive(), "the consumer lingers after a small batch"
    step.join()
    assert worker.outbox_step()
    assert batches == [1, 5]


@pytest.mark.slow
def test_a_bot_that_moves_in_a_batch_moves_once_and_the_game_goes_on(
    services, worker, redis_client
):
    """Bots move from the consumer's entries: a bot's move in a batch makes the game's
    snapshot of the batch stale, so the later entries of that game read it again."""
    players, games = services
    me = players.register("Ada")["id"]
    made = [games.create(me, "ninedomains", [me, "bot:heuristic"])["id"] for _ in range(GAMES)]
    picker = Rng(b"outbox batches" + bytes(32))
    for _ in range(400):
        while worker.outbox_step():
            pass
        waiting = [g for g in made if games.summary(g)["status"] != "finished"]
        if not waiting:
            break
        for game_id in waiting:
            summary = games.summary(game_id)
            assert 0 in summary["active_seats"], "the bot moved: it is my turn again"
            legal = games.legal_moves(game_id, me)
            games.play(
                game_id, me, legal["version"], action=picker.choice(legal["moves"])["action"]
            )
    else:
        pytest.fail("the games did not end")
    for game_id in made:
        versions = [e["version"] for e in games.games.events(game_id)]
        assert versions == list(range(1, len(versions) + 1))


@pytest.mark.slow  # over a second: not in make test-fast
def test_an_entry_whose_writes_fail_stays_pending_alone(services, worker, redis_client):
    """A key of the wrong type (a bug, a hand edit) makes one person's stream of events
    refuse its write: the batch's last writes fail, its entries are carried out again one by
    one, and only the game of that person stays pending. The turn emails the batch queued
    before its writes failed, and queued again one by one, are queued once."""
    players, games = services
    pairs = friends_in_pairs(players, worker, 5)
    Queue(QUEUE_NAME, connection=redis_client).empty()
    made = [games.create(p, "nautilus", [p, q]) for p, q in pairs]
    poisoned = made[2]
    mover = poisoned["seats"][poisoned["active_seats"][0]]["player_id"]
    redis_client.set(keys.player_events(mover), "not a stream")
    assert worker.outbox_step()
    outbox = OutboxStore(redis_client)
    assert outbox.backlog()["waiting"] == 1
    left = outbox.claim_stale("another", 0, 10)
    assert [entry.game_id for entry in left] == [poisoned["id"]]
    for game in made:
        if game is not poisoned:
            player = game["seats"][game["active_seats"][0]]["player_id"]
            assert redis_client.xlen(keys.player_events(player)) == 1, "told once"
    jobs = Queue(QUEUE_NAME, connection=redis_client).jobs
    emailed = sorted(notice[1] for job in jobs for notice in job.args[0])
    assert emailed == sorted(game["id"] for game in made), "each game's turn email once"


@pytest.mark.slow  # waits for a process to stop
def test_a_stop_signal_before_rqs_loop_listens_stops_it_at_once(worker, redis_client):
    """SIGTERM while RQ's loop starts reaches the process's own handler, not RQ's: the loop
    must stop all the same, before it takes another job (rather than wait for jobs until
    another signal)."""
    jobs = Queue(QUEUE_NAME, connection=redis_client)
    jobs.enqueue("builtins.len", [1, 2])
    rq = _InProcessWorker([jobs], connection=redis_client)
    rq.process_stop = threading.Event()
    rq.process_stop.set()  # as the process's handler does
    rq.work(burst=True, logging_level="WARNING")  # burst: without the stop, it runs the job
    assert jobs.count == 1, "RQ's loop took a job after the stop"


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_batch_waits_between_its_entries_while_the_clock_works(services, worker, redis_client):
    """The clock takes due items while the outbox consumer is in the middle of a batch: the
    batch waits before its next entry until the clock is done, as a new batch does."""
    players, games = services
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])
    while worker.outbox_step():  # what the sign-ups caused
        pass
    for _ in range(3):
        games.create(a, "nautilus", [a, b])
    carried = []
    carry_out = worker.consequences.carry_out

    def clock_takes_items_meanwhile(entry, batch=None):
        if not carried:
            worker.clock_busy.set()
        carried.append(entry)
        return carry_out(entry, batch)

    worker.consequences.carry_out = clock_takes_items_meanwhile
    step = threading.Thread(target=worker.outbox_step)
    step.start()
    while not carried:
        time.sleep(0.01)
    time.sleep(0.5)
    assert len(carried) == 1, "the batch went on while the clock worked"
    worker.clock_busy.clear()
    step.join(10)
    assert not step.is_alive() and len(carried) == 3
    assert pending(redis_client) == 0


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_batch_waits_for_redis_three_times_before_its_entries(
    services, worker, redis_client, round_trips
):
    """Consequences.begin: the games' facts; their lists; the entries' events with the
    seated people's profiles and push devices, in one read."""
    players, games = services
    pairs = friends_in_pairs(players, worker, 3)
    made = [games.create(p, "nautilus", [p, q]) for p, q in pairs]
    entries = worker.outbox.read(worker.name, 100, 1)
    assert len(entries) == len(made)
    round_trips[0] = 0
    batch = worker.consequences.begin(entries)
    assert round_trips[0] == 3
    for game in made:
        assert set(batch.contacts[game["id"]]) == {0, 1}
        assert all(contact.email for contact in batch.contacts[game["id"]].values())
        assert batch.began[(game["id"], 1)], "the game's events"


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_finished_games_count_and_compaction_go_with_the_batchs_writes(
    services, worker, redis_client, monkeypatch
):
    """The metrics' count of a finished game and its log's compaction date are written with
    the batch's other writes (one round trip), before its entries are acknowledged."""
    from redis.connection import Connection

    from store.schedule import member
    from store.tallies import WorkerTallies, field

    players, games = services
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])
    made = [games.create(a, "nautilus", [a, b])["id"] for _ in range(3)]
    while worker.outbox_step():  # what the sign-ups and the games' creation caused
        pass
    for game_id in made:
        games.resign(game_id, b)
    trips = []
    send = Connection.send_packed_command

    def kept(self, command, check_health=True):
        parts = [command] if isinstance(command, (bytes, str)) else command
        trips.append(b"".join(bytes(part) for part in parts))
        return send(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", kept)
    assert worker.outbox_step()
    monkeypatch.undo()
    assert pending(redis_client) == 0
    counted = [t for t in trips if keys.WORKER_TALLIES.encode() in t]
    assert len(counted) == 1 and b'"compact"' in counted[0], "one round trip, the batch's writes"
    tally = WorkerTallies(redis_client).read()
    assert tally[field("turnpost_games_finished_total", {"game": "nautilus"})] == 3
    for game_id in made:
        item = member({"kind": "compact", "game": game_id})
        assert redis_client.zscore(keys.schedule(keys.bucket_of(game_id)), item)
