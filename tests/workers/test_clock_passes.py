"""Issue 33: a clock pass never outlives its lease. A pass leases the due items it takes for
`SCHEDULE_LEASE_SECONDS`; an item still unfinished when that lease runs out is free for any
other clock to take again. So a pass takes only as many items as it can carry out well within
the lease, however many are due, and the next pass takes the next ones.

The worker's steps are taken here, on a clock of the test's: carrying out an item "takes"
ITEM_MS of that clock (a machine far slower than any we measured: at load 15, 5,843 items took
22.9 s, 4 ms each), and while a pass works a second clock takes its own passes, as another
`turnpost worker` does (its own pass taken at once)."""

from collections import Counter

import pytest

from service.play.games import GameService
from store import keys
from store.games import GameStore
from store.players import PlayerStore
from store.schedule import member
from workers import process
from workers.process import WorkerProcess

ITEM_MS = 30
MINUTE_MS = 60_000


def worker_on(valkey, now):
    worker = WorkerProcess({"REDIS_URL": valkey.url, "VACATION_DAYS_A_YEAR": "0"})
    worker.outbox.ensure_groups()
    worker.consequences.clock = worker.consequences.games.clock = lambda: now[0] / 1000
    return worker


@pytest.mark.slow
def test_a_pass_is_carried_out_within_its_lease_and_no_item_is_taken_twice(
    services, valkey, redis_client
):
    players, _ = services
    now = [1_900_000_000_000]
    games = GameService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        min_move_seconds=1,
        clock=lambda: now[0] / 1000,
    )
    a, b = players.register("Ada")["id"], players.register("Bo")["id"]
    players.set_friends(b, [a])
    # both seats of The Nine Domains choose at once: two deadlines a game, 3 passes' worth
    control = {"per_move_seconds": 60, "on_timeout": "auto"}
    game_ids = [
        games.create(a, "ninedomains", [a, b], time_control=control)["id"]
        for _ in range(3 * process.CLOCK_PASS_ITEMS // 2)
    ]
    now[0] += MINUTE_MS  # every deadline is due
    first, second = worker_on(valkey, now), worker_on(valkey, now)
    lease_ms = int(first.settings.schedule_lease_seconds * 1000)
    assert lease_ms < len(game_ids) * 2 * ITEM_MS, "all at once would outlive the lease"

    carried_out: Counter[str] = Counter()
    late: list[tuple[str, int]] = []  # (item, ms past its lease when carried out)

    def carrying_out(worker, rival):
        run_due = worker.consequences.run_due

        def slow_run_due(taken):
            held = [member(item) for bucket, item in taken]
            pipe = redis_client.pipeline()
            for (bucket, _), m in zip(taken, held):
                pipe.zscore(keys.schedule_leased(bucket), m)
            leases = pipe.execute()
            if rival is not None:  # this pass's work takes time; the other clock's pass
                now[0] += ITEM_MS * len(taken)  # runs meanwhile, on its own CPU
                rival.clock_step()
            late.extend((m, now[0] - int(until)) for m, until in zip(held, leases) if until)
            late.extend((m, -1) for m, until in zip(held, leases) if not until)  # taken over
            run_due(taken)
            carried_out.update(held)

        worker.consequences.run_due = slow_run_due

    carrying_out(first, second)
    carrying_out(second, None)
    passes = 0
    while first.clock_step():
        passes += 1
        assert passes < 100

    assert [m for m, ms in late if ms > 0 or ms == -1] == [], "carried out past the lease"
    timeouts = {m: n for m, n in carried_out.items() if '"kind":"timeout"' in m}
    assert [m for m, n in timeouts.items() if n > 1] == [], "taken by two clocks"
    assert len(timeouts) == 2 * len(game_ids)
    for game_id in game_ids:
        timed = [e["seat"] for e in games.games.events(game_id) if e["type"] == "TurnTimedOut"]
        assert sorted(timed) == [0, 1], game_id
