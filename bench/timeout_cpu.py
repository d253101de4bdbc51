"""Where the timers' time goes: CPU per due deadline (the clock's side) and per outbox entry
(what the timeouts cause, the computer's replacement moves under `auto`), in this one process
with no worker, so that the figures are CPU, not waiting for a share of a busy machine.

`python -m bench.timeout_cpu POLICY GAMES [--profile]`: creates GAMES games of The Nine
Domains (two deadlines each, all due within about a second, as bench.timers does), drains
the outbox entries of their creation unmeasured, then carries out the due deadlines with
Consequences.run_due (in the clock's batches) and, after them, every outbox entry they cause
(Consequences.carry_out, as the outbox consumer does). With --profile, cProfile's top
functions by own time over both parts.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from bench.timers import Bench
from service.assembly import assemble
from service.settings import Settings
from store.connection import connect
from store.embedded import EmbeddedValkey
from store.outbox import OutboxStore
from store.schedule import ScheduleStore
from workers.process import BATCH
from workers.queue import RQDeliveries

CONSUMER = "bench"


def drain(outbox: OutboxStore, carry_out) -> int:
    done = 0
    while entries := outbox.read(CONSUMER, BATCH, 10):
        for entry in entries:
            carry_out(entry)
        outbox.done(entries)
        done += len(entries)
    return done


def measure(policy: str, games: int, profiler: cProfile.Profile | None) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedValkey(Path(tmp)).start()
        try:
            bench = Bench(valkey)
            due_ms = int(time.time() * 1000) + 2000 + games * 30
            for _ in range(games):
                bench.create(policy, due_ms)
            client = connect(valkey.url)
            consequences = assemble(
                client, Settings(), deliveries=RQDeliveries(client)
            ).consequences
            schedule, outbox = ScheduleStore(client), OutboxStore(client)
            outbox.ensure_groups()
            drain(outbox, lambda entry: None)
            time.sleep(max(0.0, due_ms / 1000 + 1.1 - time.time()))
            if profiler:
                profiler.enable()
            cpu, wall = time.process_time(), time.perf_counter()
            items = 0
            while taken := schedule.take_due(int(time.time() * 1000), BATCH):
                consequences.run_due(taken)
                items += len(taken)
            clock_cpu, clock_wall = time.process_time() - cpu, time.perf_counter() - wall
            cpu, wall = time.process_time(), time.perf_counter()
            entries = drain(outbox, consequences.carry_out)
            outbox_cpu, outbox_wall = time.process_time() - cpu, time.perf_counter() - wall
            if profiler:
                profiler.disable()
        finally:
            valkey.stop()
    return (
        f"{policy}, {games} games: {items} due deadlines, clock CPU "
        f"{clock_cpu * 1000 / items:.3f} ms each (wall {clock_wall:.2f} s in all); "
        f"{entries} outbox entries, CPU {outbox_cpu * 1000 / entries:.3f} ms each "
        f"(wall {outbox_wall:.2f} s in all)"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.timeout_cpu",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("policy", choices=("forfeit", "auto"))
    parser.add_argument("games", type=int)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    profiler = cProfile.Profile() if args.profile else None
    print(measure(args.policy, args.games, profiler))
    if profiler:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main(sys.argv[1:])
